/**
 * The explanation `a2a-evidence inspect` prints: every derivation step an auditor would redo by
 * hand, in the order each value commits to the one before, with the values it compared. The
 * JSON form is this object (schemas/inspect.schema.json).
 *
 * It holds no verdict and no policy: no property state, no exit code. A comparison says whether
 * two values are equal, a signature whether it verifies — what the bytes say, never what a caller
 * should conclude. Strings that came from the input are kept as they are here; the renderers make
 * them printable.
 */
import type { Carrier } from "../input/locate.js";
import type { InputShape } from "../input/classify.js";
import type { Absent, Bytes, Listed, Narrowed, ObservedText, SignatureResult, StepFailure } from "./model-base.js";
import type { CommitmentsSection } from "./model-commitments.js";

export * from "./model-base.js";
export type * from "./model-commitments.js";

export const INSPECT_VERSION = 1;

export interface Copy {
  readonly location: string;
  readonly carrier: Carrier;
  /** The evidence Artifact that carried it, for artifact carriers. */
  readonly artifactId: string | null;
  /** The copy the properties are computed over (the first: exact bytes preferred). */
  readonly verified: boolean;
}

export interface LocationSection {
  readonly copies: Listed<Copy>;
  readonly verified: string;
  readonly carrier: Carrier;
  /** A raw part's decoded bytes: exactly the producer's, what `base64 -d` of the part gives. */
  readonly bytes: Bytes | null;
  /** What the carrier means for the bytes: exact, or passed through protobuf doubles. */
  readonly carrierNote: string;
  readonly structuredCarrier: boolean;
  readonly recordProfile: string | null;
  readonly extensionVersion: string | null;
}

/** evidenceId and coreManifestDigest: SHA-256 of the pyjson bytes of one member. */
export interface DigestSection {
  /** The member hashed, as a JSON path in the bundle. */
  readonly of: string;
  readonly rule: string;
  readonly preimage: Bytes | null;
  /** Numbers hashed as written, not as Python prints integers. */
  readonly numberFlags: Listed<string>;
  readonly recomputed: string | null;
  /** Where the claimed value sits in the bundle. */
  readonly claimedAt: string;
  readonly claimed: string | null;
  readonly equal: boolean;
  readonly narrowed?: Narrowed;
  readonly failure?: StepFailure;
}

export interface CapsuleIdSection {
  readonly formatVersion: string | null;
  readonly rule: string;
  /** Top-level members left out of the identity form. */
  readonly excluded: readonly string[];
  readonly preimage: Bytes | null;
  readonly recomputed: string | null;
  readonly carried: string | null;
  readonly equal: boolean;
  readonly narrowed?: Narrowed;
  /** The capsule_id the Producer Envelope must sign (what verify checks it against). */
  readonly signedId: string | null;
  readonly failure?: StepFailure;
}

export interface AgentDigestsSection {
  /** model_attestation.compute_attestation.agent_input_digest, and the evidenceId it must equal. */
  readonly agentInputDigest: string | null;
  readonly evidenceId: string | null;
  readonly inputEqual: boolean;
  readonly terminalState: string | null;
  /** JCS of {"terminalState": <payload terminalState>}. */
  readonly outputPreimage: Bytes | null;
  readonly outputRecomputed: string | null;
  readonly agentOutputDigest: string | null;
  readonly responseDigest: string | null;
  readonly failure?: StepFailure;
}

/** One COSE header parameter, decoded: label, its registered name, the value in CBOR diagnostic notation. */
export interface HeaderParameter {
  readonly label: string;
  readonly name: string | null;
  readonly value: string;
}

export interface CoseSection {
  readonly tag: 18;
  /** The protected header bstr, exactly as received: what the signature covers. */
  readonly protectedBytes: Bytes;
  readonly protected: readonly HeaderParameter[];
  readonly unprotected: readonly HeaderParameter[];
  /** Attached payload (hex), or null when detached. */
  readonly payload: string | null;
  readonly payloadLength: number | null;
  readonly signature: string;
  readonly signatureLength: number;
}

export interface EnvelopeSection {
  readonly at: string;
  /** The envelope's bytes (capsule.signature, hex-decoded); null when it is not hex. */
  readonly envelope: Bytes | null;
  readonly cose: CoseSection | null;
  /** The capsule_id the envelope was checked against (the recomputed one when it recomputes). */
  readonly signedId: string | null;
  readonly kid: string | null;
  /** The exact Sig_structure bytes the signature was checked over. */
  readonly sigStructure: Bytes | null;
  readonly result: SignatureResult;
  readonly failure?: StepFailure;
}

