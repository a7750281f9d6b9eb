/** What every area of the explanation shares: bytes as shown, capped lists, failures. */
import { MAX_LISTED } from "../json/diff.js";
import { textOfParts, type A2APart } from "../input/a2a.js";
import type { Failure } from "../result.js";
import { bytesToHex, sha256Hex, sha256HexOfText, utf8 } from "../util/bytes.js";
import type { Bytes, InspectOptions, Listed, MmrFoldStep, ObservedText, StepFailure } from "./model.js";

export const hex = bytesToHex;

/** Binary bytes (CBOR): length and SHA-256; with --bytes (or `always`), the hex too. */
export function binary(b: Uint8Array, o: InspectOptions, always = false): Bytes {
  return { length: b.length, sha256: sha256Hex(b), ...(o.bytes || always ? { hex: bytesToHex(b) } : {}) };
}

/** What an observed Message's or Artifact's commitment is over; `prefix` names a --task file's paths. */
export function observedText(at: string, parts: readonly A2APart[], prefix: string, o: InspectOptions): ObservedText {
  const t = textOfParts(parts);
  return {
    at: `${prefix}${at}`,
    textParts: t.textParts,
    otherParts: t.otherParts,
    recomputed: sha256HexOfText(t.text),
    ...(o.bytes ? { text: t.text } : {}),
  };
}

/** One fold of an MMR climb, as an inclusion or consistency proof's trace reports it. */
export function foldStep(
  position: number,
  sibling: Uint8Array,
  siblingIsLeft: boolean,
  result: Uint8Array,
): MmrFoldStep {
  return { position, sibling: hex(sibling), siblingSide: siblingIsLeft ? "left" : "right", result: hex(result) };
}

/** Text hashed as its UTF-8 bytes: length and SHA-256; with --bytes (or `always`), the text too. */
export function text(s: string, o: InspectOptions, always = false): Bytes {
  const b = utf8(s);
  return { length: b.length, sha256: sha256Hex(b), ...(o.bytes || always ? { text: s } : {}) };
}

/**
 * The first items of a list, mapped, and how many were left out: only the shown items are
 * computed, so a hostile input with thousands of entries costs no more than twenty.
 */
export function listed<T, U>(items: readonly T[], o: InspectOptions, f: (item: T, index: number) => U): Listed<U> {
  const cap = o.all ? items.length : Math.min(items.length, MAX_LISTED);
  const out: U[] = [];
  for (let i = 0; i < cap; i++) out.push(f(items[i] as T, i));
  return { items: out, omitted: items.length - cap };
}

export function stepFailure(f: Failure): StepFailure {
  return f.path !== undefined ? { code: f.code, detail: f.detail, path: f.path } : { code: f.code, detail: f.detail };
}

/** A step that cannot be taken because a value has the wrong type, with its path (no failure code). */
export function malformed(detail: string, path: string): StepFailure {
  return { detail, path };
}
