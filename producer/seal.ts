/**
 * Sealing one Task's evidence: the payload projected from the Task (content-binding.md §9.4), the
 * capsule that commits to it, the producer's log with its checkpoint and Transparency Service
 * receipts, the manifest and its digest, the reference object, and the bundle as pyjson bytes
 * (a2a-wire.md §6.6–§6.8).
 *
 * `buildExchange` seals an exchange it invents; `sealTaskEvidence` seals a Task somebody else
 * built — a live A2A server's — from the wire JSON of that Task's real history and artifacts, so
 * the record commits to exactly what a later GetTask will show. The terminal state is the
 * caller's: a server that fails a Task seals it as `TASK_STATE_FAILED` and still reports the
 * evidence level it achieved (a2a-wire.md §6.5: the evidence status says how well the outcome is
 * recorded, not whether the work succeeded).
 */
import type { JsonObject, JsonValue } from "../src/json/value.js";
import { bytesToBase64 } from "../src/util/bytes.js";
import { partCommitments, textCommitment, type ArtifactSpec, type PartSpec } from "./a2a.js";
import { producerEnvelopeOf, sealCapsule } from "./capsule.js";
import {
  COVERAGE_SCOPE,
  EVIDENCE_ARTIFACT_ID,
  EVIDENCE_FILENAME,
  EVIDENCE_MEDIA_TYPE,
  EXTENSION_URI,
  EXTENSION_VERSION,
  RECORD_PROFILE,
} from "./constants.js";
import { ed25519FromSeed, seedFromLabel, type Ed25519Signer } from "./ed25519.js";
import { ProducerError } from "./errors.js";
import { copyObject, int, jsonObject, pyjsonBytes, pyjsonDigestHex } from "./json-text.js";
import { buildLog, type LogPart, type TransparencyServiceKey } from "./log.js";
import {
  resolveOptions,
  type ExchangeOptions,
  type ResolvedOptions,
  type TerminalState,
  type TranscriptSpec,
} from "./options.js";
import { transcriptEntries } from "./transitions.js";
import { trustFile } from "./trust.js";
import { witnessLog, type WitnessedLog } from "./witness.js";

export type { TerminalState } from "./options.js";
export const TERMINAL_STATES = [
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_REJECTED",
] as const satisfies readonly TerminalState[];

/** Everything one sealing produces, before it is put on a Task. */
export interface SealedRecord {
  readonly evidenceId: string;
  readonly coreManifestDigest: string;
  readonly bundle: JsonObject;
  /** pyjson(bundle): the bytes base64-encoded in the evidence Artifact's `raw` part. */
  readonly bundleBytes: Uint8Array;
  /** The TaskEvidenceReference, for the evidence Artifact's and the terminal Task's metadata. */
  readonly reference: JsonObject;
  readonly producer: { readonly publicKeyHex: string; readonly publicKeyPem: string };
  readonly transparencyServices: readonly TransparencyServiceKey[];
  /** What the continuity witnesses cosigned, and the trust file's sections for them; null without witnesses. */
  readonly witnessed: WitnessedLog | null;
}

/** What a payload projects, when it is not the whole exchange (an interim record's view at a pause). */
export interface PayloadView {
  readonly transcript: readonly TranscriptSpec[];
  readonly artifacts: readonly ArtifactSpec[];
  /** Citations of interim records (docs/profile.md): evidenceId and the sequence of the transition each was sealed at. */
  readonly interimEvidence?: readonly { readonly evidenceId: string; readonly sequence: number }[];
  /** Digests of Traceability traces in metadata the capture policy includes. */
  readonly traceDigests?: readonly {
    readonly holder: "task" | "message" | "artifact";
    readonly id: string;
    readonly traceDigest: string;
  }[];
}

/**
 * The payload's projection of the Task (content-binding.md §9.4), with the v3.2 additions only
 * where there is something to add: transition entries in the transcript, interim citations, trace
 * digests (docs/profile.md). Without them it is byte for byte the v3.1 payload.
 */