/** One climb of an MMR path: the parent at `position` hashes the node below and its sibling. */
export interface MmrFoldStep {
  readonly position: number;
  readonly sibling: string;
  readonly siblingSide: "left" | "right";
  readonly result: string;
}

/** One bagging fold: SHA-256(right ‖ left), `left` being peak `index`. */
export interface BagFoldStep {
  readonly index: number;
  readonly right: string;
  readonly left: string;
  readonly result: string;
}

export interface InclusionSection {
  readonly at: string;
  readonly mmrSize: number | null;
  readonly leafIndex: number | null;
  readonly leafPosition: number | null;
  /** The leaf's mountain: its index among `mountains`, its height and its peak's position. */
  readonly mountain: {
    readonly index: number;
    readonly of: number;
    readonly height: number;
    readonly peak: number;
  } | null;
  readonly leafBody: string | null;
  readonly leafHash: string | null;
  readonly folds: readonly MmrFoldStep[];
  readonly peaks: readonly string[];
  readonly peakIndex: number | null;
  readonly bagging: readonly BagFoldStep[];
  readonly root: string | null;
  readonly checkpointRoot: string | null;
  readonly equal: boolean;
  readonly failure?: StepFailure;
}

export interface CheckpointSection {
  readonly at: string;
  /** Read with widened numbers written back as integers (structured carrier): a reconstruction. */
  readonly reconstructed: boolean;
  readonly logId: string | null;
  readonly mmrSize: number | null;
  /** The bagged MMR root the checkpoint commits to. */
  readonly root: string | null;
  readonly prevSize: number | null;
  readonly prevRoot: string | null;
  readonly timestamp: string | null;
  /** pyjson of the nine signed members, always with its text. */
  readonly signingBody: Bytes | null;
  /** SHA-256 of the signing body: its 64 lowercase hex characters are what is signed, as ASCII. */
  readonly digest: string | null;
  readonly keyId: string | null;
  readonly signature: string | null;
  readonly result: SignatureResult;
  /** SHA-256 of the raw 32-byte digest: what a Transparency Service registers. */
  readonly entryHash: string | null;
  readonly failure?: StepFailure;
}

export interface PathFoldStep {
  readonly index: number;
  readonly sibling: string;
  readonly siblingSide: "left" | "right";
  readonly result: string;
}

export interface ReceiptProof {
  readonly kind: "RFC9162_SHA256" | "CCF_LEDGER_SHA256";
  readonly treeSize: number | null;
  readonly leafIndex: number | null;
  /** CCF only: the leaf's three components. */
  readonly writeSetDigest?: string;
  readonly commitEvidence?: string;
  readonly claimsDigest?: string;
  readonly leafHash: string | null;
  readonly folds: readonly PathFoldStep[];
}

export interface ReceiptRecord {
  readonly at: string;
  readonly tsUrl: string | null;
  readonly stub: boolean;
  readonly entryHash: { readonly stated: string | null; readonly recomputed: string; readonly equal: boolean } | null;
  readonly receipt: Bytes | null;
  readonly cose: CoseSection | null;
  readonly vds: number | null;
  readonly proof: ReceiptProof | null;
  readonly proofCount: number | null;
  readonly root: string | null;
  /** tree_size and leaf_index as the witness record states them. */
  readonly recordPosition: { readonly treeSize: string; readonly leafIndex: string } | null;
  readonly sigStructure: Bytes | null;
  readonly signature: SignatureResult;
  /** Why the signature is not checked, or which pinned key it verifies (or fails) under. */
  readonly signatureDetail: string;
  readonly key: string | null;
  readonly trustPath: string | null;
  readonly failure?: StepFailure;
}

export interface ReceiptsSection {
  readonly at: string;
  readonly records: Listed<ReceiptRecord>;
}

export interface ConsistencyClimb {
  readonly oldPeak: number;
  readonly newPeak: number;
  readonly folds: readonly MmrFoldStep[];
  readonly top: string;
  readonly equal: boolean;
}

export interface ConsistencySection {
  readonly at: string;
  readonly sizeA: number;
  readonly sizeB: number;
  readonly oldPeaks: readonly string[];
  readonly newPeaks: readonly string[];
  readonly oldBagged: string | null;
  readonly newBagged: string | null;
  readonly climbs: readonly ConsistencyClimb[];
}

export interface NoteSection {
  readonly checkpoint: "current" | "prior";
  readonly origin: string | null;
  readonly leafCount: number | null;
  readonly rootBase64: string | null;
  /** The note text a witness signs, rendered from the checkpoint (never taken from the bundle). */
  readonly text: string | null;
  readonly failure?: StepFailure;
}

