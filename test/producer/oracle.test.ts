/**
 * The oracle used on the committed vectors must be able to say "no" to every fact, or a vector
 * that silently stopped breaking what it claims would still pass. Facts no vector breaks are
 * broken here on purpose.
 */
import { describe, expect, it } from "vitest";
import { buildExchange } from "../../producer/exchange.js";
import { jsonText } from "../../producer/json-text.js";
import { flipHexDigit, objectAt } from "../../producer/mutations.js";
import type { ExchangeOptions } from "../../producer/options.js";
import { brokenFacts, facts } from "./oracle.js";

function broken(options: ExchangeOptions): string[] {
  const e = buildExchange({ envelope: "capture", priorCheckpoint: { leafCount: 1 }, leavesBefore: 1, ...options });
  return brokenFacts(jsonText(e.input), jsonText(e.trust));
}

describe("oracle", () => {
  it("finds nothing broken in an honest exchange, and knows every fact", () => {
    const e = buildExchange({ envelope: "capture", priorCheckpoint: { leafCount: 1 }, leavesBefore: 1 });
    expect(Object.keys(facts(jsonText(e.input), jsonText(e.trust))).sort()).toEqual(
      [
        "acceptance",
        "agentInputDigest",
        "artifacts",
        "authorityKey",
        "capsuleId",
        "chain",
        "checkpointSignature",
        "claimSupported",
        "consistency",
        "contextId",
        "coreManifestDigest",
        "entryHash",
        "envelopeCopy",
        "envelopeSignature",
        "evidenceId",
        "failureTyped",
        "localInclusion",
        "minimumMet",
        "payloadCopies",
        "priorSignature",
        "receipt",
        "receiptPinned",
        "referenceCopies",
        "referenceValues",
        "requirementFixed",
        "statusTerminal",
        "taskId",
        "terminalState",
        "transcript",
      ].sort(),
    );
    expect(broken({})).toEqual([]);
  });

  it("knows the lifecycle facts of a Task that paused, and of its interim record", () => {
    const e = buildExchange({
      envelope: "capture",
      transcript: [
        { messageId: "m0", role: "ROLE_USER", parts: ["book"] },
        { messageId: "m1", role: "ROLE_AGENT", parts: ["when?"] },
        { transition: { from: "TASK_STATE_WORKING", to: "TASK_STATE_INPUT_REQUIRED" } },
        { messageId: "m2", role: "ROLE_USER", parts: ["now"] },
        { transition: { from: "TASK_STATE_INPUT_REQUIRED", to: "TASK_STATE_WORKING" } },
      ],
      interim: [{ at: 2 }],
      leavesBefore: 1,
    });
    const known = facts(jsonText(e.input), jsonText(e.trust));
    for (const f of [
      "transitions",
      "resumptionTask",
      "interimCitations",
      "interimContent",
      "interimSignature",
      "interimCheckpoint",
      "interimInclusion",
      "interimLog",
      "interimPrefix",
    ]) {
      expect([f, known[f]]).toEqual([f, true]);
    }
  });

  it.each([
    [
      "coreManifestDigest",
      { tamper: { bundle: (b) => void (b.coreManifestDigest = flipHexDigit(b.coreManifestDigest as string)) } },
    ],
    [
      "agentInputDigest",
      {
        tamper: {
          bundle: (b) => {
            const attestation = objectAt(b, "capsule", "model_attestation", "compute_attestation");
            attestation.agent_input_digest = flipHexDigit(attestation.agent_input_digest as string);
          },
        },
      },
    ],
    ["contextId", { tamper: { payload: (p) => void (p.contextId = "another context") } }],
    ["terminalState", { tamper: { finalTask: (t) => void (objectAt(t, "status").state = "TASK_STATE_FAILED") } }],
    ["transcript", { tamper: { payload: (p) => void (objectAt(p, "transcript", 0).messageId = "another message") } }],
    [
      "referenceValues",
      { tamper: { bundle: (b) => void (objectAt(b, "taskEvidenceReference").terminalState = "TASK_STATE_FAILED") } },
    ],
  ] as Array<[string, ExchangeOptions]>)("can find %s broken", (fact, options) => {
    expect(broken(options)).toContain(fact);
  });
});
