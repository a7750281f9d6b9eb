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
