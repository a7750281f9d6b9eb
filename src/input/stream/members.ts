/**
 * Reading the members of one stream event, each refusal naming the event and the JSON path inside
 * it: the typed members every event kind shares, a status's state and message, and what the fold
 * takes from the Task of a `task` event.
 */
import { showValue } from "../../json/diff.js";
import { joinPath } from "../../json/path.js";
import { asSafeInteger, isJsonObject, member, type JsonObject, type JsonValue } from "../../json/value.js";
import { fail, ok, type Result } from "../../result.js";
import { TASK_STATES } from "../../profile.js";
import { field, looksLikeTask } from "../a2a.js";
import { detectV03 } from "../v03.js";
import { inEvent, label, type Where } from "./event.js";

/** A Message a status showed, with its messageId. */
export interface ShownMessage {
  readonly message: JsonObject;
  readonly id: string;
}

/** What the fold reads of the Task of a `task` event. */
export interface TaskEvent {
  readonly id: string;
  readonly contextId: string;
  readonly state: string;
  readonly shown: ShownMessage | undefined;
  readonly metadata: JsonObject | undefined;
  readonly artifacts: readonly JsonValue[];
  readonly history: readonly JsonValue[];
}

/** A string member; absent or null is ProtoJSON's "". */
export function stringMember(obj: JsonObject, name: string, path: string, w: Where): Result<string> {
  const r = field(obj, name, path);
  if (!r.ok) return inEvent(w, r);
  if (r.value === undefined || r.value === null) return ok("");
  if (typeof r.value !== "string")
    return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "${name}" must be a string`, joinPath(path, name));
  return ok(r.value);
}

export function booleanMember(obj: JsonObject, name: string, path: string, w: Where): Result<boolean | undefined> {
  const r = field(obj, name, path);
  if (!r.ok) return inEvent(w, r);
  if (r.value === undefined || r.value === null) return ok(undefined);
  if (typeof r.value !== "boolean")
    return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "${name}" must be true or false`, joinPath(path, name));
  return ok(r.value);
}

export function objectMember(obj: JsonObject, name: string, path: string, w: Where): Result<JsonObject | undefined> {
  const v = member(obj, name);
  if (v === undefined || v === null) return ok(undefined);
  if (!isJsonObject(v))
    return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "${name}" must be an object`, joinPath(path, name));
  return ok(v);
}

export function arrayMember(obj: JsonObject, name: string, path: string, w: Where): Result<JsonValue[]> {
  const v = member(obj, name);
  if (v === undefined || v === null) return ok([]);
  if (!Array.isArray(v))
    return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "${name}" must be an array`, joinPath(path, name));
  return ok(v);
}

/** An object with a string id member (`artifactId`, `messageId`), under either ProtoJSON spelling. */
export function withId(
  v: JsonValue | undefined,
  name: "artifactId" | "messageId",
  what: string,
  path: string,
  w: Where,
): Result<{ object: JsonObject; id: string }> {
  if (!isJsonObject(v)) return fail("INPUT_STREAM_MALFORMED", `${label(w)}: ${what} must be an object`, path);
  const id = field(v, name, path);
  if (!id.ok) return inEvent(w, id);
  if (typeof id.value !== "string")
    return fail("INPUT_STREAM_MALFORMED", `${label(w)}: ${what} needs a string "${name}"`, joinPath(path, name));
  return ok({ object: v, id: id.value });
}

export function messageIdOf(m: JsonValue, path: string, w: Where): Result<string> {
  const message = withId(m, "messageId", "a Message", path, w);
  return message.ok ? ok(message.value.id) : message;
}

/** A status's message, when it has one: a Message with a messageId. */
export function statusMessageOf(
  status: JsonValue | undefined,
  path: string,
  w: Where,
): Result<ShownMessage | undefined> {
  const message = isJsonObject(status) ? member(status, "message") : undefined;
  if (message === undefined || message === null) return ok(undefined);
  const id = messageIdOf(message, joinPath(path, "message"), w);
  return id.ok ? ok({ message: message as JsonObject, id: id.value }) : id;
}

/** TaskStatus.state by name, or by enum number as ProtoJSON allows; required and known. */
export function readState(status: JsonValue | undefined, path: string, w: Where): Result<string> {
  if (!isJsonObject(status)) return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "status" must be an object`, path);
  const state = field(status, "state", path);
  if (!state.ok) return inEvent(w, state);
  const n = asSafeInteger(state.value);
  const name = typeof state.value === "string" ? state.value : n !== undefined ? TASK_STATES[n] : undefined;
  if (name === undefined || !(TASK_STATES as readonly string[]).includes(name)) {
    return fail(
      "INPUT_STREAM_MALFORMED",
      `${label(w)}: unknown task state ${showValue(state.value)}`,
      joinPath(path, "state"),
    );
  }
  if (name === "TASK_STATE_UNSPECIFIED")
    return fail("INPUT_STREAM_MALFORMED", `${label(w)}: the status has no state`, joinPath(path, "state"));
  return ok(name);
}

/** What the fold reads of the Task of a `task` event: v1.0-shaped, with a string id and an object status. */
export function readTaskEvent(task: JsonObject, path: string, w: Where): Result<TaskEvent> {
  const signals = detectV03(task, path);
  if (signals.length > 0) {
    return fail(
      "INPUT_A2A_V03",
      `${label(w)} is an A2A v0.3 Task (evidence: ${signals.slice(0, 3).join("; ")}); this verifier folds A2A v1.0 streams`,
      path,
    );
  }
  if (!looksLikeTask(task))
    return fail("INPUT_STREAM_MALFORMED", `${label(w)}: the Task needs a string "id" and an object "status"`, path);
  const contextId = stringMember(task, "contextId", path, w);
  if (!contextId.ok) return contextId;
  const state = readState(member(task, "status"), joinPath(path, "status"), w);
  if (!state.ok) return state;
  const shown = statusMessageOf(member(task, "status"), joinPath(path, "status"), w);
  if (!shown.ok) return shown;
  const metadata = objectMember(task, "metadata", path, w);
  if (!metadata.ok) return metadata;
  const artifacts = arrayMember(task, "artifacts", path, w);
  if (!artifacts.ok) return artifacts;
  const history = arrayMember(task, "history", path, w);
  if (!history.ok) return history;
  return ok({
    id: member(task, "id") as string,
    contextId: contextId.value,
    state: state.value,
    shown: shown.value,
    metadata: metadata.value,
    artifacts: artifacts.value,
    history: history.value,
  });
}
