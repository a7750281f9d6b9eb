/**
 * The Task's Messages against the payload's transcript (contract §9.14, §9.23):
 * transcript.unambiguous, transcript.sequence, transcript.message per history Message,
 * transcript.statusMessage, transcript.firstTask, transcript.unobserved; the transition entries
 * among them are transitions.ts's.
 */
import { listCapped, showValue, valueText } from "../../json/diff.js";
import { member, jsonEquals, type JsonObject } from "../../json/value.js";
import { sha256HexOfText } from "../../util/bytes.js";
import { textOfParts, type A2AMessage, type A2ATask } from "../../input/a2a.js";
import type { Check } from "../shared/types.js";
import { foreignIds, readTranscript, uncoveredParts, type MessageEntry, type TranscriptEntry } from "./transcript.js";
import { partsChecks, uncommittedKinds, type PartsRules } from "./parts.js";
import { check } from "./checks.js";
import { transitionChecks } from "./transitions.js";
import { indexBy, splitNotCommitted } from "./task.js";

/**
 * One observed Message of `task` against its transcript entry, which must come after `lastIndex`;
 * with per-Part commitments (or under the v2 capture policy), its Parts' checks follow.
 */
function messageCheck(
  id: "transcript.message" | "transcript.statusMessage" | "transcript.firstTask",
  m: A2AMessage,
  entry: MessageEntry,
  lastIndex: number,
  subject: string,
  task: A2ATask,
  rules: PartsRules,
): Check[] {
  const t = textOfParts(m.parts);
  const recomputed = sha256HexOfText(t.text);
  const values: Record<string, string> = { recomputed, partCommitment: valueText(entry.partCommitment) };
  const fault = messageFault(m, entry, lastIndex, recomputed, task);
  if (fault) return [check(id, "FAIL", fault, { subject, values })];
  const at = `message ${m.messageId} (${m.role}) at transcript[${entry.index}]`;
  const perPart = { present: entry.partCommitments !== undefined, partCommitments: entry.partCommitments };
  if (perPart.present || rules.requireAll) {
    return [
      check(id, "PASS", `${at}: its text matches ${recomputed}; its parts are compared one by one`, {
        subject,
        values,
      }),
      ...partsChecks(perPart, m.parts, `message ${m.messageId}`, subject, rules, check),
    ];
  }
  if (t.otherParts > 0) {
    return [
      check(
        id,
        "INCONCLUSIVE",
        `${at}: its text matches ${recomputed}, but it has ${uncoveredParts(t.otherParts)} (${uncommittedKinds(m.parts)})`,
        { subject, values, code: "PART_NOT_COMMITTED" },
      ),
    ];
  }
  return [check(id, "PASS", `${at} matches ${recomputed}${splitNotCommitted(t.textParts)}`, { subject, values })];
}

/** Why an observed Message does not match its entry (order, role, text commitment, foreign ids). */
function messageFault(
  m: A2AMessage,
  entry: MessageEntry,
  lastIndex: number,
  recomputed: string,
  task: A2ATask,
): string | undefined {
  if (entry.index < lastIndex)
    return `message ${m.messageId} is out of order: transcript[${entry.index}] comes before an earlier observed message`;
  if (entry.role !== m.role)
    return `message ${m.messageId}: transcript role ${showValue(entry.role)} != observed role ${m.role}`;
  if (entry.partCommitment !== recomputed)
    return `message ${m.messageId}: partCommitment ${showValue(entry.partCommitment)} != SHA-256 of its text ${recomputed}`;
  return foreignIds(m, task);
}

export function transcriptChecks(
  payload: JsonObject,
  task: A2ATask,
  firstTask: A2ATask | undefined,
  rules: PartsRules,
): Check[] {
  const transcript = member(payload, "transcript");
  if (!Array.isArray(transcript))
    return [check("transcript.sequence", "FAIL", "taskEvidencePayload.transcript is not an array")];
  const history = task.history ?? [];
  const { byKey: historyById, repeated } = indexBy(history, (m) => m.messageId);
  const checks: Check[] = [historyUnambiguous(history.length, repeated)];
  const { entries: all, fault } = readTranscript(transcript);
  checks.push(
    fault
      ? check("transcript.sequence", "FAIL", fault)
      : check("transcript.sequence", "PASS", `${transcript.length} transcript entries, sequence contiguous from 0`),
  );
  const entries = all.filter((e): e is MessageEntry => e.kind === "message");
  if (entries.length !== all.length) checks.push(...transitionsOf(all, payload, task, firstTask, historyById));
  const byId = new Map(entries.map((e) => [e.messageId, e]));
  // After the terminal Task's own checks, so a defect of what GetTask shows is reported first.
  const first = sameTask(firstTask, task) ? firstTaskChecks(firstTask, entries, byId, rules) : [];
  if (history.length === 0 && !task.statusMessage) {
    // A Task holds at least the Message that created it: a history not shown is not an empty one,
    // and an empty transcript compared with nothing must not read as bound.
    return [...checks, ...first, noHistoryCheck(entries.length)];
  }
  const matched = new Set<string>();
  const { checks: own, lastIndex } = historyChecks(history, byId, matched, task, rules);
  checks.push(...own);
  if (task.statusMessage)
    checks.push(...statusMessageCheck(task.statusMessage, historyById, byId, matched, lastIndex, task, rules));
  checks.push(...first);
  const unobserved = unobservedCheck(entries, matched, history, first.length > 0);
  if (unobserved) checks.push(unobserved);
  return checks;
}

