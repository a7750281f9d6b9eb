/**
 * transcript.transition and transcript.resumption (docs/profile.md §2, "Transition entries in the
 * transcript"): each transition entry's members and states, its place among the entries around it
 * (a pause is contiguous: the agent's request, the transition into, the resuming Message, the
 * transition out), and its commitment recomputed from the observed Task and Message.
 */
import { listCapped, showValue } from "../../json/diff.js";
import { hasMember, member, type JsonObject, type JsonValue } from "../../json/value.js";
import { isHex64, sha256HexOfText } from "../../util/bytes.js";
import { INTERRUPTED_TASK_STATES, TASK_STATES, TERMINAL_TASK_STATES } from "../../profile.js";
import type { A2AMessage, A2ATask } from "../../input/a2a.js";
import type { Check, State } from "../shared/types.js";
import type { CheckExtras } from "../shared/checks.js";
import { messageTaskIds, transitionPreimage, TRANSITION_MEMBERS, type TranscriptEntry } from "./transcript.js";

type TransitionId = "transcript.transition" | "transcript.resumption";
type Make = (id: TransitionId, state: State, detail: string, extras?: CheckExtras) => Check;

const isState = (v: JsonValue | undefined): v is string =>
  typeof v === "string" && (TASK_STATES as readonly string[]).includes(v);
const isInterrupted = (s: string) => (INTERRUPTED_TASK_STATES as readonly string[]).includes(s);
const isTerminal = (s: string) => (TERMINAL_TASK_STATES as readonly string[]).includes(s);
const short = (s: string) => s.replace("TASK_STATE_", "");

/** What the transition checks read of the observation: the Task's ids, and its Messages by messageId. */
export interface Observed {
  readonly task: A2ATask;
  readonly byId: ReadonlyMap<string, A2AMessage>;
  /**
   * Messages of this Task observed outside its history: the first Task's (and, once inputs carry
   * it, the caller's own request). A Message one of them shows is observed, never excused as
   * truncation (contract §9.23).
   */
  readonly shownElsewhere?: ReadonlyMap<string, A2AMessage>;
}

/**
 * Where a Message the transcript commits at `index` and the history does not show lies (contract
 * §9.23): GetTask's `historyLength` keeps the most recent Messages, so one before the first
 * committed Message the history shows, or after the last, is truncation; one with committed
 * Messages shown both before and after it was taken out of the middle.
 */
export function historyGap(
  entries: readonly TranscriptEntry[],
  byId: ReadonlyMap<string, unknown>,
): (index: number) => boolean {
  let first = -1;
  let last = -1;
  for (const e of entries) {
    if (e.kind !== "message" || !byId.has(e.messageId)) continue;
    if (first === -1) first = e.index;
    last = e.index;
  }
  return (index) => first !== -1 && first < index && index < last;
}

interface Paused {
  readonly state: string;
  readonly index: number;
}

/** Where the walk over the transition entries stands: paused since an entry, ended, how many so far. */
interface Walk {
  paused: Paused | undefined;
  ended: boolean;
  transitions: number;
}

/** A well-formed transition entry: into an interrupted state, or out of one. */
interface Transition {
  readonly from: string;
  readonly to: string;
  readonly messageId: string | null;
  readonly commitment: string;
  readonly into: boolean;
  readonly out: boolean;
  /** `FROM → TO`, as details name it. */
  readonly step: string;
}

/**
 * One `transcript.transition` check per transition entry, in order, and one at the end when the
 * transcript ends paused; one `transcript.resumption` per transition out bound to a resuming
 * Message. The structure (members, states, order, contiguity) is the payload's own; the
 * commitment is recomputed from the observed Task.
 */
