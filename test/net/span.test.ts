import { describe, expect, it } from "vitest";
import { valueBytesAt } from "../../src/net/span.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

describe("valueBytesAt: the exact bytes of a member's value", () => {
  it("keeps lexemes, escapes and whitespace inside the value; skips strings that look like structure", () => {
    const doc =
      ' { "a\\"}" : "x\\\\\\"{[", "result" : { "task" : {"n": 60.0, "s": "é\\u00e9}\\"", "l": [1, {"}": "]"}]} } , "z": null }';
    expect(text(valueBytesAt(bytes(doc), ["result", "task"]))).toBe(
      '{"n": 60.0, "s": "é\\u00e9}\\"", "l": [1, {"}": "]"}]}',
    );
    expect(text(valueBytesAt(bytes(doc), ["z"]))).toBe("null");
    expect(text(valueBytesAt(bytes(doc), ['a"}']))).toBe('"x\\\\\\"{["');
  });

  it("a missing member, or a path through a non-object, is undefined", () => {
    expect(valueBytesAt(bytes('{"a":1}'), ["b"])).toBeUndefined();
    expect(valueBytesAt(bytes('{"a":[{"b":1}]}'), ["a", "b"])).toBeUndefined();
    expect(valueBytesAt(bytes('{"a":{"b":2}}'), ["b"])).toBeUndefined();
  });

  it("a leading byte order mark is skipped, as the strict parser skips it", () => {
    expect(text(valueBytesAt(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('{"result":{"id":"t"}}')]), ["result"]))).toBe(
      '{"id":"t"}',
    );
  });

  it("numbers and literals end at the delimiter", () => {
    expect(text(valueBytesAt(bytes('{"a":-1.5e+3,"b":true}'), ["a"]))).toBe("-1.5e+3");
    expect(text(valueBytesAt(bytes('{"a":-1.5e+3 ,"b":true}'), ["b"]))).toBe("true");
  });
});
