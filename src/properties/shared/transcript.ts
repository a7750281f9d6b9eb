/**
 * The payload's transcript, with the v3.2 transition entries (docs/profile.md, "v3.2 additions to
 * aac-cll-scitt/v1"; A2A Task Evidence §8.1, §12): Message entries as in v3.1, and an entry for
 * every transition into or out of an interrupted state, at its own sequence position.
 *
 * A pause reads, in contiguous sequence: the agent's request (a Message entry), the transition
 * into INPUT_REQUIRED or AUTH_REQUIRED bound to it, the resuming Message (its messageId and its
 * Task/context binding), the transition out bound to that. Each transition commits to the Task,
 * its position, both states and the bound Message as observed:
 *
 *   transitionCommitment = hex(SHA-256(pyjson(["a2a-task-evidence/transition/v1", taskId,
 *     contextId, sequence, fromState, toState, messageId, message.taskId, message.contextId,
 *     partCommitment])))
 *
 * so an omitted, reordered, substituted or spliced resumption breaks a rule or a commitment.
 */
import { listCapped, showValue } from "../../json/diff.js";
import { asSafeInteger, hasMember, isJsonObject, member, type JsonObject, type JsonValue } from "../../json/value.js";
import { joinPath } from "../../json/path.js";
import { isHex64, sha256HexOfText } from "../../util/bytes.js";
import { INTERRUPTED_TASK_STATES, TASK_STATES, TERMINAL_TASK_STATES, TRANSITION_KIND } from "../../profile.js";
import type { A2AMessage, A2ATask } from "../../input/a2a.js";
import { messageTaskIds, transitionPreimage, TRANSITION_MEMBERS } from "../../evidence/transcript.js";
import type { Check, State } from "./types.js";
import type { CheckExtras } from "./checks.js";

export interface MessageEntry {
  readonly kind: "message";
  readonly index: number;
  readonly messageId: string;
  readonly role: JsonValue;
  readonly partCommitment: JsonValue;
  /** Per-Part commitments (part-commitments.md), when the entry carries them. */
  readonly partCommitments?: JsonValue;
}

export interface TransitionEntry {
  readonly kind: "transition";
  readonly index: number;
  readonly json: JsonObject;
}

export type TranscriptEntry = MessageEntry | TransitionEntry;

const MESSAGE_MEMBERS = ["messageId", "role", "partCommitment", "sequence"] as const;

/**
 * The transcript's entries, or its first structural fault (contract §9.13: a missing member is a
 * FAIL): every entry an object numbered by its position, a Message entry with its four members and
 * a messageId no other Message entry has, a transition entry marked `kind: "transition"` (its own
 * members are `transcript.transition`'s to judge).
 */
export function readTranscript(transcript: readonly JsonValue[]): { entries: TranscriptEntry[]; fault?: string } {
  const entries: TranscriptEntry[] = [];
  const seen = new Set<string>();
  for (const [i, e] of transcript.entries()) {
    const at = joinPath("transcript", i);
    if (!isJsonObject(e)) return { entries, fault: `${at} is not an object` };
    if (asSafeInteger(member(e, "sequence")) !== i)
      return { entries, fault: `${at}.sequence is ${showValue(member(e, "sequence"))}, expected ${i}` };
    if (hasMember(e, "kind")) {
      if (member(e, "kind") !== TRANSITION_KIND)
        return { entries, fault: `${at}.kind ${showValue(member(e, "kind"))} is not an entry kind of this profile` };
      entries.push({ kind: "transition", index: i, json: e });
      continue;
    }
    const missing = MESSAGE_MEMBERS.filter((m) => !hasMember(e, m));
    if (missing.length > 0) return { entries, fault: `${at} lacks ${missing.join(", ")}` };
    const messageId = member(e, "messageId");
    if (typeof messageId !== "string") return { entries, fault: `${at}.messageId is not a string` };
    if (seen.has(messageId)) return { entries, fault: `${at}: messageId ${messageId} appears twice` };
    seen.add(messageId);
    entries.push({
      kind: "message",
      index: i,
      messageId,
      role: member(e, "role") as JsonValue,
      partCommitment: member(e, "partCommitment") as JsonValue,
      ...(hasMember(e, "partCommitments") ? { partCommitments: member(e, "partCommitments") as JsonValue } : {}),
    });
  }
  return { entries };
}

/**
 * The profile commits to text only (content-binding.md §6): a data, raw or url part could be
 * replaced after sealing and every commitment would still match, so a matching text commitment
 * cannot establish that the payload describes a Message or Artifact that has such parts.
 */
export function uncoveredParts(n: number): string {
  return `${n} non-text part(s) (data, raw or url) that no commitment of this profile covers: their content is not bound and could be replaced without any commitment changing`;
}

/**
 * A Message that names a Task or context other than the one whose history holds it belongs to
 * that other Task (spliced in): its content can be committed consistently, its place cannot.
 * An absent id names nothing (a client's first Message carries none).
 */