export function transitionChecks(
  entries: readonly TranscriptEntry[],
  payload: JsonObject,
  observed: Observed,
  make: Make,
): Check[] {
  const checks: Check[] = [];
  const terminalState = member(payload, "terminalState");
  const walk: Walk = { paused: undefined, ended: false, transitions: 0 };
  // Found once: a Message missing between two the history shows was removed, not truncated.
  const inGap = historyGap(entries, observed.byId);
  const messageAt = new Map<string, number>();
  for (const e of entries) if (e.kind === "message" && !messageAt.has(e.messageId)) messageAt.set(e.messageId, e.index);
  for (const e of entries) {
    if (e.kind !== "transition") continue;
    const fault = (detail: string) =>
      make("transcript.transition", "FAIL", detail, { subject: `transcript[${e.index}]` });
    walk.transitions++;
    const t = readTransition(e.json);
    if (typeof t === "string") {
      checks.push(fault(t));
      continue;
    }
    const structural = structuralFault(t, e.index, entries[e.index - 1], walk, terminalState);
    advance(walk, t, e.index);
    if (structural) {
      checks.push(fault(structural));
      continue;
    }
    const bound = typeof t.messageId === "string" ? messageAt.get(t.messageId) : undefined;
    const omitted = bound !== undefined && inGap(bound);
    checks.push(commitmentCheck(e.index, t.from, t.to, t.messageId, t.commitment, observed, omitted, make));
    if (t.out && typeof t.messageId === "string")
      checks.push(resumptionCheck(e.index, t.messageId, observed, omitted, make));
  }
  const paused = walk.paused;
  if (paused && typeof terminalState === "string" && isTerminal(terminalState)) {
    checks.push(
      make(
        "transcript.transition",
        "FAIL",
        `the transcript ends paused in ${short(paused.state)} (transcript[${paused.index}]), but the record is of a Task in ${short(terminalState)}: the transition out is missing`,
        {
          subject: "transcript",
        },
      ),
    );
  }
  return checks;
}

/** The entry's members and states, or why it is no transition the profile records. */
function readTransition(t: JsonObject): Transition | string {
  const missing = TRANSITION_MEMBERS.filter((m) => !hasMember(t, m));
  const extra = Object.keys(t).filter((k) => !(TRANSITION_MEMBERS as readonly string[]).includes(k));
  if (missing.length > 0 || extra.length > 0)
    return `a transition entry has exactly the members ${TRANSITION_MEMBERS.join(", ")}${missing.length > 0 ? `; this one lacks ${missing.join(", ")}` : ""}${extra.length > 0 ? `; this one also carries ${listCapped(extra)} (nothing else — no credential, token or authorization data — belongs in a transcript)` : ""}`;
  const from = member(t, "fromState");
  const to = member(t, "toState");
  const messageId = member(t, "messageId") as JsonValue;
  const commitment = member(t, "transitionCommitment");
  if (!isState(from) || !isState(to))
    return `fromState ${showValue(from)} and toState ${showValue(to)} must be A2A v1.0 TaskState names`;
  if (messageId !== null && typeof messageId !== "string")
    return `messageId ${showValue(messageId)} is neither a string nor null`;
  if (!isHex64(commitment)) return `transitionCommitment ${showValue(commitment)} is not 64 lowercase hex`;
  const into = isInterrupted(to) && (from === "TASK_STATE_SUBMITTED" || from === "TASK_STATE_WORKING");
  const out = isInterrupted(from) && (to === "TASK_STATE_WORKING" || isTerminal(to));
  const step = `${short(from)} → ${short(to)}`;
  if (!into && !out)
    return `${step} is not a transition into or out of an interrupted state (the profile records exactly those)`;
  return { from, to, messageId, commitment, into, out, step };
}

/** Why the transition does not follow from the entries before it (order, contiguity, bound Message). */
function structuralFault(
  t: Transition,
  index: number,
  before: TranscriptEntry | undefined,
  walk: Walk,
  terminalState: JsonValue | undefined,
): string | undefined {
  if (walk.ended) return `${t.step} comes after the Task ended: no transition follows the one into a terminal state`;
  if (t.into) return intoFault(t, index, before, walk);
  if (!walk.paused)
    return `${t.step} leaves ${short(t.from)} without a transition into it before: reordered, or spliced in from another Task`;
  return outFault(t, index, before, walk.paused, terminalState);
}

