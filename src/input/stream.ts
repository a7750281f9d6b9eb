/**
 * Streamed Tasks as inputs (a2a-wire.md §1.7, §2.5, §2.7 step 1).
 *
 * A client that streams (SendStreamingMessage, SubscribeToTask) records an SSE body, NDJSON, or a
 * JSON array of events. Each event is a StreamResponse — exactly one of `task`, `message`,
 * `statusUpdate`, `artifactUpdate` — either bare (REST framing) or as the `result` of a JSON-RPC
 * response (JSON-RPC framing). The events are folded into the Task a later GetTask would return,
 * with the rules the `@a2a-js/sdk` 1.3.0 server uses to build its stored Task (a2a-js-sdk.md §2.4),
 * which for status-update metadata are also the Python SDK's (a2a-wire.md §2.5):
 *
 *   - the first event is the Task (or a direct Message reply, which ends the stream);
 *   - `statusUpdate`: `status` replaced; `status.message` appended to `history` when its messageId
 *     is new; the event's `metadata` merged into `Task.metadata` (top-level keys, the event wins);
 *   - `artifactUpdate`: the artifact added, or replaced by `artifactId`; with `append: true` its
 *     parts concatenated onto the artifact already sent and its metadata merged; the event's own
 *     `metadata` merged into `Task.metadata`;
 *   - a later `task` event: the new Task, keeping `history` when its own is empty, artifacts
 *     merged by `artifactId`, metadata merged.
 *
 * Stricter than the SDKs wherever they guess: an append to an artifact never sent, an append after
 * its last chunk, an event for another task or context, any event after a terminal state, a later
 * Task that takes back history already shown, and a stream that ends before a terminal or
 * interrupted state are input errors, each naming the event (numbered from 1) and the JSON path
 * inside it. Nothing the client was shown is dropped (contract §9.13, §9.14): a status message
 * that reuses a history messageId with other content is kept beside it, so the ambiguity reaches
 * taskBinding rather than the fold silently choosing one, and the first Task's status message
 * joins the history when its status is replaced.
 *
 * Every event is parsed with the strict parser (duplicate members, lossy numbers, depth); the
 * input, each event and the number of events are capped. Cost is linear in the input: appends push
 * onto the artifact's part list in place.
 */
import { showValue } from "../json/diff.js";
import { joinPath } from "../json/path.js";
import { parseStrictJson, type JsonParseResult } from "../json/strict-json.js";
import {
  asSafeInteger,
  fromPlain,
  hasMember,
  isJsonObject,
  jsonEquals,
  member,
  newJsonObject,
  type JsonObject,
  type JsonValue,
} from "../json/value.js";
import { fail, ok, type Failure, type Result } from "../result.js";
import { TASK_STATES, TERMINAL_TASK_STATES } from "../profile.js";
import { field, looksLikeTask } from "./a2a.js";
import type { Found } from "./classify.js";
import { detectV03 } from "./v03.js";
import { StreamWatch, type StreamObservations } from "./stream-observations.js";

/** `grpc`: StreamResponse messages in gRPC length-prefixed framing, decoded by ./protobuf. */
export type StreamFraming = "sse" | "ndjson" | "json-array" | "grpc";
export type StreamBinding = "jsonrpc" | "rest";

export interface StreamLimits {
  /** The whole input, in bytes (the verifier's input cap). */
  readonly maxBytes: number;
  /** One event's JSON, in bytes: the a2a-js SSE event cap (a2a-wire.md §2.5). */
  readonly maxEventBytes: number;
  readonly maxEvents: number;
  /** Nesting depth of one event's JSON, wrapper included. */
  readonly maxDepth: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxBytes: 16 * 1024 * 1024,
  maxEventBytes: 4 * 1024 * 1024,
  maxEvents: 100_000,
  maxDepth: 64,
};

/**
 * Marks what the fold made, so the input stage can tell a folded stream from a parsed JSON value:
 * a symbol key cannot come out of a JSON parse.
 */
const FOLDED: unique symbol = Symbol("a2a-evidence folded stream");

interface StreamFacts {
  readonly [FOLDED]: true;
  readonly framing: StreamFraming;
  readonly binding: StreamBinding;
  /** Events folded (data events; comments and keep-alives are not events). */
  readonly events: number;
  /** Observations that decide nothing: open chunks, an interrupted end, a merged snapshot. */
  readonly notes: readonly string[];
}

export interface FoldedTaskStream extends StreamFacts {
  readonly kind: "task";
  /** The Task as a GetTask after the last event would return it. */
  readonly task: JsonObject;
  /** The first event's Task as it was sent: what SendMessage returned first (the acceptance). */
  readonly firstTask: JsonObject;
  /** What the stream showed that the folded Task no longer does (contract §9.28). */
  readonly shown: StreamObservations;
}

export interface FoldedMessageStream extends StreamFacts {
  readonly kind: "message";
  /** The direct Message reply: not a Task, so there is no Task evidence in the stream. */
  readonly message: JsonObject;
}

export type FoldedStream = FoldedTaskStream | FoldedMessageStream;

const LF = 0x0a;
const CR = 0x0d;
const SP = 0x20;
const TAB = 0x09;
const COLON = 0x3a;
const INTERRUPTED_STATES: readonly string[] = ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"];
const SSE_FIELD_NAMES = ["data", "event", "id", "retry"] as const;
const SSE_FIELDS = SSE_FIELD_NAMES.map((f) => Buffer.from(f, "latin1"));
const NOTE_CAP = 20;

function bytesOf(input: Uint8Array | string): Uint8Array | Failure {
  if (typeof input !== "string") return input;
  // TextEncoder would replace a lone surrogate with U+FFFD, silently changing the input.
  if (/[\uD800-\uDFFF]/u.test(input)) return fail("JSON_LONE_SURROGATE", "lone surrogate in the input text", "$");
  return new Uint8Array(Buffer.from(input, "utf8"));
}

function afterBom(b: Uint8Array): number {
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
}

