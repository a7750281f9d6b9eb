/**
 * The fold of a stream's events into the Task a later GetTask would return (a2a-wire.md §1.7,
 * §2.5, §2.7 step 1), with the rules the `@a2a-js/sdk` 1.3.0 server uses to build its stored Task
 * (a2a-js-sdk.md §2.4), which for status-update metadata are also the Python SDK's (a2a-wire.md
 * §2.5):
 *
 *   - the first event is the Task (or a direct Message reply, which ends the stream);
 *   - `statusUpdate`: `status` replaced; `status.message` appended to `history` when its messageId
 *     is new (./history.ts); the event's `metadata` merged into `Task.metadata` (top-level keys,
 *     the event wins);
 *   - `artifactUpdate`: the artifact added, or replaced by `artifactId`; with `append: true` its
 *     parts concatenated onto the artifact already sent and its metadata merged (./artifacts.ts);
 *     the event's own `metadata` merged into `Task.metadata`;
 *   - a later `task` event: the new Task, keeping `history` when its own is empty, artifacts
 *     merged by `artifactId`, metadata merged.
 *
 * Stricter than the SDKs wherever they guess: an event for another task or context, any event after
 * a terminal state, a later Task that takes back history already shown, and a stream that ends
 * before a terminal or interrupted state are input errors, each naming the event (numbered from 1)
 * and the JSON path inside it. The events come already parsed or decoded, from any framing
 * (./framing.ts, ../protobuf, a JSON array of events); nothing is kept of an event but what it
 * adds to the Task.
 */
import { showValue } from "../../json/diff.js";
import { joinPath } from "../../json/path.js";
import {
  fromPlain,
  hasMember,
  isJsonObject,
  member,
  newJsonObject,
  type JsonObject,
  type JsonValue,
} from "../../json/value.js";
import { fail, ok, type Failure, type Result } from "../../result.js";
import { TERMINAL_TASK_STATES } from "../../profile.js";
import { field } from "../a2a.js";
import { StreamWatch, type StreamObservations } from "../stream-observations.js";
import { ArtifactFold } from "./artifacts.js";
import {
  DEFAULT_STREAM_LIMITS,
  eventPath,
  FRAMINGS,
  inEvent,
  label,
  NOTE_CAP,
  type Framing,
  type StreamBinding,
  type StreamFraming,
  type StreamLimits,
  type Where,
} from "./event.js";
import { HistoryFold } from "./history.js";
import {
  booleanMember,
  messageIdOf,
  objectMember,
  readState,
  readTaskEvent,
  statusMessageOf,
  stringMember,
} from "./members.js";
import { EventUnwrapper, type Unwrapped } from "./unwrap.js";

export { DEFAULT_STREAM_LIMITS, type StreamLimits } from "./event.js";

/**
 * Marks what the fold made, so the input stage can tell a folded stream from a parsed JSON value:
 * a symbol key cannot come out of a JSON parse.
 */
const FOLDED: unique symbol = Symbol("a2a-evidence folded stream");

interface StreamFacts {
  readonly [FOLDED]: true;
  /** The framing's name: one of StreamFraming, or a new form's own. */
  readonly framing: string;
  /** The framing, as the report's note names it. */
  readonly framedAs: Framing;
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

/** True for what the fold returns, never for a parsed JSON value. */
export function isFoldedStream(v: unknown): v is FoldedStream {
  return typeof v === "object" && v !== null && (v as { [FOLDED]?: unknown })[FOLDED] === true;
}

const INTERRUPTED_STATES: readonly string[] = ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"];

/** The fold, one event at a time. */
export class StreamFold {
  events = 0;
  private readonly framing = new EventUnwrapper();
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
  private readonly notes: string[] = [];
  private notesLeftOut = 0;
  private readonly watch = new StreamWatch();
  private readonly artifacts = new ArtifactFold((text) => this.note(text), this.watch);
  private readonly history = new HistoryFold((text) => this.note(text));

  apply(value: JsonValue, w: Where): Failure | undefined {
    this.events = w.n;
    const closed = this.closedBefore(w);
    if (closed) return closed;
    const unwrapped = this.framing.unwrap(value, w);
    if (!unwrapped.ok) return unwrapped;
    this.last = w;
    return this.first === undefined ? this.opening(unwrapped.value, w) : this.later(unwrapped.value, w);
  }

  /** An event after the stream ended: after a direct Message reply, or after a terminal state. */
  private closedBefore(w: Where): Failure | undefined {
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
    return undefined;
  }