/** A transition into a pause: from a Task not paused, bound to the agent's request right before it. */
function intoFault(t: Transition, index: number, before: TranscriptEntry | undefined, walk: Walk): string | undefined {
  const { step, from, to, messageId } = t;
  if (walk.paused)
    return `${step} while still paused in ${short(walk.paused.state)} since transcript[${walk.paused.index}]: the transition out is missing or reordered`;
  if (from === "TASK_STATE_SUBMITTED" && walk.transitions > 1)
    return `${step}: a Task that already resumed pauses from WORKING, not SUBMITTED`;
  if (messageId === null)
    return `${step} is bound to no Message: the request for ${to === "TASK_STATE_AUTH_REQUIRED" ? "authentication" : "input"} is the Message entry right before it`;
  if (before?.kind !== "message" || before.messageId !== messageId)
    return `${step} names messageId ${messageId}, but the entry right before it (transcript[${index - 1}]) is ${before?.kind === "message" ? `Message ${before.messageId}` : "not a Message"}: the request comes immediately before the transition into`;
  if (before.role !== "ROLE_AGENT")
    return `${step}: the request at transcript[${before.index}] has role ${showValue(before.role)}, not ROLE_AGENT (the agent asks for input or authentication)`;
  return undefined;
}

/** A transition out of the pause the Task is in: contiguous, bound to the resuming Message or to none. */
function outFault(
  t: Transition,
  index: number,
  before: TranscriptEntry | undefined,
  paused: Paused,
  terminalState: JsonValue | undefined,
): string | undefined {
  const { step, from, to, messageId } = t;
  if (paused.state !== from)
    return `${step} leaves ${short(from)}, but the Task paused in ${short(paused.state)} at transcript[${paused.index}]`;
  if (isTerminal(to) && to !== terminalState)
    return `${step} ends the Task in ${short(to)}, but the payload's terminalState is ${showValue(terminalState)}`;
  if (messageId === null) {
    if (paused.index !== index - 1)
      return `${step} is bound to no Message, yet transcript[${paused.index + 1}…${index - 1}] lie between the transition in and out: a pause is contiguous`;
    if (to === "TASK_STATE_WORKING" && from === "TASK_STATE_INPUT_REQUIRED")
      return `${step} without a resuming Message: INPUT_REQUIRED is left to WORKING only by the Message that supplies the input (omitted resumption)`;
    return undefined;
  }
  if (isTerminal(to))
    return `${step} names messageId ${messageId}: a Task that ends while paused is bound to no Message (a resuming Message resumes it to WORKING)`;
  if (before?.kind !== "message" || before.messageId !== messageId || paused.index !== index - 2)
    return `${step} names messageId ${messageId}, but the resuming Message must be the one entry between the transition in (transcript[${paused.index}]) and this one: a pause is contiguous`;
  if (before.role !== "ROLE_USER")
    return `${step}: the resuming Message at transcript[${before.index}] has role ${showValue(before.role)}, not ROLE_USER`;
  return undefined;
}

/** After the entry: paused in its state (into), or resumed, or ended (out). */
function advance(walk: Walk, t: Transition, index: number): void {
  if (t.into) walk.paused = { state: t.to, index };
  else {
    walk.paused = undefined;
    if (isTerminal(t.to)) walk.ended = true;
  }
}

/** The observed copy of a Message: the history's (or status.message's), else one the first Task shows. */
function observedMessage(observed: Observed, messageId: string): A2AMessage | undefined {
  return observed.byId.get(messageId) ?? observed.shownElsewhere?.get(messageId);
}

