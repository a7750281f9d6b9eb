/**
 * A second, minimal derivation of the v3.2 transition and interim rules, written from
 * docs/profile.md ("v3.2 additions to aac-cll-scitt/v1") alone: it imports nothing from the
 * verifier or the producer — only node:crypto — so a misreading of the profile that both of those
 * share cannot hide here. It recomputes every transition commitment from the observed Task, applies
 * the chain and position rules, and reads the interim citations against the supplied interim
 * bundles; the test compares its verdicts with the verifier's on every lifecycle vector.
 */
import { createHash } from "node:crypto";

export type Verdict = "PASS" | "FAIL" | "INCONCLUSIVE" | "NOT_CHECKED";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const TAG = "a2a-task-evidence/transition/v1";
const INTERRUPTED = ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"];
const TERMINAL = ["TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"];
const MEMBERS = ["fromState", "kind", "messageId", "sequence", "toState", "transitionCommitment"];
const EXT = "https://agentactioncapsule.org/extensions/a2a-task-evidence/v1";

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const sha256 = (bytes: string): string => createHash("sha256").update(bytes, "utf8").digest("hex");

/** §1: a pyjson string: the short escapes, \u00XX below U+0020, \uXXXX (lowercase) from U+007F up, per UTF-16 unit. */
function pyString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const short: Record<number, string> = {
      0x22: '\\"',
      0x5c: "\\\\",
      0x08: "\\b",
      0x0c: "\\f",
      0x0a: "\\n",
      0x0d: "\\r",
      0x09: "\\t",
    };
    if (short[c] !== undefined) out += short[c];
    else if (c < 0x20 || c >= 0x7f) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += s[i];
  }
  return `${out}"`;
}

/** §2.4: pyjson of the ten-element array (strings, one integer, nulls). */
export function preimage(elements: ReadonlyArray<string | number | null>): string {
  return `[${elements.map((e) => (e === null ? "null" : typeof e === "number" ? String(e) : pyString(e))).join(",")}]`;
}

/** §1: the text commitment of a Message's parts. */
export function textCommitment(parts: Json | undefined): string {
  const texts = (Array.isArray(parts) ? parts : [])
    .filter(isObj)
    .filter((p) => typeof p.text === "string")
    .map((p) => p.text as string);
  return sha256(texts.join("\n"));
}

const str = (v: Json | undefined): string => (typeof v === "string" ? v : "");

export interface TransitionVerdict {
  readonly sequence: number;
  readonly verdict: Verdict;
  /** The commitment recomputed from the observed Task, when the bound Message (or none) was observed. */
  readonly recomputed?: string;
  readonly why: string;
}

/** §2.2–2.4 over a terminal payload and the Task observed with it. */
export function deriveTransitions(payload: Obj, task: Obj): TransitionVerdict[] {
  const transcript = Array.isArray(payload.transcript) ? payload.transcript : [];
  const history = (Array.isArray(task.history) ? task.history : []).filter(isObj);
  const status = isObj(task.status) ? task.status : {};
  const observed = new Map<string, Obj>();
  for (const m of history) if (!observed.has(str(m.messageId))) observed.set(str(m.messageId), m);
  if (isObj(status.message) && !observed.has(str(status.message.messageId)))
    observed.set(str(status.message.messageId), status.message);
  const out: TransitionVerdict[] = [];
  let paused: { state: string; at: number } | undefined;
  let ended = false;
  let count = 0;
  const entry = (i: number): Obj | undefined => (isObj(transcript[i]) ? (transcript[i] as Obj) : undefined);
  const isMessage = (e: Obj | undefined): e is Obj => e !== undefined && !("kind" in e);
  transcript.forEach((raw, i) => {
    if (!isObj(raw) || !("kind" in raw)) return;
    count++;
    const fail = (why: string) => out.push({ sequence: i, verdict: "FAIL", why });
    const keys = Object.keys(raw).sort();
    if (keys.join() !== MEMBERS.join()) return fail("members");
    const from = str(raw.fromState);
    const to = str(raw.toState);
    const id = raw.messageId;
    const into = INTERRUPTED.includes(to) && (from === "TASK_STATE_SUBMITTED" || from === "TASK_STATE_WORKING");
    const leaving = INTERRUPTED.includes(from) && (to === "TASK_STATE_WORKING" || TERMINAL.includes(to));
    if (typeof raw.transitionCommitment !== "string" || !/^[0-9a-f]{64}$/.test(raw.transitionCommitment))
      return fail("commitment form");
    if (id !== null && typeof id !== "string") return fail("messageId form");
    if (!into && !leaving) return fail("not into or out of an interrupted state");
    const before = entry(i - 1);
    let broken: string | undefined;
    if (ended) broken = "after the end";
    else if (into) {
      if (paused) broken = "into while paused";
      else if (from === "TASK_STATE_SUBMITTED" && count > 1) broken = "from SUBMITTED after resuming";
      else if (id === null || !isMessage(before) || before.messageId !== id || before.role !== "ROLE_AGENT")
        broken = "the request is not the entry before";
    } else if (!paused || paused.state !== from) broken = "out without the matching into";
    else if (TERMINAL.includes(to) && to !== payload.terminalState) broken = "ends in another state than terminalState";
    else if (id === null) {
      if (paused.at !== i - 1) broken = "not contiguous";
      else if (from === "TASK_STATE_INPUT_REQUIRED" && to === "TASK_STATE_WORKING")
        broken = "INPUT_REQUIRED left without a resuming Message";
    } else if (TERMINAL.includes(to)) broken = "an end while paused bound to a Message";
    else if (!isMessage(before) || before.messageId !== id || paused.at !== i - 2 || before.role !== "ROLE_USER")
      broken = "the resuming Message is not between the transitions";
    if (into) paused = { state: to, at: i };
    else {
      paused = undefined;
      if (TERMINAL.includes(to)) ended = true;
    }
    if (broken) return fail(broken);
    const message = id === null ? null : observed.get(id);
    if (message === undefined)
      return void out.push({ sequence: i, verdict: "INCONCLUSIVE", why: "bound Message not observed" });
    const ids = (m: Obj, camel: string, snake: string) => str(m[camel] ?? m[snake]);
    const recomputed = sha256(
      preimage([
        TAG,
        str(task.id),
        str(task.contextId),
        i,
        from,
        to,
        id,
        message === null ? null : ids(message, "taskId", "task_id"),
        message === null ? null : ids(message, "contextId", "context_id"),
        message === null ? null : textCommitment(message.parts),
      ]),
    );
    out.push({
      sequence: i,
      verdict: recomputed === raw.transitionCommitment ? "PASS" : "FAIL",
      recomputed,
      why: "commitment",
    });
  });
  if (paused && TERMINAL.includes(str(payload.terminalState)))
    out.push({ sequence: -1, verdict: "FAIL", why: "ends paused" });
  return out;
}

