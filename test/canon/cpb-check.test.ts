import { describe, expect, it } from "vitest";
import { checkJcsNRecord, type CpbRecordInput } from "../../src/canon/cpb-check.js";
import { fromPlain, member, newJsonObject, type JsonValue } from "../../src/json/value.js";
import { describeExternal, listExternal } from "../helpers/external.js";
import { asObject, field, readVector, str } from "../helpers/strict-vector.js";

function check(input: CpbRecordInput) {
  const r = checkJcsNRecord(input);
  if (!r.ok) throw new Error(`${r.code} at ${r.path}: ${r.detail}`);
  return { verdict: r.value.verdict, violations: r.value.violations.map(({ path, rule }) => ({ path, rule })) };
}

const raw = (text: string) => check({ recordRaw: text });

describe("checkJcsNRecord", () => {
  it("verifies a record already in JCS-N form, null array elements included", () => {
    expect(raw('{"a":[null,1,{"b":"c"}],"d":0,"e":false,"f":""}')).toEqual({ verdict: "verified", violations: [] });
  });

  it("reports every P and R violation, sorted by path", () => {
    expect(raw('{"z":null,"a":{"b":[],"c":1.5},"m":[{"n":{}}],"q":-0,"u":9007199254740992}')).toEqual({
      verdict: "non-conforming",
      violations: [
        { path: '$["a"]["b"]', rule: "P" },
        { path: '$["a"]["c"]', rule: "R" },
        { path: '$["m"][0]["n"]', rule: "P" },
        { path: '$["q"]', rule: "R" },
        { path: '$["u"]', rule: "R" },
        { path: '$["z"]', rule: "P" },
      ],
    });
  });

  it("reports the member that is null or empty, not the parents normalization would empty next", () => {
    expect(raw('{"a":{"b":{"c":null}}}').violations).toEqual([{ path: '$["a"]["b"]["c"]', rule: "P" }]);
  });

  it("treats names equal after NFC as repeated names (R)", () => {
    expect(raw('{"x":{"\\u00e9":1,"e\\u0301":2}}').violations).toEqual([{ path: '$["x"]["e\u0301"]', rule: "R" }]);
  });

  it("writes every name in quoted brackets, whatever its spelling", () => {
    expect(raw('{"$ref":null,"0":null,"a.b":null,"q\\"x":null,"l":[[null,{"k":[]}]]}').violations).toEqual([
      { path: '$["$ref"]', rule: "P" },
      { path: '$["0"]', rule: "P" },
      { path: '$["a.b"]', rule: "P" },
      { path: '$["l"][0][1]["k"]', rule: "P" },
      { path: '$["q\\"x"]', rule: "P" },
    ]);
  });

  it("exempts the root and array elements from P; a root -0 is R at $", () => {
    expect(raw("{}")).toEqual({ verdict: "verified", violations: [] });
    expect(raw("[null]")).toEqual({ verdict: "verified", violations: [] });
    expect(raw("-0").violations).toEqual([{ path: "$", rule: "R" }]);
  });

  it("ends at an exact repeated name, which leaves no single value to judge (R)", () => {
    expect(raw('{"a":null,"b":{"c":1,"c":2}}')).toEqual({
      verdict: "non-conforming",
      violations: [{ path: '$["b"]["c"]', rule: "R" }],
    });
  });

  it("reports a number that is not exactly a double as R (2^53+1, long fractions)", () => {
    expect(raw('{"n":[9007199254740993]}').violations).toEqual([{ path: '$["n"][0]', rule: "R" }]);
    expect(raw('{"f":0.1000000000000000000001}').violations).toEqual([{ path: '$["f"]', rule: "R" }]);
  });

  it("fails on text that is not JSON at all, with the parser's code", () => {
    const r = checkJcsNRecord({ recordRaw: '{"a":1,}' });
    expect(r.ok ? undefined : [r.code, r.path]).toEqual(["JSON_SYNTAX", "$"]);
    const bytes = checkJcsNRecord({ recordRaw: new Uint8Array([0x22, 0xff, 0x22]) });
    expect(bytes.ok ? undefined : bytes.code).toBe("JSON_INVALID_UTF8");
  });

  it("accepts a parsed record, and fails on one nested beyond the canonicalizer's cap", () => {
    const record = newJsonObject();
    record.a = null;
    expect(check({ record }).violations).toEqual([{ path: '$["a"]', rule: "P" }]);
    let deep: JsonValue = fromPlain(1);
    for (let i = 0; i < 300; i++) deep = [deep];
    const r = checkJcsNRecord({ record: deep });
    expect(r.ok ? undefined : r.code).toBe("CANON_TOO_DEEP");
  });
});

describeExternal("cpb", "CPB cpb-check vectors", () => {
  const cases = ["conforming", "non-conforming"].flatMap((dir) =>
    listExternal("cpb", "cpb-check", dir).map((file) => [dir, file] as const),
  );

  it("covers the 13 published files (3 conforming, 10 non-conforming)", () => {
    expect(cases.filter(([d]) => d === "conforming")).toHaveLength(3);
    expect(cases.filter(([d]) => d === "non-conforming")).toHaveLength(10);
  });

  for (const [dir, file] of cases) {
    it(`${dir}/${file}`, () => {
      const v = readVector("cpb", "cpb-check", dir, file);
      const input: CpbRecordInput =
        member(v, "record_raw") !== undefined ? { recordRaw: str(v, "record_raw") } : { record: field(v, "record") };
      const expected =
        member(v, "expected_violations") === undefined
          ? []
          : (field(v, "expected_violations") as JsonValue[]).map((x) => asObject(x, "violation"));
      expect(check(input)).toEqual({
        verdict: str(v, "expected_verdict"),
        violations: expected.map((x) => ({ path: str(x, "path"), rule: str(x, "rule") })),
      });
      expect(str(v, "expected_verdict")).toBe(dir === "conforming" ? "verified" : "non-conforming");
    });
  }
});