function commitmentCheck(
  index: number,
  from: string,
  to: string,
  messageId: string | null,
  commitment: string,
  observed: Observed,
  omitted: boolean,
  make: Make,
): Check {
  const subject = `transcript[${index}]`;
  const step = `${short(from)} → ${short(to)}`;
  const message = messageId === null ? null : observedMessage(observed, messageId);
  if (message === undefined) {
    // Not recomputed either way; a gap in the middle is said so, and is transcript.resumption's
    // FAIL when the Message resumes the Task (a transition alone proves no omission, §9.4).
    const why = omitted
      ? "which shows Messages committed before and after it (a gap in the middle)"
      : "which shows no committed Messages on both sides of it: truncated, not omitted (historyLength keeps the most recent Messages)";
    return make(
      "transcript.transition",
      "INCONCLUSIVE",
      `${step}: the commitment is not recomputed, because the bound Message ${messageId} is not in the observed history, ${why}`,
      { subject },
    );
  }
  const task = { id: observed.task.id, contextId: observed.task.contextId ?? "" };
  const recomputed = sha256HexOfText(transitionPreimage(task, index, from, to, messageId, message));
  const values = { transitionCommitment: commitment, recomputed };
  if (recomputed !== commitment) {
    return make(
      "transcript.transition",
      "FAIL",
      `${step}: transitionCommitment ${commitment} != ${recomputed} recomputed from the observed Task${message ? ` and Message ${message.messageId}` : ""}`,
      { subject, values },
    );
  }
  const bound =
    message === null
      ? "bound to no Message"
      : `bound to ${message.role === "ROLE_AGENT" ? "the request" : "the resuming Message"} ${message.messageId}`;
  const auth =
    from === "TASK_STATE_AUTH_REQUIRED" || to === "TASK_STATE_AUTH_REQUIRED"
      ? "; authorization is not judged here: the transcript records the pause and its resumption, never credentials"
      : "";
  return make(
    "transcript.transition",
    "PASS",
    `${step} at transcript[${index}], ${bound}; commitment recomputed from the observed Task${auth}`,
    { subject, values },
  );
}

/**
 * The resuming Message continues this Task: it names the Task and context it resumes. One from
 * another Task (spliced in, with its content) could have been committed consistently by the
 * producer; its own taskId and contextId say where it belongs.
 */
function resumptionCheck(index: number, messageId: string, observed: Observed, omitted: boolean, make: Make): Check {
  const subject = `transcript[${index}]`;
  const m = observedMessage(observed, messageId);
  if (!m) {
    // GetTask's historyLength keeps the most recent Messages: one missing between two shown was removed, not truncated.
    if (omitted) {
      return make(
        "transcript.resumption",
        "FAIL",
        `the resuming Message ${messageId} is not in the observed history, which shows Messages committed before and after it: the resumption was omitted`,
        { subject },
      );
    }
    return make(
      "transcript.resumption",
      "INCONCLUSIVE",
      `the resuming Message ${messageId} is not in the observed history, which shows no committed Messages on both sides of it: truncated, not omitted (historyLength keeps the most recent Messages)`,
      { subject },
    );
  }
  const ids = messageTaskIds(m);
  const contextId = observed.task.contextId ?? "";
  const values = { messageTaskId: ids.taskId, messageContextId: ids.contextId, taskId: observed.task.id, contextId };
  // A Message that continues a Task names it by taskId; its contextId is optional (A2A: the server
  // takes the Task's, and a2a-js 1.3.0 stores the Message without one). No context names none other.
  const otherContext = ids.contextId !== "" && ids.contextId !== contextId;
  if (ids.taskId !== observed.task.id || otherContext) {
    return make(
      "transcript.resumption",
      "FAIL",
      `the resuming Message ${messageId} names Task ${showValue(ids.taskId)} in context ${showValue(ids.contextId)}, not this Task ${observed.task.id} (context ${showValue(contextId)}): a resumption spliced in from another Task`,
      { subject, values },
    );
  }
  const context =
    ids.contextId === ""
      ? " (it names no context: a Message continuing a Task may leave contextId out)"
      : " and context";
  return make(
    "transcript.resumption",
    "PASS",
    `the resuming Message ${messageId} (${m.path}) continues this Task${context}`,
    { subject, values },
  );
}
