import { describe, expect, it } from "vitest";
import { parseStrictJson, roundTrips, sameDecimal } from "../../src/json/strict-json.js";
import { JsonNumber, isJsonObject, member } from "../../src/json/value.js";

function parse(text: string) {
  return parseStrictJson(text);
}

function failure(text: string | Uint8Array, limits?: { maxBytes: number; maxDepth: number }) {
  const r = parseStrictJson(text, limits);
  if (r.ok) throw new Error(`expected a failure for ${String(text)}`);
  return r;
}

describe("strict JSON", () => {
  it("keeps number lexemes", () => {
    const r = parse('{"a":60.0,"b":1e2,"c":-0,"d":9007199254740991}');
    expect(r.ok).toBe(true);
    if (!r.ok || !isJsonObject(r.value)) return;
    expect((member(r.value, "a") as JsonNumber).lexeme).toBe("60.0");
    expect((member(r.value, "b") as JsonNumber).lexeme).toBe("1e2");
    expect((member(r.value, "c") as JsonNumber).lexeme).toBe("-0");
    expect((member(r.value, "d") as JsonNumber).lexeme).toBe("9007199254740991");
  });

  it("rejects duplicate member names with the path of the duplicate", () => {
    const r = failure('{"x":{"a":1,"a":2}}');
    expect(r.code).toBe("JSON_DUPLICATE_MEMBER");
    expect(r.path).toBe("x.a");
  });

  it("treats escaped and literal spellings of one name as duplicates", () => {
    expect(failure('{"a":1,"\\u0061":2}').code).toBe("JSON_DUPLICATE_MEMBER");
  });

  it("finds a duplicate only among the object's own members, whatever the names", () => {
    const names = ["constructor", "toString", "hasOwnProperty", "__proto__", "valueOf", "__defineGetter__"];
    const r = parse(`{${names.map((n, i) => `"${n}":${i}`).join(",")}}`);
    expect(r.ok).toBe(true);
    if (!r.ok || !isJsonObject(r.value)) return;
    expect(Object.keys(r.value)).toEqual(names);
    for (const n of names) {
      const twice = failure(`{"a":0,"${n}":1,"${n}":2}`);
      expect(twice.code).toBe("JSON_DUPLICATE_MEMBER");
      expect(twice.path).toBe(n);
    }
  });

  it("keeps a member named __proto__ as an ordinary member", () => {
    const r = parse('{"__proto__":{"polluted":true}}');
    expect(r.ok).toBe(true);
    if (!r.ok || !isJsonObject(r.value)) return;
    expect(Object.keys(r.value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("inherits no member: constructor, toString and hasOwnProperty are absent unless the input has them", () => {
    const r = parse('{"constructor":1,"a":{}}');
    expect(r.ok).toBe(true);
    if (!r.ok || !isJsonObject(r.value)) return;
    const inner = member(r.value, "a");
    if (!isJsonObject(inner)) throw new Error("expected an object");
    for (const name of ["constructor", "toString", "hasOwnProperty", "__proto__", "valueOf"])
      expect(name in inner, name).toBe(false);
    expect((member(r.value, "constructor") as JsonNumber).lexeme).toBe("1");
    // The one prototype every parsed object shares is empty, has none itself, and cannot be changed.
    const base = Object.getPrototypeOf(inner) as object;
    expect(Object.getPrototypeOf(base)).toBeNull();
    expect(Reflect.ownKeys(base)).toEqual([]);
    expect(Object.isFrozen(base)).toBe(true);
    expect(Object.getPrototypeOf(r.value)).toBe(base);
    expect(() => {
      (base as Record<string, unknown>).polluted = true;
    }).toThrow(TypeError);
  });

  it("rejects numbers that cannot round-trip", () => {
    expect(failure("9007199254740993").code).toBe("JSON_LOSSY_NUMBER");
    expect(failure("[1e400]").code).toBe("JSON_LOSSY_NUMBER");
    expect(failure('{"n":0.10000000000000000000001}').path).toBe("n");
    expect(roundTrips("9007199254740992")).toBe(true);
    expect(roundTrips("0.95")).toBe(true);
    expect(roundTrips("1.5e-7")).toBe(true);
  });

  it("sameDecimal: one value however written, compared exactly", () => {
    for (const [a, b] of <[string, string][]>[
      ["60", "60.0"],
      ["60", "6e1"],
      ["60.50", "60.5"],
      ["1e+16", "10000000000000000"],
      ["0", "-0.0"],
      ["0.1", "1e-1"],
    ])
      expect([a, b, sameDecimal(a, b)]).toEqual([a, b, true]);
    for (const [a, b] of <[string, string][]>[
      ["60", "61"],
      ["60", "60.5"],
      ["0.1", "0.10000000000000001"],
      ["9007199254740992", "9007199254740993"],
      ["-1", "1"],
      ["60", "sixty"],
    ])
      expect([a, b, sameDecimal(a, b)]).toEqual([a, b, false]);
  });

  it("rejects lone surrogates, raw or escaped", () => {
    expect(failure('"\\ud800"').code).toBe("JSON_LONE_SURROGATE");
    expect(failure('"\\udc00\\ud800"').code).toBe("JSON_LONE_SURROGATE");
    expect(failure('"\ud800x"').code).toBe("JSON_LONE_SURROGATE");
    const pair = parse('"\\ud83d\\ude00"');
    expect(pair.ok && pair.value).toBe("😀");
  });

  it("rejects invalid UTF-8 with the byte offset", () => {
    const r = failure(new Uint8Array([0x22, 0x61, 0xc3, 0x28, 0x22]));
    expect(r.code).toBe("JSON_INVALID_UTF8");
    expect(r.offset).toBe(2);
    expect(failure(new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22])).code).toBe("JSON_INVALID_UTF8");
  });

  it("rejects raw control characters in strings", () => {
    expect(failure('"a\tb"').code).toBe("JSON_CONTROL_CHARACTER");
  });

  it("caps nesting depth and size", () => {
    expect(failure("[".repeat(65) + "]".repeat(65)).code).toBe("JSON_TOO_DEEP");
    expect(parse("[".repeat(64) + "]".repeat(64)).ok).toBe(true);
    expect(failure("[1, 2, 3]", { maxBytes: 4, maxDepth: 8 }).code).toBe("JSON_TOO_LARGE");
  });

  it("reports syntax errors and trailing data", () => {
    expect(failure("").code).toBe("JSON_SYNTAX");
    expect(failure("{'a':1}").code).toBe("JSON_SYNTAX");
    expect(failure("[1,]").code).toBe("JSON_SYNTAX");
    expect(failure("01").code).toBe("JSON_SYNTAX");
    expect(failure("1.").code).toBe("JSON_SYNTAX");
    expect(failure('{"a":1} {"b":2}').code).toBe("JSON_TRAILING_DATA");
    expect(failure('"\\x41"').code).toBe("JSON_SYNTAX");
    expect(failure('{"a" 1}').path).toBe("$");
    expect(failure('{"a":[1,2,tru]}').path).toBe("a[2]");
  });

  it("names what may follow a member or an element: a comma or the bracket that closes it", () => {
    const at = (text: string) => {
      const r = failure(text);
      return [r.code, r.detail, r.path, r.offset];
    };
    expect(at('{"a":1 "b":2}')).toEqual(["JSON_SYNTAX", "unexpected '\"': expected ',' or '}'", "$", 7]);
    expect(at("[1 2]")).toEqual(["JSON_SYNTAX", "unexpected '2': expected ',' or ']'", "$", 3]);
    expect(at('{"a":[1,2}')).toEqual(["JSON_SYNTAX", "unexpected '}': expected ',' or ']'", "a", 9]);
    expect(at('[{"a":1]')).toEqual(["JSON_SYNTAX", "unexpected ']': expected ',' or '}'", "[0]", 7]);
    expect(at('{"a":1')).toEqual(["JSON_SYNTAX", "unexpected end of input: expected ',' or '}'", "$", 6]);
    expect(at("[1")).toEqual(["JSON_SYNTAX", "unexpected end of input: expected ',' or ']'", "$", 2]);
    for (const empty of ["{}", "[]", "{ }", "[ ]", "[[[]]]", '{"a":{}}']) expect(parse(empty).ok, empty).toBe(true);
  });

  it("skips a UTF-8 byte order mark", () => {
    const r = parseStrictJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x31]));
    expect(r.ok && r.value instanceof JsonNumber && r.value.lexeme).toBe("1");
  });
});

import { base64ToBytesStrict } from "../../src/util/bytes.js";

describe("strict base64", () => {
  it("accepts only standard, padded, canonical base64", () => {
    expect(Buffer.from(base64ToBytesStrict("aGk=") as Uint8Array).toString()).toBe("hi");
    expect(base64ToBytesStrict("")?.length).toBe(0);
    for (const bad of ["aGk", "aGk=\n", " aGk=", "aG*k=", "aGl=", "-_8=", "aGk==", "a"]) {
      expect(base64ToBytesStrict(bad), JSON.stringify(bad)).toBeUndefined();
    }
    expect(base64ToBytesStrict("+/8=")).toEqual(new Uint8Array([0xfb, 0xff]));
  });
});
