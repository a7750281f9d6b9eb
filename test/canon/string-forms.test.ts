/**
 * The string forms of both digest serializations take a native shortcut; here they are compared,
 * unit by unit, with the plain definitions: pyjson escapes every unit outside U+0020–U+007E as
 * lowercase `\uXXXX` (the short forms where JSON has them), JCS escapes only `"`, `\` and the
 * controls below U+0020 and refuses a lone surrogate.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pyString } from "../../src/canon/pyjson.js";
import { jcsString } from "../../src/canon/jcs.js";

const SHORT: Record<number, string> = {
  0x22: '\\"',
  0x5c: "\\\\",
  0x08: "\\b",
  0x0c: "\\f",
  0x0a: "\\n",
  0x0d: "\\r",
  0x09: "\\t",
};
const escape = (c: number) => SHORT[c] ?? "\\u" + c.toString(16).padStart(4, "0");

function pyReference(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c ? String.fromCharCode(c) : escape(c);
  }
  return out + '"';
}

function jcsReference(s: string): string | undefined {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return undefined;
      out += s.slice(i, i + 2);
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return undefined;
    else out += c >= 0x20 && c !== 0x22 && c !== 0x5c ? String.fromCharCode(c) : escape(c);
  }
  return out + '"';
}

/** Strings drawn from the units where the rules differ: controls, quote, backslash, DEL, surrogates. */
const UNITS = [
  0x00, 0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1f, 0x20, 0x21, 0x22, 0x5c, 0x7e, 0x7f, 0x80, 0xe9, 0x2028, 0xd7ff, 0xd800,
  0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfeff, 0xffff, 0x41,
];
const tricky = fc.array(fc.constantFrom(...UNITS), { maxLength: 24 }).map((us) => String.fromCharCode(...us));
const any = fc.oneof(
  tricky,
  fc.string({ unit: "binary", maxLength: 24 }),
  fc.string({ unit: "grapheme", maxLength: 24 }),
);

describe("string forms", () => {
  it("pyjson's equals the unit-by-unit definition", () => {
    fc.assert(
      fc.property(any, (s) => {
        expect(pyString(s)).toBe(pyReference(s));
      }),
      { numRuns: 5000, seed: 1 },
    );
  });
  it("JCS's equals the unit-by-unit definition, and refuses exactly the lone surrogates", () => {
    fc.assert(
      fc.property(any, (s) => {
        expect(jcsString(s)).toBe(jcsReference(s));
      }),
      { numRuns: 5000, seed: 2 },
    );
  });
  it("every single unit, alone and between letters", () => {
    for (let c = 0; c <= 0xffff; c++) {
      for (const s of [String.fromCharCode(c), `a${String.fromCharCode(c)}b`]) {
        expect(pyString(s)).toBe(pyReference(s));
        expect(jcsString(s)).toBe(jcsReference(s));
      }
    }
  });
  it("a well-formed astral pair and a reversed one", () => {
    expect(pyString("\u{1F600}")).toBe('"\\ud83d\\ude00"');
    expect(jcsString("\u{1F600}")).toBe('"\u{1F600}"');
    expect(jcsString("\ude00\ud83d")).toBeUndefined();
  });
});
