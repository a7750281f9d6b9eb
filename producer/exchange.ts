/**
 * One complete A2A Task Evidence exchange, built the way the reference server builds it
 * (a2a-wire.md §6): the request Message with the requirement, the first Task with the explicit
 * acceptance, the payload projected from the terminal Task, the sealed capsule, the producer's
 * log, checkpoint and witness receipts, the manifest and its digest, the bundle as pyjson bytes
 * in the evidence Artifact, and the reference object on the Artifact and on the Task.
 *
 * Unlike the reference, the payload names the Task's real artifact ids, and its transcript has one
 * entry per Message of the history, in order.
 */
import type { JsonObject } from "../src/json/value.js";
import { bytesToBase64 } from "../src/util/bytes.js";
import { artifactJson, messageJson, textCommitment } from "./a2a.js";
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
import { ed25519FromSeed, seedFromLabel } from "./ed25519.js";
import { getTaskResponse, wrapInput } from "./envelope.js";
import { copyObject, int, jsonObject, pyjsonBytes, pyjsonDigestHex, pythonFloat } from "./json-text.js";
import { buildLog, type TransparencyServiceKey } from "./log.js";
import { resolveOptions, type ExchangeOptions, type ResolvedOptions } from "./options.js";
import { trustFile } from "./trust.js";

const TERMINAL_STATE = "TASK_STATE_COMPLETED";

export interface Exchange {
  readonly firstTask: JsonObject;
  readonly finalTask: JsonObject;
  /** `{"jsonrpc":"2.0","id":…,"result":<finalTask>}`, what GetTask over JSON-RPC returns. */
  readonly getTaskResponse: JsonObject;
  /** The verifier input in the chosen envelope. */
  readonly input: JsonObject;
  readonly bundle: JsonObject;
  /** pyjson(bundle): the bytes base64-encoded in the evidence Artifact's `raw` part. */
  readonly bundleBytes: Uint8Array;
  /** The contract §5 trust file for this exchange. */
  readonly trust: JsonObject;
  readonly keys: {
    readonly producer: { readonly publicKeyHex: string; readonly publicKeyPem: string };
    readonly transparencyServices: readonly TransparencyServiceKey[];
  };
}

function taskEvidencePayload(o: ResolvedOptions): JsonObject {
  return jsonObject({
    authority: o.authority,
    capturePolicyId: o.capturePolicyId,
    contextId: o.contextId,
    nonEvidenceArtifacts: o.artifacts.map((a) => ({ artifactId: a.artifactId, contentCommitment: textCommitment(a.parts), name: a.name })),
    sealTime: o.sealTime,
    taskId: o.taskId,
    tenantId: o.tenantId,
    terminalState: TERMINAL_STATE,
    transcript: o.transcript.map((m, sequence) => ({
      messageId: m.messageId,
      partCommitment: textCommitment(m.parts),
      role: m.role,
      sequence: int(sequence),
    })),
  });
}

/** The request Message's `metadata[EXT]`, as it comes back from a Python server (`60.0`). */
function requirementJson(o: ResolvedOptions): JsonObject {
  const r = o.requirement;
  return jsonObject({
    deliveryModes: [...r.deliveryModes],
    maximumRegistrationDelaySeconds: pythonFloat(r.maximumRegistrationDelaySeconds),
    minimumEvidence: r.minimumEvidence,
    recordProfile: RECORD_PROFILE,
    requireTask: r.requireTask,
    requirement: r.requirement,
  });
}

function history(o: ResolvedOptions): JsonObject[] {
  return o.transcript.map((m, i) =>
    messageJson(m, {
      taskId: o.taskId,
      contextId: o.contextId,
      ...(i === 0 ? { extensions: [EXTENSION_URI], metadata: jsonObject({ [EXTENSION_URI]: requirementJson(o) }) } : {}),
    }),
  );
}