function historyUnambiguous(count: number, repeated: readonly string[]): Check {
  return repeated.length === 0
    ? check("transcript.unambiguous", "PASS", `the ${count} observed history message(s) have distinct messageIds`)
    : check(
        "transcript.unambiguous",
        "FAIL",
        `the observed history holds several messages with messageId ${listCapped(repeated.map((r) => showValue(r)))}: the observation cannot be matched to the commitment unambiguously`,
      );
}

/** The transition entries, against the Messages the Task and the caller's first Task show. */
function transitionsOf(
  all: readonly TranscriptEntry[],
  payload: JsonObject,
  task: A2ATask,
  firstTask: A2ATask | undefined,
  historyById: ReadonlyMap<string, A2AMessage>,
): Check[] {
  const observedById = new Map(historyById);
  if (task.statusMessage && !observedById.has(task.statusMessage.messageId))
    observedById.set(task.statusMessage.messageId, task.statusMessage);
  const shownElsewhere = new Map(sameTask(firstTask, task) ? callerShown(firstTask) : []);
  return transitionChecks(all, payload, { task, byId: observedById, shownElsewhere }, check);
}

function noHistoryCheck(entries: number): Check {
  return check(
    "transcript.unobserved",
    "INCONCLUSIVE",
    entries > 0
      ? `the observed Task carries no history, so none of the ${entries} transcript entries can be compared`
      : "the observed Task carries no history and the transcript no Message entry: none of the Task's Messages (it has at least the one that created it) is compared",
  );
}

/** Each history Message against its entry, in order; `matched` collects the messageIds compared. */
function historyChecks(
  history: readonly A2AMessage[],
  byId: ReadonlyMap<string, MessageEntry>,
  matched: Set<string>,
  task: A2ATask,
  rules: PartsRules,
): { checks: Check[]; lastIndex: number } {
  const checks: Check[] = [];
  let lastIndex = -1;
  for (const m of history) {
    const subject = `history message ${m.messageId}`;
    const entry = byId.get(m.messageId);
    if (!entry) {
      const recomputed = sha256HexOfText(textOfParts(m.parts).text);
      checks.push(
        check(
          "transcript.message",
          "FAIL",
          `message ${m.messageId} (${m.role}) of the observed history is missing from the transcript`,
          { subject, values: { recomputed } },
        ),
      );
      continue;
    }
    if (matched.has(m.messageId)) continue; // a repeated messageId: already FAILed as ambiguous
    matched.add(m.messageId);
    const c = messageCheck("transcript.message", m, entry, lastIndex, subject, task, rules);
    if (entry.index >= lastIndex) lastIndex = entry.index;
    checks.push(...c);
  }
  return { checks, lastIndex };
}

/** Transcript entries no observed Message matched, or else an opening the history does not show. */
function unobservedCheck(
  entries: readonly MessageEntry[],
  matched: ReadonlySet<string>,
  history: readonly A2AMessage[],
  firstTaskShown: boolean,
): Check | undefined {
  const unobserved = entries.filter((e) => !matched.has(e.messageId));
  if (unobserved.length > 0) {
    return check(
      "transcript.unobserved",
      "INCONCLUSIVE",
      `transcript entries not in the observed history (history may be truncated): ${listCapped(unobserved.map((e) => `transcript[${e.index}] ${e.messageId}`))}`,
    );
  }
  const opening = unshownOpening(history, firstTaskShown);
  return opening ? check("transcript.unobserved", "INCONCLUSIVE", opening) : undefined;
}

function sameTask(first: A2ATask | undefined, task: A2ATask): first is A2ATask {
  return first !== undefined && first.id === task.id && (first.contextId ?? "") === (task.contextId ?? "");
}

/**
 * The Messages of this Task the caller saw outside the terminal history, by messageId: the first
 * Task's history and status.message. The caller's own `request` (a capture member) belongs here too
 * once inputs carry it: a Message the caller itself holds is observed, not truncated (§9.23).
 */