function isJsonSpace(c: number | undefined): boolean {
  return c === SP || c === TAB || c === LF || c === CR;
}

/** True when an SSE field line (`data:`, `event:`, `id:`, `retry:`, or a bare field name) or a comment starts at `at`. */
function sseLineAt(b: Uint8Array, at: number): boolean {
  if (b[at] === COLON) return true;
  return SSE_FIELDS.some((name) => {
    for (let i = 0; i < name.length; i++) if (b[at + i] !== name[i]) return false;
    const next = b[at + name.length];
    return next === COLON || next === LF || next === CR || next === undefined;
  });
}

/**
 * The framing of a stream input, from its first bytes; undefined for anything else. Cheap: it
 * reads at most the first two lines. No JSON document starts with an SSE field or comment, and
 * none has a first line that is a whole object followed by a line that starts another value (after
 * a `}` token only `,` `}` `]` or the end may follow, and strings cannot span lines), so a JSON
 * document is never taken for NDJSON. A one-line NDJSON stream is a JSON document: `{"task": …}`.
 */
export function streamFraming(input: Uint8Array | string): StreamFraming | undefined {
  const b = bytesOf(input);
  if (!(b instanceof Uint8Array)) return undefined;
  const start = afterBom(b);
  let i = start;
  while (b[i] === LF || b[i] === CR) i++;
  if (i < b.length && sseLineAt(b, i)) return "sse";
  i = start;
  while (isJsonSpace(b[i])) i++;
  if (b[i] === 0x5b /* [ */) return "json-array";
  if (b[i] !== 0x7b /* { */) return undefined;
  // Buffer's indexOf is memchr; a typed array's walks element by element (one-line JSON: all of it).
  const eol = Buffer.from(b.buffer, b.byteOffset, b.byteLength).indexOf(LF, i);
  if (eol === -1) return undefined;
  let last = eol - 1;
  while (last > i && (b[last] === CR || b[last] === SP || b[last] === TAB)) last--;
  if (b[last] !== 0x7d /* } */) return undefined;
  let next = eol + 1;
  while (isJsonSpace(b[next])) next++;
  return b[next] === 0x7b || b[next] === 0x5b ? "ndjson" : undefined;
}

/** An SSE body or NDJSON: the inputs to fold before any JSON parse (a JSON array parses as JSON first). */
export function looksLikeStream(input: Uint8Array | string): boolean {
  const f = streamFraming(input);
  return f === "sse" || f === "ndjson";
}

/** Where an event came from, for diagnostics: its number from 1, and its first line in text framings. */
interface Where {
  readonly n: number;
  readonly line?: number;
}

function label(w: Where): string {
  return w.line === undefined ? `event ${w.n}` : `event ${w.n} (line ${w.line})`;
}

/** `event[3]`, then the JSON path inside the event's JSON. Events are numbered from 1 in every framing. */
function eventPath(w: Where, ...segments: (string | number)[]): string {
  return joinPath(`event[${w.n}]`, ...segments);
}

/** A path already formatted by the parser (`result.task`, `[0]`, `$`), placed under the event. */
function underEvent(w: Where, formatted: string): string {
  if (formatted === "$" || formatted === "") return eventPath(w);
  return formatted.startsWith("[") ? `event[${w.n}]${formatted}` : `event[${w.n}].${formatted}`;
}

function inEvent(w: Where, f: Failure): Failure {
  return fail(f.code, `${label(w)}: ${f.detail}`, f.path);
}

function parseEvent(data: Uint8Array, w: Where, limits: StreamLimits): Result<JsonValue> {
  if (data.length > limits.maxEventBytes) {
    return fail(
      "INPUT_STREAM_TOO_LARGE",
      `${label(w)} is ${data.length} bytes; one event is at most ${limits.maxEventBytes}`,
      eventPath(w),
    );
  }
  const r: JsonParseResult = parseStrictJson(data, { maxBytes: limits.maxEventBytes, maxDepth: limits.maxDepth });
  return r.ok ? ok(r.value) : fail(r.code, `${label(w)}: ${r.detail}`, underEvent(w, r.path));
}

