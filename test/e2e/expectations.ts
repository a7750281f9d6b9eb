/**
 * What the verifier must report for each Task kind the e2e agent runs, under the producer's trust
 * file and the requirement's minimum. One row per kind; a new kind adds its row here.
 */
import type { PropertyName, State } from "../../src/report/model.js";

export interface KindExpectation {
  readonly taskState: string;
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
};

export const KIND_EXPECTATIONS: Readonly<Record<string, KindExpectation>> = {
  "one-shot": {
    taskState: "TASK_STATE_COMPLETED",
    properties: SEALED_AND_REGISTERED,
    exitCode: 0,
    achieved: "EXTERNALLY_REGISTERED",
    claimed: "EXTERNALLY_REGISTERED",
  },
  failed: {
    taskState: "TASK_STATE_FAILED",
    properties: SEALED_AND_REGISTERED,
    exitCode: 0,
    achieved: "EXTERNALLY_REGISTERED",
    claimed: "EXTERNALLY_REGISTERED",
  },
};
