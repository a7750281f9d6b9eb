/**
 * interim.observed (docs/profile.md §3): a record given with the paused Task that carried it
 * (--interim) describes that Task — its id and context, the state it waits in, every Message of its
 * history and its status.message, every effect (content Artifact) it shows, and no effect it does
 * not show.
 */
import { listCapped, showValue } from "../../json/diff.js";
import { isJsonObject, jsonEquals, member, type JsonObject, type JsonValue } from "../../json/value.js";
import { sha256HexOfText } from "../../util/bytes.js";
import { textOfParts, type A2AArtifact, type A2AMessage, type A2APart, type A2ATask } from "../../input/a2a.js";
import { TRANSITION_KIND } from "../../profile.js";
import type { Check } from "../shared/types.js";
import type { InterimRecord } from "../../evidence/interim.js";
import { CAPTURE_POLICY_V2, partsVerdict } from "./parts.js";
import { foreignIds, uncoveredParts } from "./transcript.js";
import { effectsOf, transcriptOf, type Citation, type Make } from "./citations.js";

/** A part of the paused Task compared: why it is not what the record commits, or its parts no commitment covers. */
type Tally = { readonly fault: string } | { readonly fault?: undefined; readonly uncovered: number };

/** The record's Message entries by messageId (the first of each), with their positions. */
type Committed = ReadonlyMap<string, { index: number; entry: JsonObject }>;

/**
 * The resuming Message a paused Task may show beyond its interim record: a2a-js appends the
 * Message that resumes a Task to the stored Task's history before the state leaves the pause, so
 * a copy taken in that window (the non-blocking resume response, a resumption stream's first
 * event, a GetTask then) is "the pause + that one Message". It is accepted only as the Message the
 * terminal record commits right after the transition into this record's pause (the one the
 * transition out is bound to), by messageId, role and partCommitment; undefined otherwise. Any
 * other extra Message — not committed, another one, an agent's, a record the terminal payload does
 * not cite — is content the interim record does not record.
 */
function resumingEntry(
  m: A2AMessage,
  record: readonly JsonValue[],
  terminal: readonly JsonValue[],
  sequence: number | undefined,
): number | undefined {
  if (sequence === undefined || record.length !== sequence + 1 || m.role !== "ROLE_USER") return undefined;
  const entry = terminal[sequence + 1];
  const out = terminal[sequence + 2];
  const into = terminal[sequence];
  if (
    !isJsonObject(entry) ||
    "kind" in entry ||
    !isJsonObject(out) ||
    !isJsonObject(into) ||
    !jsonEquals(into, record[sequence])
  )
    return undefined;
  if (member(entry, "messageId") !== m.messageId || member(entry, "role") !== "ROLE_USER") return undefined;
  if (member(entry, "partCommitment") !== sha256HexOfText(textOfParts(m.parts).text)) return undefined;
  const resumes =
    member(out, "kind") === TRANSITION_KIND &&
    member(out, "messageId") === m.messageId &&
    member(out, "fromState") === member(into, "toState");
  return resumes ? sequence + 1 : undefined;
}

