import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonValue } from "../../src/json/value.js";
import { copyObject, jcsBytes, jsonObject, jsonText, pyjsonBytes, pythonFloat } from "../../producer/json-text.js";
import { arrayAt, flipHexDigit, flipHexMember, flipLastBase64Byte, objectAt } from "../../producer/mutations.js";
import { codeOf } from "./code-of.js";

describe("jsonText", () => {
  it("indents by two spaces, sorts members by code point and keeps number lexemes", () => {
    const value = jsonObject({ b: [1, { z: null, a: true }], a: new JsonNumber("60.0"), e: [], o: {} });
    expect(jsonText(value)).toBe(
      '{\n  "a": 60.0,\n  "b": [\n    1,\n    {\n      "a": true,\n      "z": null\n    }\n  ],\n  "e": [],\n  "o": {}\n}\n',
    );
    // Python's sort_keys orders by code point: U+E000 before U+1F600 (UTF-16 order would invert them).
    expect(jsonText(jsonObject({ "😀": 2, "\ue000": 1 }))).toBe('{\n  "\ue000": 1,\n  "😀": 2\n}\n');
  });

  it("keeps insertion order when asked", () => {
    expect(jsonText(jsonObject({ z: 1, a: 2 }), { sortKeys: false })).toBe('{\n  "z": 1,\n  "a": 2\n}\n');
  });

  it("writes non-ASCII as raw UTF-8 (U+2028 too) and escapes controls minimally", () => {
    expect(jsonText('é\u2028"\\\n\u0001')).toBe('"é\u2028\\"\\\\\\n\\u0001"\n');
  });

  it("refuses a lone surrogate with PRODUCER_CANONICALIZATION", () => {
    expect(codeOf(() => jsonText("\ud800"))).toBe("PRODUCER_CANONICALIZATION");
    expect(codeOf(() => jsonText(jsonObject({ ["\udc00"]: 1 })))).toBe("PRODUCER_CANONICALIZATION");
  });
});

describe("digest preimages", () => {
  it("pyjson escapes non-ASCII; JCS keeps it raw", () => {
    const v = jsonObject({ name: "é" });
    expect(new TextDecoder().decode(pyjsonBytes(v))).toBe('{"name":"\\u00e9"}');
    expect(new TextDecoder().decode(jcsBytes(v))).toBe('{"name":"é"}');
  });

  it("refuses what the canonicalizations refuse, with PRODUCER_CANONICALIZATION", () => {
    let deep: JsonValue = [];
    for (let i = 0; i < 300; i++) deep = [deep];
    expect(codeOf(() => pyjsonBytes(deep))).toBe("PRODUCER_CANONICALIZATION");
    expect(codeOf(() => jcsBytes(jsonObject({ f: new JsonNumber("1.5") })))).toBe("PRODUCER_CANONICALIZATION");
  });
});

describe("pythonFloat", () => {
  it("prints whole numbers as Python does (60 → 60.0) and plain decimals as they are", () => {
    expect(pythonFloat(60).lexeme).toBe("60.0");
    expect(pythonFloat(2.5).lexeme).toBe("2.5");
    expect(pythonFloat(-3).lexeme).toBe("-3.0");
  });

  it.each([1e-7, 1e16, -0, Number.NaN, Number.POSITIVE_INFINITY])(
    "refuses %s, whose Python form differs or does not exist",
    (n) => {
      expect(codeOf(() => pythonFloat(n))).toBe("PRODUCER_INVALID_OPTION");
    },
  );
});

describe("copyObject", () => {
  it("copies deeply, so changing the copy leaves the original", () => {
    const original = jsonObject({ a: { b: [1] } });
    const copy = copyObject(original);
    objectAt(copy, "a").b = [];
    expect(jsonText(original)).toBe('{\n  "a": {\n    "b": [\n      1\n    ]\n  }\n}\n');
  });
});

describe("mutations", () => {
  it("flips one hex digit", () => {
    expect(flipHexDigit("a0")).toBe("b0");
    expect(flipHexDigit("a0", 1)).toBe("a1");
    expect(codeOf(() => flipHexDigit("zz"))).toBe("PRODUCER_INVALID_OPTION");
    expect(codeOf(() => flipHexDigit("ab", 2))).toBe("PRODUCER_INVALID_OPTION");
  });

  it("flips a hex digit of a string member, counting from the end for a negative index", () => {
    const o = jsonObject({ h: "00ff", n: 1 });
    flipHexMember(o, "h");
    expect(o.h).toBe("10ff");
    flipHexMember(o, "h", -1);
    expect(o.h).toBe("10fe");
    expect(codeOf(() => flipHexMember(o, "n"))).toBe("PRODUCER_INVALID_OPTION");
  });

  it("flips the last byte under standard base64", () => {
    expect(flipLastBase64Byte("AAE=")).toBe("AAA=");
    expect(codeOf(() => flipLastBase64Byte("AA-="))).toBe("PRODUCER_INVALID_OPTION");
    expect(codeOf(() => flipLastBase64Byte(""))).toBe("PRODUCER_INVALID_OPTION");
  });

  it("finds nested objects and arrays, and refuses a path that is not there", () => {
    const v = jsonObject({ a: [{ b: [1] }] });
    expect(arrayAt(v, "a", 0, "b")).toHaveLength(1);
    expect(codeOf(() => objectAt(v, "a", 1))).toBe("PRODUCER_INVALID_OPTION");
    expect(codeOf(() => objectAt(v, "x"))).toBe("PRODUCER_INVALID_OPTION");
    expect(codeOf(() => arrayAt(v, "a", 0, "c"))).toBe("PRODUCER_INVALID_OPTION");
  });
});