export function foreignIds(
  m: A2AMessage,
  task: { readonly id: string; readonly contextId?: string },
): string | undefined {
  const ids = messageTaskIds(m);
  const contextId = task.contextId ?? "";
  if ((ids.taskId !== "" && ids.taskId !== task.id) || (ids.contextId !== "" && ids.contextId !== contextId)) {
    return `message ${m.messageId} names Task ${showValue(ids.taskId)} in context ${showValue(ids.contextId)}, not this Task ${task.id} (context ${showValue(contextId)}): a Message of another Task spliced into this history`;
  }
  return undefined;
}

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
  let paused: Paused | undefined;
  let ended = false;
  let transitions = 0;
  // Found once: a Message missing between two the history shows was removed, not truncated.
  const inGap = historyGap(entries, observed.byId);
  const messageAt = new Map<string, number>();
  for (const e of entries) if (e.kind === "message" && !messageAt.has(e.messageId)) messageAt.set(e.messageId, e.index);
  for (const e of entries) {
    if (e.kind !== "transition") continue;
    const subject = `transcript[${e.index}]`;
    const fault = (detail: string) => make("transcript.transition", "FAIL", detail, { subject });
    const t = e.json;
    transitions++;
    const missing = TRANSITION_MEMBERS.filter((m) => !hasMember(t, m));
    const extra = Object.keys(t).filter((k) => !(TRANSITION_MEMBERS as readonly string[]).includes(k));
    if (missing.length > 0 || extra.length > 0) {
      checks.push(
        fault(
          `a transition entry has exactly the members ${TRANSITION_MEMBERS.join(", ")}${missing.length > 0 ? `; this one lacks ${missing.join(", ")}` : ""}${extra.length > 0 ? `; this one also carries ${listCapped(extra)} (nothing else — no credential, token or authorization data — belongs in a transcript)` : ""}`,
        ),
      );
      continue;
    }
    const from = member(t, "fromState");
    const to = member(t, "toState");
    const messageId = member(t, "messageId") as JsonValue;
    const commitment = member(t, "transitionCommitment");
    if (!isState(from) || !isState(to)) {
      checks.push(fault(`fromState ${showValue(from)} and toState ${showValue(to)} must be A2A v1.0 TaskState names`));
      continue;
    }
    if (messageId !== null && typeof messageId !== "string") {
      checks.push(fault(`messageId ${showValue(messageId)} is neither a string nor null`));
      continue;
    }
    if (!isHex64(commitment)) {
      checks.push(fault(`transitionCommitment ${showValue(commitment)} is not 64 lowercase hex`));
      continue;
    }
    const into = isInterrupted(to) && (from === "TASK_STATE_SUBMITTED" || from === "TASK_STATE_WORKING");
    const out = isInterrupted(from) && (to === "TASK_STATE_WORKING" || isTerminal(to));
    const step = `${short(from)} → ${short(to)}`;
    if (!into && !out) {
      checks.push(
        fault(`${step} is not a transition into or out of an interrupted state (the profile records exactly those)`),
      );
      continue;
    }
    const before = entries[e.index - 1];
    let structural: string | undefined;
    if (ended) {
      structural = `${step} comes after the Task ended: no transition follows the one into a terminal state`;
    } else if (into) {
      if (paused)
        structural = `${step} while still paused in ${short(paused.state)} since transcript[${paused.index}]: the transition out is missing or reordered`;
      else if (from === "TASK_STATE_SUBMITTED" && transitions > 1)
        structural = `${step}: a Task that already resumed pauses from WORKING, not SUBMITTED`;
      else if (messageId === null)
        structural = `${step} is bound to no Message: the request for ${to === "TASK_STATE_AUTH_REQUIRED" ? "authentication" : "input"} is the Message entry right before it`;
      else if (before?.kind !== "message" || before.messageId !== messageId) {
        structural = `${step} names messageId ${messageId}, but the entry right before it (transcript[${e.index - 1}]) is ${before?.kind === "message" ? `Message ${before.messageId}` : "not a Message"}: the request comes immediately before the transition into`;
      } else if (before.role !== "ROLE_AGENT")
        structural = `${step}: the request at transcript[${before.index}] has role ${showValue(before.role)}, not ROLE_AGENT (the agent asks for input or authentication)`;
    } else if (!paused) {
      structural = `${step} leaves ${short(from)} without a transition into it before: reordered, or spliced in from another Task`;
    } else if (paused.state !== from) {
      structural = `${step} leaves ${short(from)}, but the Task paused in ${short(paused.state)} at transcript[${paused.index}]`;
    } else if (isTerminal(to) && to !== terminalState) {
      structural = `${step} ends the Task in ${short(to)}, but the payload's terminalState is ${showValue(terminalState)}`;
    } else if (messageId === null) {
      if (paused.index !== e.index - 1)
        structural = `${step} is bound to no Message, yet transcript[${paused.index + 1}…${e.index - 1}] lie between the transition in and out: a pause is contiguous`;
      else if (to === "TASK_STATE_WORKING" && from === "TASK_STATE_INPUT_REQUIRED") {
        structural = `${step} without a resuming Message: INPUT_REQUIRED is left to WORKING only by the Message that supplies the input (omitted resumption)`;
      }
    } else if (isTerminal(to)) {
      structural = `${step} names messageId ${messageId}: a Task that ends while paused is bound to no Message (a resuming Message resumes it to WORKING)`;
    } else if (before?.kind !== "message" || before.messageId !== messageId || paused.index !== e.index - 2) {
      structural = `${step} names messageId ${messageId}, but the resuming Message must be the one entry between the transition in (transcript[${paused.index}]) and this one: a pause is contiguous`;
    } else if (before.role !== "ROLE_USER") {
      structural = `${step}: the resuming Message at transcript[${before.index}] has role ${showValue(before.role)}, not ROLE_USER`;
    }
    if (into) paused = { state: to, index: e.index };
    else {
      paused = undefined;
      if (isTerminal(to)) ended = true;
    }
    if (structural) {
      checks.push(fault(structural));
      continue;
    }
    const bound = typeof messageId === "string" ? messageAt.get(messageId) : undefined;
    const omitted = bound !== undefined && inGap(bound);
    checks.push(commitmentCheck(e.index, from, to, messageId as string | null, commitment, observed, omitted, make));
    if (out && typeof messageId === "string") checks.push(resumptionCheck(e.index, messageId, observed, omitted, make));
  }
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