export interface CosignatureLine {
  readonly at: string;
  readonly line: string;
  readonly checkpoint: "current" | "prior";
  readonly name: string | null;
  readonly keyId: string | null;
  /** An exact repeat of an earlier line for the same checkpoint: counted once. */
  readonly duplicate: boolean;
  /** The trust-file witness whose (name, key ID) it names, when one does. */
  readonly witness: string | null;
  readonly trustPath: string | null;
  readonly timestamp: string | null;
  /** "cosignature/v1\ntime <T>\n" ‖ the note: the bytes the Ed25519 signature covers. */
  readonly signedMessage: Bytes | null;
  readonly result: SignatureResult;
  readonly detail: string;
}

export interface ContinuitySection {
  readonly prior: CheckpointSection | null;
  readonly consistency: ConsistencySection | null;
  /** How the chain rule (prev_size, prev_root, the consistency proof) ended, in verify's words. */
  readonly chain: {
    readonly outcome: "first" | "chained" | "prior-missing" | "broken" | "not-checked";
    readonly detail: string;
    readonly code?: string;
  };
  readonly notes: readonly NoteSection[];
  readonly lines: Listed<CosignatureLine>;
  /** Carrier problems: a malformed continuityEvidence, an unusable --cosignatures file, other types. */
  readonly problems: readonly string[];
}

export interface KeyMatch {
  /** What the key is in the evidence: the capsule's key_id, a Transparency Service's, a witness's. */
  readonly role: string;
  readonly key: string;
  /** JSON paths of the trust-file entries that pin it (empty: none). */
  readonly matches: readonly string[];
  readonly detail: string;
  /** The window the trust file gives the key (contract §5.1), when it gives one. */
  readonly window?: string;
  /** With a window: the trusted time its signature is judged at, and where that time came from. */
  readonly judgedAt?: string;
}

export interface KeysSection {
  readonly trust: "none" | "native" | "reference";
  readonly keys: Listed<KeyMatch>;
}

/** Two values an interim record and the record it is compared with must share. */
export interface Comparison {
  readonly what: string;
  readonly interim: string;
  readonly other: string;
  readonly equal: boolean;
}

/** A citation of an interim record in the terminal payload's interimEvidence (docs/profile.md §3.2). */
export interface CitationRow {
  readonly at: string;
  readonly evidenceId: string | null;
  readonly sequence: number | null;
  /** The transcript entry at that sequence: its kind and the state it enters (null: no entry there). */
  readonly entry: { readonly kind: string | null; readonly toState: string | null } | null;
  /** Where the supplied record carrying that evidenceId was found; null when none is supplied. */
  readonly supplied: string | null;
  /** Why the citation is not followed: it is not a well-formed citation of a pause (verify's words). */
  readonly failure?: StepFailure;
}

/** A cited interim record against the terminal record (docs/profile.md §3.3, interim.prefix). */
export interface PrefixSection {
  readonly citation: string;
  readonly sequence: number;
  /** The bundle's recordProfile and extensionVersion, the payload's Task members, and the state it was sealed in. */
  readonly members: readonly Comparison[];
  /** Its transcript: how many entries, how many it must hold (sequence + 1), the first entry that differs. */
  readonly transcript: {
    readonly length: number;
    readonly expected: number;
    readonly firstDifference: {
      readonly index: number;
      readonly path: string;
      readonly interim: string;
      readonly other: string;
    } | null;
    readonly equal: boolean;
  };
  /** Each effect it recorded, and whether the terminal payload commits it identically. */
  readonly effects: Listed<{
    readonly artifactId: string | null;
    readonly kept: "identical" | "not committed" | "other content";
  }>;
  readonly effectsKept: boolean;
  /** Its own interimEvidence beside the terminal citations before it. */
  readonly citations: Comparison;
}

/** One consistency proof followed from an interim checkpoint towards the terminal one. */
export interface ChainStep {
  readonly fromSize: number;
  readonly toSize: number;
  /** Whose manifest carries it: the terminal record, or an interim record (its label). */
  readonly carriedBy: string;
  readonly consistency: ConsistencySection;
  readonly verifies: boolean;
  readonly failure?: StepFailure;
}

/** An interim record's place in the terminal record's log (interim.log). */
export interface LogRelation {
  readonly logId: Comparison;
  readonly leafIndex: { readonly interim: number; readonly terminal: number };
  readonly mmrSize: { readonly interim: number; readonly terminal: number };
  readonly root: { readonly interim: string; readonly terminal: string };
  /** The consistency proofs followed from the interim checkpoint's size towards the terminal one's. */
  readonly chain: readonly ChainStep[];
  /** The checkpoint the chain reached (the interim one when it has no step), and its root. */
  readonly reached: { readonly size: number; readonly root: string };
}