export function taskEvidencePayload(o: ResolvedOptions, terminalState: string, view: PayloadView = o): JsonObject {
  const interim = view.interimEvidence ?? [];
  const traces = view.traceDigests ?? [];
  return jsonObject({
    authority: o.authority,
    capturePolicyId: o.capturePolicyId,
    contextId: o.contextId,
    ...(interim.length > 0
      ? { interimEvidence: interim.map((c) => ({ evidenceId: c.evidenceId, sequence: int(c.sequence) })) }
      : {}),
    nonEvidenceArtifacts: view.artifacts.map((a) => ({
      artifactId: a.artifactId,
      contentCommitment: textCommitment(a.parts),
      name: a.name,
      ...(o.partCommitments ? { partCommitments: partCommitments(a.parts) } : {}),
    })),
    sealTime: o.sealTime,
    taskId: o.taskId,
    tenantId: o.tenantId,
    terminalState,
    ...(traces.length > 0
      ? { traceDigests: traces.map((t) => ({ holder: t.holder, id: t.id, traceDigest: t.traceDigest })) }
      : {}),
    transcript: transcriptEntries(o, view.transcript, o.partCommitments),
  });
}

/** Where a record is sealed: its key and the times it stamps (an interim record has its own). */
export interface SealingOptions {
  readonly producerKeyLabel: string;
  readonly sealTime: string;
  readonly capsuleTimestamp: string;
  readonly actionId: string;
}

/** The payload's evidenceId and the capsule that commits to it, signed by the producer key. */
export function sealRecordCapsule(
  payload: JsonObject,
  terminalState: string,
  o: ResolvedOptions,
  at: SealingOptions = o,
): { evidenceId: string; capsule: JsonObject; signer: Ed25519Signer } {
  const signer = ed25519FromSeed(seedFromLabel(at.producerKeyLabel));
  const evidenceId = pyjsonDigestHex(payload);
  const capsule = sealCapsule(
    {
      evidenceId,
      terminalState,
      actionId: at.actionId,
      timestamp: at.capsuleTimestamp,
      operator: o.operator,
      developer: o.developer,
    },
    signer,
  );
  return { evidenceId, capsule, signer };
}

/** The hooks and claims of one record's assembly (the terminal record's come from the options). */
export interface AssemblyOptions {
  readonly manifest?: (manifest: JsonObject) => void;
  readonly bundle?: (bundle: JsonObject) => void;
  readonly evidenceStatus: string;
  readonly failureReason: string | null;
  /** Have the continuity witnesses cosign this record's checkpoints (the terminal record's only). */
  readonly witnessed: boolean;
}

/** The producer keys a witness enrols for the log: the record's, and the prior checkpoint's across a rotation. */
function enrolledKeys(o: ResolvedOptions, signer: Ed25519Signer): string[] {
  const rotated = o.priorCheckpoint?.keyLabel ?? null;
  return rotated === null
    ? [signer.publicKeyHex]
    : [signer.publicKeyHex, ed25519FromSeed(seedFromLabel(rotated)).publicKeyHex];
}

