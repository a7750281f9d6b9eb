/**
 * Member order against the plain definition for names that an ordinary object does not keep in
 * insertion order (integer-like names come first, in numeric order), names near the integer-index
 * bound, inherited-looking names, and objects parsed from text (the path real inputs take).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareCodePoints, pyjson, pyString } from "../../src/canon/pyjson.js";
import { jcs, jcsString } from "../../src/canon/jcs.js";
import { newJsonObject, type JsonObject } from "../../src/json/value.js";

const ODD_NAMES = [
  "0",
  "1",
  "2",
  "9",
  "10",
  "11",
  "100",
  "01",
  "-1",
  "1.0",
  "1e3",
  " 1",
  "4294967294",
  "4294967295",
  "4294967296",
  "9007199254740993",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "",
  "a",
  "A",
  "\u0000",
  "\u007f",
  "\u00ff",
  "\ud7ff",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\ue000",
  "\uffff",
  "\ud83d\ude00",
  "\udbff\udfff",
  "\ud800\udc00",
  "1\ud800\udc00",
  "1\uffff",
];
const unit = fc.constantFrom(...ODD_NAMES);
const name = fc.oneof(
  unit,
  fc.array(unit, { maxLength: 3 }).map((u) => u.join("")),
  fc.nat(200).map(String),
  fc.string({ unit: "grapheme", maxLength: 3 }),
  fc.string({ unit: "binary", maxLength: 3 }),
);

function objectOf(names: readonly string[]): JsonObject {
  const o = newJsonObject();
  names.forEach((n, i) => (o[n] = String(i)));
  return o;
}

function reference(o: JsonObject, compare: ((a: string, b: string) => number) | undefined, str: (s: string) => string) {
  const keys = Object.keys(o).sort(compare);
  return `{${keys.map((k) => `${str(k)}:${str(o[k] as string)}`).join(",")}}`;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** An independent code point comparison: by the strings' code point sequences. */
function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

describe("member order, adversarial names", () => {
  it("matches the definition for integer-like, inherited-looking and surrogate names, 0..40 members", () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 0, maxLength: 40 }), (names) => {
        const o = objectOf(names);
        const p = pyjson(o);
        const j = jcs(o);
        expect(p.ok).toBe(true);
        if (p.ok) {
          expect(p.value.text).toBe(reference(o, compareCodePoints, pyString));
          // compareCodePoints puts a lone surrogate above U+E000..U+FFFF, as if it were astral;
          // the strict parser refuses lone surrogates, so only well-formed names are held to
          // the code point sequence.
          if (names.every((n) => !LONE_SURROGATE.test(n)))
            expect(p.value.text).toBe(reference(o, byCodePoints, pyString));
        }
        // JCS refuses lone surrogates; where it does not, the order is by UTF-16 unit.
        if (j.ok) expect(j.value).toBe(reference(o, undefined, (s) => jcsString(s) as string));
      }),
      { numRuns: 3000 },
    );
  });

  it("sorts integer-like names, which Object.keys lists numerically, as text", () => {
    for (const n of [3, 15, 16, 17, 30]) {
      const names = Array.from({ length: n }, (_, i) => String(i));
      const o = objectOf(names);
      const want = [...names].sort();
      const p = pyjson(o);
      expect(p.ok && p.value.text).toBe(`{${want.map((k) => `"${k}":"${names.indexOf(k)}"`).join(",")}}`);
      expect(jcs(o)).toEqual({ ok: true, value: `{${want.map((k) => `"${k}":"${names.indexOf(k)}"`).join(",")}}` });
    }
  });
});