function describeError(v: JsonValue): string {
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

function capped(items: readonly string[]): string[] {
  return items.length <= NOTE_CAP ? [...items] : [...items.slice(0, NOTE_CAP), `and ${items.length - NOTE_CAP} more`];
}

type Kind = "task" | "message" | "statusUpdate" | "artifactUpdate";
const KINDS: readonly Kind[] = ["task", "message", "statusUpdate", "artifactUpdate"];

interface TaskEvent {
  readonly id: string;
  readonly contextId: string;
  readonly state: string;
  readonly shown: ShownMessage | undefined;
  readonly metadata: JsonObject | undefined;
  readonly artifacts: readonly JsonValue[];
  readonly history: readonly JsonValue[];
}

interface ShownMessage {
  readonly message: JsonObject;
  readonly id: string;
}

interface ChunkState {
  /** An append or `lastChunk: false` left the artifact waiting for more. */
  open: boolean;
  /** The event whose `lastChunk: true` closed it. */
  closedAt?: number;
}

/** The fold, one event at a time; nothing is kept of an event but what it adds to the Task. */
class StreamFold {
  events = 0;
  binding: StreamBinding | undefined;
  private rpcId: JsonValue | undefined;
  private first:
    | { readonly kind: "message"; readonly message: JsonObject }
    | { readonly kind: "task"; readonly task: JsonObject }
    | undefined;
  private task: JsonObject = newJsonObject();
  private taskId = "";
  private contextId = "";
  private state = "";
  private last: Where | undefined;
  private terminalAt: Where | undefined;
  private artifacts: JsonObject[] = [];
  private artifactIndex = new Map<string, number>();
  /** artifactIds the Task itself carries twice: an update to one of them cannot say which. */
  private ambiguous = new Set<string>();
  private chunks = new Map<string, ChunkState>();
  private history: JsonObject[] = [];
  private historyById = new Map<string, JsonObject>();
  /** Message objects the folded history holds, so one shown twice through two paths is added once. */
  private inHistory = new Set<JsonObject>();
  /** The message the current status shows, with its messageId. */
  private statusShows: ShownMessage | undefined;
  private readonly notes: string[] = [];
  private notesLeftOut = 0;
  private readonly watch = new StreamWatch();

  apply(value: JsonValue, w: Where): Failure | undefined {
    this.events = w.n;
    if (this.first?.kind === "message") {
      return fail(
        "INPUT_STREAM_ORDER",
        `${label(w)} follows a direct Message reply (event 1), which ends the stream`,
        eventPath(w),
      );
    }
    if (this.terminalAt) {
      return fail(
        "INPUT_STREAM_ORDER",
        `${label(w)} follows the terminal state ${this.state} (event ${this.terminalAt.n}); a stream closes at a terminal state`,
        eventPath(w),
      );
    }
    const unwrapped = this.unwrap(value, w);
    if (!unwrapped.ok) return unwrapped;
    const { kind, payload, path } = unwrapped.value;
    this.last = w;
    if (this.first === undefined) {
      if (kind === "message") {
        const id = this.messageIdOf(payload, path, w);
        if (!id.ok) return id;
        this.first = { kind: "message", message: payload };
        return undefined;
      }
      if (kind !== "task") {
        return fail(
          "INPUT_STREAM_ORDER",
          `${label(w)} is a ${kind}; a stream begins with the Task (or a direct Message reply)`,
          path,
        );
      }
      return this.begin(payload, path, w);
    }
    switch (kind) {
      case "message":
        return fail(
          "INPUT_STREAM_ORDER",
          `${label(w)} is a Message; after the Task a stream carries only statusUpdate and artifactUpdate events`,
          path,
        );
      case "task":
        return this.snapshot(payload, path, w);
      case "statusUpdate":
        return this.statusUpdate(payload, path, w);
      case "artifactUpdate":
        return this.artifactUpdate(payload, path, w);
    }
  }

  /** The StreamResponse inside one event, after its JSON-RPC or REST framing. */
  private unwrap(value: JsonValue, w: Where): Result<{ kind: Kind; payload: JsonObject; path: string }> {
    if (!isJsonObject(value)) return fail("INPUT_STREAM_MALFORMED", `${label(w)} is not a JSON object`, eventPath(w));
    let binding: StreamBinding;
    let response: JsonObject;
    let base: string;
    if (hasMember(value, "jsonrpc")) {
      binding = "jsonrpc";
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
      response = result;
      base = eventPath(w, "result");
    } else {
      binding = "rest";
      // No StreamResponse has an `error` member: an event carrying one is the server's error,
      // whatever else it holds.
      if (member(value, "error") !== undefined) {
        return fail(
          "INPUT_STREAM_ERROR",
          `${label(w)} is an error${describeError(value)}; the stream ends without a Task`,
          eventPath(w, "error"),
        );
      }
      response = value;
      base = eventPath(w);
    }
    if (this.binding === undefined) this.binding = binding;
    else if (binding !== this.binding) {
      return fail(
        "INPUT_STREAM_MALFORMED",
        `${label(w)} uses the ${bindingName(binding)} framing; the stream began with the ${bindingName(this.binding)} framing`,
        eventPath(w),
      );
    }
    const kindMember = member(response, "kind");
    if (typeof kindMember === "string") {
      return fail(
        "INPUT_A2A_V03",
        `${label(w)} is an A2A v0.3 stream event (kind ${JSON.stringify(kindMember)}); this verifier folds A2A v1.0 StreamResponses`,
        joinPath(base, "kind"),
      );
    }
    // StreamResponse.payload is a oneof: a second member is refused, as a2a-wire.md §1.1 requires.
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

  /** What the fold reads of the Task of a `task` event: v1.0-shaped, with a string id and an object status. */
  private readTaskEvent(task: JsonObject, path: string, w: Where): Result<TaskEvent> {
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
    const contextId = this.stringMember(task, "contextId", path, w);
    if (!contextId.ok) return contextId;
    const state = this.readState(member(task, "status"), joinPath(path, "status"), w);
    if (!state.ok) return state;
    const shown = this.statusMessageOf(member(task, "status"), joinPath(path, "status"), w);
    if (!shown.ok) return shown;
    const metadata = this.objectMember(task, "metadata", path, w);
    if (!metadata.ok) return metadata;
    const artifacts = this.arrayMember(task, "artifacts", path, w);
    if (!artifacts.ok) return artifacts;
    const history = this.arrayMember(task, "history", path, w);
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

  private begin(task: JsonObject, path: string, w: Where): Failure | undefined {
    // The fold works on its own copy: the first Task is also reported as it was sent.
    const own = fromPlain(task) as JsonObject;
    const read = this.readTaskEvent(own, path, w);
    if (!read.ok) return read;
    const t = read.value;
    this.first = { kind: "task", task };
    this.taskId = t.id;
    this.contextId = t.contextId;
    this.task = own;
    for (const [i, a] of t.artifacts.entries()) {
      const r = this.addArtifact(a, joinPath(path, "artifacts", i), w);
      if (r) return r;
    }
    const h = this.resetHistory(t.history, joinPath(path, "history"), w);
    if (h) return h;
    this.statusShows = t.shown;
    this.setState(t.state, w);
    return undefined;
  }

  /** A later `task` event, as the a2a-js ResultManager applies one to the stored Task. */
  private snapshot(task: JsonObject, path: string, w: Where): Failure | undefined {
    const read = this.readTaskEvent(task, path, w);
    if (!read.ok) return read;
    const t = read.value;
    if (t.id !== this.taskId) {
      return fail(
        "INPUT_STREAM_FOREIGN_EVENT",
        `${label(w)} is Task ${JSON.stringify(t.id)}; the stream's Task is ${JSON.stringify(this.taskId)}`,
        joinPath(path, "id"),
      );
    }
    if (t.contextId !== this.contextId) return this.foreignContext(t.contextId, joinPath(path, "contextId"), w);
    // a2a-js lets a later Task's history replace the stored one; here it may only extend it: a
    // snapshot must not take back messages the stream already showed.
    if (t.history.length > 0) {
      const at = this.history.findIndex((m, i) => !jsonEquals(m, t.history[i]));
      if (at !== -1) {
        return fail(
          "INPUT_STREAM_MALFORMED",
          `${label(w)}: the later Task's history drops or changes history[${at}] the stream already showed`,
          joinPath(path, "history", at),
        );
      }
    }
    const storedMetadata = member(this.task, "metadata");
    this.task = task;
    if (isJsonObject(storedMetadata)) {
      delete task.metadata;
      this.mergeMetadata(storedMetadata);
    }
    if (t.metadata) this.mergeMetadata(t.metadata);
    for (const [i, a] of t.artifacts.entries()) {
      const r = this.putArtifact(a, joinPath(path, "artifacts", i), w, false, undefined);
      if (r) return r;
    }
    if (t.history.length > 0) {
      const h = this.resetHistory(t.history, joinPath(path, "history"), w);
      if (h) return h;
    }
    this.keepStatusMessage(w);
    this.statusShows = t.shown;
    this.note(
      `${label(w)}: a later Task was merged into the folded Task (history kept when its own is empty, artifacts merged by artifactId, metadata merged)`,
    );
    this.setState(t.state, w);
    return undefined;
  }

  private statusUpdate(update: JsonObject, path: string, w: Where): Failure | undefined {
    const same = this.sameTask(update, path, w);
    if (same) return same;
    const status = member(update, "status");
    const statusPath = joinPath(path, "status");
    const state = this.readState(status, statusPath, w);
    if (!state.ok) return state;
    const metadata = this.objectMember(update, "metadata", path, w);
    if (!metadata.ok) return metadata;
    const statusObject = status as JsonObject;
    const shown = this.statusMessageOf(statusObject, statusPath, w);
    if (!shown.ok) return shown;
    this.keepStatusMessage(w);
    if (shown.value) this.addToHistory(shown.value, w);
    this.statusShows = shown.value;
    this.task.status = statusObject;
    if (metadata.value) this.mergeMetadata(metadata.value);
    this.setState(state.value, w);
    return undefined;
  }

  private artifactUpdate(update: JsonObject, path: string, w: Where): Failure | undefined {
    const same = this.sameTask(update, path, w);
    if (same) return same;
    const append = this.booleanMember(update, "append", path, w);
    if (!append.ok) return append;
    const lastChunk = this.booleanMember(update, "lastChunk", path, w);
    if (!lastChunk.ok) return lastChunk;
    const metadata = this.objectMember(update, "metadata", path, w);
    if (!metadata.ok) return metadata;
    const artifact = member(update, "artifact");
    const artifactPath = joinPath(path, "artifact");
    const r = append.value
      ? this.appendArtifact(artifact, artifactPath, w, lastChunk.value)
      : this.putArtifact(artifact, artifactPath, w, true, lastChunk.value);
    if (r) return r;
    // @a2a-js/sdk 1.3.0 merges the artifact-update event's own metadata into Task.metadata too.
    if (metadata.value) this.mergeMetadata(metadata.value);
    return undefined;
  }

  /** An object with a string id member (`artifactId`, `messageId`), under either ProtoJSON spelling. */
  private withId(
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

  /** Reads an artifact's id and checks its parts list, which appends extend in place. */
  private artifactOf(
    v: JsonValue | undefined,
    path: string,
    w: Where,
  ): Result<{ artifact: JsonObject; id: string; parts: JsonValue[] }> {
    const a = this.withId(v, "artifactId", "an artifact", path, w);
    if (!a.ok) return a;
    const { object: artifact, id } = a.value;
    const parts = member(artifact, "parts");
    if (!Array.isArray(parts))
      return fail(
        "INPUT_STREAM_MALFORMED",
        `${label(w)}: artifact ${JSON.stringify(id)} needs a "parts" array`,
        joinPath(path, "parts"),
      );
    return ok({ artifact, id, parts });
  }

  /** An artifact carried by the first Task: indexed by id, ids the Task repeats marked ambiguous. */
  private addArtifact(v: JsonValue, path: string, w: Where): Failure | undefined {
    const a = this.artifactOf(v, path, w);
    if (!a.ok) return a;
    if (this.artifactIndex.has(a.value.id)) this.ambiguous.add(a.value.id);
    else this.artifactIndex.set(a.value.id, this.artifacts.length);
    this.artifacts.push(a.value.artifact);
    return undefined;
  }

  /** Adds an artifact, or replaces the one with its id (`append` false or absent, or a later Task). */
  private putArtifact(
    v: JsonValue | undefined,
    path: string,
    w: Where,
    fromUpdate: boolean,
    lastChunk: boolean | undefined,
  ): Failure | undefined {
    const a = this.artifactOf(v, path, w);
    if (!a.ok) return a;
    const { id, artifact } = a.value;
    if (this.ambiguous.has(id)) return this.ambiguousArtifact(id, path, w);
    const at = this.artifactIndex.get(id);
    if (at === undefined) {
      this.artifactIndex.set(id, this.artifacts.length);
      this.artifacts.push(artifact);
    } else {
      // A2A lets an update replace an artifact; what the client saw before is said, and a version
      // it was shown as final is kept for taskBinding (contract §9.28).
      const previous = this.artifacts[at] as JsonObject;
      if (!jsonEquals(previous, artifact))
        this.note(`${label(w)}: artifact ${JSON.stringify(id)} replaces the one an earlier event sent`);
      this.watch.artifactReplaced(id, previous, artifact, this.chunks.get(id)?.closedAt, w.n);
      this.artifacts[at] = artifact;
    }
    const chunk: ChunkState = { open: fromUpdate && lastChunk === false };
    if (lastChunk === true) chunk.closedAt = w.n;
    this.chunks.set(id, chunk);
    return undefined;
  }

  /** `append: true`: the chunk's parts go onto the artifact already sent, in order. */
  private appendArtifact(
    v: JsonValue | undefined,
    path: string,
    w: Where,
    lastChunk: boolean | undefined,
  ): Failure | undefined {
    const a = this.artifactOf(v, path, w);
    if (!a.ok) return a;
    const { id, artifact, parts } = a.value;
    if (this.ambiguous.has(id)) return this.ambiguousArtifact(id, path, w);
    const at = this.artifactIndex.get(id);
    const existing = at === undefined ? undefined : this.artifacts[at];
    if (existing === undefined) {
      return fail(
        "INPUT_STREAM_ORDER",
        `${label(w)} appends to artifact ${JSON.stringify(id)}, which the stream has not sent`,
        joinPath(path, "artifactId"),
      );
    }
    const chunk = this.chunks.get(id) ?? { open: false };
    if (chunk.closedAt !== undefined) {
      return fail(
        "INPUT_STREAM_ORDER",
        `${label(w)} appends to artifact ${JSON.stringify(id)} after its last chunk (event ${chunk.closedAt})`,
        joinPath(path, "artifactId"),
      );
    }
    // A chunk may repeat what the artifact is called, or say it first; it may not rename it halfway.
    const isEmpty = (v: JsonValue | undefined) =>
      v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
    const adopted: [string, JsonValue][] = [];
    for (const name of ["name", "description", "extensions"]) {
      const given = member(artifact, name);
      if (isEmpty(given)) continue;
      const had = member(existing, name);
      if (isEmpty(had)) adopted.push([name, given as JsonValue]);
      else if (!jsonEquals(given, had)) {
        return fail(
          "INPUT_STREAM_MALFORMED",
          `${label(w)}: an append to artifact ${JSON.stringify(id)} changes its "${name}"`,
          joinPath(path, name),
        );
      }
    }
    const metadata = member(artifact, "metadata");
    if (metadata !== undefined && metadata !== null && !isJsonObject(metadata)) {
      return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "metadata" must be an object`, joinPath(path, "metadata"));
    }
    for (const [name, value] of adopted) existing[name] = value;
    const target = member(existing, "parts") as JsonValue[];
    // In place, one part at a time: no copy of the list per chunk, no spread of a huge argument list.
    for (const part of parts) target.push(part);
    if (isJsonObject(metadata)) {
      const own = member(existing, "metadata");
      const merged = isJsonObject(own) ? own : (existing.metadata = newJsonObject());
      for (const k of Object.keys(metadata)) merged[k] = metadata[k] as JsonValue;
    }
    chunk.open = lastChunk !== true;
    if (lastChunk === true) chunk.closedAt = w.n;
    this.chunks.set(id, chunk);
    return undefined;
  }

  private ambiguousArtifact(id: string, path: string, w: Where): Failure {
    return fail(
      "INPUT_STREAM_MALFORMED",
      `${label(w)} updates artifact ${JSON.stringify(id)}, which the Task carries twice: which one it updates is ambiguous`,
      joinPath(path, "artifactId"),
    );
  }

  private resetHistory(messages: readonly JsonValue[], path: string, w: Where): Failure | undefined {
    this.history = [];
    this.historyById = new Map();
    this.inHistory = new Set();
    for (const [i, m] of messages.entries()) {
      const id = this.messageIdOf(m, joinPath(path, i), w);
      if (!id.ok) return id;
      const message = m as JsonObject;
      this.history.push(message);
      this.inHistory.add(message);
      if (!this.historyById.has(id.value)) this.historyById.set(id.value, message);
    }
    return undefined;
  }

  /**
   * As the SDKs do, a status message joins the history when its messageId is new, and the same
   * message sent again is one observation. The same messageId with other content is kept as a
   * second entry: dropping it would hide from taskBinding what the client was shown.
   */
  private addToHistory(shown: ShownMessage, w: Where): void {
    const { message, id } = shown;
    if (this.inHistory.has(message)) return;
    const seen = this.historyById.get(id);
    if (seen !== undefined && jsonEquals(seen, message)) return;
    if (seen !== undefined) {
      this.note(
        `${label(w)}: status message ${JSON.stringify(id)} differs from the history entry with that messageId; both are kept`,
      );
    } else {
      this.historyById.set(id, message);
    }
    this.history.push(message);
    this.inHistory.add(message);
  }

  /** A status's message, when it has one: a Message with a messageId. */
  private statusMessageOf(status: JsonValue | undefined, path: string, w: Where): Result<ShownMessage | undefined> {
    const message = isJsonObject(status) ? member(status, "message") : undefined;
    if (message === undefined || message === null) return ok(undefined);
    const id = this.messageIdOf(message, joinPath(path, "message"), w);
    return id.ok ? ok({ message: message as JsonObject, id: id.value }) : id;
  }

  private messageIdOf(m: JsonValue, path: string, w: Where): Result<string> {
    const message = this.withId(m, "messageId", "a Message", path, w);
    return message.ok ? ok(message.value.id) : message;
  }

  /** Notes on single events are capped: a stream of many events must not make a report of many lines. */
  private note(text: string): void {
    if (this.notes.length < NOTE_CAP) this.notes.push(text);
    else this.notesLeftOut++;
  }

  /**
   * A status is being replaced. A message it showed that the history does not hold yet (the first
   * Task's, or a later Task's, status message; an update's joined the history on arrival) joins
   * it now, so nothing the client was shown vanishes from the folded Task.
   */
  private keepStatusMessage(w: Where): void {
    const shown = this.statusShows;
    if (shown === undefined || this.inHistory.has(shown.message)) return;
    if (!this.historyById.has(shown.id))
      this.note(`${label(w)}: the message ${JSON.stringify(shown.id)} of the status it replaces joins the history`);
    this.addToHistory(shown, w);
  }

  /** Shallow, top-level keys, the newer value wins: `{...stored, ...event}` (a2a-js 1.3.0, Python a2a-sdk). */
  private mergeMetadata(metadata: JsonObject): void {
    const own = member(this.task, "metadata");
    const target = isJsonObject(own) ? own : (this.task.metadata = newJsonObject());
    for (const k of Object.keys(metadata)) target[k] = metadata[k] as JsonValue;
  }

  /** Update events carry the stream's taskId and contextId (an absent contextId is ProtoJSON's ""). */
  private sameTask(update: JsonObject, path: string, w: Where): Failure | undefined {
    const taskId = field(update, "taskId", path);
    if (!taskId.ok) return inEvent(w, taskId);
    if (taskId.value === undefined || taskId.value === null)
      return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "taskId" is required`, joinPath(path, "taskId"));
    if (taskId.value !== this.taskId) {
      return fail(
        "INPUT_STREAM_FOREIGN_EVENT",
        `${label(w)} is for task ${showValue(taskId.value)}; the stream's Task is ${JSON.stringify(this.taskId)}`,
        joinPath(path, "taskId"),
      );
    }
    const context = this.stringMember(update, "contextId", path, w);
    if (!context.ok) return context;
    return context.value === this.contextId
      ? undefined
      : this.foreignContext(context.value, joinPath(path, "contextId"), w);
  }

  private foreignContext(got: string, path: string, w: Where): Failure {
    const show = (s: string) => (s === "" ? "no context" : `context ${JSON.stringify(s)}`);
    return fail(
      "INPUT_STREAM_FOREIGN_EVENT",
      `${label(w)} is for ${show(got)}; the stream's Task has ${show(this.contextId)}`,
      path,
    );
  }

  /** TaskStatus.state by name, or by enum number as ProtoJSON allows; required and known. */
  private readState(status: JsonValue | undefined, path: string, w: Where): Result<string> {
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

  private setState(state: string, w: Where): void {
    this.watch.stateChanged(this.state, state, w.n);
    this.state = state;
    if ((TERMINAL_TASK_STATES as readonly string[]).includes(state)) this.terminalAt = w;
  }

  private stringMember(obj: JsonObject, name: string, path: string, w: Where): Result<string> {
    const r = field(obj, name, path);
    if (!r.ok) return inEvent(w, r);
    if (r.value === undefined || r.value === null) return ok("");
    if (typeof r.value !== "string")
      return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "${name}" must be a string`, joinPath(path, name));
    return ok(r.value);
  }

  private booleanMember(obj: JsonObject, name: string, path: string, w: Where): Result<boolean | undefined> {
    const r = field(obj, name, path);
    if (!r.ok) return inEvent(w, r);
    if (r.value === undefined || r.value === null) return ok(undefined);
    if (typeof r.value !== "boolean")
      return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "${name}" must be true or false`, joinPath(path, name));
    return ok(r.value);
  }

  private objectMember(obj: JsonObject, name: string, path: string, w: Where): Result<JsonObject | undefined> {
    const v = member(obj, name);
    if (v === undefined || v === null) return ok(undefined);
    if (!isJsonObject(v))
      return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "${name}" must be an object`, joinPath(path, name));
    return ok(v);
  }

  private arrayMember(obj: JsonObject, name: string, path: string, w: Where): Result<JsonValue[]> {
    const v = member(obj, name);
    if (v === undefined || v === null) return ok([]);
    if (!Array.isArray(v))
      return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "${name}" must be an array`, joinPath(path, name));
    return ok(v);
  }

  finish(framing: StreamFraming): Result<FoldedStream> {
    const first = this.first;
    const last = this.last;
    if (first === undefined || last === undefined || this.binding === undefined) {
      return fail("INPUT_STREAM_TRUNCATED", "the stream carries no events", "$");
    }
    const facts = { [FOLDED]: true as const, framing, binding: this.binding, events: this.events };
    if (first.kind === "message") return ok({ kind: "message", message: first.message, ...facts, notes: [] });
    if (this.terminalAt === undefined && !INTERRUPTED_STATES.includes(this.state)) {
      return fail(
        "INPUT_STREAM_TRUNCATED",
        `the stream ends at ${label(last)} in state ${this.state}, neither terminal nor interrupted: it was cut off before the Task finished (the verifier describes terminal Tasks)`,
        eventPath(last),
      );
    }
    if (this.notesLeftOut > 0) this.notes.push(`and ${this.notesLeftOut} more notes on events`);
    if (this.terminalAt === undefined)
      this.notes.push(`the stream ends in the interrupted state ${this.state}: the Task is not terminal`);
    if (this.artifacts.length > 0 || hasMember(this.task, "artifacts")) this.task.artifacts = this.artifacts;
    if (this.history.length > 0 || hasMember(this.task, "history")) this.task.history = this.history;
    const open = [...this.chunks].filter(([, c]) => c.open).map(([id]) => JSON.stringify(id));
    if (open.length > 0)
      this.notes.push(`the stream ended before the last chunk (lastChunk) of artifact ${capped(open).join(", ")}`);
    const shown = this.watch.result();
    return ok({ kind: "task", task: this.task, firstTask: first.task, ...facts, notes: this.notes, shown });
  }
}

function bindingName(b: StreamBinding): string {
  return b === "jsonrpc" ? "JSON-RPC" : "REST";
}

type EventSink = (data: Uint8Array, w: Where, type: string) => Failure | undefined;

/**
 * Splits an SSE body into events (the WHATWG event-stream rules): lines end with CRLF, LF or CR;
 * `data` lines accumulate, joined with LF; `event` sets the type; `id` and `retry` carry nothing
 * the fold needs; lines starting with ':' are comments (keep-alives); a blank line dispatches.
 * Works on bytes: line breaks are ASCII and never inside a UTF-8 sequence, and each event's bytes
 * go to the strict parser, which checks their UTF-8.
 */
function readSse(b: Uint8Array, limits: StreamLimits, sink: EventSink, notes: string[]): Failure | undefined {
  let pos = afterBom(b);
  let line = 0;
  let nextLf = -2;
  let nextCr = -2;
  let pieces: Uint8Array[] = [];
  let size = 0;
  let type = "";
  let eventLine = 0;
  let n = 0;
  let unknownFields = 0;
  const dispatch = (): Failure | undefined => {
    const chunks = pieces;
    const eventType = type;
    const w = { n: n + 1, line: eventLine };
    pieces = [];
    type = "";
    size = 0;
    eventLine = 0;
    // An event with no data line is not dispatched (the event-stream rules).
    if (chunks.length === 0) return undefined;
    n++;
    if (n > limits.maxEvents)
      return fail("INPUT_STREAM_TOO_LARGE", `the stream has more than ${limits.maxEvents} events`, eventPath(w));
    const data = chunks.length === 1 ? (chunks[0] as Uint8Array) : joinLines(chunks);
    return sink(data, w, eventType === "" ? "message" : eventType);
  };
  while (pos < b.length) {
    if (nextLf !== -1 && nextLf < pos) nextLf = b.indexOf(LF, pos);
    if (nextCr !== -1 && nextCr < pos) nextCr = b.indexOf(CR, pos);
    let end: number;
    let after: number;
    if (nextLf === -1 && nextCr === -1) {
      // A last line without a line break is not processed (the event-stream rules); unless it is a
      // comment, the body stopped inside an event.
      if (b[pos] === COLON && pieces.length === 0) break;
      return fail(
        "INPUT_STREAM_TRUNCATED",
        `the SSE body ends inside line ${line + 1}, which has no line break: the stream was cut off inside event ${n + 1}`,
        `event[${n + 1}]`,
      );
    } else if (nextCr === -1 || (nextLf !== -1 && nextLf < nextCr)) {
      end = nextLf;
      after = nextLf + 1;
    } else {
      end = nextCr;
      after = b[nextCr + 1] === LF ? nextCr + 2 : nextCr + 1;
    }
    line++;
    if (end === pos) {
      const r = dispatch();
      if (r) return r;
    } else if (b[pos] !== COLON) {
      const text = b.subarray(pos, end);
      const colon = text.indexOf(COLON);
      const name = fieldName(colon === -1 ? text : text.subarray(0, colon));
      let value = colon === -1 ? new Uint8Array(0) : text.subarray(colon + 1);
      if (value[0] === SP) value = value.subarray(1);
      if (eventLine === 0) eventLine = line;
      if (name === "data") {
        size += value.length + (pieces.length > 0 ? 1 : 0);
        if (size > limits.maxEventBytes) {
          return fail(
            "INPUT_STREAM_TOO_LARGE",
            `event ${n + 1} (line ${eventLine}) exceeds ${limits.maxEventBytes} bytes; one event is at most that`,
            `event[${n + 1}]`,
          );
        }
        pieces.push(value);
      } else if (name === "event") {
        type = Buffer.from(value).toString("utf8");
      } else if (name === "") {
        unknownFields++;
      }
    }
    pos = after;
  }
  if (pieces.length > 0) {
    // The event-stream rules discard an event the body ends inside: a client never saw it.
    return fail(
      "INPUT_STREAM_TRUNCATED",
      `event ${n + 1} (line ${eventLine}) is not ended by a blank line: the stream was cut off inside it`,
      `event[${n + 1}]`,
    );
  }
  if (unknownFields > 0)
    notes.push(`${unknownFields} SSE line(s) with a field other than data, event, id or retry were ignored`);
  return undefined;
}

/** An SSE field name: one of the four the event-stream rules define, or "" for any other. */
function fieldName(name: Uint8Array): string {
  for (const [i, known] of SSE_FIELDS.entries()) {
    if (known.length === name.length && known.every((c, k) => name[k] === c)) return SSE_FIELD_NAMES[i] as string;
  }
  return "";
}

function joinLines(chunks: readonly Uint8Array[]): Uint8Array {
  let total = chunks.length - 1;
  for (const c of chunks) total += c.length;
  const out = new Uint8Array(total);
  let o = 0;
  for (const [i, c] of chunks.entries()) {
    if (i > 0) out[o++] = LF;
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** NDJSON: one event per line (LF, optionally CRLF); blank lines carry nothing. */
function readNdjson(b: Uint8Array, limits: StreamLimits, sink: EventSink): Failure | undefined {
  let pos = afterBom(b);
  let line = 0;
  let n = 0;
  while (pos < b.length) {
    const lf = b.indexOf(LF, pos);
    const end = lf === -1 ? b.length : lf;
    line++;
    let first = pos;
    while (first < end && isJsonSpace(b[first])) first++;
    if (first < end) {
      n++;
      const w = { n, line };
      if (n > limits.maxEvents)
        return fail("INPUT_STREAM_TOO_LARGE", `the stream has more than ${limits.maxEvents} events`, eventPath(w));
      const r = sink(b.subarray(pos, end), w, "message");
      if (r) return r;
    }
    pos = end + 1;
  }
  return undefined;
}

/** One event's data, parsed and folded; an `event: error` frame ends the stream with its error. */
function sinkInto(fold: StreamFold, limits: StreamLimits): EventSink {
  return (data, w, type) => {
    if (type === "error") {
      const parsed = parseStrictJson(data, { maxBytes: limits.maxEventBytes, maxDepth: limits.maxDepth });
      const said = parsed.ok ? describeError(parsed.value) : " (not JSON)";
      return fail(
        "INPUT_STREAM_ERROR",
        `${label(w)} is an error event${said}; the stream ends without a Task`,
        eventPath(w),
      );
    }
    if (type !== "message") {
      return fail(
        "INPUT_STREAM_MALFORMED",
        `${label(w)} has event type ${JSON.stringify(type)}; an A2A stream carries data events and "error" events only`,
        eventPath(w),
      );
    }
    const v = parseEvent(data, w, limits);
    return v.ok ? fold.apply(v.value, w) : v;
  };
}

/**
 * Folds events already parsed or decoded: a JSON array of events (found at classification), or the
 * StreamResponse messages of a gRPC stream as their ProtoJSON values.
 */
export function foldStreamArray(
  events: readonly JsonValue[],
  limits: StreamLimits = DEFAULT_STREAM_LIMITS,
  framing: "json-array" | "grpc" = "json-array",
): Result<FoldedStream> {
  if (events.length > limits.maxEvents) {
    return fail(
      "INPUT_STREAM_TOO_LARGE",
      `the stream has ${events.length} events; the limit is ${limits.maxEvents}`,
      "$",
    );
  }
  const fold = new StreamFold();
  for (const [i, v] of events.entries()) {
    const r = fold.apply(v, { n: i + 1 });
    if (r) return r;
  }
  return fold.finish(framing);
}

/** Folds a stream input (SSE, NDJSON or a JSON array of events) into the Task it describes. */
export function foldStream(
  input: Uint8Array | string,
  limits: StreamLimits = DEFAULT_STREAM_LIMITS,
): Result<FoldedStream> {
  const b = bytesOf(input);
  if (!(b instanceof Uint8Array)) return b;
  if (b.length > limits.maxBytes)
    return fail("INPUT_STREAM_TOO_LARGE", `the input is ${b.length} bytes; the limit is ${limits.maxBytes}`, "$");
  const framing = streamFraming(b);
  if (framing === undefined) {
    return fail("INPUT_STREAM_MALFORMED", "the input is not an SSE body, NDJSON or a JSON array of stream events", "$");
  }
  if (framing === "json-array") {
    // The array adds one level above each event.
    const parsed = parseStrictJson(b, { maxBytes: limits.maxBytes, maxDepth: limits.maxDepth + 1 });
    if (!parsed.ok) {
      const m = /^\[(\d+)\]/.exec(parsed.path);
      if (!m) return fail(parsed.code, parsed.detail, parsed.path);
      const w = { n: Number(m[1]) + 1 };
      return fail(
        parsed.code,
        `${label(w)}: ${parsed.detail}`,
        underEvent(w, parsed.path.slice(m[0].length).replace(/^\./, "")),
      );
    }
    // The framing saw '[' first, so what parsed is an array.
    return foldStreamArray(parsed.value as JsonValue[], limits);
  }
  const fold = new StreamFold();
  const notes: string[] = [];
  const sink = sinkInto(fold, limits);
  const r = framing === "sse" ? readSse(b, limits, sink, notes) : readNdjson(b, limits, sink);
  if (r) return r;
  const folded = fold.finish(framing);
  if (!folded.ok || notes.length === 0) return folded;
  return ok({ ...folded.value, notes: [...notes, ...folded.value.notes] });
}

/** The folded Task, or an input error for a stream that is a direct Message reply (no Task to verify). */
export function streamTask(folded: FoldedStream): Result<JsonObject> {
  if (folded.kind === "task") return ok(folded.task);
  const id = member(folded.message, "messageId");
  return fail(
    "INPUT_STREAM_MESSAGE",
    `the stream is a direct Message reply${typeof id === "string" ? ` (messageId ${JSON.stringify(id)})` : ""}, not a Task: it carries no Task evidence (pass it with --first-task for the negotiation checks)`,
    folded.binding === "jsonrpc" ? "event[1].result.message" : "event[1].message",
  );
}

/**
 * What a folded Task stream observed, as a capture: the first Task (SendMessage's first response,
 * with the acceptance) and the final Task. Verified as a capture, the stream's negotiation is
 * judged exactly as a recorded exchange's is.
 */
export function streamCapture(folded: FoldedTaskStream): JsonObject {
  const capture = newJsonObject();
  capture.firstTask = folded.firstTask;
  capture.finalTask = folded.task;
  return capture;
}

/** True for what `foldStream` and `foldStreamArray` return, never for a parsed JSON value. */
export function isFoldedStream(v: unknown): v is FoldedStream {
  return typeof v === "object" && v !== null && (v as { [FOLDED]?: unknown })[FOLDED] === true;
}

/** Where the first event's Task sits in the stream. */
function firstTaskPath(folded: FoldedStream): string {
  return folded.binding === "jsonrpc" ? "event[1].result.task" : "event[1].task";
}

/**
 * The later client turn a stream's first Task already shows, if any: a ROLE_USER Message after a
 * ROLE_AGENT one. SendMessage's first response to a new Task answers the Task's first Message, so
 * it cannot hold a second client turn; a stream whose first Task does is a later request's stream
 * on an existing Task (a resumption: a2a-js sends the stored Task, with the resuming Message
 * appended, as its first event) or a subscription joined after one. Its first event is then the
 * stored Task, past its acceptance — not the first response (contract §9.18 judges that one).
 * A first response already terminal or holding results shows no such turn, and is still judged.
 */
export function laterClientTurn(task: JsonObject): string | undefined {
  const history = member(task, "history");
  let agentSpoke = false;
  for (const m of Array.isArray(history) ? history : []) {
    const role = isJsonObject(m) ? member(m, "role") : undefined;
    if (role === "ROLE_AGENT") agentSpoke = true;
    else if (role === "ROLE_USER" && agentSpoke) {
      const id = member(m as JsonObject, "messageId");
      return typeof id === "string" ? id : "(no messageId)";
    }
  }
  return undefined;
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

/** A JSON array of events (found at classification), folded and classified; its fault otherwise. */
export function classifyStreamArray(events: readonly JsonValue[]): ReturnType<typeof streamClassified> {
  const folded = foldStreamArray(events);
  return folded.ok ? streamClassified(folded.value) : folded;
}

/** One line for the report: what was folded. */
export function streamNote(folded: FoldedStream): string {
  const framing =
    folded.framing === "sse"
      ? "an SSE stream"
      : folded.framing === "ndjson"
        ? "an NDJSON stream"
        : folded.framing === "grpc"
          ? "a gRPC stream of length-prefixed StreamResponse messages"
          : "a JSON array of stream events";
  const binding = folded.framing === "grpc" ? "gRPC" : folded.binding === "jsonrpc" ? "JSON-RPC" : "REST";
  const what = folded.kind === "task" ? "folded into the Task" : "a direct Message reply";
  return `input is ${framing} (${binding} framing): ${folded.events} event${folded.events === 1 ? "" : "s"}, ${what}`;
}