export interface CitationVerdict {
  /** `interimEvidence[i]` for a citation, the evidenceId for a supplied record nobody cites. */
  readonly subject: string;
  readonly verdict: Verdict;
}

/** §3.2–3.3 (interim.cited): the citations against the supplied interim bundles' carried evidenceIds. */
export function deriveCitations(payload: Obj, supplied: readonly Obj[]): CitationVerdict[] {
  const out: CitationVerdict[] = [];
  const transcript = Array.isArray(payload.transcript) ? payload.transcript : [];
  const cited = payload.interimEvidence;
  const valid: Array<{ evidenceId: string; sequence: number }> = [];
  if (cited !== undefined) {
    (Array.isArray(cited) ? cited : []).forEach((c, i) => {
      const subject = `interimEvidence[${i}]`;
      const ok =
        isObj(c) &&
        Object.keys(c).sort().join() === "evidenceId,sequence" &&
        typeof c.evidenceId === "string" &&
        /^[0-9a-f]{64}$/.test(c.evidenceId) &&
        typeof c.sequence === "number" &&
        isObj(transcript[c.sequence]) &&
        (transcript[c.sequence] as Obj).kind === "transition" &&
        INTERRUPTED.includes(str((transcript[c.sequence] as Obj).toState)) &&
        (valid.length === 0 || c.sequence > (valid[valid.length - 1] as { sequence: number }).sequence) &&
        !valid.some((v) => v.evidenceId === c.evidenceId);
      if (!ok) return void out.push({ subject, verdict: "FAIL" });
      valid.push({ evidenceId: c.evidenceId as string, sequence: c.sequence as number });
      out.push({ subject, verdict: supplied.some((b) => b.evidenceId === c.evidenceId) ? "PASS" : "NOT_CHECKED" });
    });
  }
  for (const b of supplied)
    if (!valid.some((v) => v.evidenceId === b.evidenceId)) out.push({ subject: str(b.evidenceId), verdict: "FAIL" });
  return out;
}

/** Where a vector keeps the terminal bundle: the evidence Artifact's raw part (or a capture's evidenceBundle). */
export function terminalBundle(task: Obj): Obj | undefined {
  for (const a of (Array.isArray(task.artifacts) ? task.artifacts : []).filter(isObj)) {
    if (!(Array.isArray(a.extensions) && a.extensions.includes(EXT))) continue;
    const part = Array.isArray(a.parts) && isObj(a.parts[0]) ? a.parts[0] : undefined;
    if (part && typeof part.raw === "string")
      return JSON.parse(Buffer.from(part.raw, "base64").toString("utf8")) as Obj;
  }
  return undefined;
}

/** §5: a Task that has not ended says PENDING and carries no terminal record: nothing to verify yet. */
export function isPending(task: Obj): boolean {
  const metadata = isObj(task.metadata) && isObj(task.metadata[EXT]) ? task.metadata[EXT] : {};
  const bundle = terminalBundle(task);
  const sealedIn =
    bundle && isObj(bundle.taskEvidencePayload) ? str(bundle.taskEvidencePayload.terminalState) : undefined;
  const state = isObj(task.status) ? str(task.status.state) : "";
  return (
    !TERMINAL.includes(state) &&
    metadata.evidenceStatus === "EVIDENCE_STATUS_PENDING" &&
    (sealedIn === undefined || INTERRUPTED.includes(sealedIn))
  );
}
