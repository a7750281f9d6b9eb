/**
 * The caller's own word (contract §3, §9.8): a capture's `request` is the Message the client sent
 * to create the Task, `requests` the resuming Messages it sent. They are the only part of a
 * capture the server did not write, so every copy the server shows of one of them — in the first
 * Task's or the terminal Task's history or status.message, a paused Task's, a stream's — must
 * be that Message: the same messageId, role, parts, metadata and every other member, where a
 * server may add the `contextId` and `taskId` it assigned and nothing else. ProtoJSON's default
 * values equal absence (`metadata: {}` is no metadata), a number equals the same number written
 * otherwise (a Python server echoes `60` as `60.0`), and a `raw` Part is its bytes however base64
 * spells them; nothing else is forgiven (a Part's content counts whatever its value).
 *
 *   transcript.request (per sent Message)  every server copy equals it; the request is the Task's
 *     first Message: a first Task, or the record's transcript, that opens with another Message
 *     FAILs (the evidence proves a request the caller never sent); a sent Message the server shows
 *     no copy of is compared with the record's transcript entry of that messageId (role,
 *     partCommitment), and is INCONCLUSIVE when the record does not commit it either.
 *   transcript.request (order)  the sent Messages stand in the order the caller sent them (request,
 *     requests[0], requests[1], …) in the record's transcript and in every history the server
 *     shows; two the evidence holds the other way round FAIL (an answer sealed as the answer to
 *     another question), naming both and their positions. A Message a placement does not hold is
 *     left out of its order (its absence is judged above). Listed only when it FAILs.
 *
 * Without a `request`, the copies of the Task's first Message must agree with each other,
 * metadata included (§9.8), compared by the same rule (a copy from a gRPC Task and one from a
 * JSON-RPC Task are one Message when they differ only in ProtoJSON's spellings); the check is
 * listed only when they do not, so a capture whose copies agree reports exactly what it did before.
 */
import { showValue, type Difference } from "../../json/diff.js";
import { joinPath } from "../../json/path.js";
import { member, type JsonObject } from "../../json/value.js";
import { sha256HexOfText } from "../../util/bytes.js";
import { textOfParts, type A2AMessage, type A2ATask } from "../../input/a2a.js";
import { disagreeingCopy, sentDifference } from "../../input/request.js";
import type { EvidenceContext } from "../../evidence/context.js";
import type { Check, State } from "../shared/types.js";
import type { CheckExtras } from "../shared/checks.js";
import { readTranscript, type MessageEntry } from "./transcript.js";

export { disagreeingCopy, sameValue, sentDifference } from "../../input/request.js";

type Make = (id: "transcript.request", state: State, detail: string, extras?: CheckExtras) => Check;

/** The Tasks whose server side the input shows: the first Task, the terminal Task, each paused Task. */
function serverTasks(ctx: EvidenceContext): A2ATask[] {
  // A paused Task given with --interim is observed too: its copies count like the others.
  const paused = (ctx.evidence.interimBundles ?? []).flatMap((b) => (b.pausedTask ? [b.pausedTask.task] : []));
  return [ctx.firstTask, ctx.observedTask, ...new Set(paused)].filter((t): t is A2ATask => t !== undefined);
}

/** Every copy the server shows of the Message with this messageId, in a fixed order. */
export function serverCopies(ctx: EvidenceContext, messageId: string): readonly A2AMessage[] {
  return copiesById(ctx).get(messageId) ?? [];
}

function differenceText(copy: A2AMessage, d: Difference): string {
  const at = d.path === "$" ? "" : ` at ${d.path}`;
  return `the server's copy ${copy.path} shows ${showValue(d.right)}${at}, the caller sent ${showValue(d.left)}`;
}

/** The server's copies of each Message, by messageId, gathered once per input (bounded work, §9.20). */
function copiesById(ctx: EvidenceContext): ReadonlyMap<string, readonly A2AMessage[]> {
  return ctx.once("serverCopies", () => gatherCopies(ctx));
}

function gatherCopies(ctx: EvidenceContext): Map<string, A2AMessage[]> {
  const byId = new Map<string, A2AMessage[]>();
  const add = (m: A2AMessage) => {
    const list = byId.get(m.messageId);
    if (list) list.push(m);
    else byId.set(m.messageId, [m]);
  };
  for (const task of serverTasks(ctx)) {
    for (const m of task.history ?? []) add(m);
    if (task.statusMessage) add(task.statusMessage);
  }
  return byId;
}

/** The record's Message entries, as far as the transcript could be read (its faults are transcript.sequence's). */
function transcriptMessages(payload: JsonObject | undefined): MessageEntry[] {
  const transcript = payload ? member(payload, "transcript") : undefined;
  if (!Array.isArray(transcript)) return [];
  return readTranscript(transcript).entries.filter((e): e is MessageEntry => e.kind === "message");
}

