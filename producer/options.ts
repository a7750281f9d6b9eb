/**
 * What an exchange is built from, with defaults that give a valid one-leaf exchange shaped like
 * the reference positive vector (one user message, one response artifact, one Transparency
 * Service) — but honest: artifact ids are the observed ones. Every value is fixed, so the same
 * options always give the same bytes.
 */
import type { JsonObject } from "../src/json/value.js";
import { sha256Hex, utf8 } from "../src/util/bytes.js";
import { uuidFromLabel, type ArtifactSpec, type MessageSpec } from "./a2a.js";
import type { DeliveryMode, EvidenceLevel, EvidenceStatus, TaskState } from "./constants.js";
import { ProducerError } from "./errors.js";
import type { ContinuityOptions } from "./witness.js";

export interface RequirementOptions {
  readonly requirement: "REQUIRED" | "PREFERRED";
  readonly minimumEvidence: EvidenceLevel;
  readonly maximumRegistrationDelaySeconds: number;
  readonly deliveryModes: readonly DeliveryMode[];
  readonly requireTask: boolean;
}

export interface WitnessOptions {
  readonly url: string;
  /** Receipt signature algorithm (default EdDSA). */
  readonly alg?: "EdDSA" | "ES256";
  /** Label the service's key seed is derived from (default: the url). */
  readonly keyLabel?: string;
  /** Entries in the service's RFC 9162 log (default 1). */
  readonly treeSize?: number;
  /** Our entry's index in it (default: the last entry). */
  readonly leafIndex?: number;
  /** How the trust file labels the service (default independent). */
  readonly operator?: "independent" | "producer";
  /** A stub record (`is_stub`), which no trust file lists and which never counts. */
  readonly stub?: boolean;
  /** POSIX seconds the receipt's protected header states as its CWT `iat` (claim 6 of label 15); default none. */
  readonly iat?: number;
}

/**
 * A transcript entry for a transition into or out of an interrupted state (docs/profile.md, v3.2
 * additions). It is bound to the Message entry just before it — the agent's request for input or
 * authentication, or the resuming Message — unless `bound` is false (authentication completed out
 * of band, or the Task ended while paused).
 */
export interface TransitionSpec {
  readonly transition: { readonly from: TaskState; readonly to: TaskState };
  readonly bound?: boolean;
}

export type TranscriptSpec = MessageSpec | TransitionSpec;

export function isTransition(t: TranscriptSpec): t is TransitionSpec {
  return "transition" in t;
}

/** An interim record (§8.1.6), sealed when the Task entered the interrupted state of one transition. */
export interface InterimSpec {
  /** Index in `transcript` of the transition into the interrupted state it is sealed at. */
  readonly at: number;
  /**
   * Its checkpoint: the terminal record's ("final"; the interim bundle as re-issued with the latest
   * checkpoint) or its own, signed before the terminal record was appended ("own", default); or
   * "both": the record under its own checkpoint and re-issued under the terminal one, both supplied.
   */
  readonly checkpoint?: "final" | "own" | "both";
  /** Where its leaf is: before the terminal record's (default), or after it (a negative). */
  readonly leaf?: "before" | "after";
  /** Sealed in another log than the terminal record (a negative). */
  readonly otherLog?: boolean;
  /** Signed by another producer key (a negative). */
  readonly producerKeyLabel?: string;
  /** Supplied with the terminal Task in the capture's `interimBundles` (default true). */
  readonly supplied?: boolean;
}

/** A Traceability trace (a2a-wire.md §5) in the terminal Task's metadata. */
export interface TraceMetadataOptions {
  readonly trace: Record<string, unknown>;
  /** The payload carries its digest (the capture policy includes the trace). */
  readonly digested: boolean;
}

export interface PriorCheckpointOptions {
  /** Leaves in the log when the prior checkpoint was signed; 1 ≤ leafCount < total leaves. */
  readonly leafCount: number;
  readonly timestamp?: string;
  /** Signed by another producer key than the record (a key rotation between the two checkpoints). */
  readonly keyLabel?: string | null;
}

/**
 * Hooks that change one object at one stage, to build single-mutation negatives:
 * - `payload` runs before sealing: the producer commits to a wrong observation, and every digest,
 *   signature and proof downstream is consistent with it;
 * - `manifest` runs after signing but before coreManifestDigest: a wrong proof or checkpoint,
 *   digested consistently (no signature covers the manifest digest);
 * - `bundle` runs after every digest: the record as altered in transit;
 * - `finalTask`, `firstTask`, `trust` change what the caller observed or configured.
 */
