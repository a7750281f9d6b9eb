/**
 * Exact strings of the A2A Task Evidence extension (spec README "Exact constant strings"). The
 * producer keeps its own copy instead of importing the verifier's: a typo shared by both sides
 * would make every generated vector agree with a wrong verifier.
 */

export const EXTENSION_URI = "https://agentactioncapsule.org/extensions/a2a-task-evidence/v1";
export const RECORD_PROFILE = "https://agentactioncapsule.org/profiles/a2a-task-evidence/aac-cll-scitt/v1";
export const EVIDENCE_MEDIA_TYPE = "application/vnd.agentactioncapsule.a2a-task-evidence+json";
export const EVIDENCE_ARTIFACT_ID = "task-evidence-bundle";
export const EVIDENCE_FILENAME = "task-evidence-bundle.json";
export const EXTENSION_VERSION = "1";
export const COVERAGE_SCOPE = "TASK_TRANSCRIPT";

export const PRODUCER_ENVELOPE_CONTENT_TYPE = "application/agent-action-capsule-id";
export const CAPSULE_SPEC_VERSION = "draft-mih-scitt-agent-action-capsule-04";
export const SEALED_ACTION = "a2a.task_evidence.v1";
export const EFFECT_TYPE = "a2a.task_completed";

/** COSE algorithm identifiers (RFC 9053) used by this profile. */
export const COSE_ALG_EDDSA = -8;
export const COSE_ALG_ES256 = -7;
/** COSE header labels. */
export const COSE_LABEL_ALG = 1;
export const COSE_LABEL_CONTENT_TYPE = 3;
export const COSE_LABEL_KID = 4;
export const COSE_LABEL_VDS = 395;
export const COSE_LABEL_VDP = 396;
export const VDP_INCLUSION_PROOFS = -1;
export const VDS_RFC9162_SHA256 = 1;

export type EvidenceLevel = "SIGNED_RECORD" | "EXTERNALLY_REGISTERED" | "CONTINUITY_WITNESSED";
export type EvidenceStatus =
  | "EVIDENCE_STATUS_PENDING"
  | "EVIDENCE_STATUS_SIGNED_RECORD"
  | "EVIDENCE_STATUS_EXTERNALLY_REGISTERED"
  | "EVIDENCE_STATUS_CONTINUITY_WITNESSED"
  | "EVIDENCE_STATUS_FAILED";
export type Role = "ROLE_USER" | "ROLE_AGENT";
export type DeliveryMode = "EVIDENCE_ARTIFACT" | "INLINE_METADATA";

/** A2A v1.0 TaskState names the producer writes (a2a-wire.md §1.3). */
export type TaskState =
  | "TASK_STATE_SUBMITTED"
  | "TASK_STATE_WORKING"
  | "TASK_STATE_INPUT_REQUIRED"
  | "TASK_STATE_AUTH_REQUIRED"
  | "TASK_STATE_COMPLETED"
  | "TASK_STATE_FAILED"
  | "TASK_STATE_CANCELED"
  | "TASK_STATE_REJECTED";
export const INTERRUPTED_STATES: readonly TaskState[] = ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"];

/** First element of a transition entry's commitment preimage (docs/profile.md, v3.2 additions). */
export const TRANSITION_COMMITMENT_TAG = "a2a-task-evidence/transition/v1";

/** The a2a-samples Traceability extension (a2a-wire.md §5): activation URI and metadata key. */
export const TRACEABILITY_URI = "https://github.com/a2aproject/a2a-samples/extensions/traceability/v1";
export const TRACEABILITY_METADATA_KEY = "github.com/a2aproject/a2a-samples/extensions/traceability/v1/traceability";
