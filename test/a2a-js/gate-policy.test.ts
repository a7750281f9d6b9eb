/**
 * The gate's refusal names what the policy found unmet, from the policy's own terms (policy.ts):
 * a default-required property that is not PASS is named, as the input's reasons name it, beside
 * the level achieved and the minimum.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Task as TaskCodec } from "@a2a-js/sdk";
import type { AfterArgs } from "@a2a-js/sdk/client";
import { evidenceGate } from "../../src/a2a-js/index.js";
import { onlyInput, refusal } from "../helpers/gate.js";

const read = (vector: string, file: string) => JSON.parse(readFileSync(`vectors/${vector}/${file}`, "utf8"));

/** A gate (REQUIRED, EXTERNALLY_REGISTERED) answered by getTask with the vector's final Task. */
function answerWith(vector: string): Promise<void> {
  const g = evidenceGate({
    requirement: { minimumEvidence: "EXTERNALLY_REGISTERED" },
    trust: read(vector, "trust.json"),
  });
  const value = TaskCodec.fromJSON(read(vector, "input.json").finalTask);
  return g.after({ result: { method: "getTask", value }, agentCard: {}, options: {} } as unknown as AfterArgs);
}

describe("the gate's refusal names each required property that is not PASS", () => {
  it("taskBinding INCONCLUSIVE (required by default) is named, then negotiation, then the level", async () => {
    const e = await refusal(answerWith("inconclusive-taskBinding-data-part"));
    expect(e.reason).toBe("POLICY_NOT_MET");
    expect(e.report?.policy.exitCode).toBe(3);
    const input = onlyInput(e.report);
    const { taskBinding, negotiation } = input.properties;
    expect(taskBinding.state).toBe("INCONCLUSIVE");
    expect(input.reasons).toContain(`taskBinding is INCONCLUSIVE: ${taskBinding.detail}`);
    expect(e.message).toBe(
      `POLICY_NOT_MET: Task ${String(e.task?.id)} (TASK_STATE_COMPLETED): taskBinding INCONCLUSIVE: ${taskBinding.detail}; negotiation INCONCLUSIVE: ${negotiation.detail}; achieved EXTERNALLY_REGISTERED, minimum EXTERNALLY_REGISTERED`,
    );
  });

  it("the honest look-alike (the same capture without the data part: taskBinding PASS) names no taskBinding", async () => {
    const e = await refusal(answerWith("valid-capture"));
    const input = onlyInput(e.report);
    expect(input.properties.taskBinding.state).toBe("PASS");
    expect(e.message).not.toContain("taskBinding");
    // What remains unmet is only what the gate itself did not see: the first Task's acceptance.
    expect(e.message).toMatch(
      /: negotiation INCONCLUSIVE: .*; achieved EXTERNALLY_REGISTERED, minimum EXTERNALLY_REGISTERED$/,
    );
  });
});
