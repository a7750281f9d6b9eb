/**
 * The project's own conformance vectors (vectors/<name>/{input,trust,expected}.json), produced by
 * the independent producer in producer/. Each must get exactly the expected state for every
 * property, the expected achieved level and the expected exit code under the default policy. A
 * stream vector (input.sse, input.ndjson) is given to verify() as its bytes, which it folds. A
 * pending-* vector is a Task that has not ended: INPUT_EVIDENCE_PENDING, exit 3, no properties.
 */
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { PROPERTY_NAMES, isFailedInput } from "../../src/report/model.js";
import { REPO_ROOT } from "../helpers/external.js";
import { vectorExtra, vectorInput } from "../helpers/vector-input.js";

const VECTORS = join(REPO_ROOT, "vectors");
const names = readdirSync(VECTORS).filter((n) => existsSync(join(VECTORS, n, "expected.json"))).sort();

describe("project conformance vectors", () => {
  it("ships a valid vector, and a negative for every property that can FAIL", () => {
    expect(names).toContain("valid-minimal");
    expect(names.filter((n) => existsSync(join(VECTORS, n, "input.sse"))).length).toBeGreaterThan(1);
    expect(names.some((n) => existsSync(join(VECTORS, n, "input.ndjson")))).toBe(true);
    for (const p of PROPERTY_NAMES) {
      if (p === "captureCoverage" || p === "outcomeCorroboration") continue;
      expect(names.some((n) => n.startsWith(`neg-${p}-`)), `a neg-${p}-* vector`).toBe(true);
    }
  });

  for (const name of names) {
    it(name, () => {
      const dir = join(VECTORS, name);
      const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8"));
      const report = verify({
        inputs: [{ source: name, data: vectorInput(dir) }],
        ...vectorExtra(dir),
        trust: readFileSync(join(dir, "trust.json")),
      });
      const input = report.inputs[0];
      if (expected.properties === null) {
        // A Task that has not ended: nothing is verified, the input says its evidence is pending.
        expect(input && isFailedInput(input) ? [input.error.code, input.exitCode] : input).toEqual(["INPUT_EVIDENCE_PENDING", 3]);
        expect([expected.evidenceLevel, report.policy.exitCode]).toEqual([null, expected.exitCode]);
        return;
      }
      if (!input || isFailedInput(input)) throw new Error(`${name}: ${JSON.stringify(input)}`);
      const states = Object.fromEntries(PROPERTY_NAMES.map((p) => [p, input.properties[p].state]));
      expect(states).toEqual(expected.properties);
      expect(input.evidenceLevel.achieved).toBe(expected.evidenceLevel);
      expect(report.policy.exitCode).toBe(expected.exitCode);
    });
  }
});