interface Observed {
  readonly copies: ReadonlyMap<string, readonly A2AMessage[]>;
  readonly entries: readonly MessageEntry[];
  readonly entryById: ReadonlyMap<string, MessageEntry>;
  readonly firstTask: A2ATask | undefined;
}

/** The Message the client sent to create the Task is the Task's first: shown or committed as another, it FAILs. */
function openingFault(sent: A2AMessage, observed: Observed): string | undefined {
  const shown = observed.firstTask?.history?.[0];
  if (shown && shown.messageId !== sent.messageId) {
    return `the first Task opens with message ${shown.messageId}, not the request ${sent.messageId} the caller sent: the server answered a request the caller never sent`;
  }
  const committed = observed.entries[0];
  if (committed && committed.messageId !== sent.messageId) {
    return `the record's transcript opens with message ${committed.messageId} (transcript[${committed.index}]), not the request ${sent.messageId} the caller sent: the evidence proves a request the caller never sent`;
  }
  return undefined;
}

/** A sent Message the server shows no copy of, against the record's entry for it. */
function committedCheck(sent: A2AMessage, subject: string, opening: boolean, observed: Observed, make: Make): Check {
  const id = "transcript.request";
  const entry = observed.entryById.get(sent.messageId);
  if (!entry) {
    return make(
      id,
      "INCONCLUSIVE",
      opening
        ? `the server shows no copy of the request ${sent.messageId} the caller sent, and the record's transcript commits no Message: what the evidence is of cannot be matched to what was sent`
        : `neither the Task nor the record shows the resuming Message ${sent.messageId} the caller sent (rejected by the server, or left out): the evidence does not cover it`,
      { subject },
    );
  }
  const recomputed = sha256HexOfText(textOfParts(sent.parts).text);
  if (entry.role !== sent.role || entry.partCommitment !== recomputed) {
    return make(
      id,
      "FAIL",
      `the record commits message ${sent.messageId} at transcript[${entry.index}] with role ${showValue(entry.role)} and partCommitment ${showValue(entry.partCommitment)}; the Message the caller sent has role ${sent.role} and text hashing to ${recomputed}`,
      { subject, values: { recomputed, partCommitment: showValue(entry.partCommitment) } },
    );
  }
  return make(
    id,
    "PASS",
    `the server shows no copy of message ${sent.messageId}; the record commits it at transcript[${entry.index}] with the role and text the caller sent`,
    { subject },
  );
}

function sentCheck(sent: A2AMessage, subject: string, opening: boolean, observed: Observed, make: Make): Check {
  const id = "transcript.request";
  const copies = observed.copies.get(sent.messageId) ?? [];
  for (const copy of copies) {
    const d = sentDifference(sent, copy);
    if (d) {
      return make(
        id,
        "FAIL",
        `${differenceText(copy, d)}: the server shows another Message than the one the caller sent`,
        { subject },
      );
    }
  }
  const fault = opening ? openingFault(sent, observed) : undefined;
  if (fault) return make(id, "FAIL", fault, { subject });
  if (copies.length === 0) return committedCheck(sent, subject, opening, observed, make);
  return make(
    id,
    "PASS",
    `the Message ${sent.messageId} the caller sent equals the server's ${copies.length === 1 ? "copy" : `${copies.length} copies`} (${copies.map((c) => c.path).join(", ")})`,
    { subject },
  );
}

/** Without the caller's own copy, the server's copies of the Task's first Message must agree (§9.8); listed only when they do not. */
function firstCopiesCheck(
  ctx: EvidenceContext,
  copies: ReadonlyMap<string, readonly A2AMessage[]>,
  make: Make,
): Check[] {
  const first = ctx.firstTask?.history?.[0] ?? ctx.observedTask?.history?.[0];
  const found = disagreeingCopy(first ? (copies.get(first.messageId) ?? []) : []);
  if (!found) return [];
  const { reference, copy, difference: d } = found;
  return [
    make(
      "transcript.request",
      "FAIL",
      `copies of the Task's first Message ${copy.messageId} disagree: ${copy.path} has ${showValue(d.right)} at ${d.path}, ${reference.path} has ${showValue(d.left)}; one Message, two contents (no request recorded says which one the caller sent)`,
      { subject: "first Message" },
    ),
  ];
}

/**
 * The server shows one Message in several places (the first Task's history, the terminal Task's, a
 * paused Task's, a status.message): beyond the ones `transcript.request` compares with what the
 * caller sent (and the first Message, compared the same way without a request), every copy of one
 * messageId must be one Message. Two contents under one messageId are two observations that cannot
 * both be the committed one (contract §9.13): with data, raw or url Parts nothing else would see it.
 */