/** The manifest, coreManifestDigest, reference and bundle of a sealed capsule in its log. */
export function assembleRecord(
  payload: JsonObject,
  terminalState: string,
  sealed: { evidenceId: string; capsule: JsonObject; signer: Ed25519Signer },
  log: LogPart,
  o: ResolvedOptions,
  a: AssemblyOptions = {
    ...o.tamper,
    evidenceStatus: o.evidenceStatus,
    failureReason: o.failureReason,
    witnessed: true,
  },
): SealedRecord {
  const { evidenceId, capsule, signer } = sealed;
  // Witnesses see the checkpoints as the producer signed them, before any manifest hook runs.
  const witnessed =
    o.continuity === null || !a.witnessed ? null : witnessLog(o.continuity, log, o.logId, enrolledKeys(o, signer));
  const manifest = jsonObject({
    capturePolicyId: o.capturePolicyId,
    cllCheckpoint: log.cllCheckpoint,
    consistencyProof: log.consistencyProof,
    localInclusionProof: log.localInclusionProof,
    priorCheckpoint: log.priorCheckpoint,
    producerEnvelope: producerEnvelopeOf(capsule),
    taskEvidencePayload: copyObject(payload),
  });
  a.manifest?.(manifest);
  const coreManifestDigest = pyjsonDigestHex(manifest);

  const reference = jsonObject({
    coreManifestDigest,
    coverageScope: COVERAGE_SCOPE,
    deliveryMode: o.carrier === "inline" ? "INLINE_METADATA" : "EVIDENCE_ARTIFACT",
    evidenceId,
    evidenceStatus: a.evidenceStatus,
    extensionVersion: EXTENSION_VERSION,
    ...(a.failureReason !== null ? { failureReason: a.failureReason } : {}),
    recordProfile: RECORD_PROFILE,
    terminalState,
  });
  const bundle = jsonObject({
    capsule,
    coreManifestDigest,
    evidenceId,
    extensionVersion: EXTENSION_VERSION,
    manifest,
    recordProfile: RECORD_PROFILE,
    taskEvidencePayload: payload,
    taskEvidenceReference: copyObject(reference),
    // Outside the manifest, so not under coreManifestDigest: cosignatures are appended after sealing.
    ...(witnessed !== null && witnessed.evidence.length > 0 ? { continuityEvidence: witnessed.evidence } : {}),
  });
  a.bundle?.(bundle);
  return {
    evidenceId,
    coreManifestDigest,
    bundle,
    bundleBytes: pyjsonBytes(bundle),
    reference,
    producer: { publicKeyHex: signer.publicKeyHex, publicKeyPem: signer.publicKeyPem },
    transparencyServices: log.transparencyServices,
    witnessed,
  };
}

/**
 * Seals a payload: evidenceId, capsule, log, manifest, coreManifestDigest, reference, bundle.
 * `o.tamper.manifest` and `o.tamper.bundle` run at their stages (see `Tamper`).
 */
export function sealPayload(payload: JsonObject, terminalState: string, o: ResolvedOptions): SealedRecord {
  const sealed = sealRecordCapsule(payload, terminalState, o);
  return assembleRecord(
    payload,
    terminalState,
    sealed,
    buildLog(o, sealed.capsule.capsule_id as string, sealed.signer),
    o,
  );
}

/** The evidence Artifact (a2a-wire.md §6.5 step 2): the bundle in one part, the reference in its metadata. */
export function evidenceArtifact(
  o: Pick<ResolvedOptions, "carrier">,
  sealed: Pick<SealedRecord, "bundle" | "bundleBytes" | "reference">,
): JsonObject {
  const part =
    o.carrier === "data"
      ? { data: copyObject(sealed.bundle), mediaType: EVIDENCE_MEDIA_TYPE }
      : { filename: EVIDENCE_FILENAME, mediaType: EVIDENCE_MEDIA_TYPE, raw: bytesToBase64(sealed.bundleBytes) };
  return jsonObject({
    artifactId: EVIDENCE_ARTIFACT_ID,
    extensions: [EXTENSION_URI],
    metadata: { [EXTENSION_URI]: copyObject(sealed.reference) },
    name: EVIDENCE_ARTIFACT_ID,
    parts: [part],
  });
}

/** The Task as its server will present it, in wire JSON (ProtoJSON, plain JS values). */
export interface ObservedTaskView {
  readonly id: string;
  readonly contextId: string;
  /** Every Message the terminal Task's history will show, in order (a final status message included). */
  readonly history: readonly unknown[];
  /** Every non-evidence Artifact the terminal Task will carry. */
  readonly artifacts: readonly unknown[];
}

/** What a live producer chooses; everything about the Task itself comes from the view. */
export type TaskSealOptions = Omit<
  ExchangeOptions,
  "taskId" | "contextId" | "transcript" | "artifacts" | "carrier" | "envelope" | "tamper"
> & {
  readonly terminalState: TerminalState;
};

export interface SealedTask extends SealedRecord {
  /** The evidence Artifact to publish (wire JSON). */
  readonly artifact: JsonObject;
  /** The trust file a caller would pin for this producer and its Transparency Services. */
  readonly trust: JsonObject;
}

function asObject(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new ProducerError("PRODUCER_INVALID_OPTION", `${what} is not a JSON object`);
  return v as Record<string, unknown>;
}

