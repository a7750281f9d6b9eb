import { describe, expect, it } from "vitest";
import { pyjson, compareCodePoints } from "../../src/canon/pyjson.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { fromPlain, isJsonObject, member, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { sha256Hex, utf8, base64ToBytesStrict } from "../../src/util/bytes.js";
import { describeExternal, readExternal } from "../helpers/external.js";

function py(text: string): string {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) throw new Error(parsed.detail);
  const r = pyjson(parsed.value);
  if (!r.ok) throw new Error(r.detail);
  return r.value.text;
}

describe("pyjson", () => {
  it("escapes everything outside U+0020–U+007E in lowercase, like Python ensure_ascii", () => {
    expect(py('"é"')).toBe('"\\u00e9"');
    expect(py('"😀"')).toBe('"\\ud83d\\ude00"');
    expect(py('"\\u007f"')).toBe('"\\u007f"');
    expect(py('"\\u001b"')).toBe('"\\u001b"');
    expect(py('"a/b"')).toBe('"a/b"');
    expect(py('"\\t\\n\\r\\b\\f\\"\\\\"')).toBe('"\\t\\n\\r\\b\\f\\"\\\\"');
  });

  it("sorts members by code point, not by UTF-16 unit", () => {
    expect(py('{"😀":2,"\\ue000":1}')).toBe('{"\\ue000":1,"\\ud83d\\ude00":2}');
    expect(compareCodePoints("\ue000", "😀")).toBeLessThan(0);
    expect(compareCodePoints("b", "a")).toBeGreaterThan(0);
    expect(compareCodePoints("a", "ab")).toBeLessThan(0);
  });

  it("keeps nulls, writes numbers by lexeme and flags non-integer lexemes", () => {
    const parsed = parseStrictJson('{"z":null,"f":60.0,"i":7,"n":-0,"e":[1e2]}');
    if (!parsed.ok) throw new Error(parsed.detail);
    const r = pyjson(parsed.value);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.text).toBe('{"e":[1e2],"f":60.0,"i":7,"n":-0,"z":null}');
    expect(r.value.numberFlags).toEqual(["e[0]", "f", "n"]);
  });

  it("writes flag paths in the parser's notation, top-level array elements included", () => {
    const parsed = parseStrictJson("[1.5,[2e0]]");
    if (!parsed.ok) throw new Error(parsed.detail);
    const r = pyjson(parsed.value);
    expect(r.ok && r.value.numberFlags).toEqual(["[0]", "[1][0]"]);
  });

  it("flags a number at its own path, not one a deeper sibling left behind", () => {
    const parsed = parseStrictJson('{"a":[{"b":{"c":1.5}},2e0],"d":-0,"e":{"f":[[7,8.0]]}}');
    if (!parsed.ok) throw new Error(parsed.detail);
    const r = pyjson(parsed.value);
    expect(r.ok && r.value.numberFlags).toEqual(["a[0].b.c", "a[1]", "d", "e.f[0][1]"]);
  });

  it("writes each member name as the first time, however often it repeats and however many there are", () => {
    // More distinct names than a dialect keeps, then the first ones again.
    const names = Array.from({ length: 5000 }, (_, i) => `k${i}é"`);
    const plain: Record<string, unknown> = {};
    for (const n of [...names, ...names.slice(0, 100)]) plain[n] = { [n]: [n] };
    const expected = (n: string) => JSON.stringify(n).replace("é", "\\u00e9");
    const text = py(JSON.stringify(plain));
    const want = [...names]
      .sort(compareCodePoints)
      .map((n) => `${expected(n)}:{${expected(n)}:[${expected(n)}]}`)
      .join(",");
    expect(text).toBe(`{${want}}`);
    expect(py(JSON.stringify(plain))).toBe(text);
  });

  it("refuses values nested beyond its cap", () => {
    let v: JsonValue = fromPlain(1);
    for (let i = 0; i < 300; i++) v = [v];
    const r = pyjson(v);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.code).toBe("CANON_TOO_DEEP");
  });
});

describeExternal("a2a-reference", "pyjson on the reference A2A positive vector", () => {
  const parsed = parseStrictJson(readExternal("a2a-reference", "positive_vector.json"));
  if (!parsed.ok || !isJsonObject(parsed.value)) throw new Error("positive vector does not parse");
  const vector = parsed.value;
  const bundle = member(vector, "evidenceBundle") as JsonObject;
  const digest = (v: JsonValue | undefined) => {
    const r = pyjson(v as JsonValue);
    if (!r.ok) throw new Error(r.detail);
    return sha256Hex(utf8(r.value.text));
  };

  it("recomputes evidenceId", () => {
    expect(digest(member(bundle, "taskEvidencePayload"))).toBe(
      "44539bedef5152e23a0771755a894080d5de9df37301dbbaba1269825a519c0e",
    );
  });

  it("recomputes coreManifestDigest", () => {
    expect(digest(member(bundle, "manifest"))).toBe("4248a21ca4db3ef9f1e627bb54e22f38d02ded57f0e158bcafb79ddce49dc6cf");
  });

  it("reproduces the delivered artifact bytes exactly", () => {
    const finalTask = member(vector, "finalTask") as JsonObject;
    const artifact = (member(finalTask, "artifacts") as JsonObject[])[1] as JsonObject;
    const part = (member(artifact, "parts") as JsonObject[])[0] as JsonObject;
    const raw = base64ToBytesStrict(member(part, "raw") as string);
    const r = pyjson(bundle);
    expect(r.ok && Buffer.from(utf8(r.value.text)).equals(Buffer.from(raw as Uint8Array))).toBe(true);
    expect(raw?.length).toBe(5102);
  });
});
