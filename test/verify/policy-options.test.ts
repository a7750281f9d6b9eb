/**
 * The library takes the policy from untyped callers too (plain JavaScript, a value read from a
 * config file): a minimum evidence level it does not know must never make the level requirement
 * vanish. It is a level nothing meets: exit 3, with the reason. A required property it does not
 * know is likewise a requirement nothing meets, not a crash.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import type { EvidenceLevelOrNone } from "../../src/profile.js";
import type { PropertyName } from "../../src/report/model.js";
import { REPO_ROOT } from "../helpers/external.js";

const MINIMAL = join(REPO_ROOT, "vectors", "valid-minimal");
const request = {
  inputs: [{ source: "input.json", data: readFileSync(join(MINIMAL, "input.json")) }],
  trust: readFileSync(join(MINIMAL, "trust.json")),
};

describe("verify(): an unknown minEvidence", () => {
  it("valid-minimal reaches EXTERNALLY_REGISTERED, not CONTINUITY_WITNESSED", () => {
    expect(verify({ ...request, minEvidence: "EXTERNALLY_REGISTERED" }).policy.exitCode).toBe(0);
    expect(verify({ ...request, minEvidence: "CONTINUITY_WITNESSED" }).policy.exitCode).toBe(3);
  });

  it.each(["continuity_witnessed", "CONTINUITY_WITNESSED ", "GOLD", ""])("%j is a level nothing meets", (level) => {
    const report = verify({ ...request, minEvidence: level as EvidenceLevelOrNone });
    expect(report.policy.exitCode).toBe(3);
    const input = report.inputs[0] as unknown as { exitCode: number; reasons: string[] };
    expect(input.exitCode).toBe(3);
    expect(input.reasons).toEqual([
      `evidence level EXTERNALLY_REGISTERED is below ${JSON.stringify(level)} (--min-evidence): not an evidence level, so nothing meets it`,
    ]);
  });
});

describe("verify(): a required property that is not one", () => {
  it.each(["taskbinding", "toString", "constructor", "__proto__", ""])("%j is a requirement nothing meets", (name) => {
    const report = verify({ ...request, require: ["producerSignature", name as PropertyName] });
    expect(report.policy.exitCode).toBe(3);
    const input = report.inputs[0] as unknown as { exitCode: number; reasons: string[] };
    expect(input.exitCode).toBe(3);
    expect(input.reasons).toEqual([`required ${JSON.stringify(name)} is not a property, so nothing meets it`]);
  });

  it("a property that is one and PASSes is met", () => {
    expect(verify({ ...request, require: ["producerSignature", "taskBinding"] }).policy.exitCode).toBe(0);
  });
});
