/**
 * The unit-by-unit walk of a string (a string with a surrogate, or one the fast paths refuse):
 * each fault it names, with its exact code, detail, path and offset, and what it decodes.
 */
import { describe, expect, it } from "vitest";
import { parseStrictJson } from "../../src/json/strict-json.js";

const LONE_ESCAPE = "lone surrogate escape in a string";
const LONE_RAW = "lone surrogate in a string";

const faults: [string, string, string, string, number][] = [
  ['{"a":["x\\ud800"]}', "JSON_LONE_SURROGATE", LONE_ESCAPE, "a[0]", 8],
  ['{"a":"\\udc00"}', "JSON_LONE_SURROGATE", LONE_ESCAPE, "a", 6],
  ['["\\ud83d\\u0041"]', "JSON_LONE_SURROGATE", LONE_ESCAPE, "[0]", 2],
  ['["\\ud83dx"]', "JSON_LONE_SURROGATE", LONE_ESCAPE, "[0]", 2],
  ['{"k":"\\ud83d\\udbff"}', "JSON_LONE_SURROGATE", LONE_ESCAPE, "k", 6],
  ['["\ud800x"]', "JSON_LONE_SURROGATE", LONE_RAW, "[0]", 2],
  ['["\udc00"]', "JSON_LONE_SURROGATE", LONE_RAW, "[0]", 2],
  ['["ok \ud83d\ude00", "\\q"]', "JSON_SYNTAX", "invalid escape sequence in a string", "[1]", 11],
  ['["\\u12g4 \ud83d\ude00"]', "JSON_SYNTAX", "invalid \\u escape in a string", "[0]", 2],
  ['["\\', "JSON_SYNTAX", "invalid escape sequence in a string", "[0]", 2],
  ['["\\u00e9\ud83d\ude00 \u0001"]', "JSON_CONTROL_CHARACTER", "raw control character U+0001 in a string", "[0]", 11],
  ['["\ud83d\ude00 abc', "JSON_SYNTAX", "unterminated string", "[0]", 1],
];

describe("the unit-by-unit string walk", () => {
  it.each(faults)("%j: %s, %s at %s, offset %d", (text, code, detail, path, offset) => {
    expect(parseStrictJson(text)).toEqual({ ok: false, code, detail, path, offset });
  });

  it("decodes every escape beside a raw surrogate pair", () => {
    const r = parseStrictJson('{"x":"\ud83d\ude00\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00"}');
    expect(r.ok && r.value).toEqual(expect.objectContaining({ x: '\ud83d\ude00"\\/\b\f\n\r\t\u00e9\ud83d\ude00' }));
  });
});