export interface Tamper {
  readonly payload?: (payload: JsonObject) => void;
  /** As `payload`, `manifest` and `bundle`, for the interim record at this index of `interim`. */
  readonly interimPayload?: (payload: JsonObject, index: number) => void;
  readonly interimManifest?: (manifest: JsonObject, index: number) => void;
  readonly interimBundle?: (bundle: JsonObject, index: number) => void;
  readonly manifest?: (manifest: JsonObject) => void;
  readonly bundle?: (bundle: JsonObject) => void;
  readonly finalTask?: (task: JsonObject) => void;
  readonly firstTask?: (task: JsonObject) => void;
  readonly trust?: (trust: JsonObject) => void;
}

export type Carrier = "raw" | "data" | "inline";
/** `paused`: the GetTask response while the Task waits in the interrupted state its transcript ends in. */
export type Envelope = "jsonrpc" | "task" | "stream" | "capture" | "paused";

export type TerminalState =
  "TASK_STATE_COMPLETED" | "TASK_STATE_FAILED" | "TASK_STATE_CANCELED" | "TASK_STATE_REJECTED";

export interface ExchangeOptions {
  readonly taskId?: string;
  readonly contextId?: string;
  readonly authority?: string;
  readonly tenantId?: string | null;
  readonly capturePolicyId?: string;
  /**
   * Commit each Part of every transcript and artifact entry (`partCommitments`,
   * part-commitments.md); default: under the capture policy a2a-server-boundary-v2 only.
   */
  readonly partCommitments?: boolean;
  /** The Task history, in order, with any transitions; the first message carries the requirement. */
  readonly transcript?: readonly TranscriptSpec[];
  /** The state the Task ends in (default COMPLETED). */
  readonly terminalState?: TerminalState;
  /** Interim records sealed at pauses (§8.1.6). */
  readonly interim?: readonly InterimSpec[];
  readonly traceMetadata?: TraceMetadataOptions | null;
  /** With evidenceStatus FAILED: the reference's typed failureReason. */
  readonly failureReason?: string | null;
  /** Build the terminal record's inclusion proof at this many leaves instead of the checkpoint's (a stale proof). */
  readonly inclusionProofLeaves?: number | null;
  readonly artifacts?: readonly ArtifactSpec[];
  /** Producer log leaves appended before our record, and after it, before the checkpoint. */
  readonly leavesBefore?: number;
  readonly leavesAfter?: number;
  readonly priorCheckpoint?: PriorCheckpointOptions | null;
  readonly witnesses?: readonly WitnessOptions[];
  /** Continuity witnesses that cosign the checkpoints (continuityEvidence) and the trust file's sections for them. */
  readonly continuity?: ContinuityOptions | null;
  readonly carrier?: Carrier;
  readonly envelope?: Envelope;
  /** Claimed status; default EXTERNALLY_REGISTERED with a real witness, else SIGNED_RECORD. */
  readonly evidenceStatus?: EvidenceStatus;
  readonly requirement?: Partial<RequirementOptions>;
  readonly sealTime?: string;
  readonly capsuleTimestamp?: string;
  readonly checkpointTimestamp?: string;
  readonly statusTimestamp?: string;
  readonly actionId?: string;
  readonly logId?: string;
  readonly operator?: string;
  readonly developer?: string;
  readonly producerKeyLabel?: string;
  readonly jsonRpcId?: number | string;
  readonly tamper?: Tamper;
}

export type ResolvedOptions = Required<
  Omit<
    ExchangeOptions,
    | "priorCheckpoint"
    | "requirement"
    | "evidenceStatus"
    | "continuity"
    | "traceMetadata"
    | "failureReason"
    | "inclusionProofLeaves"
  >
> & {
  readonly traceMetadata: TraceMetadataOptions | null;
  readonly failureReason: string | null;
  readonly inclusionProofLeaves: number | null;
  readonly priorCheckpoint: Required<PriorCheckpointOptions> | null;
  readonly continuity: ContinuityOptions | null;
  readonly requirement: RequirementOptions;
  readonly evidenceStatus: EvidenceStatus;
};

export const DEFAULT_TS_URL = "https://ts.a2a-evidence.example";

function defaultTranscript(): MessageSpec[] {
  return [{ messageId: uuidFromLabel("message-0"), role: "ROLE_USER", parts: ["seal this exchange"] }];
}

