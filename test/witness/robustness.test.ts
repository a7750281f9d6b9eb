/**
 * An attacker's view of the cosignatures: every member of a witnessed bundle's continuityEvidence,
 * replaced by every other JSON type or removed, yields a schema-valid report — and never a
 * continuity PASS, since each member is one the PASS depends on. Every member of the trust file's
 * witness sections likewise yields a report or a typed trust error, never an exception.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { pyjson } from "../../src/canon/pyjson.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { JsonNumber, newJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { renderJson } from "../../src/report/json.js";
import { isFailedInput } from "../../src/report/model.js";
import { verify } from "../../src/verify.js";
import { REPO_ROOT } from "../helpers/external.js";
import { positions } from "../helpers/json-positions.js";

const VECTOR = join(REPO_ROOT, "vectors", "valid-continuity-2of3");
const read = (file: string): JsonValue => {
  const r = parseStrictJson(readFileSync(join(VECTOR, file)));
  if (!r.ok) throw new Error(r.detail);
  return r.value;
};
const REPLACEMENTS: (JsonValue | undefined)[] = [
  undefined,
  null,
  true,
  "x",
  "— x AQIDBAU=",
  new JsonNumber("1"),
  new JsonNumber("-1.5"),
  [],
  newJsonObject(),
];
const validateReport = new Ajv2020({ strict: true }).compile(
  JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "report.schema.json"), "utf8")),
);

function mutateEach(root: JsonValue, run: (what: string) => void): number {
  let runs = 0;
  for (const [container, key] of positions(root)) {
    const slot = container as Record<string | number, JsonValue>;
    const original = slot[key] as JsonValue;
    for (const r of REPLACEMENTS) {
      if (r === undefined) {
        if (Array.isArray(container)) container.splice(key as number, 1);
        else delete slot[key];
      } else slot[key] = r;
      run(`${String(key)} → ${r === undefined ? "removed" : JSON.stringify(r)}`);
      if (r === undefined && Array.isArray(container)) container.splice(key as number, 0, original);
      else slot[key] = original;
      runs++;
    }
  }
  return runs;
}

describe("continuity robustness", () => {
  const trust = read("trust.json");

  it("every member of continuityEvidence replaced or removed: a report, and never continuity PASS", () => {
    const input = read("input.json") as JsonObject;
    const part = ((input.finalTask as JsonObject).artifacts as JsonObject[]).at(-1)?.parts as JsonObject[];
    const parsed = parseStrictJson(Buffer.from((part[0] as JsonObject).raw as string, "base64"));
    if (!parsed.ok) throw new Error(parsed.detail);
    const bundle = parsed.value as JsonObject;
    const evidence = bundle.continuityEvidence as JsonValue;
    const passes: string[] = [];
    const runs = mutateEach(evidence, (what) => {
      const text = pyjson(bundle);
      if (!text.ok) throw new Error(text.detail);
      (part[0] as JsonObject).raw = Buffer.from(text.value.text).toString("base64");
      const report = verify({
        inputs: [{ source: "mutant", data: input }],
        trust,
        minEvidence: "CONTINUITY_WITNESSED",
      });
      expect(validateReport(JSON.parse(renderJson(report))), JSON.stringify(validateReport.errors)).toBe(true);
      const out = report.inputs[0];
      if (!out || isFailedInput(out)) throw new Error(`${what}: not verified`);
      if (out.properties.continuity.state === "PASS") passes.push(what);
    });
    expect(runs).toBeGreaterThan(60);
    expect(passes).toEqual([]);
  });

  it("every member of the trust file's witnesses and continuityPolicy replaced or removed: a report or exit 2, never an exception", () => {
    const input = read("input.json");
    const t = trust as JsonObject;
    const outcomes = new Set<string>();
    const runs = mutateEach(t.witnesses as JsonValue, () => {
      const report = verify({ inputs: [{ source: "in", data: input }], trust: t });
      expect(validateReport(JSON.parse(renderJson(report))), JSON.stringify(validateReport.errors)).toBe(true);
      outcomes.add(report.error ? report.error.code : String(report.policy.exitCode));
    });
    const policyRuns = mutateEach(t.continuityPolicy as JsonValue, () => {
      const report = verify({ inputs: [{ source: "in", data: input }], trust: t });
      outcomes.add(report.error ? report.error.code : String(report.policy.exitCode));
    });
    expect(runs + policyRuns).toBeGreaterThan(100);
    // Exit 0 where a mutation keeps the quorum (a removed label), 3 where it loses it, a trust error otherwise.
    expect(
      [...outcomes].every((o) => o === "0" || o === "3" || o.startsWith("TRUST_")),
      [...outcomes].join(", "),
    ).toBe(true);
    expect(outcomes.has("TRUST_SCHEMA") && outcomes.has("TRUST_KEY_INVALID")).toBe(true);
  });
});
