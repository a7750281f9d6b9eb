/**
 * The input stage's one result: the Evidence an input presents — the bundles found (the first is
 * the one verified), the Artifacts that are evidence rather than content, the observed terminal
 * Task, the first response SendMessage gave, and where each came from — after merging what the
 * caller passed beside it (`--task`, `--first-task`). Never throws.
 *
 * The caller's files never silently replace what the input itself carries (contract §9.16): an
 * input with its own terminal Task refuses `--task`, one with its own first response refuses
 * `--first-task`. `--task`'s Task is located like any input, so its evidence Artifacts and their
 * references are compared with the bundle too.
 */
import { memberAt, type JsonObject } from "../json/value.js";
import { fail, ok, type Failure, type Result } from "../result.js";
import { EXTENSION_URI } from "../profile.js";
import { extensionMetadata, type A2AArtifact, type A2AMessage, type A2ATask } from "./a2a.js";
import { classifyInput, firstResponse, streamClassified, type Classified, type InputShape } from "./classify.js";
import { isFoldedStream } from "./stream/fold.js";
import { asJsonInput, toInputValue, type InputValue } from "./decode.js";
import { isEventArray } from "./decoded.js";
import { CARRIER_PRIORITY, DEFAULT_LOAD_LIMITS, locateInTask, type LoadLimits, type LocatedBundle } from "./locate.js";
import { readV1Message, readV1Task } from "./read.js";
import type { InputData } from "./data.js";
import { captureInterims, loadInterimInput } from "./interim.js";
import { pendingEvidence } from "./pending.js";
import { readSentMessages, type SentMessages } from "./request.js";
import type { StreamObservations } from "./stream-observations.js";
import { binaryNotesIn } from "./protobuf/notes.js";
import { mergeUnseen, unseenIn, type UnseenFields } from "./protobuf/unseen.js";

/** Where an observed object came from: the input itself, or a file the caller passed beside it. */
export type Origin = "input" | "--task" | "--first-task";

/** Everything one input presents for verification, merged with the caller's observation. */
export interface Evidence {
  readonly shape: InputShape;
  /** Every bundle found; the first is the one verified (exact bytes preferred). */
  readonly bundles: readonly LocatedBundle[];
  /** The observed Artifacts that are exactly a located bundle: evidence, not content (§9.12). */
  readonly evidenceArtifacts: ReadonlySet<A2AArtifact>;
  readonly observedTask?: A2ATask;
  readonly firstTask?: A2ATask;
  readonly firstMessage?: A2AMessage;
  /** The Message the client itself sent to create the Task (a capture's `request`, contract §3). */
  readonly request?: A2AMessage;
  /** The resuming Messages the client sent (a capture's `requests`), when it recorded any. */
  readonly requests?: readonly A2AMessage[];
  readonly origin: { readonly observedTask?: Origin; readonly first?: Origin };
  readonly notes: readonly string[];
  /** Interim records sealed at the Task's pauses: the capture's `interimBundles`, then `--interim`'s. */
  readonly interimBundles?: readonly LocatedBundle[];
  /** What the stream the observed Task was folded from showed beyond it (contract §9.28). */
  readonly streamShown?: StreamObservations;
  /** Unknown protobuf fields inside committed content of what was observed (contract §3.1). */
  readonly unseen?: UnseenFields;
  /** Unknown protobuf fields inside committed content of the paused Tasks `--interim` gave. */
  readonly interimUnseen?: UnseenFields;
}

/** What one JSON document holds, before the caller's observation is merged in. */
interface Held {
  readonly shape: InputShape;
  readonly observedTask?: A2ATask;
  readonly firstTask?: A2ATask;
  readonly firstMessage?: A2AMessage;
  readonly sent: SentMessages;
  readonly bundles: LocatedBundle[];
  readonly evidenceArtifacts: A2AArtifact[];
  readonly interimBundles: LocatedBundle[];
  readonly notes: string[];
  /** Why an offered bundle could not be read, for the error when no bundle is found at all. */
  readonly rejected: readonly Failure[];
  readonly streamShown?: StreamObservations;
  readonly unseen?: UnseenFields;
}

