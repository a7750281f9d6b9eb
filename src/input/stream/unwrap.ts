/**
 * One stream event's StreamResponse, out of its framing: the `result` of a JSON-RPC response, or
 * the bare StreamResponse of the REST binding. Every event of one stream uses one framing and, in
 * JSON-RPC, answers the one request that opened the stream. An error (a JSON-RPC error, an `error`
 * member) ends the stream without a Task. StreamResponse.payload is a oneof: exactly one of `task`,
 * `message`, `statusUpdate`, `artifactUpdate` (a2a-wire.md §1.1).
 */
import { showValue } from "../../json/diff.js";
import { joinPath } from "../../json/path.js";
import { hasMember, isJsonObject, jsonEquals, member, type JsonObject, type JsonValue } from "../../json/value.js";
import { fail, ok, type Result } from "../../result.js";
import { field } from "../a2a.js";
import { eventPath, inEvent, label, NOTE_CAP, type StreamBinding, type Where } from "./event.js";

export type Kind = "task" | "message" | "statusUpdate" | "artifactUpdate";
const KINDS: readonly Kind[] = ["task", "message", "statusUpdate", "artifactUpdate"];

/** An event's one StreamResponse member, with its JSON path. */
export interface Unwrapped {
  readonly kind: Kind;
  readonly payload: JsonObject;
  readonly path: string;
}

/** What an error says: its code or status, its message, the reasons in its data or details. */
export function describeError(v: JsonValue): string {
  const e = isJsonObject(v) ? member(v, "error") : undefined;
  if (!isJsonObject(e)) return "";
  const parts: string[] = [];
  for (const name of ["code", "status"]) {
    const x = member(e, name);
    if (x !== undefined) parts.push(showValue(x));
  }
  const message = member(e, "message");
  if (typeof message === "string") parts.push(showValue(message, 200));
  const reasons: string[] = [];
  for (const d of [member(e, "data"), member(e, "details")]) {
    if (!Array.isArray(d)) continue;
    for (const item of d) {
      const reason = isJsonObject(item) ? member(item, "reason") : undefined;
      if (typeof reason === "string") reasons.push(reason);
    }
  }
  if (reasons.length > 0) parts.push(`(${reasons.slice(0, NOTE_CAP).join(", ")})`);
  return parts.length > 0 ? `: ${parts.join(" ")}` : "";
}

function bindingName(b: StreamBinding): string {
  return b === "jsonrpc" ? "JSON-RPC" : "REST";
}

interface Framed {
  readonly binding: StreamBinding;
  readonly response: JsonObject;
  readonly base: string;
}

/** Unwraps events one at a time, holding the framing and the JSON-RPC request the stream answers. */
export class EventUnwrapper {
  binding: StreamBinding | undefined;
  private rpcId: JsonValue | undefined;

  unwrap(value: JsonValue, w: Where): Result<Unwrapped> {
    if (!isJsonObject(value)) return fail("INPUT_STREAM_MALFORMED", `${label(w)} is not a JSON object`, eventPath(w));
    const framed = hasMember(value, "jsonrpc") ? this.rpcResponse(value, w) : restResponse(value, w);
    if (!framed.ok) return framed;
    const { binding, response, base } = framed.value;
    if (this.binding === undefined) this.binding = binding;
    else if (binding !== this.binding) {
      return fail(
        "INPUT_STREAM_MALFORMED",
        `${label(w)} uses the ${bindingName(binding)} framing; the stream began with the ${bindingName(this.binding)} framing`,
        eventPath(w),
      );
    }
    return payloadOf(response, base, w);
  }

  private rpcResponse(value: JsonObject, w: Where): Result<Framed> {
    if (member(value, "jsonrpc") !== "2.0")
      return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "jsonrpc" must be "2.0"`, eventPath(w, "jsonrpc"));
    if (member(value, "error") !== undefined) {
      return fail(
        "INPUT_STREAM_ERROR",
        `${label(w)} is a JSON-RPC error${describeError(value)}; the stream ends without a Task`,
        eventPath(w, "error"),
      );
    }
    if (member(value, "method") !== undefined) {
      return fail(
        "INPUT_STREAM_MALFORMED",
        `${label(w)} is a JSON-RPC request, not a response`,
        eventPath(w, "method"),
      );
    }
    const id = member(value, "id");
    if (id === undefined)
      return fail("INPUT_STREAM_MALFORMED", `${label(w)}: a JSON-RPC response needs "id"`, eventPath(w, "id"));
    // Every event of one stream answers the one request that opened it.
    if (this.rpcId === undefined) this.rpcId = id;
    else if (!jsonEquals(id, this.rpcId)) {
      return fail(
        "INPUT_STREAM_FOREIGN_EVENT",
        `${label(w)} answers JSON-RPC request ${showValue(id)}; the stream answers request ${showValue(this.rpcId)}`,
        eventPath(w, "id"),
      );
    }
    const result = member(value, "result");
    if (!isJsonObject(result))
      return fail(
        "INPUT_STREAM_MALFORMED",
        `${label(w)}: "result" must be a StreamResponse object`,
        eventPath(w, "result"),
      );
    return ok({ binding: "jsonrpc", response: result, base: eventPath(w, "result") });
  }
}

function restResponse(value: JsonObject, w: Where): Result<Framed> {
  // No StreamResponse has an `error` member: an event carrying one is the server's error,
  // whatever else it holds.
  if (member(value, "error") !== undefined) {
    return fail(
      "INPUT_STREAM_ERROR",
      `${label(w)} is an error${describeError(value)}; the stream ends without a Task`,
      eventPath(w, "error"),
    );
  }
  return ok({ binding: "rest", response: value, base: eventPath(w) });
}

/** The StreamResponse's one payload member: a v0.3 `kind` is refused, and so is a second member. */
function payloadOf(response: JsonObject, base: string, w: Where): Result<Unwrapped> {
  const kindMember = member(response, "kind");
  if (typeof kindMember === "string") {
    return fail(
      "INPUT_A2A_V03",
      `${label(w)} is an A2A v0.3 stream event (kind ${JSON.stringify(kindMember)}); this verifier folds A2A v1.0 StreamResponses`,
      joinPath(base, "kind"),
    );
  }
  const present: { kind: Kind; value: JsonValue }[] = [];
  for (const kind of KINDS) {
    const f = field(response, kind, base);
    if (!f.ok) return inEvent(w, f);
    if (f.value !== undefined && f.value !== null) present.push({ kind, value: f.value });
  }
  const only = present[0];
  if (present.length !== 1 || only === undefined) {
    return fail(
      "INPUT_STREAM_MALFORMED",
      `${label(w)} is not a StreamResponse: it needs exactly one of task, message, statusUpdate, artifactUpdate${present.length > 1 ? `; it has ${present.map((p) => p.kind).join(" and ")}` : ""}`,
      base,
    );
  }
  const path = joinPath(base, only.kind);
  if (!isJsonObject(only.value))
    return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "${only.kind}" must be an object`, path);
  return ok({ kind: only.kind, payload: only.value, path });
}
