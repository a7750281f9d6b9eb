/**
 * A string with escapes is decoded natively when it can be; the unit-by-unit walk is the
 * definition. Every string here is parsed both ways (the walk forced by making the native decoder
 * unavailable) and must give the same value, or the same refusal at the same offset.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseStrictJson } from "../../src/json/strict-json.js";

/** Pieces of a JSON string literal's body, valid and not: escapes, raw and escaped surrogates, controls. */
const PIECES = [
  "a",
  "Z",
  " ",
  "/",
  "é",
  "\u2028",
  "\u007f",
  "\u{1F600}",
  '\\"',
  "\\\\",
  "\\/",
  "\\b",
  "\\f",
  "\\n",
  "\\r",
  "\\t",
  "\\u0041",
  "\\u00e9",
  "\\u00E9",
  "\\u0000",
  "\\u001f",
  "\\ud83d\\ude00",
  "\\uD83D\\uDE00",
  "\\ud83d",
  "\\ude00",
  "\ud83d",
  "\ude00",
  "\\x",
  "\\u12",
  "\\u12g4",
  "\\",
  "\u0001",
  "\n",
  '"',
  "\\\\\\",
  '\\\\\\"',
];
const body = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((ps) => ps.join(""));

function parsedBothWays(text: string) {
  const native = parseStrictJson(text);
  const spy = vi.spyOn(JSON, "parse").mockImplementation(() => {
    throw new SyntaxError("unavailable");
  });
  try {
    return { native, walked: parseStrictJson(text) };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("strings with escapes", () => {
  it("decode as the unit-by-unit walk decodes them, or are refused as it refuses them", () => {
    fc.assert(
      fc.property(body, fc.constantFrom("string", "member", "element"), (b, where) => {
        const text = where === "string" ? `"${b}"` : where === "member" ? `{"k":"${b}","z":1}` : `["${b}",2]`;
        const { native, walked } = parsedBothWays(text);
        expect(native).toEqual(walked);
      }),
      { numRuns: 20000, seed: 7 },
    );
  });

  it("an escaped high surrogate beside a raw low one is refused (Python would keep two code points)", () => {
    const r = parseStrictJson('"\\ud83d\ude00"');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.code).toBe("JSON_LONE_SURROGATE");
  });

  it("a JSON document carried in a string decodes to its text", () => {
    const inner = JSON.stringify({ a: 'q"uote', b: ["\\", "\n"], c: "é\u{1F600}" });
    const r = parseStrictJson(JSON.stringify({ text: inner }));
    expect(r.ok && (r.value as Record<string, unknown>).text).toBe(inner);
  });
});
