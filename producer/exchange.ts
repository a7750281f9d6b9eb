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
import { artifactJson, messageJson } from "./a2a.js";
import { EXTENSION_URI, RECORD_PROFILE, TRACEABILITY_METADATA_KEY } from "./constants.js";
import { ed25519FromSeed, seedFromLabel } from "./ed25519.js";
import { getTaskResponse, wrapInput } from "./envelope.js";
import { ProducerError } from "./errors.js";
import { copyObject, jsonObject, pythonFloat } from "./json-text.js";
import {
  artifactsAt,
  messagesOf,
  pausedState,
  requestMessage,
  sealTaskRecords,
  suppliedInterims,
} from "./lifecycle.js";
import { transparencyServiceKey, type TransparencyServiceKey } from "./log.js";
import { resolveOptions, type ExchangeOptions, type ResolvedOptions } from "./options.js";
import { evidenceArtifact, type SealedRecord } from "./seal.js";
import { trustFile } from "./trust.js";
import type { WitnessedLog } from "./witness.js";

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
  /** Every interim record sealed at a pause (§8.1.6), supplied in the capture or not. */
  readonly interimBundles: readonly JsonObject[];
  /** The contract §5 trust file for this exchange. */
  readonly trust: JsonObject;
  readonly keys: {
    readonly producer: { readonly publicKeyHex: string; readonly publicKeyPem: string };
    readonly transparencyServices: readonly TransparencyServiceKey[];
    readonly witnesses: WitnessedLog["keys"];
  };
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
  return messagesOf(o.transcript).map((m, i) =>
    messageJson(m, {
      taskId: o.taskId,
      contextId: o.contextId,
      ...(i === 0
        ? { extensions: [EXTENSION_URI], metadata: jsonObject({ [EXTENSION_URI]: requirementJson(o) }) }
        : {}),
    }),
  );
}

/** The first Task: SUBMITTED, the request Message, the explicit acceptance and PENDING (a2a-wire.md §6.4). */
function firstTaskOf(o: ResolvedOptions, messages: readonly JsonObject[]): JsonObject {
  return jsonObject({
    contextId: o.contextId,
    history: [copyObject(messages[0] as JsonObject)],
    id: o.taskId,
    metadata: { [EXTENSION_URI]: pendingMetadata(o) },
    status: { state: "TASK_STATE_SUBMITTED" },
  });
}

/** `metadata[EXT]` of a Task that has not ended: the acceptance, and the evidence status PENDING. */
function pendingMetadata(o: ResolvedOptions): JsonObject {
  return jsonObject({
    evidenceAcceptance: {
      maximumRegistrationDelaySeconds: pythonFloat(o.requirement.maximumRegistrationDelaySeconds),
      minimumEvidence: o.requirement.minimumEvidence,
      recordProfile: RECORD_PROFILE,
      state: "ACCEPTED",
    },
    evidenceStatus: "EVIDENCE_STATUS_PENDING",
  });
}

export function buildExchange(options: ExchangeOptions = {}): Exchange {
  const o = resolveOptions(options);
  if (o.envelope === "paused")
    throw new ProducerError(
      "PRODUCER_INVALID_OPTION",
      "a paused Task has no terminal exchange: use buildPausedExchange",
    );
  const messages = history(o);
  const terminalState = o.terminalState;

  const records = sealTaskRecords(o);
  const sealed = records.terminal as SealedRecord;
  const { bundle, bundleBytes, reference } = sealed;

  const artifacts = o.artifacts.map(artifactJson);
  if (o.carrier !== "inline") artifacts.push(evidenceArtifact(o, sealed));
  const finalTask = jsonObject({
    artifacts,
    contextId: o.contextId,
    history: messages,
    id: o.taskId,
    // The Python SDK merges the final status update's metadata into Task.metadata, which replaces
    // the acceptance object wholesale (a2a-wire.md §6.5); a Traceability trace sent with it lands
    // beside the reference (a2a-wire.md §5).
    metadata: {
      [EXTENSION_URI]: o.carrier === "inline" ? copyObject(bundle) : copyObject(reference),
      ...(o.traceMetadata !== null ? { [TRACEABILITY_METADATA_KEY]: o.traceMetadata.trace } : {}),
    },
    status: { state: terminalState, timestamp: o.statusTimestamp },
  });
  o.tamper.finalTask?.(finalTask);

  const firstTask = firstTaskOf(o, messages);
  o.tamper.firstTask?.(firstTask);

  const trust = trustFile(
    o.authority,
    sealed.producer.publicKeyHex,
    sealed.transparencyServices,
    sealed.witnessed ?? undefined,
  );
  o.tamper.trust?.(trust);
  const interimBundles = records.interims.map((r) => r.bundle);

  return {
    firstTask,
    finalTask,
    getTaskResponse: getTaskResponse(o.jsonRpcId, finalTask),
    input: wrapInput(
      o.envelope,
      o.jsonRpcId,
      firstTask,
      finalTask,
      suppliedInterims(o, records.interims, records.reissued),
    ),
    bundle,
    bundleBytes,
    interimBundles,
    trust,
    keys: {
      producer: sealed.producer,
      transparencyServices: sealed.transparencyServices,
      witnesses: sealed.witnessed?.keys ?? [],
    },
  };
}

/** A Task that paused and has not ended (§8.1): what GetTask shows while it waits. */
export interface PausedExchange {
  readonly pausedTask: JsonObject;
  /** The GetTask response: the verifier input. */
  readonly input: JsonObject;
  /** The interim records sealed so far; the last one is on the paused Task when `supplied`. */
  readonly interimBundles: readonly JsonObject[];
  readonly trust: JsonObject;
}

/**
 * The Task as GetTask returns it while it waits in the interrupted state its transcript ends in:
 * the agent's request as `status.message` (and, as the SDKs keep it, in the history), the effects
 * done so far, the evidence status PENDING — and, when an interim record was sealed at this pause,
 * its bundle in the evidence Artifact the terminal record will replace.
 */
export function buildPausedExchange(options: ExchangeOptions): PausedExchange {
  const o = resolveOptions(options);
  const last = o.transcript.length - 1;
  const state = pausedState(o.transcript, last);
  const messages = history(o);
  const { interims } = sealTaskRecords(o, false);
  const artifacts = artifactsAt(o, last).map(artifactJson);
  const atPause = o.interim.findIndex((spec) => spec.at === last);
  const delivered = atPause >= 0 && o.interim[atPause]?.supplied !== false ? interims[atPause] : undefined;
  if (delivered) artifacts.push(evidenceArtifact(o, delivered));
  const request = requestMessage(o.transcript, last);
  const requestJson = request === null ? undefined : messages[messagesOf(o.transcript).indexOf(request)];
  const pausedTask = jsonObject({
    artifacts,
    contextId: o.contextId,
    history: messages,
    id: o.taskId,
    metadata: { [EXTENSION_URI]: pendingMetadata(o) },
    status: { ...(requestJson ? { message: copyObject(requestJson) } : {}), state, timestamp: o.statusTimestamp },
  });
  o.tamper.finalTask?.(pausedTask);
  const trust = trustFile(
    o.authority,
    ed25519FromSeed(seedFromLabel(o.producerKeyLabel)).publicKeyHex,
    o.witnesses.filter((w) => w.stub !== true).map(transparencyServiceKey),
  );
  o.tamper.trust?.(trust);
  return {
    pausedTask,
    input: getTaskResponse(o.jsonRpcId, pausedTask),
    interimBundles: interims.map((r) => r.bundle),
    trust,
  };
}