  /** The first event: the Task, or a direct Message reply. */
  private opening({ kind, payload, path }: Unwrapped, w: Where): Failure | undefined {
    if (kind === "message") {
      const id = messageIdOf(payload, path, w);
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

  private later({ kind, payload, path }: Unwrapped, w: Where): Failure | undefined {
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

  private begin(task: JsonObject, path: string, w: Where): Failure | undefined {
    // The fold works on its own copy: the first Task is also reported as it was sent.
    const own = fromPlain(task) as JsonObject;
    const read = readTaskEvent(own, path, w);
    if (!read.ok) return read;
    const t = read.value;
    this.first = { kind: "task", task };
    this.taskId = t.id;
    this.contextId = t.contextId;
    this.task = own;
    for (const [i, a] of t.artifacts.entries()) {
      const r = this.artifacts.add(a, joinPath(path, "artifacts", i), w);
      if (r) return r;
    }
    const h = this.history.reset(t.history, joinPath(path, "history"), w);
    if (h) return h;
    this.history.shows = t.shown;
    this.setState(t.state, w);
    return undefined;
  }

  /** A later `task` event, as the a2a-js ResultManager applies one to the stored Task. */
  private snapshot(task: JsonObject, path: string, w: Where): Failure | undefined {
    const read = readTaskEvent(task, path, w);
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
      const at = this.history.firstDifference(t.history);
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
      const r = this.artifacts.put(a, joinPath(path, "artifacts", i), w, false, undefined);
      if (r) return r;
    }
    if (t.history.length > 0) {
      const h = this.history.reset(t.history, joinPath(path, "history"), w);
      if (h) return h;
    }
    this.history.keepStatusMessage(w);
    this.history.shows = t.shown;
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
    const state = readState(status, statusPath, w);
    if (!state.ok) return state;
    const metadata = objectMember(update, "metadata", path, w);
    if (!metadata.ok) return metadata;
    const statusObject = status as JsonObject;
    const shown = statusMessageOf(statusObject, statusPath, w);
    if (!shown.ok) return shown;
    this.history.keepStatusMessage(w);
    if (shown.value) this.history.add(shown.value, w);
    this.history.shows = shown.value;
    this.task.status = statusObject;
    if (metadata.value) this.mergeMetadata(metadata.value);
    this.setState(state.value, w);
    return undefined;
  }

  private artifactUpdate(update: JsonObject, path: string, w: Where): Failure | undefined {
    const same = this.sameTask(update, path, w);
    if (same) return same;
    const append = booleanMember(update, "append", path, w);
    if (!append.ok) return append;
    const lastChunk = booleanMember(update, "lastChunk", path, w);
    if (!lastChunk.ok) return lastChunk;
    const metadata = objectMember(update, "metadata", path, w);
    if (!metadata.ok) return metadata;
    const artifact = member(update, "artifact");
    const artifactPath = joinPath(path, "artifact");
    const r = append.value
      ? this.artifacts.append(artifact, artifactPath, w, lastChunk.value)
      : this.artifacts.put(artifact, artifactPath, w, true, lastChunk.value);
    if (r) return r;
    // @a2a-js/sdk 1.3.0 merges the artifact-update event's own metadata into Task.metadata too.
    if (metadata.value) this.mergeMetadata(metadata.value);
    return undefined;
  }

  /** Notes on single events are capped: a stream of many events must not make a report of many lines. */
  private note(text: string): void {
    if (this.notes.length < NOTE_CAP) this.notes.push(text);
    else this.notesLeftOut++;
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
    const context = stringMember(update, "contextId", path, w);
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

  private setState(state: string, w: Where): void {
    this.watch.stateChanged(this.state, state, w.n);
    this.state = state;
    if ((TERMINAL_TASK_STATES as readonly string[]).includes(state)) this.terminalAt = w;
  }

  finish(framing: Framing): Result<FoldedStream> {
    const first = this.first;
    const last = this.last;
    const binding = this.framing.binding;
    if (first === undefined || last === undefined || binding === undefined) {
      return fail("INPUT_STREAM_TRUNCATED", "the stream carries no events", "$");
    }
    const facts = { [FOLDED]: true as const, framing: framing.name, framedAs: framing, binding, events: this.events };
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
    const artifacts = this.artifacts.list;
    if (artifacts.length > 0 || hasMember(this.task, "artifacts")) this.task.artifacts = artifacts;
    const history = this.history.list;
    if (history.length > 0 || hasMember(this.task, "history")) this.task.history = history;
    const open = this.artifacts.openChunks();
    if (open !== undefined) this.notes.push(open);
    const shown = this.watch.result();
    return ok({ kind: "task", task: this.task, firstTask: first.task, ...facts, notes: this.notes, shown });
  }
}

/**
 * Folds events already parsed or decoded: a JSON array of events, the StreamResponse messages of a
 * gRPC stream as their ProtoJSON values, or a new form's messages under the Framing it names.
 */
export function foldStreamArray(
  events: readonly JsonValue[],
  limits: StreamLimits = DEFAULT_STREAM_LIMITS,
  framing: Exclude<StreamFraming, "sse" | "ndjson"> | Framing = "json-array",
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
  return fold.finish(typeof framing === "string" ? FRAMINGS[framing] : framing);
}
