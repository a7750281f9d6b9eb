/**
 * GetTask and SendMessage against a live A2A v1.0 server, over JSON-RPC or HTTP+JSON
 * (a2a-wire.md §2.1–§2.2; a2a-js-sdk.md §6.1), keeping every response's exact bytes. Servers refuse
 * a request without `A2A-Version: 1.0` (they read its absence as 0.3), so it is always sent, with
 * `A2A-Extensions` naming the evidence extension. A response is accepted only when it is 2xx,
 * declared and parsed as strict JSON, and is the object the call returns; anything else is one
 * clear failure.
 */
import { createHash } from "node:crypto";
import { parseStrictJson } from "../json/strict-json.js";
import { isJsonNumber, isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { showValue } from "../json/diff.js";
import { fail, ok, type Result } from "../result.js";
import { EXTENSION_URI, TERMINAL_TASK_STATES } from "../profile.js";
import { exchange, type HttpDeps, type HttpLimits, type HttpResponse } from "./http.js";
import { valueBytesAt } from "./span.js";

/** The bindings `fetch` speaks; gRPC calls are in ./a2a-grpc.ts. */
export type Binding = "jsonrpc" | "rest" | "grpc";

export interface Endpoint {
  /** The interface URL, exactly as given (or as the Agent Card states it). */
  readonly url: URL;
  readonly binding: Binding;
  readonly tenant?: string;
}

export interface CallContext {
  readonly limits: HttpLimits;
  readonly deps?: HttpDeps;
  /** Extra request headers the caller supplied (authorization); they never replace the A2A ones. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What the sidecar records of one exchange. */
export interface ExchangeRecord {
  readonly call: "GetTask" | "SendMessage";
  readonly method: "GET" | "POST";
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly status: number;
  readonly contentType: string | null;
  /** The `A2A-Extensions` response header: the extensions the server says it activated. */
  readonly a2aExtensions: string | null;
  readonly bytes: number;
  readonly sha256: string;
}

export interface CallResult {
  /** The exact response body. */
  readonly body: Uint8Array;
  readonly record: ExchangeRecord;
  /** The call's A2A object (the Task; for SendMessage, the Task or Message), its exact bytes and value. */
  readonly payload: { readonly kind: "task" | "message"; readonly bytes: Uint8Array; readonly value: JsonObject };
}

export const A2A_PROTOCOL_VERSION = "1.0";
const JSON_TYPE = /^application\/(?:json|[a-z0-9.+-]*\+json)\s*(?:;|$)/i;
const SENSITIVE_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$|token|secret|key$/i;

/** Header values a sidecar must not keep (credentials); the name stays, so the record says one was sent. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, SENSITIVE_HEADER.test(k) ? "<redacted>" : v]));
}

function joinUrl(base: URL, ...segments: string[]): URL {
  const root = base.href.replace(/\/+$/, "");
  return new URL(`${root}/${segments.join("/")}`);
}

function headerValue(h: HttpResponse["headers"], name: string): string | null {
  const v = h[name];
  return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
}

function errorInfoReasons(details: JsonValue | undefined): string {
  if (!Array.isArray(details)) return "";
  const reasons = details
    .map((d) => (isJsonObject(d) ? member(d, "reason") : undefined))
    .filter((r): r is string => typeof r === "string");
  return reasons.length > 0 ? ` (${reasons.join(", ")})` : "";
}

/** `HTTP 404 NOT_FOUND: Task not found (TASK_NOT_FOUND)`, from a google.rpc.Status body when there is one. */
function statusFailure(res: HttpResponse, url: URL): Result<never> {
  const parsed = parseStrictJson(res.body);
  const error = parsed.ok && isJsonObject(parsed.value) ? member(parsed.value, "error") : undefined;
  let said = "";
  if (isJsonObject(error)) {
    const status = member(error, "status");
    const message = member(error, "message");
    said = `${typeof status === "string" ? ` ${status}` : ""}${typeof message === "string" ? `: ${message}` : ""}${errorInfoReasons(member(error, "details"))}`;
  }
  return fail("NET_HTTP_STATUS", `HTTP ${res.status}${said} from ${url.href}`);
}

async function call(
  ep: Endpoint,
  name: ExchangeRecord["call"],
  method: "GET" | "POST",
  url: URL,
  body: JsonValue | undefined,
  ctx: CallContext,
): Promise<Result<{ res: HttpResponse; value: JsonValue; record: ExchangeRecord }>> {
  const headers: Record<string, string> = {
    ...ctx.headers,
    Accept: ep.binding === "rest" ? "application/a2a+json, application/json" : "application/json",
    "A2A-Version": A2A_PROTOCOL_VERSION,
    "A2A-Extensions": EXTENSION_URI,
    ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
  };
  const bytes = body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body));
  const r = await exchange({ url, method, headers, ...(bytes ? { body: bytes } : {}) }, ctx.limits, ctx.deps);
  if (!r.ok) return r;
  const res = r.value;
  if (res.status >= 300 && res.status < 400) {
    const location = headerValue(res.headers, "location");
    return fail(
      "NET_REDIRECT",
      `HTTP ${res.status} redirect${location ? ` to ${location}` : ""} refused: fetch uses the exact URL given (${url.href})`,
    );
  }
  if (res.status < 200 || res.status >= 300) return statusFailure(res, url);
  const contentType = headerValue(res.headers, "content-type");
  if (contentType === null || !JSON_TYPE.test(contentType)) {
    return fail(
      "NET_NOT_JSON",
      `the response from ${url.href} is ${contentType === null ? "not typed" : contentType}, not JSON`,
    );
  }
  const parsed = parseStrictJson(res.body);
  if (!parsed.ok)
    return fail(
      "NET_NOT_JSON",
      `the response body from ${url.href} is not strict JSON: ${parsed.detail} (${parsed.code})`,
      parsed.path,
    );
  const record: ExchangeRecord = {
    call: name,
    method,
    url: url.href,
    requestHeaders: redactHeaders(headers),
    status: res.status,
    contentType,
    a2aExtensions: headerValue(res.headers, "a2a-extensions"),
    bytes: res.body.length,
    sha256: createHash("sha256").update(res.body).digest("hex"),
  };
  return ok({ res, value: parsed.value, record });
}