function defaultArtifacts(): ArtifactSpec[] {
  return [{ artifactId: uuidFromLabel("artifact-0"), name: "response", parts: ["SEAL THIS EXCHANGE"] }];
}

function nonNegativeInteger(name: string, n: number): number {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new ProducerError("PRODUCER_INVALID_OPTION", `${name} must be a non-negative integer, got ${n}`);
  return n;
}

export function resolveOptions(o: ExchangeOptions): ResolvedOptions {
  const transcript = o.transcript ?? defaultTranscript();
  if (transcript.length === 0 || isTransition(transcript[0] as TranscriptSpec)) {
    throw new ProducerError("PRODUCER_INVALID_OPTION", "the transcript needs the request message first");
  }
  const leavesBefore = nonNegativeInteger("leavesBefore", o.leavesBefore ?? 0);
  const leavesAfter = nonNegativeInteger("leavesAfter", o.leavesAfter ?? 0);
  const totalLeaves = leavesBefore + 1 + leavesAfter;
  const prior = o.priorCheckpoint ?? null;
  if (
    prior !== null &&
    (!Number.isSafeInteger(prior.leafCount) || prior.leafCount < 1 || prior.leafCount >= totalLeaves)
  ) {
    // A checkpoint chain needs mmr_size > prev_size > 0 (log-and-receipts.md §4.4).
    throw new ProducerError(
      "PRODUCER_INVALID_OPTION",
      `prior checkpoint at ${prior.leafCount} leaves is not in 1..${totalLeaves - 1}`,
    );
  }
  const witnesses = o.witnesses ?? [{ url: DEFAULT_TS_URL }];
  const witnessed = witnesses.some((w) => w.stub !== true);
  const carrier = o.carrier ?? "raw";
  const level: EvidenceLevel = witnessed ? "EXTERNALLY_REGISTERED" : "SIGNED_RECORD";
  return {
    taskId: o.taskId ?? uuidFromLabel("task"),
    contextId: o.contextId ?? uuidFromLabel("context"),
    authority: o.authority ?? "a2a-evidence-producer.example",
    tenantId: o.tenantId === undefined ? null : o.tenantId,
    capturePolicyId: o.capturePolicyId ?? "a2a-server-boundary-v1",
    partCommitments: o.partCommitments ?? o.capturePolicyId === "a2a-server-boundary-v2",
    transcript,
    terminalState: o.terminalState ?? "TASK_STATE_COMPLETED",
    interim: o.interim ?? [],
    traceMetadata: o.traceMetadata ?? null,
    failureReason: o.failureReason ?? null,
    inclusionProofLeaves: o.inclusionProofLeaves ?? null,
    artifacts: o.artifacts ?? defaultArtifacts(),
    leavesBefore,
    leavesAfter,
    priorCheckpoint:
      prior === null
        ? null
        : {
            leafCount: prior.leafCount,
            timestamp: prior.timestamp ?? "2026-10-01T09:00:00.000000Z",
            keyLabel: prior.keyLabel ?? null,
          },
    witnesses,
    continuity: o.continuity ?? null,
    carrier,
    envelope: o.envelope ?? "jsonrpc",
    evidenceStatus: o.evidenceStatus ?? `EVIDENCE_STATUS_${level}`,
    requirement: {
      requirement: "REQUIRED",
      minimumEvidence: level,
      maximumRegistrationDelaySeconds: 60,
      deliveryModes: [carrier === "inline" ? "INLINE_METADATA" : "EVIDENCE_ARTIFACT"],
      requireTask: true,
      ...o.requirement,
    },
    sealTime: o.sealTime ?? "2026-10-01T09:30:00.250000+00:00",
    capsuleTimestamp: o.capsuleTimestamp ?? "2026-10-01T09:30:00.250412Z",
    checkpointTimestamp: o.checkpointTimestamp ?? "2026-10-01T09:30:00.254107Z",
    statusTimestamp: o.statusTimestamp ?? "2026-10-01T09:30:00.271830Z",
    actionId: o.actionId ?? `a2a.task_evidence.v1/${uuidFromLabel("action")}`,
    logId: o.logId ?? sha256Hex(utf8("a2a-evidence producer log")),
    operator: o.operator ?? "a2a-evidence-producer",
    developer: o.developer ?? "a2a-evidence/producer@v1",
    producerKeyLabel: o.producerKeyLabel ?? "producer",
    jsonRpcId: o.jsonRpcId ?? 1,
    tamper: o.tamper ?? {},
  };
}
