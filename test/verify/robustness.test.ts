/**
 * No input crashes the verifier: every member of a real bundle and Task, replaced by every other
 * JSON type or removed, still yields a report (twelve properties, each decided by at least one
 * check) or a typed input error — never an exception.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { JsonNumber, newJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { pyjson } from "../../src/canon/pyjson.js";
import { PROPERTY_NAMES, isFailedInput } from "../../src/report/model.js";
import { REPO_ROOT } from "../helpers/external.js";
import { positions } from "../helpers/json-positions.js";
import { renderJson } from "../../src/report/json.js";
import { Ajv2020 } from "ajv/dist/2020.js";

function load(name: string, file: string): JsonValue {
  const r = parseStrictJson(readFileSync(join(REPO_ROOT, "vectors", name, file)));
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

const REPLACEMENTS: (JsonValue | undefined)[] = [
  undefined,
  null,
  true,
  "x",
  new JsonNumber("1.5"),
  new JsonNumber("-1"),
  [],
  newJsonObject(),
];

const validateReport = new Ajv2020({ strict: true }).compile(
  JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "report.schema.json"), "utf8")),
);

/** Calls `run` once for every position of `root` with every replacement (or the member removed), restoring it after. */
function mutateEach(root: JsonValue, run: () => void, skip: (key: string | number) => boolean = () => false): number {
  let runs = 0;
  for (const [container, key] of positions(root)) {
    if (skip(key)) continue;
    const slot = container as Record<string | number, JsonValue>;
    const original = slot[key] as JsonValue;
    for (const r of REPLACEMENTS) {
      if (r === undefined) {
        if (Array.isArray(container)) continue;
        delete slot[key];
      } else slot[key] = r;
      run();
      slot[key] = original;
      runs++;
    }
  }
  return runs;
}

function checkReport(report: ReturnType<typeof verify>): void {
  // Through JSON, as the CLI prints it: the schema must hold for every report, however odd the input.
  expect(validateReport(JSON.parse(renderJson(report))), JSON.stringify(validateReport.errors)).toBe(true);
  const input = report.inputs[0];
  expect(input).toBeDefined();
  if (!input || isFailedInput(input)) return;
  for (const p of PROPERTY_NAMES) expect(input.properties[p].checks.length).toBeGreaterThan(0);
}

describe("robustness", () => {
  const trust = load("valid-rich", "trust.json");

  it("every member of the bundle replaced or removed: a report, never an exception", () => {
    const input = load("valid-rich", "input.json") as JsonObject;
    const task = (input.result ?? input.finalTask) as JsonObject;
    const part = ((task.artifacts as JsonObject[]).find((a) => a.artifactId === "task-evidence-bundle") as JsonObject)
      .parts as JsonObject[];
    const raw = (part[0] as JsonObject).raw as string;
    const parsed = parseStrictJson(Buffer.from(raw, "base64"));
    if (!parsed.ok) throw new Error(parsed.detail);
    const bundle = parsed.value;
    const runs = mutateEach(bundle, () => {
      const text = pyjson(bundle);
      if (!text.ok) throw new Error(text.detail);
      (part[0] as JsonObject).raw = Buffer.from(text.value.text).toString("base64");
      checkReport(verify({ inputs: [{ source: "mutant", data: input }], trust }));
    });
    expect(runs).toBeGreaterThan(500);
  });

  it.each(["valid-capture", "valid-data-part", "valid-inline-metadata"])(
    "every member of the %s input replaced or removed: a report or a typed input error",
    (name) => {
      const input = load(name, "input.json");
      // The bundle bytes are covered above; here, the A2A objects around them.
      const runs = mutateEach(
        input,
        () => checkReport(verify({ inputs: [{ source: "mutant", data: input }], trust })),
        (key) => key === "raw",
      );
      expect(runs).toBeGreaterThan(100);
    },
  );
});