function read(value: InputValue, limits: LoadLimits): Result<Held> {
  const c: Result<Classified> = classifyInput(value);
  if (!c.ok) return c;
  const notes = [...c.value.notes];
  let observedTask: A2ATask | undefined;
  let firstTask: A2ATask | undefined;
  let firstMessage: A2AMessage | undefined;
  if (c.value.finalTask) {
    const r = readV1Task(c.value.finalTask.value, c.value.finalTask.path);
    if (!r.ok) return r;
    observedTask = r.value;
    notes.push(...r.value.notes);
  }
  if (c.value.firstTask) {
    const r = readV1Task(c.value.firstTask.value, c.value.firstTask.path);
    if (!r.ok) return r;
    firstTask = r.value;
  }
  if (c.value.firstMessage) {
    const r = readV1Message(c.value.firstMessage.value, c.value.firstMessage.path);
    if (!r.ok) return r;
    firstMessage = r.value;
  }
  const sent = readSentMessages(c.value);
  if (!sent.ok) return sent;
  const bundles: LocatedBundle[] = [];
  const evidenceArtifacts: A2AArtifact[] = [];
  let rejected: Held["rejected"] = [];
  if (observedTask) {
    const r = locateInTask(observedTask, limits, notes);
    if (!r.ok) return r;
    bundles.push(...r.value.bundles);
    evidenceArtifacts.push(...r.value.evidenceArtifacts);
    rejected = r.value.rejected;
  }
  if (c.value.bundle) {
    bundles.push({
      location: c.value.bundle.path,
      carrier: c.value.bundle.carrier,
      bundle: c.value.bundle.value as JsonObject,
    });
  }
  return ok({
    shape: c.value.shape,
    ...(observedTask ? { observedTask } : {}),
    ...(firstTask ? { firstTask } : {}),
    ...(firstMessage ? { firstMessage } : {}),
    sent: sent.value,
    bundles,
    evidenceArtifacts,
    interimBundles: captureInterims(c.value.interimBundles ?? []),
    notes,
    rejected,
    ...(c.value.shown ? { streamShown: c.value.shown } : {}),
    ...withUnseenOf(value),
  });
}

function withUnseenOf(value: InputValue): { unseen?: UnseenFields } {
  const unseen = unseenIn(value);
  return unseen ? { unseen } : {};
}

function noEvidenceDetail(task: A2ATask | undefined): string {
  if (!task) return "no evidence bundle in the input";
  const ref = extensionMetadata(task);
  const status = memberAt(ref, "evidenceStatus");
  const reason = memberAt(ref, "failureReason");
  const said =
    typeof status === "string"
      ? `; the Task's evidence reference says ${status}${typeof reason === "string" ? ` (${reason})` : ""}`
      : "";
  return `no evidence bundle found in the Task (no evidence Artifact with a raw or data part, nothing inline under metadata["${EXTENSION_URI}"])${said}`;
}

/** What the caller passed beside the inputs: `--task` (as located as any input) and `--first-task`. */
export interface Observation {
  readonly task?: Held;
  readonly firstTask?: A2ATask;
  readonly firstMessage?: A2AMessage;
  /** Which flag the first response came from. */
  readonly firstFrom?: Origin;
  /** The interim records `--interim` gave. */
  readonly interim?: readonly LocatedBundle[];
  /** The Messages the client sent, from a `--task` or `--first-task` capture that recorded them. */
  readonly sent?: SentMessages;
  /** Unknown protobuf fields inside committed content of the --first-task input. */
  readonly firstUnseen?: UnseenFields;
  /** Unknown protobuf fields inside committed content of the --interim inputs, each path labelled with its flag. */
  readonly interimUnseen?: UnseenFields;
  /** What decoding a binary --first-task or --interim input noted, each note led by its flag. */
  readonly notes?: readonly string[];
}

function hasSent(s: SentMessages | undefined): s is SentMessages {
  return s !== undefined && (s.request !== undefined || s.requests.length > 0);
}

/** A capture's sent Messages beside what was read from it, when it recorded any. */
function withSent<T extends Observation>(observation: T, found: Classified): Result<T> {
  const sent = readSentMessages(found);
  if (!sent.ok) return sent;
  return ok(hasSent(sent.value) ? { ...observation, sent: sent.value } : observation);
}

/**
 * What an input given with --task or --first-task observed. --task: the final Task (from a capture,
 * also its first response), with every bundle and evidence Artifact in it located. --first-task:
 * SendMessage's first response — a Task, or a direct Message (bare, wrapped as `{message}`, or as a
 * JSON-RPC result).
 */
