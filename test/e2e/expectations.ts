/**
 * What the verifier must report for each Task kind the e2e agent runs, under the producer's trust
 * file and the requirement's minimum. One row per kind; a new kind adds its row here.
 */
import type { PropertyName, State } from "../../src/index.js";

export interface KindExpectation {
  readonly taskState: string;
  /** The minimumEvidence the first Task's acceptance states (the caller asks EXTERNALLY_REGISTERED). */
  readonly acceptedMinimum: string;
  /** The negotiation checks that FAIL, when negotiation does. */
  readonly negotiationFails?: readonly string[];
  readonly properties: Readonly<Record<PropertyName, State>>;
  readonly exitCode: 0 | 1 | 2 | 3;
  readonly achieved: string;
  readonly claimed: string | null;
}

const SEALED_AND_REGISTERED: Readonly<Record<PropertyName, State>> = {
  contentBinding: "PASS",
  producerSignature: "PASS",
  taskBinding: "PASS",
  localInclusion: "PASS",
  checkpointSignature: "PASS",
  externalRegistration: "PASS",
  continuity: "NOT_PRESENT",
  identityAuthorityBinding: "PASS",
  captureCoverage: "INCONCLUSIVE",
  outcomeCorroboration: "NOT_PRESENT",
  referenceConsistency: "PASS",
  negotiation: "PASS",
  peacReceipts: "NOT_PRESENT",
};

export const KIND_EXPECTATIONS: Readonly<Record<string, KindExpectation>> = {
  "one-shot": {
    taskState: "TASK_STATE_COMPLETED",
    acceptedMinimum: "EXTERNALLY_REGISTERED",
    properties: SEALED_AND_REGISTERED,
    exitCode: 0,
    achieved: "EXTERNALLY_REGISTERED",
    claimed: "EXTERNALLY_REGISTERED",
  },
  failed: {
    taskState: "TASK_STATE_FAILED",
    acceptedMinimum: "EXTERNALLY_REGISTERED",
    properties: SEALED_AND_REGISTERED,
    exitCode: 0,
    achieved: "EXTERNALLY_REGISTERED",
    claimed: "EXTERNALLY_REGISTERED",
  },
  // Paused for input, resumed by the client's second Message, completed. Verified without its
  // interim record, the citation is listed NOT_CHECKED and decides nothing: the same report as a
  // one-shot Task (the lifecycle checks with the interim record are in paused-flow.test.ts).
  paused: {
    taskState: "TASK_STATE_COMPLETED",
    acceptedMinimum: "EXTERNALLY_REGISTERED",
    properties: SEALED_AND_REGISTERED,
    exitCode: 0,
    achieved: "EXTERNALLY_REGISTERED",
    claimed: "EXTERNALLY_REGISTERED",
  },
  // Accepted the caller's minimum, delivered a signed record only, and said nothing: a silent downgrade.
  "silent-downgrade": {
    taskState: "TASK_STATE_COMPLETED",
    acceptedMinimum: "EXTERNALLY_REGISTERED",
    negotiationFails: ["status.meetsMinimum"],
    properties: { ...SEALED_AND_REGISTERED, externalRegistration: "NOT_PRESENT", negotiation: "FAIL" },
    exitCode: 1,
    achieved: "SIGNED_RECORD",
    claimed: "SIGNED_RECORD",
  },
  // Accepted, but with a lower minimum than asked, and delivered that.
  "lower-acceptance": {
    taskState: "TASK_STATE_COMPLETED",
    acceptedMinimum: "SIGNED_RECORD",
    negotiationFails: ["acceptance.terms", "status.meetsMinimum"],
    properties: { ...SEALED_AND_REGISTERED, externalRegistration: "NOT_PRESENT", negotiation: "FAIL" },
    exitCode: 1,
    achieved: "SIGNED_RECORD",
    claimed: "SIGNED_RECORD",
  },
};
