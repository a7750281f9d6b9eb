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
import { EXTENSION_URI, RECORD_PROFILE } from "./constants.js";
import { getTaskResponse, wrapInput } from "./envelope.js";
import { copyObject, jsonObject, pythonFloat } from "./json-text.js";
import type { TransparencyServiceKey } from "./log.js";
import { resolveOptions, type ExchangeOptions, type ResolvedOptions } from "./options.js";
import { evidenceArtifact, sealPayload, taskEvidencePayload } from "./seal.js";
import { trustFile } from "./trust.js";
import type { WitnessedLog } from "./witness.js";

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
  return o.transcript.map((m, i) =>
    messageJson(m, {
      taskId: o.taskId,
      contextId: o.contextId,
      ...(i === 0 ? { extensions: [EXTENSION_URI], metadata: jsonObject({ [EXTENSION_URI]: requirementJson(o) }) } : {}),
    }),
  );
}

export function buildExchange(options: ExchangeOptions = {}): Exchange {
  const o = resolveOptions(options);
  const messages = history(o);

  const payload = taskEvidencePayload(o, TERMINAL_STATE);
  o.tamper.payload?.(payload);
  const sealed = sealPayload(payload, TERMINAL_STATE, o);
  const { bundle, bundleBytes, reference } = sealed;

  const artifacts = o.artifacts.map(artifactJson);
  if (o.carrier !== "inline") artifacts.push(evidenceArtifact(o, sealed));
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

  const trust = trustFile(o.authority, sealed.producer.publicKeyHex, sealed.transparencyServices, sealed.witnessed ?? undefined);
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
      producer: sealed.producer,
      transparencyServices: sealed.transparencyServices,
      witnesses: sealed.witnessed?.keys ?? [],
    },
  };
}
