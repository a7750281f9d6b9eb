/** Exact constant strings of the A2A Task Evidence extension and its aac-cll-scitt/v1 profile. */

export const EXTENSION_URI = "https://agentactioncapsule.org/extensions/a2a-task-evidence/v1";
export const RECORD_PROFILE_V1 = "https://agentactioncapsule.org/profiles/a2a-task-evidence/aac-cll-scitt/v1";
export const EVIDENCE_MEDIA_TYPE = "application/vnd.agentactioncapsule.a2a-task-evidence+json";
export const EVIDENCE_ARTIFACT_ID = "task-evidence-bundle";
export const EXTENSION_VERSION = "1";

export const TERMINAL_TASK_STATES = [
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_REJECTED",
] as const;

export const TASK_STATES = [
  "TASK_STATE_UNSPECIFIED",
  "TASK_STATE_SUBMITTED",
  "TASK_STATE_WORKING",
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_REJECTED",
  "TASK_STATE_AUTH_REQUIRED",
] as const;

/** Evidence levels in order; the index is the rank used to compare claims and requirements. */
export const EVIDENCE_LEVELS = ["SIGNED_RECORD", "EXTERNALLY_REGISTERED", "CONTINUITY_WITNESSED"] as const;
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];
/** What a report or a policy names: a level, or NONE when not even SIGNED_RECORD was reached. */
export type EvidenceLevelOrNone = EvidenceLevel | "NONE";

export function levelRank(level: EvidenceLevelOrNone): number {
  return level === "NONE" ? 0 : EVIDENCE_LEVELS.indexOf(level) + 1;
}

export const EVIDENCE_STATUS_PREFIX = "EVIDENCE_STATUS_";
export const EVIDENCE_STATUSES = [
  "EVIDENCE_STATUS_PENDING",
  "EVIDENCE_STATUS_SIGNED_RECORD",
  "EVIDENCE_STATUS_EXTERNALLY_REGISTERED",
  "EVIDENCE_STATUS_CONTINUITY_WITNESSED",
  "EVIDENCE_STATUS_FAILED",
] as const;

export const DELIVERY_MODES = ["EVIDENCE_ARTIFACT", "INLINE_METADATA"] as const;
export const REQUIREMENTS = ["PREFERRED", "REQUIRED"] as const;
export const COVERAGE_SCOPE = "TASK_TRANSCRIPT";
export const ACCEPTED = "ACCEPTED";

/** A typed failure reason: an upper-case code, a colon, a space, free text (e.g. `WITNESS_REQUIRED_NOT_CONFIRMED: …`). */
export const TYPED_FAILURE_REASON = /^[A-Z][A-Z0-9_]*: \S/;

/** States a Task waits in for its client (a2a-wire.md §1.3); evidence is PENDING there (§8.1). */
export const INTERRUPTED_TASK_STATES = ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"] as const;

/** The v3.2 additions (docs/profile.md): a transition entry's `kind`, and its commitment's first element. */
export const TRANSITION_KIND = "transition";
export const TRANSITION_COMMITMENT_TAG = "a2a-task-evidence/transition/v1";

/** The a2a-samples Traceability extension (a2a-wire.md §5): activation URI and metadata key, matched exactly. */
export const TRACEABILITY_URI = "https://github.com/a2aproject/a2a-samples/extensions/traceability/v1";
export const TRACEABILITY_METADATA_KEY = "github.com/a2aproject/a2a-samples/extensions/traceability/v1/traceability";
