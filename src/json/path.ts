/**
 * JSON paths for diagnostics, in the form `result.artifacts[1].parts[0].raw`. Member names that
 * are not plain identifiers are quoted: `metadata["https://example/ext/v1"]`. The root is `$`.
 */

import { ownString } from "../util/own-string.js";

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Whether each member name seen is a plain identifier. Paths are made for every Part, Message and
 * Artifact read, from a few dozen names, most of them literals of this code: a lookup is cheaper
 * than the regular expression. Bounded, as names also come from the input.
 */
const identifiers = new Map<string, boolean>();
const MAX_REMEMBERED = 1024;

function isIdentifier(name: string): boolean {
  let plain = identifiers.get(name);
  if (plain === undefined) {
    plain = IDENTIFIER.test(name);
    // Kept for the run: a copy, which holds nothing of the input's text the name was read from.
    if (identifiers.size < MAX_REMEMBERED) identifiers.set(ownString(name), plain);
  }
  return plain;
}

/** `path` (formatted; "" for the root) with the segments appended. */
function appended(path: string, segments: readonly PathSegment[]): string {
  let out = path;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as PathSegment;
    if (typeof seg === "number") out += `[${seg}]`;
    else if (isIdentifier(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out === "" ? "$" : out;
}

export function formatPath(segments: readonly PathSegment[]): string {
  return appended("", segments);
}

/** Appends segments to an already formatted path. */
export function joinPath(base: string, ...segments: PathSegment[]): string {
  return appended(base === "$" ? "" : base, segments);
}