export function copiesDisagreement(ctx: EvidenceContext): string | undefined {
  const { request, requests = [] } = ctx.evidence;
  const compared = new Set([...(request ? [request] : []), ...requests].map((m) => m.messageId));
  if (!request) {
    const first = ctx.firstTask?.history?.[0] ?? ctx.observedTask?.history?.[0];
    if (first) compared.add(first.messageId);
  }
  for (const [messageId, copies] of copiesById(ctx)) {
    if (compared.has(messageId)) continue;
    const found = disagreeingCopy(copies);
    if (found) {
      const { reference, copy, difference: d } = found;
      const at = d.path === "$" ? "" : ` at ${d.path}`;
      return `message ${messageId} is shown twice with different content: ${copy.path} has ${showValue(d.right)}${at}, ${reference.path} has ${showValue(d.left)}; one messageId, two observations`;
    }
  }
  return undefined;
}

/** A Message the caller sent, and where the capture holds it (`request`, `requests[i]`). */
interface Sent {
  readonly message: A2AMessage;
  readonly subject: string;
}

/** A sequence the evidence places Messages in: the record's transcript, or one server Task's history. */
interface Placement {
  /** How the detail names the sequence and what it does ("the record's transcript commits"). */
  readonly says: string;
  /** Each Message's messageId and where it stands, in the sequence's order. */
  readonly items: readonly { readonly messageId: string; readonly at: string }[];
}

/**
 * The first two sent Messages this placement holds in another order than the caller sent them:
 * each sent Message at its first position, compared with the last one sent before it that the
 * placement holds (a Message it does not hold is skipped: its absence is the per-Message check's).
 */
function inversion(sent: readonly Sent[], placement: Placement): { subject: string; detail: string } | undefined {
  const ordinal = new Map(sent.map((s, n) => [s.message.messageId, n]));
  const position: (number | undefined)[] = [];
  placement.items.forEach((item, i) => {
    const n = ordinal.get(item.messageId);
    if (n !== undefined && position[n] === undefined) position[n] = i;
  });
  let prior: { readonly sent: Sent; readonly at: number } | undefined;
  for (const [n, s] of sent.entries()) {
    const at = position[n];
    if (at === undefined) continue;
    if (prior && at < prior.at) {
      const a = prior.sent.message.messageId;
      const b = s.message.messageId;
      return {
        subject: s.subject,
        detail: `the caller sent ${prior.sent.subject} (message ${a}) before ${s.subject} (message ${b}), but ${placement.says} ${b} at ${placement.items[at]?.at} before ${a} at ${placement.items[prior.at]?.at}: the evidence has the caller's Messages in another order than it sent them (an answer given to one question shown as the answer to another)`,
      };
    }
    prior = { sent: s, at };
  }
  return undefined;
}

/**
 * The caller's Messages keep the order it sent them in (request, requests[0], requests[1], …) in
 * the record's transcript and in every history the server shows; a placement that swaps two FAILs
 * (listed only then).
 */
function orderChecks(ctx: EvidenceContext, sent: readonly Sent[], observed: Observed, make: Make): Check[] {
  if (sent.length < 2) return [];
  const placements: Placement[] = [
    {
      says: "the record's transcript commits",
      items: observed.entries.map((e) => ({ messageId: e.messageId, at: `transcript[${e.index}]` })),
    },
    ...[...new Set(serverTasks(ctx))].map((task) => ({
      says: "the server's Task shows",
      items: (task.history ?? []).map((m) => ({ messageId: m.messageId, at: m.path })),
    })),
  ];
  const checks: Check[] = [];
  for (const placement of placements) {
    const fault = inversion(sent, placement);
    if (fault) checks.push(make("transcript.request", "FAIL", fault.detail, { subject: fault.subject }));
  }
  return checks;
}

/** taskBinding's checks of the Messages the client sent (module comment). */
export function requestChecks(ctx: EvidenceContext, payload: JsonObject | undefined, make: Make): Check[] {
  const { request, requests = [] } = ctx.evidence;
  const copies = copiesById(ctx);
  const checks: Check[] = request ? [] : firstCopiesCheck(ctx, copies, make);
  if (!request && requests.length === 0) return checks;
  const entries = transcriptMessages(payload);
  const entryById = new Map(entries.map((e) => [e.messageId, e]));
  const observed: Observed = { copies, entries, entryById, firstTask: ctx.firstTask };
  const sent: Sent[] = [
    ...(request ? [{ message: request, subject: "request" }] : []),
    ...requests.map((message, i) => ({ message, subject: joinPath("requests", i) })),
  ];
  for (const s of sent) checks.push(sentCheck(s.message, s.subject, s.message === request, observed, make));
  checks.push(...orderChecks(ctx, sent, observed, make));
  return checks;
}