export function loadTaskInput(
  input: InputValue,
  role: "task" | "first-task",
  limits: LoadLimits = DEFAULT_LOAD_LIMITS,
): Result<Observation> {
  // A JSON array of events is a stream as an SSE body is: its first event is the first response.
  if (role === "first-task" && isEventArray(input) && !input.folded.ok) return input.folded;
  const value =
    role === "first-task" && isEventArray(input) && input.folded.ok ? input.folded.value : asJsonInput(input);
  if (role === "first-task" && isFoldedStream(value)) {
    // A stream's first event is SendMessage's first response: a Task, or a direct Message.
    if (value.kind === "message") {
      const m = readV1Message(value.message, "$");
      return m.ok ? ok({ firstMessage: m.value, firstFrom: "--first-task" }) : m;
    }
    const c = streamClassified(value);
    if (!c.ok) return c;
    if (!c.value.firstTask) {
      return fail(
        "INPUT_NOT_A_TASK",
        `the --first-task stream is not SendMessage's first stream: ${c.value.notes.at(-1) ?? ""}`,
        "$",
      );
    }
    const t = readV1Task(c.value.firstTask.value, c.value.firstTask.path);
    return t.ok ? ok({ firstTask: t.value, firstFrom: "--first-task" }) : t;
  }
  if (role === "first-task" && !isFoldedStream(value)) {
    const rpcResult = memberAt(value, "jsonrpc") === "2.0" ? memberAt(value, "result") : undefined;
    const direct = firstResponse(rpcResult ?? value, rpcResult !== undefined ? "result" : "$");
    if (direct?.kind === "message") {
      const m = readV1Message(direct.value, direct.path);
      return m.ok ? ok({ firstMessage: m.value, firstFrom: "--first-task" }) : m;
    }
    const c = classifyInput(input);
    if (!c.ok) return c;
    const chosen = c.value.firstTask ?? c.value.finalTask;
    if (chosen) {
      const t = readV1Task(chosen.value, chosen.path);
      return t.ok ? withSent({ firstTask: t.value, firstFrom: "--first-task" }, c.value) : t;
    }
    if (c.value.firstMessage) {
      const m = readV1Message(c.value.firstMessage.value, c.value.firstMessage.path);
      return m.ok ? withSent({ firstMessage: m.value, firstFrom: "--first-task" }, c.value) : m;
    }
    return fail("INPUT_NOT_A_TASK", "the --first-task input holds no A2A Task or Message", "$");
  }
  const held = read(input, limits);
  if (!held.ok) return held;
  if (!held.value.observedTask) return fail("INPUT_NOT_A_TASK", "the --task input holds no A2A Task", "$");
  const { firstTask, firstMessage, sent } = held.value;
  return ok({
    task: held.value,
    ...(firstTask ? { firstTask } : {}),
    ...(firstMessage ? { firstMessage } : {}),
    ...(firstTask || firstMessage ? { firstFrom: "--task" as const } : {}),
    ...(hasSent(sent) ? { sent } : {}),
  });
}

/** Which file the caller passed beside the inputs an observation error is about. */
export type ObservationSource = "--task" | "--first-task" | "--interim";

/** An observation error: the flag it is about, and for an --interim file which one (from 0). */
export type ObservationFailure = Failure & { readonly source: ObservationSource; readonly index?: number };

/**
 * --task, then --first-task, then each --interim; a --first-task beside a --task capture that has
 * its own first response is refused. A failure names the flag it is about.
 */
export function loadCallerObservation(
  taskData: InputData | undefined,
  firstTaskData: InputData | undefined,
  interimData: readonly InputData[] = [],
): Result<Observation> | ObservationFailure {
  const about = (source: ObservationSource, f: Failure, index?: number): ObservationFailure =>
    index === undefined ? { ...f, source } : { ...f, source, index };
  let observation: Observation = {};
  const notes: string[] = [];
  if (taskData !== undefined) {
    const task = toInputValue(taskData);
    if (!task.ok) return about("--task", task);
    const r = loadTaskInput(task.value, "task");
    if (!r.ok) return about("--task", r);
    observation = r.value;
  }
  if (firstTaskData !== undefined) {
    if (observation.firstTask || observation.firstMessage) {
      return about(
        "--first-task",
        fail(
          "INPUT_CONFLICTING_TASK",
          "the --task capture already carries the first response; --first-task would replace what it observed",
        ),
      );
    }
    const firstTask = toInputValue(firstTaskData);
    if (!firstTask.ok) return about("--first-task", firstTask);
    const r = loadTaskInput(firstTask.value, "first-task");
    if (!r.ok) return about("--first-task", r);
    if (observation.sent && r.value.sent) return about("--first-task", sentTwice("the --task capture"));
    const unseen = unseenIn(firstTask.value);
    observation = { ...observation, ...r.value, ...(unseen ? { firstUnseen: unseen } : {}) };
    notes.push(...labelled("--first-task", binaryNotesIn(firstTask.value)));
  }
  const interim: LocatedBundle[] = [];
  const interimUnseen: (readonly [string, UnseenFields | undefined])[] = [];
  for (const [i, data] of interimData.entries()) {
    const v = toInputValue(data);
    // Named by its position, as loadInterimInput's failures are: the i-th --interim file.
    if (!v.ok) return about("--interim", fail(v.code, `--interim[${i}]: ${v.detail}`, v.path), i);
    const r = loadInterimInput(v.value, i);
    if (!r.ok) return about("--interim", r, i);
    interim.push(...r.value);
    interimUnseen.push([`--interim[${i}]`, unseenIn(v.value)]);
    notes.push(...labelled(`--interim[${i}]`, binaryNotesIn(v.value)));
  }
  if (notes.length > 0) observation = { ...observation, notes };
  if (interim.length === 0) return ok(observation);
  const unseen = mergeUnseen(interimUnseen);
  return ok({ ...observation, interim, ...(unseen ? { interimUnseen: unseen } : {}) });
}