const JSONRPC_ID = 1;

function jsonRpcBody(method: string, params: JsonObject): JsonObject {
  return { jsonrpc: "2.0", id: JSONRPC_ID, method, params } as unknown as JsonObject;
}

/** The `result` of a JSON-RPC response that answers our request, with its exact bytes. */
function jsonRpcResult(
  value: JsonValue,
  body: Uint8Array,
  url: URL,
): Result<{ value: JsonValue; bytes: Uint8Array; path: string[] }> {
  if (!isJsonObject(value) || member(value, "jsonrpc") !== "2.0")
    return fail("NET_JSONRPC_MISMATCH", `the response from ${url.href} is not a JSON-RPC 2.0 response`);
  const error = member(value, "error");
  if (error !== undefined) {
    const e = isJsonObject(error) ? error : {};
    const code = member(e, "code");
    const message = member(e, "message");
    return fail(
      "NET_JSONRPC_ERROR",
      `JSON-RPC error${code !== undefined ? ` ${showValue(code)}` : ""}${typeof message === "string" ? `: ${message}` : ""}${errorInfoReasons(member(e, "data"))} from ${url.href}`,
    );
  }
  const id = member(value, "id");
  if (!isJsonNumber(id) || id.lexeme !== String(JSONRPC_ID)) {
    return fail(
      "NET_JSONRPC_MISMATCH",
      `the JSON-RPC response id ${showValue(id)} does not answer request id ${JSONRPC_ID}`,
    );
  }
  const result = member(value, "result");
  if (result === undefined)
    return fail("NET_JSONRPC_MISMATCH", `the JSON-RPC response from ${url.href} has neither result nor error`);
  const bytes = valueBytesAt(body, ["result"]);
  if (!bytes)
    return fail("NET_UNEXPECTED_RESPONSE", `the exact bytes of the JSON-RPC result from ${url.href} cannot be located`);
  return ok({ value: result, bytes, path: ["result"] });
}

function isTaskObject(v: JsonValue | undefined): v is JsonObject {
  return isJsonObject(v) && typeof member(v, "id") === "string" && isJsonObject(member(v, "status"));
}

