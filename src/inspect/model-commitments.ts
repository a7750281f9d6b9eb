/**
 * Section 11 of the explanation: the commitments to the observed Task — the transcript (Message
 * entries and transitions), the artifacts, what nothing commits, and the traces.
 */
import type { PartRow } from "../evidence/parts.js";
import type { Bytes, Listed, Narrowed, ObservedText, StepFailure } from "./model-base.js";

/**
 * A transition entry (docs/profile.md §2.4): its commitment recomputed as SHA-256 of pyjson of the
 * ten-element array, from the observed Task and the Message the entry is bound to.
 */
export interface TransitionRow {
  readonly fromState: string | null;
  readonly toState: string | null;
  readonly transitionCommitment: string | null;
  /** Members a transition entry must have and this one lacks, and members it carries beyond the six. */
  readonly missingMembers: readonly string[];
  readonly extraMembers: readonly string[];
  /** The observed Task's id and contextId ("" when absent): the preimage's second and third elements. */
  readonly taskId: string;
  readonly contextId: string;
  /** The bound Message's own taskId and contextId, as it carries them; null when bound to none or not observed. */
  readonly messageTaskId: string | null;
  readonly messageContextId: string | null;
  /** pyjson of the ten-element array; null when the entry or its Message cannot give one. */
  readonly preimage: Bytes | null;
  readonly recomputed: string | null;
  /**
   * A transition out of a pause bound to a resuming Message: the Task and context it names beside
   * this Task's. `sameContext` is null when it names no context (a Message continuing a Task may
   * leave contextId out: it names no other context).
   */
  readonly resumption: {
    readonly messageTaskId: string;
    readonly messageContextId: string;
    readonly taskId: string;
    readonly contextId: string;
    readonly sameTask: boolean;
    readonly sameContext: boolean | null;
  } | null;
  readonly failure?: StepFailure;
}

export interface TranscriptRow {
  readonly index: number;
  /** A v3.1 Message entry, or a v3.2 transition entry (an entry with a `kind` member). */
  readonly kind: "message" | "transition";
  readonly messageId: string | null;
  readonly role: string | null;
  readonly partCommitment: string | null;
  /** The observed Message of that messageId (for a transition, the Message it is bound to). */
  readonly observed: (ObservedText & { readonly role: string }) | null;
  /** Message: partCommitment equals the observed text's SHA-256; transition: the commitment recomputes. */
  readonly equal: boolean;
  readonly transition?: TransitionRow;
  /** With per-Part commitments: each observed Part beside its commitment. */
  readonly parts?: readonly PartRow[];
}

export interface ArtifactRow {
  readonly index: number;
  readonly artifactId: string | null;
  readonly name: string | null;
  readonly contentCommitment: string | null;
  readonly observed: (ObservedText & { readonly name: string | null }) | null;
  /** No observed artifact with that id: at most three with the same name, for an auditor's hint. */
  readonly sameName: readonly (ObservedText & { readonly artifactId: string })[];
  readonly equal: boolean;
  /** With per-Part commitments: each observed Part beside its commitment. */
  readonly parts?: readonly PartRow[];
}

export interface UncommittedItem extends ObservedText {
  readonly id: string;
}

/** A callee record a trace step cites: listed, never fetched or followed. */
export interface CalleeCitationRow {
  readonly step: string;
  readonly callee: string;
  readonly evidenceId: string;
}

/** A Traceability trace in metadata (docs/profile.md §4): the payload's digest of it, or none. */
export interface TraceRow {
  /** `traceDigests[i]` for a digest the payload carries; null for a trace it does not digest. */
  readonly entry: string | null;
  readonly holder: string | null;
  readonly id: string | null;
  readonly traceDigest: string | null;
  /** Where the trace sits in the observed Task; null when the holder shows none. */
  readonly at: string | null;
  /** pyjson of the value under the Traceability key. */
  readonly preimage: Bytes | null;
  readonly recomputed: string | null;
  readonly equal: boolean;
  readonly narrowed?: Narrowed;
  readonly callees: Listed<CalleeCitationRow>;
  /** What the row is: digested, informational, or why there is nothing to recompute. */
  readonly detail: string;
  readonly failure?: StepFailure;
}

export interface CommitmentsSection {
  /** Where the observed Task is: the input's own, or the --task file's. */
  readonly observedTask: string;
  readonly transcript: Listed<TranscriptRow>;
  /** Observed history (and status) messages no transcript entry names. */
  readonly uncommittedMessages: Listed<UncommittedItem>;
  readonly artifacts: Listed<ArtifactRow>;
  /** Observed content artifacts the payload does not commit to. */
  readonly uncommittedArtifacts: Listed<UncommittedItem>;
  /** Traces in the observed Task's metadata, and the payload's traceDigests. */
  readonly traces: Listed<TraceRow>;
}
