/**
 * Input classification (a2a-wire.md §2.7; contract §3): which of the shapes the verifier reads an
 * input is, and where in it the terminal Task, the first response and a bare bundle sit.
 *
 * Shapes, in order: a JSON-RPC 2.0 response whose result is a Task; an A2A v1.0 Task (REST body)
 * or a `{ "task": … }` wrapper; a capture `{ firstTask?, finalTask?, evidenceBundle?, interimBundles?,
 * request?, requests? }`; a bare
 * evidence bundle. A `trustConfig` inside a capture is ignored: trust never comes from the thing
 * being verified. A stream (any framing, a JSON array of events included) was folded when the
 * input was decoded (./decode.ts); it is classified here from its fold.
 */
import type { StreamObservations } from "./stream-observations.js";
import { showValue } from "../json/diff.js";
import { memberAt, isJsonObject, member, hasMember, type JsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { fail, ok, type Failure, type Result } from "../result.js";
import { looksLikeMessage, looksLikeTask } from "./a2a.js";
import { isDecodedDocument, isEventArray, type InputValue } from "./decoded.js";
import { isFoldedStream, type FoldedStream } from "./stream/fold.js";
import { firstTaskPath, laterClientTurn, streamNote, streamTask } from "./stream/task.js";

export type InputShape = "jsonrpc-response" | "task" | "capture" | "bundle" | "stream";

/** A value found in the input, with its JSON path. */
export interface Found {
  readonly value: JsonValue;
  readonly path: string;
}

export interface Classified {
  shape: InputShape;
  finalTask?: Found;
  firstTask?: Found;
  firstMessage?: Found;
  /** A bundle given directly: the capture's `evidenceBundle`, or the whole input. */
  bundle?: Found & { carrier: "capture" | "bare" };
  /** The interim bundles a capture kept from the paused Task (docs/profile.md, v3.2 additions). */
  interimBundles?: Found[];
  /** A capture's `request`: the Message the client itself sent (contract §3). */
  request?: Found;
  /** A capture's `requests`: the resuming Messages the client sent, in order. */
  requests?: Found[];
  notes: string[];
  /** What a stream showed beyond the Task it folds into (contract §9.28). */
  shown?: StreamObservations;
}

export function isBundleShaped(v: JsonValue | undefined): v is JsonObject {
  return (
    isJsonObject(v) &&
    hasMember(v, "extensionVersion") &&
    hasMember(v, "taskEvidencePayload") &&
    hasMember(v, "evidenceId")
  );
}

/** Classifies any decoded input: a folded stream from its fold, a document or JSON value by its shape. */
export function classifyInput(value: InputValue): Result<Classified> {
  if (isFoldedStream(value)) return streamClassified(value);
  if (isEventArray(value)) return value.folded.ok ? streamClassified(value.folded.value) : value.folded;
  if (isDecodedDocument(value)) {
    const c = classify(value.value);
    return c.ok ? ok({ ...c.value, notes: [...value.notes, ...c.value.notes] }) : c;
  }
  return classify(value);
}

/**
 * A folded stream as the input stage classifies an input: the folded Task is the observed Task
 * (its paths are the folded Task's own), the first event's Task is the first response — unless it
 * already shows a later client turn (`laterClientTurn`): then the stream carries no first response,
 * a note says why, and the acceptance is the caller's to supply (--first-task) — and the notes say
 * what was folded. A direct Message reply is refused: it carries no Task evidence.
 */
export function streamClassified(
  folded: FoldedStream,
): Result<{ shape: "stream"; finalTask: Found; firstTask?: Found; notes: string[]; shown: StreamObservations }> {
  if (folded.kind === "message") return streamTask(folded) as Failure;
  const later = laterClientTurn(folded.firstTask);
  const notes = [streamNote(folded), ...folded.notes];
  if (later !== undefined) {
    notes.push(
      `the stream's first Task (${firstTaskPath(folded)}) already shows a later client turn (Message ${later} after the agent's): it is the stored Task of a later request on this Task, not SendMessage's first response — the acceptance is not observed here (pass the first response with --first-task)`,
    );
  }
  return ok({
    shape: "stream",
    finalTask: { value: folded.task, path: "$" },
    ...(later === undefined ? { firstTask: { value: folded.firstTask, path: firstTaskPath(folded) } } : {}),
    notes,
    shown: folded.shown,
  });
}

/** The shape of a JSON value (an array is no input shape: a stream's events are decoded before this). */
export function classify(v: JsonValue): Result<Classified> {
  if (!isJsonObject(v)) return fail("INPUT_UNKNOWN_SHAPE", "input is not a JSON object", "$");
  if (member(v, "jsonrpc") !== undefined) return classifyJsonRpc(v);
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === "error" && isJsonObject(member(v, "error"))) {
    const e = member(v, "error") as JsonObject;
    const code = member(e, "code");
    const status = member(e, "status");
    const message = member(e, "message");
    return fail(
      "INPUT_REST_ERROR",
      `the input is an A2A HTTP error response${status !== undefined ? ` ${showValue(status)}` : ""}${code !== undefined ? ` (code ${showValue(code)})` : ""}${typeof message === "string" ? `: ${message}` : ""}; it carries no Task`,
      "error",
    );
  }
  if (looksLikeTask(v)) return ok({ shape: "task", finalTask: { value: v, path: "$" }, notes: [] });
  if (keys.length === 1 && keys[0] === "task" && looksLikeTask(member(v, "task"))) {
    return ok({ shape: "task", finalTask: { value: member(v, "task") as JsonValue, path: "task" }, notes: [] });
  }
  if (hasMember(v, "finalTask") || hasMember(v, "evidenceBundle")) return classifyCapture(v);
  if (hasMember(v, "interimBundles"))
    return fail("INPUT_UNKNOWN_SHAPE", 'a capture with "interimBundles" also needs its "finalTask"', "$");
  if (isBundleShaped(v)) return ok({ shape: "bundle", bundle: { value: v, path: "$", carrier: "bare" }, notes: [] });
  if (Array.isArray(member(v, "tasks")) && hasMember(v, "nextPageToken")) {
    return fail("INPUT_UNKNOWN_SHAPE", "the input is a ListTasks response; pass one Task (GetTask result)", "$");
  }
  return fail(
    "INPUT_UNKNOWN_SHAPE",
    "input is not a JSON-RPC GetTask response, an A2A Task, a capture {firstTask, finalTask, evidenceBundle} or an evidence bundle",
    "$",
  );
}

