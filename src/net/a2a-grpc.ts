/**
 * GetTask and SendMessage over gRPC (`lf.a2a.v1.A2AService`, a2a-wire.md §2.3), keeping each
 * answer's exact protobuf bytes. The service parameters travel as gRPC metadata: `a2a-version: 1.0`
 * (an @a2a-js/sdk server reads its absence as 0.3) and `a2a-extensions` naming the evidence
 * extension. An answer counts only when its status is OK, it is one uncompressed message, and the
 * strict protobuf reader the verifier uses (contract §3.1) reads it as the object the call returns:
 * a Task with the requested id, or a SendMessageResponse with its `task` or `message`.
 */
import { createHash } from "node:crypto";
import { DEFAULT_JSON_LIMITS } from "../json/strict-json.js";
import { isJsonObject, member, type JsonObject } from "../json/value.js";
import { showValue } from "../json/diff.js";
import { fail, ok, type Result } from "../result.js";
import { EXTENSION_URI } from "../profile.js";
import { decodeMessage, ProtoFault } from "../input/protobuf/decode.js";
import { SEND_MESSAGE_RESPONSE, TASK, type MessageSpec } from "../input/protobuf/schema.js";
import { grpcUnary, type GrpcAnswer } from "./grpc.js";
import { getTaskRequestBytes, sendMessageRequestBytes } from "./proto-write.js";
import {
  A2A_PROTOCOL_VERSION,
  redactHeaders,
  type CallContext,
  type CallResult,
  type Endpoint,
  type ExchangeRecord,
} from "./a2a.js";

export const GRPC_SERVICE = "lf.a2a.v1.A2AService";

/** The strict reading of a message the server sent, or why it is not one. */
export function readProto(bytes: Uint8Array, spec: MessageSpec, what: string): Result<JsonObject> {
  try {
    return ok(decodeMessage(bytes, spec, { maxDepth: DEFAULT_JSON_LIMITS.maxDepth }).value);
  } catch (e) {
    if (!(e instanceof ProtoFault)) throw e;
    return fail(
      "NET_UNEXPECTED_RESPONSE",
      `${what} is not a strict protobuf ${spec.name}: ${e.code}: ${e.detail} (at byte ${e.offset}, ${e.path})`,
    );
  }
}

async function grpcCall(
  ep: Endpoint,
  name: ExchangeRecord["call"],
  message: Uint8Array,
  ctx: CallContext,
): Promise<Result<{ answer: GrpcAnswer; record: ExchangeRecord }>> {
  const metadata: Record<string, string> = {
    ...Object.fromEntries(Object.entries(ctx.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    "a2a-version": A2A_PROTOCOL_VERSION,
    "a2a-extensions": EXTENSION_URI,
  };
  const path = `/${GRPC_SERVICE}/${name}`;
  const r = await grpcUnary({ origin: ep.url, path, metadata, message }, ctx.limits, ctx.deps);
  if (!r.ok) return r;
  const h = r.value.headers;
  const text = (v: string | string[] | undefined) => (v === undefined ? null : Array.isArray(v) ? v.join(", ") : v);
  const record: ExchangeRecord = {
    call: name,
    method: "POST",
    url: new URL(path, ep.url.origin).href,
    requestHeaders: redactHeaders(metadata),
    status: r.value.httpStatus,
    contentType: text(h["content-type"]),
    a2aExtensions: text(h["a2a-extensions"]),
    bytes: r.value.message.length,
    sha256: createHash("sha256").update(r.value.message).digest("hex"),
  };
  return ok({ answer: r.value, record });
}

function isTask(v: JsonObject): boolean {
  return typeof member(v, "id") === "string" && isJsonObject(member(v, "status"));
}

/** GetTask over gRPC: the binary Task, exactly as sent. */
export async function getTaskGrpc(
  ep: Endpoint,
  taskId: string,
  ctx: CallContext,
  options: { historyLength?: number } = {},
): Promise<Result<CallResult>> {
  const request = getTaskRequestBytes(taskId, {
    ...(ep.tenant ? { tenant: ep.tenant } : {}),
    ...(options.historyLength !== undefined ? { historyLength: options.historyLength } : {}),
  });
  const r = await grpcCall(ep, "GetTask", request, ctx);
  if (!r.ok) return r;
  const bytes = r.value.answer.message;
  const task = readProto(bytes, TASK, `the GetTask answer from ${ep.url.host}`);
  if (!task.ok) return task;
  if (!isTask(task.value))
    return fail(
      "NET_UNEXPECTED_RESPONSE",
      `the GetTask answer from ${ep.url.host} is not an A2A Task (no id or status)`,
    );
  if (member(task.value, "id") !== taskId)
    return fail(
      "NET_UNEXPECTED_RESPONSE",
      `GetTask for ${taskId} answered with Task ${showValue(member(task.value, "id"))}`,
    );
  return ok({ body: bytes, record: r.value.record, payload: { kind: "task", bytes, value: task.value } });
}

/** SendMessage over gRPC, non-blocking: the binary SendMessageResponse, exactly as sent. */
export async function sendMessageGrpc(
  ep: Endpoint,
  message: JsonObject,
  ctx: CallContext,
): Promise<Result<CallResult>> {
  const r = await grpcCall(ep, "SendMessage", sendMessageRequestBytes(message, ep.tenant), ctx);
  if (!r.ok) return r;
  const bytes = r.value.answer.message;
  const response = readProto(bytes, SEND_MESSAGE_RESPONSE, `the SendMessage answer from ${ep.url.host}`);
  if (!response.ok) return response;
  const task = member(response.value, "task");
  const direct = member(response.value, "message");
  if (isJsonObject(task) && isTask(task))
    return ok({ body: bytes, record: r.value.record, payload: { kind: "task", bytes, value: task } });
  if (isJsonObject(direct))
    return ok({ body: bytes, record: r.value.record, payload: { kind: "message", bytes, value: direct } });
  return fail("NET_UNEXPECTED_RESPONSE", `the SendMessage answer from ${ep.url.host} has neither a Task nor a Message`);
}