function stringMember(o: Record<string, unknown>, name: string, what: string): string {
  const v = o[name];
  if (typeof v !== "string" || v === "")
    throw new ProducerError("PRODUCER_INVALID_OPTION", `${what}.${name} is not a non-empty string`);
  return v;
}

/** Text parts commit; any other part is carried as a non-text spec, which commitments skip (content-binding.md §6). */
function partSpecs(parts: unknown, what: string): PartSpec[] {
  if (!Array.isArray(parts)) throw new ProducerError("PRODUCER_INVALID_OPTION", `${what}.parts is not an array`);
  return parts.map((p, i) => {
    const part = asObject(p, `${what}.parts[${i}]`);
    return typeof part.text === "string" ? part.text : { data: null };
  });
}

/** Seals the evidence of a Task another program built, from the wire JSON of what it will show. */
export function sealTaskEvidence(view: ObservedTaskView, options: TaskSealOptions): SealedTask {
  if (!(TERMINAL_STATES as readonly string[]).includes(options.terminalState)) {
    throw new ProducerError("PRODUCER_INVALID_OPTION", `${String(options.terminalState)} is not a terminal Task state`);
  }
  const transcript = view.history.map((m, i) => {
    const message = asObject(m, `history[${i}]`);
    const role = stringMember(message, "role", `history[${i}]`);
    if (role !== "ROLE_USER" && role !== "ROLE_AGENT")
      throw new ProducerError("PRODUCER_INVALID_OPTION", `history[${i}].role ${role} is not a v1.0 role name`);
    return {
      messageId: stringMember(message, "messageId", `history[${i}]`),
      role,
      parts: partSpecs(message.parts, `history[${i}]`),
    } as const;
  });
  const artifacts = view.artifacts.map((a, i) => {
    const artifact = asObject(a, `artifacts[${i}]`);
    const name = artifact.name;
    return {
      artifactId: stringMember(artifact, "artifactId", `artifacts[${i}]`),
      // ProtoJSON omits an empty name; the payload states it as "".
      name: typeof name === "string" ? name : "",
      parts: partSpecs(artifact.parts, `artifacts[${i}]`),
    };
  });
  const { terminalState, ...rest } = options;
  const o = resolveOptions({
    ...rest,
    taskId: view.id,
    contextId: view.contextId,
    transcript,
    artifacts,
    carrier: "raw",
  });
  const sealed = sealPayload(taskEvidencePayload(o, terminalState), terminalState, o);
  return {
    ...sealed,
    artifact: evidenceArtifact(o, sealed),
    trust: trustFile(
      o.authority,
      sealed.producer.publicKeyHex,
      sealed.transparencyServices,
      sealed.witnessed ?? undefined,
    ),
  };
}

/** A sealed reference as plain JSON (what an SDK's `metadata` takes). */
export function plainJson(v: JsonValue): unknown {
  return JSON.parse(new TextDecoder().decode(pyjsonBytes(v)));
}

/** The times a live producer stamps, in the reference's formats (Python isoformat `+00:00`, RFC 3339 `Z`, microseconds). */
export function sealTimesAt(at: Date): Pick<ExchangeOptions, "sealTime" | "capsuleTimestamp" | "checkpointTimestamp"> {
  const micros = `${at.toISOString().slice(0, 23)}000`;
  return { sealTime: `${micros}+00:00`, capsuleTimestamp: `${micros}Z`, checkpointTimestamp: `${micros}Z` };
}

/**
 * The trust file for a live producer: its keys depend only on the key labels and witnesses in the
 * options, never on the Task, so sealing a placeholder Task yields the file every Task needs.
 */
export function producerTrust(options: Omit<TaskSealOptions, "terminalState"> = {}): JsonObject {
  const placeholder = { messageId: "trust-placeholder", role: "ROLE_USER", parts: [{ text: "" }] };
  return sealTaskEvidence(
    { id: "trust-placeholder", contextId: "trust-placeholder", history: [placeholder], artifacts: [] },
    { ...options, terminalState: "TASK_STATE_COMPLETED" },
  ).trust;
}
