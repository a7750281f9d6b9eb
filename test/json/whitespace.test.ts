import { describe, expect, it } from "vitest";
import { parseStrictJson } from "../../src/json/strict-json.js";

describe("whitespace", () => {
  it("is skipped wherever the grammar allows it, up to the end of the text", () => {
    for (const ws of [" ", "\n", "\r", "\t", " \r\n\t "]) {
      for (const text of [`${ws}1`, `1${ws}`, `${ws}{${ws}"a"${ws}:${ws}[${ws}1${ws},${ws}2${ws}]${ws}}${ws}`]) {
        const r = parseStrictJson(text);
        expect(r.ok, JSON.stringify(text)).toBe(true);
      }
      const empty = parseStrictJson(ws);
      expect(empty.ok ? undefined : [empty.code, empty.detail, empty.offset]).toEqual([
        "JSON_SYNTAX",
        "empty input: expected a JSON value",
        ws.length,
      ]);
      const trailing = parseStrictJson(`1${ws}x`);
      expect(trailing.ok ? undefined : [trailing.code, trailing.offset]).toEqual(["JSON_TRAILING_DATA", ws.length + 1]);
    }
  });

  it("is not any other space character", () => {
    for (const other of ["\u00a0", "\u2028", "\f", "\v", "\u3000"]) {
      const r = parseStrictJson(`1${other}`);
      expect(r.ok ? undefined : r.code).toBe("JSON_TRAILING_DATA");
    }
  });
});
