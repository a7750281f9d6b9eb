/**
 * The report: one entry per input, one result per property, each with the checks that decided
 * it. There is deliberately no aggregate "trusted" field anywhere.
 */
import type { FailureCode } from "../codes/index.js";
import type { EvidenceLevelOrNone } from "../profile.js";
import type { InputShape } from "../input/load.js";

/** The properties, in report order (contract §4). */
export const PROPERTY_NAMES = [
  "contentBinding",
  "producerSignature",
  "taskBinding",
  "localInclusion",
  "checkpointSignature",
  "externalRegistration",
  "continuity",
  "identityAuthorityBinding",
  "captureCoverage",
  "outcomeCorroboration",
  "referenceConsistency",
  "negotiation",
] as const;
export type PropertyName = (typeof PROPERTY_NAMES)[number];

export const STATES = ["PASS", "FAIL", "NOT_PRESENT", "NOT_CHECKED", "INCONCLUSIVE"] as const;
export type State = (typeof STATES)[number];

export interface Check {
  /** Stable id, e.g. `evidenceId.recompute`. */
  readonly id: string;
  readonly state: State;
  readonly detail: string;
  /** What the check was about when the id repeats, e.g. `nonEvidenceArtifacts[0]` or a ts_url. */
  readonly subject?: string;
  /** The failure code of the primitive that decided a FAIL or INCONCLUSIVE, when there is one. */
  readonly code?: FailureCode;
  /** The values compared (hashes, sizes, ids), for auditors. */
  readonly values?: Readonly<Record<string, string>>;
}

export interface PropertyResult {
  readonly state: State;
  readonly detail: string;
  readonly checks: readonly Check[];
}

export type Properties = Readonly<Record<PropertyName, PropertyResult>>;

export interface EvidenceLevelReport {
  readonly achieved: EvidenceLevelOrNone;
  /** The producer's `evidenceStatus` (prefix removed), or null when none is carried. */
  readonly claimed: string | null;
  /** The caller's negotiated `minimumEvidence`, or null when no requirement is visible. */
  readonly negotiated: string | null;
}

export interface InputError {
  readonly code: FailureCode | "USAGE";
  readonly message: string;
  readonly path?: string;
}

export interface VerifiedInput {
  readonly source: string;
  readonly shape: InputShape;
  readonly locations: readonly string[];
  readonly recordProfile: string | null;
  readonly evidenceId: string | null;
  readonly properties: Properties;
  readonly evidenceLevel: EvidenceLevelReport;
  /** Observations about the input that decide nothing (carrier notes, enum numbers, ignored members). */
  readonly notes: readonly string[];
  /** This input's exit code under the policy (0, 1 or 3). */
  readonly exitCode: 0 | 1 | 3;
}

export interface FailedInput {
  readonly source: string;
  readonly error: InputError;
  readonly exitCode: 2;
}

export type InputReport = VerifiedInput | FailedInput;

export interface PolicyReport {
  readonly require: readonly PropertyName[];
  readonly minEvidence: EvidenceLevelOrNone;
  readonly exitCode: 0 | 1 | 2 | 3;
}

export interface Report {
  readonly reportVersion: 1;
  readonly tool: { readonly name: "a2a-evidence"; readonly version: string };
  readonly inputs: readonly InputReport[];
  readonly policy: PolicyReport;
  /** Why nothing could be verified (invalid trust file, unusable --task), when that is the case. */
  readonly error?: InputError;
}

export function isFailedInput(r: InputReport): r is FailedInput {
  return "error" in r;
}