/** The paused Task an interim record came with against what the record says of it. */
export function observedCheck(
  r: InterimRecord,
  terminal: readonly JsonValue[],
  citations: readonly Citation[],
  make: Make,
): Check {
  const subject = r.label;
  const fail = (detail: string) => make("interim.observed", "FAIL", detail, { subject });
  const paused = r.located.pausedTask as NonNullable<InterimRecord["located"]["pausedTask"]>;
  const task = paused.task;
  const payload = r.ctx.payload;
  if (!payload) return fail("the interim record carries no taskEvidencePayload");
  const named = namedFault(payload, task);
  if (named) return fail(named);
  const byMessage = committedMessages(payload);
  // Parts no commitment covers: counted, so a match of the text is not read as a match of the content.
  const perPart = member(payload, "capturePolicyId") === CAPTURE_POLICY_V2;
  const sequence = citations.find((c) => c.evidenceId === r.evidenceId)?.sequence;
  const resumingAt = (m: A2AMessage) => resumingEntry(m, transcriptOf(payload), terminal, sequence);
  const history = historyTally(task, byMessage, perPart, resumingAt);
  if (history.fault !== undefined) return fail(history.fault);
  const status = statusTally(task, byMessage, history.last, perPart);
  if (status.fault !== undefined) return fail(status.fault);
  const effects = effectsOf(payload) ?? new Map<string, JsonValue>();
  const shown = effectsTally(paused.content, effects, perPart);
  if (shown.fault !== undefined) return fail(shown.fault);
  // The other way too: an effect the record dates before the pause that the paused Task did not
  // show was done later (a re-issued interim record can be sealed after the pause).
  const shownEffects = new Set(paused.content.map((a) => a.artifactId));
  const unshown = [...effects.keys()].filter((id) => !shownEffects.has(id));
  if (unshown.length > 0) {
    if (task.artifacts === undefined) {
      return make(
        "interim.observed",
        "INCONCLUSIVE",
        `it records ${unshown.length} effect(s) before the pause, but the paused Task it came with carries no artifacts member (not requested or not returned)`,
        { subject },
      );
    }
    return fail(
      `it records artifact(s) ${listCapped(unshown)} as done before the pause, but the paused Task it came with does not show them: an effect done after the pause, dated before it`,
    );
  }
  const uncovered = history.uncovered + status.uncovered + shown.uncovered;
  const summary = `the paused Task it came with (${task.state}, ${(task.history ?? []).length} Message(s), ${paused.content.length} effect(s))`;
  const excepted =
    history.resuming === undefined
      ? ""
      : `, its last Message ${task.history?.at(-1)?.messageId ?? ""} excepted: that is the resuming Message the terminal record commits at transcript[${history.resuming}], shown by the server before the state left the pause`;
  if (uncovered > 0)
    return make(
      "interim.observed",
      "INCONCLUSIVE",
      `${summary} matches what it records${excepted}; but it has ${uncoveredParts(uncovered)}`,
      { subject },
    );
  return make("interim.observed", "PASS", `${summary} is what it records${excepted}`, { subject });
}

/** The record names the Task it came with, and was sealed in the state that Task waits in. */
function namedFault(payload: JsonObject, task: A2ATask): string | undefined {
  if (member(payload, "taskId") !== task.id || (member(payload, "contextId") ?? "") !== (task.contextId ?? "")) {
    return `it names Task ${showValue(member(payload, "taskId"))} (context ${showValue(member(payload, "contextId"))}), but came with Task ${task.id} (context ${showValue(task.contextId ?? "")})`;
  }
  if (member(payload, "terminalState") !== task.state) {
    return `it was sealed in ${showValue(member(payload, "terminalState"))}, but the Task it came with waits in ${task.state}`;
  }
  return undefined;
}

function committedMessages(payload: JsonObject): Committed {
  const byMessage = new Map<string, { index: number; entry: JsonObject }>();
  transcriptOf(payload).forEach((e, index) => {
    if (
      isJsonObject(e) &&
      !("kind" in e) &&
      typeof member(e, "messageId") === "string" &&
      !byMessage.has(member(e, "messageId") as string)
    ) {
      byMessage.set(member(e, "messageId") as string, { index, entry: e });
    }
  });
  return byMessage;
}

/**
 * Each history Message is committed, in order, with its role, text and parts; the last one may be
 * the resuming Message instead (`resuming`: where the terminal record commits it). `last` is the
 * position of the last one compared.
 */
function historyTally(
  task: A2ATask,
  byMessage: Committed,
  perPart: boolean,
  resumingAt: (m: A2AMessage) => number | undefined,
): Tally & { readonly last: number; readonly resuming?: number } {
  let uncovered = 0;
  let last = -1;
  let resuming: number | undefined;
  const history = task.history ?? [];
  for (const [i, m] of history.entries()) {
    const e = byMessage.get(m.messageId);
    const foreign = foreignIds(m, task);
    if (foreign) return { fault: `the paused Task's ${foreign}`, last };
    if (!e && i === history.length - 1) resuming = resumingAt(m);
    if (resuming !== undefined) {
      uncovered += textOfParts(m.parts).otherParts;
      break;
    }
    if (!e)
      return {
        fault: `the paused Task's Message ${m.messageId} is not in the interim record's transcript: what happened before the pause is recorded at the pause (the one Message it may show beyond it is the resuming Message the terminal record commits right after this record's cited pause)`,
        last,
      };
    if (e.index < last)
      return {
        fault: `the paused Task's Message ${m.messageId} is out of order in the interim record's transcript`,
        last,
      };
    last = e.index;
    const verdict = committedAs(m, e, `the paused Task's Message ${m.messageId}`, perPart);
    if (verdict.fault !== undefined) return { fault: verdict.fault, last };
    uncovered += verdict.uncovered;
  }
  return resuming === undefined ? { uncovered, last } : { uncovered, last, resuming };
}