/** A paused Task an interim record came with, against what the record says of it (interim.observed). */
export interface PausedTaskSection {
  readonly task: string;
  readonly members: readonly Comparison[];
  readonly messages: Listed<{
    readonly messageId: string;
    readonly observed: ObservedText & { readonly role: string };
    /** The Message entry of that messageId in the interim transcript, and what it commits. */
    readonly entry: number | null;
    readonly role: string | null;
    readonly partCommitment: string | null;
    readonly inOrder: boolean;
    readonly equal: boolean;
  }>;
  readonly effects: Listed<{
    readonly artifactId: string;
    readonly observed: ObservedText;
    readonly contentCommitment: string | null;
    readonly equal: boolean;
  }>;
}

/** A record's own derivation, sections 1–7: the terminal record's, and each interim record's. */
export interface RecordDerivation {
  readonly location: LocationSection;
  readonly evidenceId: DigestSection | Absent;
  readonly coreManifestDigest: DigestSection | Absent;
  readonly capsuleId: CapsuleIdSection | Absent;
  readonly agentDigests: AgentDigestsSection | Absent;
  readonly producerEnvelope: EnvelopeSection | Absent;
  readonly inclusion: InclusionSection | Absent;
  readonly checkpoint: CheckpointSection | Absent;
}

/** One interim record, derived step by step as the terminal record is (sections 1–7), then related to it. */
export interface InterimRecordSection extends RecordDerivation {
  /** How verify's interim checks name it: "interim record <evidenceId> at <where>". */
  readonly label: string;
  /** The state its payload was sealed in (its terminalState member), and its sealTime (reported, never proof of time). */
  readonly sealedIn: string | null;
  readonly sealTime: string | null;
  /** Its capsule key_id and checkpoint key_id beside the terminal record's; null without a terminal record. */
  readonly signers: { readonly capsuleKey: Comparison; readonly checkpointKey: Comparison | null } | null;
  /** The citation that names it, when one does. */
  readonly citedBy: string | null;
  readonly prefix: PrefixSection | null;
  readonly log: LogRelation | null;
  /** Why it is not placed in the log: a checkpoint or inclusion proof that does not parse. */
  readonly logFailure?: string;
  readonly pausedTask: PausedTaskSection | null;
}

export interface InterimSection {
  /** taskEvidencePayload.interimEvidence, entry by entry. */
  readonly citations: Listed<CitationRow>;
  readonly citationsFailure?: StepFailure;
  /** The interim records supplied (a capture's interimBundles, --interim) or, for a pending Task, carried. */
  readonly records: Listed<InterimRecordSection>;
}

/**
 * A Task that has not ended (docs/profile.md §5): verify reports it as INPUT_EVIDENCE_PENDING
 * (exit 3) and verifies nothing. What can be explained is the Task's state and the interim records
 * it carries, each derived on its own.
 */
export interface PendingExplanation extends ExplanationHead {
  readonly pending: {
    readonly code: "INPUT_EVIDENCE_PENDING";
    /** verify's words. */
    readonly detail: string;
    readonly task: string;
    readonly state: string;
    readonly evidenceStatus: string | null;
  };
  readonly interim: InterimSection;
  readonly notes: Listed<string>;
}

/** What every explanation starts with: the tool, the input, how it was asked for. */
export interface ExplanationHead {
  readonly inspectVersion: typeof INSPECT_VERSION;
  readonly tool: { readonly name: "a2a-evidence"; readonly version: string };
  readonly source: string;
  readonly shape: InputShape;
  readonly options: {
    readonly bytes: boolean;
    readonly all: boolean;
    readonly trust: boolean;
    readonly cosignatures: boolean;
  };
}

export interface Explanation extends ExplanationHead, RecordDerivation {
  readonly receipts: ReceiptsSection | Absent;
  readonly continuity: ContinuitySection | Absent;
  readonly keys: KeysSection;
  readonly commitments: CommitmentsSection | Absent;
  readonly interim: InterimSection | Absent;
  readonly notes: Listed<string>;
}

/** What every section builder is given besides the evidence. */
export interface InspectOptions {
  /** Include the canonical bytes themselves, not only their length and SHA-256. */
  readonly bytes: boolean;
  /** No cap on lists (transcript entries, receipts, lines, copies). */
  readonly all: boolean;
}
