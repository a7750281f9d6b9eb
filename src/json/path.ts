/**
 * JSON paths for diagnostics, in the form `result.artifacts[1].parts[0].raw`. Member names that
 * are not plain identifiers are quoted: `metadata["https://example/ext/v1"]`. The root is `$`.
 */

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function formatPath(segments: readonly PathSegment[]): string {
  let out = "";
  for (const seg of segments) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out === "" ? "$" : out;
}

/** Appends segments to an already formatted path. */
export function joinPath(base: string, ...segments: PathSegment[]): string {
  // The usual call appends one plain member or index to a formatted path: no array walk.
  if (segments.length === 1 && base !== "$" && base !== "") {
    const seg = segments[0] as PathSegment;
    if (typeof seg === "number") return `${base}[${seg}]`;
    if (IDENTIFIER.test(seg)) return `${base}.${seg}`;
  }
  const tail = formatPath(segments);
  if (base === "$" || base === "") return tail;
  if (tail === "$") return base;
  return tail.startsWith("[") ? base + tail : `${base}.${tail}`;
}
