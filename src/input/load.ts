/**
 * The input stage's one result: the Evidence an input presents — the bundles found (the first is
 * the one verified), the observed terminal Task, the first response SendMessage gave, and where
 * each came from — after merging what the caller passed beside it (`--task`, `--first-task`).
 * Never throws.
 */
import { memberAt, isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { fail, ok, type Result } from "../result.js";
import { EXTENSION_URI } from "../profile.js";
import { extensionMetadata, type A2AMessage, type A2ATask } from "./a2a.js";
import { classify, firstResponse, type InputShape } from "./classify.js";
import { CARRIER_PRIORITY, DEFAULT_LOAD_LIMITS, locateInTask, type LoadLimits, type LocatedBundle } from "./locate.js";
import { readV1Message, readV1Task } from "./read.js";

export interface LoadedInput {
  readonly shape: InputShape;
  /** The Task the input itself presents as the terminal (observed) Task. */
  readonly observedTask?: A2ATask;
  /** The first Task returned by SendMessage, when the input is a capture that has it. */
  readonly firstTask?: A2ATask;
  /** A direct Message that SendMessage returned instead of a Task, when the capture records one. */
  readonly firstMessage?: A2AMessage;
  /** Every bundle found; the first is the one verified (exact bytes preferred). */
  readonly bundles: readonly LocatedBundle[];
  readonly notes: readonly string[];
}

/** Classifies a parsed input and locates every evidence bundle in it. Never throws. */
export function loadInput(value: JsonValue, limits: LoadLimits = DEFAULT_LOAD_LIMITS): Result<LoadedInput> {
  const c = classify(value);
  if (!c.ok) return c;
  const notes = [...c.value.notes];
  let observedTask: A2ATask | undefined;
  let firstTask: A2ATask | undefined;
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
  let firstMessage: A2AMessage | undefined;
  if (c.value.firstMessage) {
    const r = readV1Message(c.value.firstMessage.value, c.value.firstMessage.path);
    if (!r.ok) return r;
    firstMessage = r.value;
  }
  const bundles: LocatedBundle[] = [];
  if (observedTask) {
    const r = locateInTask(observedTask, limits, notes);
    if (!r.ok) return r;
    bundles.push(...r.value);
  }
  if (c.value.bundle) {
    bundles.push({ location: c.value.bundle.path, carrier: c.value.bundle.carrier, bundle: c.value.bundle.value as JsonObject });
  }
  if (bundles.length === 0) {
    return fail("INPUT_NO_EVIDENCE", noEvidenceDetail(observedTask), observedTask?.path ?? "$");
  }
  // Stable sort: exact bytes first, then structured carriers, then the capture's parsed copy.
  bundles.sort((a, b) => CARRIER_PRIORITY[a.carrier] - CARRIER_PRIORITY[b.carrier]);
  return ok({
    shape: c.value.shape,
    ...(observedTask ? { observedTask } : {}),
    ...(firstTask ? { firstTask } : {}),
    ...(firstMessage ? { firstMessage } : {}),
    bundles,
    notes,
  });
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

export interface Observation {
  readonly task?: A2ATask;
  readonly firstTask?: A2ATask;
  readonly firstMessage?: A2AMessage;
}

/**
 * What an input given with --task or --first-task observed. --task: the final Task (from a capture,
 * also its first response). --first-task: SendMessage's first response — a Task, or a direct
 * Message (bare, wrapped as `{message}`, or as a JSON-RPC result).
 */
export function loadTaskInput(value: JsonValue, role: "task" | "first-task"): Result<Observation> {
  if (role === "first-task") {
    const rpcResult = isJsonObject(value) && member(value, "jsonrpc") === "2.0" ? member(value, "result") : undefined;
    const direct = firstResponse(rpcResult ?? value, rpcResult !== undefined ? "result" : "$");
    if (direct?.kind === "message") {
      const m = readV1Message(direct.value, direct.path);
      return m.ok ? ok({ firstMessage: m.value }) : m;
    }
  }
  const c = classify(value);
  if (!c.ok) return c;
  if (role === "first-task") {
    const chosen = c.value.firstTask ?? c.value.finalTask;
    if (chosen) {
      const t = readV1Task(chosen.value, chosen.path);
      return t.ok ? ok({ firstTask: t.value }) : t;
    }
    if (c.value.firstMessage) {
      const m = readV1Message(c.value.firstMessage.value, c.value.firstMessage.path);
      return m.ok ? ok({ firstMessage: m.value }) : m;
    }
    return fail("INPUT_NOT_A_TASK", "the --first-task input holds no A2A Task or Message", "$");
  }
  if (!c.value.finalTask) return fail("INPUT_NOT_A_TASK", "the --task input holds no A2A Task", "$");
  const task = readV1Task(c.value.finalTask.value, c.value.finalTask.path);
  if (!task.ok) return task;
  const out: { task: A2ATask; firstTask?: A2ATask; firstMessage?: A2AMessage } = { task: task.value };
  if (c.value.firstTask) {
    const first = readV1Task(c.value.firstTask.value, c.value.firstTask.path);
    if (!first.ok) return first;
    out.firstTask = first.value;
  }
  if (c.value.firstMessage) {
    const m = readV1Message(c.value.firstMessage.value, c.value.firstMessage.path);
    if (!m.ok) return m;
    out.firstMessage = m.value;
  }
  return ok(out);
}

/** Where an observed object came from: the input itself, or a file the caller passed beside it. */
export type Origin = "input" | "--task" | "--first-task";

/** Everything one input presents for verification, merged with the caller's observation. */
export interface Evidence {
  readonly shape: InputShape;
  /** Every bundle found; the first is the one verified (exact bytes preferred). */
  readonly bundles: readonly LocatedBundle[];
  readonly observedTask?: A2ATask;
  readonly firstTask?: A2ATask;
  readonly firstMessage?: A2AMessage;
  readonly origin: { readonly observedTask?: Origin; readonly first?: Origin };
  readonly notes: readonly string[];
}

/**
 * Merges the caller's observation into what the input holds. The input's own Task and --task
 * cannot both be the observation; the input's own first response wins over --task's capture.
 */
export function mergeObservation(loaded: LoadedInput, observation: Observation, firstFrom: Origin = "--task"): Result<Evidence> {
  if (loaded.observedTask && observation.task) {
    return fail(
      "INPUT_CONFLICTING_TASK",
      "the input already carries the observed Task; --task is for bare bundles and captures without one",
    );
  }
  const observedTask = loaded.observedTask ?? observation.task;
  const inputFirst = loaded.firstTask !== undefined || loaded.firstMessage !== undefined;
  const first = inputFirst ? loaded : observation;
  const firstOrigin: Origin | undefined = inputFirst ? "input" : first.firstTask || first.firstMessage ? firstFrom : undefined;
  return ok({
    shape: loaded.shape,
    bundles: loaded.bundles,
    ...(observedTask ? { observedTask } : {}),
    ...(first.firstTask ? { firstTask: first.firstTask } : {}),
    ...(first.firstMessage ? { firstMessage: first.firstMessage } : {}),
    origin: {
      ...(observedTask ? { observedTask: loaded.observedTask ? ("input" as const) : ("--task" as const) } : {}),
      ...(firstOrigin ? { first: firstOrigin } : {}),
    },
    notes: loaded.notes,
  });
}

/** What the caller passed beside the inputs: --task, then --first-task replacing its first response. */
export function loadCallerObservation(task: JsonValue | undefined, firstTask: JsonValue | undefined): Result<{ observation: Observation; firstFrom: Origin }> {
  let observation: Observation = {};
  if (task !== undefined) {
    const r = loadTaskInput(task, "task");
    if (!r.ok) return r;
    observation = r.value;
  }
  if (firstTask !== undefined) {
    const r = loadTaskInput(firstTask, "first-task");
    if (!r.ok) return r;
    // --first-task replaces whatever first response --task's capture carried.
    const { task: observed } = observation;
    return ok({ observation: { ...(observed ? { task: observed } : {}), ...r.value }, firstFrom: "--first-task" });
  }
  return ok({ observation, firstFrom: "--task" });
}

/** Loads one input and merges the caller's observation: the input stage, start to end. */
export function loadEvidence(value: JsonValue, observation: Observation, firstFrom: Origin = "--task", limits: LoadLimits = DEFAULT_LOAD_LIMITS): Result<Evidence> {
  const loaded = loadInput(value, limits);
  if (!loaded.ok) return loaded;
  return mergeObservation(loaded.value, observation, firstFrom);
}