function classifyJsonRpc(v: JsonObject): Result<Classified> {
  if (member(v, "jsonrpc") !== "2.0")
    return fail("INPUT_UNKNOWN_SHAPE", 'a JSON-RPC message must have "jsonrpc": "2.0"', "jsonrpc");
  const error = member(v, "error");
  if (error !== undefined) {
    const e = isJsonObject(error) ? error : undefined;
    const code = e ? member(e, "code") : undefined;
    const message = e ? member(e, "message") : undefined;
    const reasons: string[] = [];
    const data = e ? member(e, "data") : undefined;
    if (Array.isArray(data)) {
      for (const d of data) {
        const reason = memberAt(d, "reason");
        if (typeof reason === "string") reasons.push(reason);
      }
    }
    return fail(
      "INPUT_JSONRPC_ERROR",
      `JSON-RPC error${code !== undefined ? ` ${showValue(code)}` : ""}${typeof message === "string" ? `: ${message}` : ""}${reasons.length ? ` (${reasons.join(", ")})` : ""}; the response carries no Task`,
      "error",
    );
  }
  if (member(v, "method") !== undefined) {
    return fail(
      "INPUT_JSONRPC_REQUEST",
      "the input is a JSON-RPC request, not a response; pass the GetTask response",
      "method",
    );
  }
  const result = member(v, "result");
  if (looksLikeTask(result))
    return ok({ shape: "jsonrpc-response", finalTask: { value: result, path: "result" }, notes: [] });
  if (isJsonObject(result) && Object.keys(result).length === 1 && looksLikeTask(member(result, "task"))) {
    return ok({
      shape: "jsonrpc-response",
      finalTask: { value: member(result, "task") as JsonValue, path: "result.task" },
      notes: [],
    });
  }
  return fail("INPUT_UNKNOWN_SHAPE", "the JSON-RPC result is not a Task", "result");
}