function callerShown(first: A2ATask): [string, A2AMessage][] {
  const shown: [string, A2AMessage][] = (first.history ?? []).map((m) => [m.messageId, m]);
  if (first.statusMessage) shown.push([first.statusMessage.messageId, first.statusMessage]);
  return shown;
}

/**
 * A Task opens with the client's Message (ROLE_USER): a history that is absent, or opens with
 * another role, was truncated (historyLength, a server that keeps only status.message), so what
 * came before is not observed. Without this, a transcript that leaves out the request would match
 * such a history entirely and PASS, where the honest transcript is INCONCLUSIVE. A first Task
 * (checked by transcript.firstTask) shows the opening instead.
 */
function unshownOpening(history: readonly A2AMessage[], firstTaskShown: boolean): string | undefined {
  if (firstTaskShown) return undefined;
  const opening = history[0];
  if (!opening)
    return "the observed Task carries no history (only status.message): the Task's opening request is not observed, so what the transcript leaves out before it cannot be known";
  if (opening.role === "ROLE_USER") return undefined;
  return `the observed history opens with ${opening.role} message ${opening.messageId}, not the client's request (ROLE_USER): it is truncated, so what the transcript leaves out before it cannot be known`;
}

/**
 * The first Task (a capture's, or --first-task) shows the Task's history as it began, and the
 * requirement is read from its first Message (§9.8): each of its Messages is committed like a
 * history Message, and its first one is the Task's first, the transcript's first Message entry.
 * A first Task that opens with another Message could carry a weaker requirement than the one the
 * caller sent. These Messages do not count as observed for transcript.unobserved: a copy that
 * only the first Task shows is not the terminal Task's history. (A first Task of another Task or
 * context is negotiation's acceptance.sameTask FAIL, and is not compared here.)
 */
function firstTaskChecks(
  first: A2ATask,
  entries: readonly MessageEntry[],
  byId: ReadonlyMap<string, MessageEntry>,
  rules: PartsRules,
): Check[] {
  const checks: Check[] = [];
  let lastIndex = -1;
  const opening = entries[0];
  for (const [i, m] of (first.history ?? []).entries()) {
    const subject = `first Task history message ${m.messageId}`;
    const entry = byId.get(m.messageId);
    if (!entry) {
      checks.push(
        check(
          "transcript.firstTask",
          "FAIL",
          `message ${m.messageId} (${m.role}) of the first Task's history is missing from the transcript`,
          { subject },
        ),
      );
      continue;
    }
    if (i === 0 && entry !== opening) {
      checks.push(
        check(
          "transcript.firstTask",
          "FAIL",
          `the first Task opens with message ${m.messageId}, but the Task's first Message is ${opening ? `${opening.messageId} (transcript[${opening.index}])` : "none"}: the requirement is read from the Task's first Message`,
          { subject },
        ),
      );
      lastIndex = entry.index;
      continue;
    }
    checks.push(...messageCheck("transcript.firstTask", m, entry, lastIndex, subject, first, rules));
    if (entry.index >= lastIndex) lastIndex = entry.index;
  }
  return checks;
}

/**
 * status.message is an observed Message (§9.14). The SDKs also append it to history: the same
 * messageId with the same content is one observation; with other content, a contradiction. One
 * the history does not hold must be committed after every history message; uncommitted, the
 * property cannot be PASS.
 */
function statusMessageCheck(
  m: A2AMessage,
  historyById: ReadonlyMap<string, A2AMessage>,
  byId: ReadonlyMap<string, MessageEntry>,
  matched: Set<string>,
  lastIndex: number,
  task: A2ATask,
  rules: PartsRules,
): Check[] {
  const id = "transcript.statusMessage";
  const subject = `status.message ${m.messageId}`;
  const inHistory = historyById.get(m.messageId);
  if (inHistory) {
    if (!jsonEquals(inHistory.json, m.json)) {
      return [
        check(
          id,
          "FAIL",
          `status.message has the messageId of ${inHistory.path} but different content: one messageId, two observations`,
          { subject },
        ),
      ];
    }
    return [
      check(id, "PASS", `status.message is the history message ${inHistory.path} (same messageId and content)`, {
        subject,
      }),
    ];
  }
  const entry = byId.get(m.messageId);
  if (!entry) {
    return [
      check(
        id,
        "INCONCLUSIVE",
        `status.message ${m.messageId} (${m.role}) is observed but not committed by the transcript`,
        {
          subject,
          values: { recomputed: sha256HexOfText(textOfParts(m.parts).text) },
        },
      ),
    ];
  }
  matched.add(m.messageId);
  return messageCheck(id, m, entry, lastIndex, subject, task, rules);
}