/** Notes on a file given beside the inputs, each led by the flag that gave it. */
function labelled(flag: string, notes: readonly string[]): string[] {
  return notes.map((n) => `${flag}: ${n}`);
}

/** §9.16 for the caller's own word: one recorded request, never one file's replacing another's. */
function sentTwice(holder: string): Failure {
  return fail(
    "INPUT_CONFLICTING_TASK",
    `${holder} already records the Messages the client sent (request, requests); a second record would replace them`,
  );
}

/** Exact bytes first, then structured carriers, then the capture's parsed copy (a stable sort). */
function sortedByCarrier(bundles: readonly LocatedBundle[]): LocatedBundle[] {
  return [...bundles].sort((a, b) => CARRIER_PRIORITY[a.carrier] - CARRIER_PRIORITY[b.carrier]);
}

function fromTaskFile(b: LocatedBundle): LocatedBundle {
  return { ...b, location: `--task:${b.location}` };
}

/** Loads one input and merges the caller's observation: the input stage, start to end. */
export function loadEvidence(
  value: InputValue,
  observation: Observation = {},
  limits: LoadLimits = DEFAULT_LOAD_LIMITS,
): Result<Evidence> {
  const held = read(value, limits);
  if (!held.ok) return held;
  const input = held.value;
  const taskFile = observation.task;
  if (input.observedTask && taskFile) {
    return fail(
      "INPUT_CONFLICTING_TASK",
      "the input already carries the observed Task; --task is for bare bundles and captures without one",
    );
  }
  const inputFirst = input.firstTask !== undefined || input.firstMessage !== undefined;
  if (inputFirst && observation.firstFrom === "--first-task") {
    return fail(
      "INPUT_CONFLICTING_TASK",
      "the input already carries the first response; --first-task would replace what it observed",
    );
  }
  if (hasSent(input.sent) && observation.sent) return sentTwice("the input");
  const sent = hasSent(input.sent) ? input.sent : observation.sent;
  // The input's own bundle is the one verified; --task's copies are compared with it, never preferred.
  const bundles = [...sortedByCarrier(input.bundles), ...sortedByCarrier(taskFile?.bundles ?? []).map(fromTaskFile)];
  const pending = pendingEvidence(input.observedTask ?? taskFile?.observedTask, bundles);
  if (pending) return pending;
  if (bundles.length === 0) {
    const rejected = input.rejected[0];
    if (rejected) return rejected;
    return fail("INPUT_NO_EVIDENCE", noEvidenceDetail(input.observedTask), input.observedTask?.path ?? "$");
  }
  const observedTask = input.observedTask ?? taskFile?.observedTask;
  const streamShown = input.observedTask ? input.streamShown : taskFile?.streamShown;
  const unseen = mergeUnseen([
    [undefined, input.unseen],
    ["--task", taskFile?.unseen],
    ["--first-task", observation.firstUnseen],
  ]);
  const first = inputFirst ? input : observation;
  const firstOrigin: Origin | undefined = inputFirst ? "input" : observation.firstFrom;
  return ok({
    shape: input.shape,
    bundles,
    evidenceArtifacts: new Set([...input.evidenceArtifacts, ...(taskFile?.evidenceArtifacts ?? [])]),
    ...(observedTask ? { observedTask } : {}),
    ...(streamShown ? { streamShown } : {}),
    ...(unseen ? { unseen } : {}),
    ...(observation.interimUnseen ? { interimUnseen: observation.interimUnseen } : {}),
    ...(first.firstTask ? { firstTask: first.firstTask } : {}),
    ...(first.firstMessage ? { firstMessage: first.firstMessage } : {}),
    ...(sent?.request ? { request: sent.request } : {}),
    ...(sent && sent.requests.length > 0 ? { requests: sent.requests } : {}),
    origin: {
      ...(observedTask ? { observedTask: input.observedTask ? ("input" as const) : ("--task" as const) } : {}),
      ...(firstOrigin ? { first: firstOrigin } : {}),
    },
    notes: [...input.notes, ...labelled("--task", taskFile?.notes ?? []), ...(observation.notes ?? [])],
    interimBundles: [
      ...input.interimBundles,
      ...(taskFile?.interimBundles ?? []).map(fromTaskFile),
      ...(observation.interim ?? []),
    ],
  });
}