function evidenceArtifact(o: ResolvedOptions, bundle: JsonObject, bundleBytes: Uint8Array, reference: JsonObject): JsonObject {
  const part =
    o.carrier === "data"
      ? { data: copyObject(bundle), mediaType: EVIDENCE_MEDIA_TYPE }
      : { filename: EVIDENCE_FILENAME, mediaType: EVIDENCE_MEDIA_TYPE, raw: bytesToBase64(bundleBytes) };
  return jsonObject({
    artifactId: EVIDENCE_ARTIFACT_ID,
    extensions: [EXTENSION_URI],
    metadata: { [EXTENSION_URI]: copyObject(reference) },
    name: EVIDENCE_ARTIFACT_ID,
    parts: [part],
  });
}

export function buildExchange(options: ExchangeOptions = {}): Exchange {
  const o = resolveOptions(options);
  const signer = ed25519FromSeed(seedFromLabel(o.producerKeyLabel));
  const messages = history(o);

  const payload = taskEvidencePayload(o);
  o.tamper.payload?.(payload);
  const evidenceId = pyjsonDigestHex(payload);
  const capsule = sealCapsule(
    { evidenceId, terminalState: TERMINAL_STATE, actionId: o.actionId, timestamp: o.capsuleTimestamp, operator: o.operator, developer: o.developer },
    signer,
  );
  const log = buildLog(o, capsule.capsule_id as string, signer);

  const manifest = jsonObject({
    capturePolicyId: o.capturePolicyId,
    cllCheckpoint: log.cllCheckpoint,
    consistencyProof: log.consistencyProof,
    localInclusionProof: log.localInclusionProof,
    priorCheckpoint: log.priorCheckpoint,
    producerEnvelope: producerEnvelopeOf(capsule),
    taskEvidencePayload: copyObject(payload),
  });
  o.tamper.manifest?.(manifest);
  const coreManifestDigest = pyjsonDigestHex(manifest);

  const reference = jsonObject({
    coreManifestDigest,
    coverageScope: COVERAGE_SCOPE,
    deliveryMode: o.carrier === "inline" ? "INLINE_METADATA" : "EVIDENCE_ARTIFACT",
    evidenceId,
    evidenceStatus: o.evidenceStatus,
    extensionVersion: EXTENSION_VERSION,
    recordProfile: RECORD_PROFILE,
    terminalState: TERMINAL_STATE,
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
  });
  o.tamper.bundle?.(bundle);
  const bundleBytes = pyjsonBytes(bundle);

  const artifacts = o.artifacts.map(artifactJson);
  if (o.carrier !== "inline") artifacts.push(evidenceArtifact(o, bundle, bundleBytes, reference));
  const finalTask = jsonObject({
    artifacts,
    contextId: o.contextId,
    history: messages,
    id: o.taskId,
    // The Python SDK merges the final status update's metadata into Task.metadata, which replaces
    // the acceptance object wholesale (a2a-wire.md §6.5).
    metadata: { [EXTENSION_URI]: o.carrier === "inline" ? copyObject(bundle) : copyObject(reference) },
    status: { state: TERMINAL_STATE, timestamp: o.statusTimestamp },
  });
  o.tamper.finalTask?.(finalTask);

  const firstTask = jsonObject({
    contextId: o.contextId,
    history: [copyObject(messages[0] as JsonObject)],
    id: o.taskId,
    metadata: {
      [EXTENSION_URI]: {
        evidenceAcceptance: {
          maximumRegistrationDelaySeconds: pythonFloat(o.requirement.maximumRegistrationDelaySeconds),
          minimumEvidence: o.requirement.minimumEvidence,
          recordProfile: RECORD_PROFILE,
          state: "ACCEPTED",
        },
        evidenceStatus: "EVIDENCE_STATUS_PENDING",
      },
    },
    status: { state: "TASK_STATE_SUBMITTED" },
  });
  o.tamper.firstTask?.(firstTask);

  const trust = trustFile(o.authority, signer.publicKeyHex, log.transparencyServices);
  o.tamper.trust?.(trust);

  return {
    firstTask,
    finalTask,
    getTaskResponse: getTaskResponse(o.jsonRpcId, finalTask),
    input: wrapInput(o.envelope, o.jsonRpcId, firstTask, finalTask),
    bundle,
    bundleBytes,
    trust,
    keys: {
      producer: { publicKeyHex: signer.publicKeyHex, publicKeyPem: signer.publicKeyPem },
      transparencyServices: log.transparencyServices,
    },
  };
}
