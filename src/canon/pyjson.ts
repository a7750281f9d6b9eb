/**
 * `pyjson`: the digest serialization of the aac-cll-scitt/v1 profile — the UTF-8 bytes of Python
 * `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`.
 *
 * It differs from RFC 8785 JCS in three ways that matter: members sort by code point (not UTF-16
 * unit), every character outside U+0020–U+007E is escaped as lowercase `\uXXXX` (DEL included,
 * astral characters as surrogate pairs), and numbers are Python's, not ECMAScript's. Nulls are
 * kept. Used for evidenceId, coreManifestDigest and the CLL checkpoint signing body.
 *
 * Numbers are written by their original lexeme, so a payload is hashed exactly as the producer
 * wrote it. A lexeme Python would not have printed for an integer (a fraction, an exponent,
 * `-0`) is still written as received, and its path is returned in `numberFlags` so the caller can
 * refuse or flag it rather than guess.
 */
import type { JsonValue } from "../json/value.js";
import { ok, type Result } from "../result.js";
import { escapeUnit, serialize, type Dialect } from "./serialize.js";

export interface PyjsonOutput {
  /** The serialization; pure ASCII by construction. */
  readonly text: string;
  /** Paths of numbers whose lexeme is not a Python integer literal (floats, exponents, `-0`). */
  readonly numberFlags: readonly string[];
}

export function pyjson(value: JsonValue): Result<PyjsonOutput> {
  const numberFlags: string[] = [];
  const text = serialize(value, PYJSON, numberFlags);
  if (!text.ok) return text;
  return ok({ text: text.value, numberFlags });
}

const PYJSON: Dialect = {
  compareKeys: compareCodePoints,
  string: pyString,
  number: (n, at, flags) => {
    if (!PY_INTEGER.test(n.lexeme)) flags.push(at());
    return n.lexeme;
  },
  names: new Map(),
};

const PY_INTEGER = /^(?:0|-?[1-9][0-9]*)$/;

/** Python's `str` ordering: by Unicode code point (JavaScript's default is by UTF-16 unit). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Code unit order equals code point order except when a surrogate (an astral character)
    // meets a BMP unit at or above U+E000: then the astral character is the larger.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (xs ? y >= 0xe000 : x >= 0xe000)) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Python `json.dumps` string form with ensure_ascii: `\uXXXX` (lowercase) outside U+0020–U+007E. */
export function pyString(s: string): string {
  // Most strings need no escape: one native scan decides. Otherwise ECMAScript's JSON string form
  // is Python's for every unit below U+007F (the same short escapes, lowercase `\u00XX` for the
  // other controls, lone surrogates as `\udXXX`), and what is left to escape is U+007F and above.
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  return JSON.stringify(s).replace(NON_ASCII, (c) => escapeUnit(c.charCodeAt(0)));
}

const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;
const NON_ASCII = /[\u007f-\uffff]/g;
