/**
 * Bounded work (contract §9.20): verification cost is linear in the input, hints are capped, and
 * the report is a small multiple of the input's size. The case is the one a review found: a Task
 * of 2,000 same-named artifacts whose payload commits to 2,000 other ids, which once made every
 * missing id compare itself with every same-named artifact and list them all.
 */
import { describe, expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { renderJson } from "../../src/report/json.js";
import { isFailedInput } from "../../src/report/model.js";
import { uuidFromLabel, type ArtifactSpec } from "../../producer/a2a.js";
import { buildExchange } from "../../producer/exchange.js";
import { utf8 } from "../../src/util/bytes.js";
import type { JsonObject, JsonValue } from "../../src/json/value.js";

const N = 2000;

function sameNamed(): { input: Uint8Array; trust: JsonObject } {
  // The payload commits to ten "report" artifacts; the observed Task shows 2,000 others of that name.
  const artifacts: ArtifactSpec[] = Array.from({ length: 10 }, (_, i) => ({
    artifactId: uuidFromLabel(`committed ${i}`),
    name: "report",
    parts: [`committed part ${i}`],
  }));
  const e = buildExchange({
    envelope: "jsonrpc",
    artifacts,
    tamper: {
      finalTask: (t) => {
        const list = t.artifacts as JsonValue[];
        const evidence = list.pop() as JsonValue;
        list.length = 0;
        for (let i = 0; i < N; i++) {
          list.push({
            artifactId: uuidFromLabel(`observed ${i}`),
            name: "report",
            parts: [{ text: `observed part ${i} of a long report ${"-".repeat(110)}` }],
          } as unknown as JsonObject);
        }
        list.push(evidence);
      },
    },
  });
  return {
    input: utf8(
      JSON.stringify(e.input, (_, v) => (v && typeof v === "object" && "lexeme" in v ? Number(v.lexeme) : v)),
    ),
    trust: e.trust,
  };
}

describe("bounded work on hostile shapes", () => {
  it("a 450 KB Task of 2,000 same-named artifacts: under 2 s of CPU, a report under 2 MB, hints capped", () => {
    const { input, trust } = sameNamed();
    expect(input.length).toBeGreaterThan(400_000);
    expect(input.length).toBeLessThan(600_000);
    const before = process.cpuUsage();
    const report = verify({ inputs: [{ source: "same-named", data: input }], trust });
    const used = process.cpuUsage(before);
    const json = renderJson(report);
    expect((used.user + used.system) / 1e6).toBeLessThan(2);
    expect(json.length).toBeLessThan(2 * 1024 * 1024);
    const r = report.inputs[0];
    if (!r || isFailedInput(r)) throw new Error("not verified");
    expect(r.properties.taskBinding.state).toBe("FAIL");
    const coverage = r.properties.taskBinding.checks.find((c) => c.id === "artifacts.coverage");
    expect(coverage?.state).toBe("FAIL");
    expect(coverage?.detail).toMatch(/ and 1980 more$/);
    const binding = r.properties.taskBinding.checks.find((c) => c.id === "artifact.binding" && c.state === "FAIL");
    expect(binding?.detail).toMatch(/; and 1997 more artifacts have that name$/);
    expect(r.properties.taskBinding.checks.filter((c) => c.id === "artifact.binding")).toHaveLength(10);
    for (const c of r.properties.taskBinding.checks) expect(c.detail.length).toBeLessThan(4000);
  });
});