/** One Message against its entry: role and text, then its parts. */
function committedAs(m: A2AMessage, e: { index: number; entry: JsonObject }, what: string, perPart: boolean): Tally {
  const text = textOfParts(m.parts);
  const recomputed = sha256HexOfText(text.text);
  if (member(e.entry, "partCommitment") !== recomputed || member(e.entry, "role") !== m.role) {
    return {
      fault: `${what} is not what the interim record commits at transcript[${e.index}] (role, or partCommitment != ${recomputed})`,
    };
  }
  return partsTally(e.entry, m.parts, what, perPart, text.otherParts);
}

function partsTally(
  entry: JsonValue,
  parts: readonly A2APart[],
  what: string,
  perPart: boolean,
  otherParts: number,
): Tally {
  const verdict = partsVerdict(entry, parts, what, perPart);
  if (verdict.fault) return { fault: verdict.fault };
  return { uncovered: verdict.covered ? 0 : Math.max(1, otherParts) };
}

/**
 * The request the paused Task shows is its status.message (the SDKs also append it to history):
 * what the caller was asked at the pause is part of what the record sealed there describes.
 */
function statusTally(task: A2ATask, byMessage: Committed, last: number, perPart: boolean): Tally {
  const shown = task.statusMessage;
  if (!shown) return { uncovered: 0 };
  const inHistory = (task.history ?? []).find((m) => m.messageId === shown.messageId);
  if (inHistory) {
    return jsonEquals(inHistory.json, shown.json)
      ? { uncovered: 0 }
      : {
          fault: `the paused Task's status.message has the messageId of ${inHistory.path} but different content: one messageId, two observations`,
        };
  }
  const e = byMessage.get(shown.messageId);
  const what = `the paused Task's status.message ${shown.messageId}`;
  if (!e)
    return {
      fault: `${what} is not in the interim record's transcript: the request shown at the pause is recorded at the pause`,
    };
  if (e.index < last) return { fault: `${what} is out of order in the interim record's transcript` };
  const text = textOfParts(shown.parts);
  const recomputed = sha256HexOfText(text.text);
  if (member(e.entry, "partCommitment") !== recomputed || member(e.entry, "role") !== shown.role) {
    return {
      fault: `${what} is not what the interim record commits at transcript[${e.index}] (role, or partCommitment != ${recomputed})`,
    };
  }
  const foreign = foreignIds(shown, task);
  if (foreign) return { fault: `the paused Task's ${foreign}` };
  return partsTally(e.entry, shown.parts, what, perPart, text.otherParts);
}

/** Every effect (content Artifact) the paused Task shows is recorded: its text, name and parts. */
function effectsTally(
  content: readonly A2AArtifact[],
  effects: ReadonlyMap<string, JsonValue>,
  perPart: boolean,
): Tally {
  let uncovered = 0;
  for (const a of content) {
    const text = textOfParts(a.parts);
    const recomputed = sha256HexOfText(text.text);
    const entry = effects.get(a.artifactId);
    const committed = isJsonObject(entry) ? member(entry, "contentCommitment") : undefined;
    if (entry === undefined || committed !== recomputed) {
      return {
        fault:
          entry === undefined
            ? `the paused Task shows artifact ${a.artifactId}, which its interim record does not record: an effect done before the pause is recorded before it`
            : `the paused Task's artifact ${a.artifactId} is not what the interim record commits (${showValue(committed)} != ${recomputed})`,
      };
    }
    // The name is committed too (as taskBinding's artifact.binding compares it); absent is "".
    const name = isJsonObject(entry) ? member(entry, "name") : undefined;
    if ((name === null || name === undefined ? "" : name) !== (a.name ?? "")) {
      return {
        fault: `the paused Task's artifact ${a.artifactId} is named ${showValue(a.name ?? "")}, but the interim record commits it as ${showValue(name)}`,
      };
    }
    const verdict = partsTally(entry, a.parts, `the paused Task's artifact ${a.artifactId}`, perPart, text.otherParts);
    if (verdict.fault !== undefined) return verdict;
    uncovered += verdict.uncovered;
  }
  return { uncovered };
}