/** GetTask: the terminal (or current) Task, with the exact bytes of the whole response. */
export async function getTask(
  ep: Endpoint,
  taskId: string,
  ctx: CallContext,
  options: { historyLength?: number } = {},
): Promise<Result<CallResult>> {
  let url: URL;
  let r: Awaited<ReturnType<typeof call>>;
  if (ep.binding === "jsonrpc") {
    url = ep.url;
    const params = {
      id: taskId,
      ...(options.historyLength !== undefined ? { historyLength: options.historyLength } : {}),
      ...(ep.tenant ? { tenant: ep.tenant } : {}),
    };
    r = await call(ep, "GetTask", "POST", url, jsonRpcBody("GetTask", params as unknown as JsonObject), ctx);
  } else {
    url = joinUrl(ep.url, ...(ep.tenant ? [encodeURIComponent(ep.tenant)] : []), "tasks", encodeURIComponent(taskId));
    if (options.historyLength !== undefined) url.searchParams.set("historyLength", String(options.historyLength));
    r = await call(ep, "GetTask", "GET", url, undefined, ctx);
  }
  if (!r.ok) return r;
  const { res, value, record } = r.value;
  let task: { value: JsonValue; bytes: Uint8Array };
  if (ep.binding === "jsonrpc") {
    const result = jsonRpcResult(value, res.body, url);
    if (!result.ok) return result;
    task = result.value;
  } else {
    task = { value, bytes: res.body };
  }
  if (!isTaskObject(task.value))
    return fail("NET_UNEXPECTED_RESPONSE", `the GetTask response from ${url.href} is not an A2A Task`);
  if (member(task.value, "id") !== taskId) {
    return fail(
      "NET_UNEXPECTED_RESPONSE",
      `GetTask for ${taskId} answered with Task ${showValue(member(task.value, "id"))}`,
    );
  }
  return ok({ body: res.body, record, payload: { kind: "task", bytes: task.bytes, value: task.value } });
}

/** SendMessage, non-blocking: the first Task (or the direct Message the server answered with). */
export async function sendMessage(ep: Endpoint, message: JsonObject, ctx: CallContext): Promise<Result<CallResult>> {
  const request = { message, configuration: { returnImmediately: true } } as unknown as JsonObject;
  let url: URL;
  let r: Awaited<ReturnType<typeof call>>;
  if (ep.binding === "jsonrpc") {
    url = ep.url;
    r = await call(
      ep,
      "SendMessage",
      "POST",
      url,
      jsonRpcBody("SendMessage", { ...request, ...(ep.tenant ? { tenant: ep.tenant } : {}) }),
      ctx,
    );
  } else {
    url = joinUrl(ep.url, ...(ep.tenant ? [encodeURIComponent(ep.tenant)] : []), "message:send");
    r = await call(ep, "SendMessage", "POST", url, request, ctx);
  }
  if (!r.ok) return r;
  const { res, value, record } = r.value;
  let response: { value: JsonValue; bytes: Uint8Array; path: string[] };
  if (ep.binding === "jsonrpc") {
    const result = jsonRpcResult(value, res.body, url);
    if (!result.ok) return result;
    response = result.value;
  } else {
    response = { value, bytes: res.body, path: [] };
  }
  const keys = isJsonObject(response.value) ? Object.keys(response.value) : [];
  const kind = keys.length === 1 && (keys[0] === "task" || keys[0] === "message") ? keys[0] : undefined;
  const inner = kind && isJsonObject(response.value) ? member(response.value, kind) : undefined;
  if (!kind || !isJsonObject(inner) || (kind === "task" && !isTaskObject(inner))) {
    return fail(
      "NET_UNEXPECTED_RESPONSE",
      `the SendMessage response from ${url.href} is not {"task": …} or {"message": …}`,
    );
  }
  const bytes = valueBytesAt(res.body, [...response.path, kind]);
  if (!bytes)
    return fail(
      "NET_UNEXPECTED_RESPONSE",
      `the exact bytes of the SendMessage ${kind} from ${url.href} cannot be located`,
    );
  return ok({ body: res.body, record, payload: { kind, bytes, value: inner } });
}

export function taskState(task: JsonObject): string | undefined {
  const status = member(task, "status");
  const state = isJsonObject(status) ? member(status, "state") : undefined;
  return typeof state === "string" ? state : undefined;
}

export function isTerminalState(state: string | undefined): boolean {
  return (TERMINAL_TASK_STATES as readonly (string | undefined)[]).includes(state);
}