function classifyCapture(v: JsonObject): Result<Classified> {
  const notes: string[] = [];
  const out: Classified = { shape: "capture", notes };
  const final = member(v, "finalTask");
  if (final !== undefined && final !== null) {
    if (!looksLikeTask(final)) return fail("INPUT_NOT_A_TASK", '"finalTask" is not an A2A Task', "finalTask");
    out.finalTask = { value: final, path: "finalTask" };
  }
  const first = member(v, "firstTask");
  if (first !== undefined && first !== null) {
    // SendMessage may answer with a direct Message instead of a Task; a capture records what came.
    const response = firstResponse(first, "firstTask");
    if (!response) return fail("INPUT_NOT_A_TASK", '"firstTask" is neither an A2A Task nor a Message', "firstTask");
    out[response.kind === "task" ? "firstTask" : "firstMessage"] = response;
  }
  const eb = member(v, "evidenceBundle");
  if (eb !== undefined && eb !== null) {
    if (!isJsonObject(eb))
      return fail("INPUT_BUNDLE_NOT_OBJECT", '"evidenceBundle" is not a JSON object', "evidenceBundle");
    out.bundle = { value: eb, path: "evidenceBundle", carrier: "capture" };
  }
  const interim = objectsIn(
    v,
    "interimBundles",
    "INPUT_INTERIM_NO_BUNDLE",
    "is not an array of bundles",
    "an interim bundle",
  );
  if (!interim.ok) return interim;
  if (interim.value) out.interimBundles = interim.value;
  const sent = capturedRequests(v);
  if (!sent.ok) return sent;
  Object.assign(out, sent.value);
  if (hasMember(v, "trustConfig")) notes.push("trustConfig in the input is ignored: trust comes only from --trust");
  return ok(out);
}

/** A capture member that is an array of objects (absent or null: undefined), each with its path. */
function objectsIn(
  v: JsonObject,
  name: string,
  code: "INPUT_INTERIM_NO_BUNDLE" | "INPUT_A2A_MALFORMED",
  notArray: string,
  item: string,
): Result<Found[] | undefined> {
  const value = member(v, name);
  if (value === undefined || value === null) return ok(undefined);
  if (!Array.isArray(value)) return fail(code, `"${name}" ${notArray}`, name);
  const found: Found[] = [];
  for (const [i, o] of value.entries()) {
    if (!isJsonObject(o)) return fail(code, `${item} is not a JSON object`, joinPath(name, i));
    found.push({ value: o, path: joinPath(name, i) });
  }
  return ok(found);
}

/**
 * A capture's `request` (one Message object) and `requests` (an array of them): what the client
 * itself sent. Their shape is checked here, their content when they are read as Messages.
 */
function capturedRequests(v: JsonObject): Result<Pick<Classified, "request" | "requests">> {
  const out: Pick<Classified, "request" | "requests"> = {};
  const request = member(v, "request");
  if (request !== undefined && request !== null) {
    if (!isJsonObject(request))
      return fail("INPUT_A2A_MALFORMED", '"request" must be the Message the client sent (an object)', "request");
    out.request = { value: request, path: "request" };
  }
  const requests = objectsIn(
    v,
    "requests",
    "INPUT_A2A_MALFORMED",
    "must be an array of the Messages the client sent",
    "a sent Message",
  );
  if (!requests.ok) return requests;
  if (requests.value) out.requests = requests.value;
  return ok(out);
}

/** A SendMessage result: a Task, a Message, or either wrapped as `{task}` / `{message}`. */
export function firstResponse(
  v: JsonValue,
  path: string,
): { kind: "task" | "message"; value: JsonValue; path: string } | undefined {
  if (looksLikeTask(v)) return { kind: "task", value: v, path };
  if (looksLikeMessage(v)) return { kind: "message", value: v, path };
  if (isJsonObject(v) && Object.keys(v).length === 1) {
    const task = member(v, "task");
    if (looksLikeTask(task)) return { kind: "task", value: task, path: joinPath(path, "task") };
    const message = member(v, "message");
    if (looksLikeMessage(message)) return { kind: "message", value: message, path: joinPath(path, "message") };
  }
  return undefined;
}
