/**
 * Both digest serializations write an object's members in their dialect's order: pyjson by code
 * point, JCS by UTF-16 code unit. Small objects are sorted in place and larger ones by
 * `Array.prototype.sort`; here the output is compared with the plain definition (every member
 * name sorted by `sort` with the dialect's comparison) for objects of every size around the
 * switch, in every order, with names that put surrogates beside the units above U+E000 (where the
 * two orders differ).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareCodePoints, pyjson, pyString } from "../../src/canon/pyjson.js";
import { jcs, jcsString } from "../../src/canon/jcs.js";
import { newJsonObject, type JsonObject } from "../../src/json/value.js";

/** Names from a small alphabet, so that prefixes, equal starts and both orders' split all occur. */
const NAME_UNITS = ["a", "b", "B", "0", "~", "\u00e9", "\ue000", "\uffff", "\ud83d\ude00", "\ud800\udc00"];
const name = fc.array(fc.constantFrom(...NAME_UNITS), { maxLength: 4 }).map((u) => u.join(""));

function objectOf(names: readonly string[]): JsonObject {
  const o = newJsonObject();
  names.forEach((n, i) => (o[n] = String(i)));
  return o;
}

/** The definition: every member, in the order `sort` gives with the dialect's comparison. */
function reference(o: JsonObject, compare: ((a: string, b: string) => number) | undefined, str: (s: string) => string) {
  const keys = Object.keys(o).sort(compare);
  return `{${keys.map((k) => `${str(k)}:${str(o[k] as string)}`).join(",")}}`;
}

const py = (o: JsonObject) => {
  const r = pyjson(o);
  if (!r.ok) throw new Error(r.detail);
  return r.value.text;
};
const jc = (o: JsonObject) => {
  const r = jcs(o);
  if (!r.ok) throw new Error(r.detail);
  return r.value;
};

describe("member order", () => {
  it("is the dialect's order for objects of every size, in every order", () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 0, maxLength: 40 }), (names) => {
        const o = objectOf(names);
        expect(py(o)).toBe(reference(o, compareCodePoints, (s) => pyString(s)));
        expect(jc(o)).toBe(reference(o, undefined, (s) => jcsString(s) as string));
      }),
      { numRuns: 2000 },
    );
  });

  it("differs between the dialects where a surrogate meets a unit above U+E000", () => {
    const o = objectOf(["\uffff", "\ud83d\ude00", "a"]);
    expect(py(o)).toBe('{"a":"2","\\uffff":"0","\\ud83d\\ude00":"1"}');
    expect(jc(o)).toBe('{"a":"2","\ud83d\ude00":"1","\uffff":"0"}');
  });

  it("sorts names given in reverse, sorted and shuffled order, on both sides of the switch", () => {
    for (const n of [0, 1, 2, 15, 16, 17, 18, 64]) {
      const names = Array.from({ length: n }, (_, i) => `k${String(i).padStart(3, "0")}`);
      const sorted = `{${names.map((k) => `"${k}":"${names.indexOf(k)}"`).join(",")}}`;
      for (const order of [names, [...names].reverse(), names.map((_, i) => names[(i * 7) % n] as string)]) {
        expect(new Set(order).size).toBe(n);
        const o = newJsonObject();
        for (const k of order) o[k] = String(names.indexOf(k));
        expect(py(o)).toBe(sorted);
        expect(jc(o)).toBe(sorted);
      }
    }
  });
});

/**
 * Names that an ordinary object does not keep in insertion order (integer-like names come first,
 * in numeric order), names near the integer-index bound, inherited-looking names, and lone
 * surrogates.
 */
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
const oddUnit = fc.constantFrom(...ODD_NAMES);
const oddName = fc.oneof(
  oddUnit,
  fc.array(oddUnit, { maxLength: 3 }).map((u) => u.join("")),
  fc.nat(200).map(String),
  fc.string({ unit: "grapheme", maxLength: 3 }),
  fc.string({ unit: "binary", maxLength: 3 }),
);

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
      fc.property(fc.uniqueArray(oddName, { minLength: 0, maxLength: 40 }), (names) => {
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
