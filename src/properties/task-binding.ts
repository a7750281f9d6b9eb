/**
 * taskBinding — the payload describes the Task the caller observed (contract §4, §9.3–§9.5,
 * §9.12–§9.15, §9.20; content-binding.md §6, §11).
 *
 * The reference demo takes the "observed" artifact ids from the payload itself, which proves
 * nothing. Here every value is recomputed from the observed Task:
 *   task.id, task.contextId, task.terminalState  payload fields == the observed Task's; an absent
 *                                                string equals "" (ProtoJSON), so an absent observed
 *                                                contextId never matches a non-empty one
 *   task.authority, task.tenant                   only when the caller passes --authority / --tenant
 *                                                 (A2A Tasks carry neither)
 *   artifacts.unambiguous                         no two observed Artifacts share an artifactId: the
 *                                                 observation must match the commitment one to one
 *   artifact.binding (per payload artifact)       artifactId, name and contentCommitment are present;
 *                                                 the artifactId is an observed content Artifact, the
 *                                                 name matches, contentCommitment == SHA-256 of its text;
 *                                                 INCONCLUSIVE when it has non-text parts (not bound)
 *   artifacts.coverage                            every observed content Artifact is in the payload;
 *                                                 only Artifacts that are exactly the located bundle
 *                                                 are evidence, everything else is content (§9.12);
 *                                                 INCONCLUSIVE when the Task shows no artifacts member
 *                                                 and does not carry its bundle inline (not observed)
 *   transcript.unambiguous                        no two observed history Messages share a messageId; every
 *                                                 copy of one messageId across the server's Tasks (first,
 *                                                 terminal, paused) is one Message (listed when not)
 *   transcript.sequence                           entries are well-formed, messageIds unique, sequence 0, 1, 2, …
 *   transcript.message (per history message)      present in the transcript, in order, same role,
 *                                                 partCommitment == SHA-256 of its text parts joined by "\n";
 *                                                 a Message naming another Task or context FAILs; one with
 *                                                 non-text parts is INCONCLUSIVE (their content is not bound)
 *   transcript.firstTask (per first-Task message)  the first Task's history is observed too: each Message is
 *                                                 in the transcript, in order, the first one first
 *   transcript.statusMessage                      status.message is observed too (§9.14): the same
 *                                                 content as a history entry with its messageId, and
 *                                                 committed in order when the history does not hold it
 *   transcript.request (per sent Message)         the caller's own `request` / `requests` (contract §3):
 *                                                 every server copy is that Message (a server may add
 *                                                 contextId/taskId), and the request is the Task's first
 *                                                 Message; without a request, the copies of the first
 *                                                 Message must agree (listed only when they do not)
 *   transcript.unobserved                         transcript entries the Task does not show: INCONCLUSIVE
 *                                                 (A2A does not guarantee complete history); so is
 *                                                 a Task that shows no history at all, even against
 *                                                 an empty transcript
 *   transcript.transition (per transition entry)  v3.2 (docs/profile.md): its members, states, order and
 *                                                 contiguity, and its commitment recomputed from the Task
 *   transcript.resumption (per resumption)        the resuming Message is observed and continues this Task
 *   stream.replaced (per replaced version)        a streamed artifact version marked lastChunk and later
 *                                                 replaced by other content: INCONCLUSIVE (§9.28); the
 *                                                 pauses a stream showed are transcript.transition's
 *   interim.cited                                 every supplied interim record is cited, every citation
 *                                                 well-formed (a dropped citation FAILs)
 *   interim.prefix (per cited, supplied record)   it is this Task's record at that pause: same Task, the
 *                                                 transcript up to the pause, effects kept
 *   interim.observed (per record given with its  it describes the paused Task it came with (--interim):
 *   paused Task)                                  the state it waits in, its history, its effects
 *   trace.digest (per Traceability trace)         a trace in metadata is recomputed against the payload's
 *                                                 digest, or reported as informational
 * Work is linear in the Task and the payload; lists in details are capped (§9.20).
 */
import { listCapped, showValue, valueText } from "../json/diff.js";
import { member, hasMember, isJsonObject, jsonEquals, type JsonObject, type JsonValue } from "../json/value.js";
import { sha256HexOfText } from "../util/bytes.js";
import { TERMINAL_TASK_STATES } from "../profile.js";
import { textOfParts, type A2AArtifact, type A2AMessage, type A2APart, type A2ATask } from "../input/a2a.js";
import type { Check, PropertyResult } from "./shared/types.js";
import { checksFor, type IdOf, decide } from "./shared/checks.js";
import type { EvidenceContext } from "../evidence/context.js";
import { streamShownChecks } from "./shared/stream-shown.js";
import {
  foreignIds,
  readTranscript,
  transitionChecks,
  uncoveredParts,
  type MessageEntry,
} from "./shared/transcript.js";
import { interimCitationChecks } from "./shared/citations.js";
import { traceDigestChecks } from "./shared/traces.js";
import { withInterim } from "./shared/interim.js";
import { copiesDisagreement, requestChecks } from "./shared/request.js";
import {
  CAPTURE_POLICY_V2,
  partsChecks,
  uncommittedKinds,
  unusedResolvedChecks,
  type PartsRules,
} from "./shared/parts.js";

export const CHECKS = checksFor([
  "task.observed",
  "task.id",
  "task.contextId",
  "task.terminalState",
  "task.authority",
  "task.tenant",
  "artifacts.unambiguous",
  "artifact.binding",
  "artifacts.coverage",
  "transcript.unambiguous",
  "transcript.sequence",
  "transcript.message",
  "transcript.statusMessage",
  "transcript.firstTask",
  "transcript.request",
  "transcript.unobserved",
  "transcript.transition",
  "transcript.resumption",
  "parts.count",
  "parts.kind",
  "parts.digest",
  "parts.url",
  "parts.missing",
  "stream.replaced",
  "interim.cited",
  "interim.prefix",
  "interim.observed",
  "trace.digest",
]);
const { check, only } = CHECKS;
type CheckId = IdOf<typeof CHECKS>;

export function taskBinding(ctx: EvidenceContext): PropertyResult {
  const payload = ctx.payload;
  if (!payload) return only("task.observed", "NOT_PRESENT", "the bundle carries no taskEvidencePayload");
  const task = ctx.observedTask;
  // The interim records the caller supplied are observed too, with or without the terminal Task.
  const interim = interimCitationChecks(ctx, payload, check);
  const sent = requestChecks(ctx, payload, check);
  if (!task) {
    // Without the terminal Task nothing is bound, but a server copy that contradicts what the
    // caller sent is a contradiction all the same.
    return withInterim(
      only(
        "task.observed",
        "NOT_CHECKED",
        "no observed Task: verify a GetTask response or Task, or pass the observed Task with --task",
      ),
      [...interim, ...sent.filter((c) => c.state === "FAIL")],
    );
  }
  const rules: PartsRules = {
    requireAll: member(payload, "capturePolicyId") === CAPTURE_POLICY_V2,
    ...(ctx.options.resolved ? { resolved: ctx.options.resolved } : {}),
    used: new Set(),
  };
  const checks: Check[] = [
    fieldCheck("task.id", payload, "taskId", task.id, "Task id"),
    fieldCheck("task.contextId", payload, "contextId", task.contextId, "Task contextId"),
    terminalStateCheck(payload, task),
    optionCheck("task.authority", payload, "authority", ctx.options.authority, "--authority"),
    optionCheck("task.tenant", payload, "tenantId", ctx.options.tenant, "--tenant"),
    ...artifactChecks(payload, task, ctx.evidence.evidenceArtifacts, carriesBundleInline(ctx), rules),
    ...transcriptChecks(payload, task, ctx.firstTask, rules),
    ...sent,
    ...streamShownChecks(ctx.evidence.streamShown, member(payload, "transcript"), check),
    ...interim,
    // After the checks that compare each copy with the record: those say which copy is not committed.
    ...copiesChecks(ctx),
    ...traceDigestChecks(ctx, payload, task, check),
    ...unusedResolvedChecks(rules, check),
  ];
  return decide(checks, "payload binds the observed task, terminal state, artifacts and transcript");
}

/** Copies of one Message in several of the server's Tasks that disagree (listed only then). */
function copiesChecks(ctx: EvidenceContext): Check[] {
  const fault = copiesDisagreement(ctx);
  return fault ? [check("transcript.unambiguous", "FAIL", fault, { subject: "server copies" })] : [];
}

/** ProtoJSON: an absent string field and "" are the same value (§9.15); null is how a payload writes "none". */
function sameString(claimed: JsonValue | undefined, observed: string | undefined): boolean {
  const c = claimed === undefined || claimed === null ? "" : claimed;
  return typeof c === "string" && c === (observed ?? "");
}

function fieldCheck(id: CheckId, payload: JsonObject, name: string, observed: string | undefined, what: string): Check {
  const claimed = member(payload, name);
  const values = { payload: valueText(claimed), observed: valueText(observed) };
  if (sameString(claimed, observed)) {
    return check(
      id,
      "PASS",
      `payload ${name} equals the observed ${what} ${observed === undefined || observed === "" ? "(empty)" : observed}`,
      { values },
    );
  }
  return check(
    id,
    "FAIL",
    `payload ${name} ${showValue(claimed)} != observed ${what} ${observed === undefined ? "(absent, which is empty)" : showValue(observed)}`,
    { values },
  );
}

function terminalStateCheck(payload: JsonObject, task: A2ATask): Check {
  const id = "task.terminalState";
  const claimed = member(payload, "terminalState");
  const values = { payload: valueText(claimed), observed: task.state };
  if (!(TERMINAL_TASK_STATES as readonly string[]).includes(task.state)) {
    return check(
      id,
      "FAIL",
      `the observed Task is in ${task.state}, not a terminal state: evidence describes a terminal Task`,
      { values },
    );
  }
  if (claimed === task.state)
    return check(id, "PASS", `payload terminalState equals the observed ${task.state}`, { values });
  return check(id, "FAIL", `payload terminalState ${showValue(claimed)} != observed Task state ${task.state}`, {
    values,
  });
}

function optionCheck(
  id: CheckId,
  payload: JsonObject,
  name: string,
  expected: string | undefined,
  flag: string,
): Check {
  const claimed = member(payload, name);
  if (expected === undefined) {
    return check(
      id,
      "NOT_CHECKED",
      `payload ${name} ${showValue(claimed)} not compared: not observable in A2A; pass ${flag} to compare`,
    );
  }
  const values = { payload: valueText(claimed), expected };
  if (sameString(claimed, expected))
    return check(id, "PASS", `payload ${name} equals ${flag} ${expected === "" ? "(empty)" : expected}`, { values });
  return check(id, "FAIL", `payload ${name} ${showValue(claimed)} != ${flag} ${showValue(expected)}`, { values });
}

/** The commitment of an Artifact's or Message's parts: SHA-256 of its text parts joined with "\n". */
function commitmentOf(parts: readonly A2APart[]): { hex: string; otherParts: number; textParts: number } {
  const t = textOfParts(parts);
  return { hex: sha256HexOfText(t.text), otherParts: t.otherParts, textParts: t.textParts };
}

/** The first value of each key and the keys seen more than once, in one pass. */
function indexBy<T>(items: readonly T[], key: (t: T) => string): { byKey: Map<string, T>; repeated: string[] } {
  const byKey = new Map<string, T>();
  const repeated = new Set<string>();
  for (const item of items) {
    const k = key(item);
    if (byKey.has(k)) repeated.add(k);
    else byKey.set(k, item);
  }
  return { byKey, repeated: [...repeated] };
}

/** What the per-entry artifact checks share: the observed content Artifacts, indexed, with commitments computed once. */
class ObservedArtifacts {
  readonly byId: ReadonlyMap<string, A2AArtifact>;
  private readonly byName = new Map<string, A2AArtifact[]>();
  private readonly commitments = new Map<A2AArtifact, { hex: string; otherParts: number; textParts: number }>();

  constructor(readonly content: readonly A2AArtifact[]) {
    this.byId = indexBy(content, (a) => a.artifactId).byKey;
    for (const a of content) {
      if (a.name === undefined) continue;
      const list = this.byName.get(a.name);
      if (list) list.push(a);
      else this.byName.set(a.name, [a]);
    }
  }

  commitment(a: A2AArtifact): { hex: string; otherParts: number; textParts: number } {
    let c = this.commitments.get(a);
    if (!c) {
      c = commitmentOf(a.parts);
      this.commitments.set(a, c);
    }
    return c;
  }

  /** At most three observed Artifacts with this name: enough for a hint, never N×M work. */
  sameName(name: JsonValue | undefined): { shown: readonly A2AArtifact[]; total: number } {
    const list = typeof name === "string" ? (this.byName.get(name) ?? []) : [];
    return { shown: list.slice(0, 3), total: list.length };
  }
}

/** Whether the observed Task itself carries a bundle in its metadata (a located inline bundle of no Artifact). */
function carriesBundleInline(ctx: EvidenceContext): boolean {
  return ctx.bundles.some((b) => b.carrier === "inline" && b.artifact === undefined);
}

function artifactChecks(
  payload: JsonObject,
  task: A2ATask,
  evidenceArtifacts: ReadonlySet<A2AArtifact>,
  bundleInline: boolean,
  rules: PartsRules,
): Check[] {
  const claimedList = member(payload, "nonEvidenceArtifacts");
  if (!Array.isArray(claimedList)) {
    return [check("artifact.binding", "FAIL", "taskEvidencePayload.nonEvidenceArtifacts is not an array")];
  }
  const all = task.artifacts ?? [];
  const checks: Check[] = [];
  const repeated = indexBy(all, (a) => a.artifactId).repeated;
  checks.push(
    repeated.length === 0
      ? check("artifacts.unambiguous", "PASS", `the ${all.length} observed artifact(s) have distinct artifactIds`)
      : check(
          "artifacts.unambiguous",
          "FAIL",
          `the observed Task has several artifacts with artifactId ${listCapped(repeated.map((r) => showValue(r)))}: the observation cannot be matched to the commitment unambiguously`,
        ),
  );
  if (task.artifacts === undefined && claimedList.length > 0) {
    checks.push(
      check(
        "artifact.binding",
        "INCONCLUSIVE",
        `the payload commits to ${claimedList.length} artifact(s) but the observed Task carries no artifacts member (not requested or not returned)`,
      ),
    );
    return checks;
  }
  // No artifacts member means "none" only where ProtoJSON omitted an empty list from a Task
  // returned whole, its evidence in its metadata. Elsewhere (the bundle in a capture, a file, an
  // Artifact) the member is missing because the artifacts were not requested or not returned
  // (a2a-wire.md §1.8): an empty commitment list is then compared with nothing.
  if (task.artifacts === undefined && !bundleInline) {
    checks.push(
      check(
        "artifacts.coverage",
        "INCONCLUSIVE",
        "the observed Task carries no artifacts member and no bundle in its metadata: its artifacts were not observed (not requested or not returned), so none is known to be committed",
      ),
    );
    return checks;
  }
  const observed = new ObservedArtifacts(all.filter((a) => !evidenceArtifacts.has(a)));
  const claimedIds = new Set<string>();
  claimedList.forEach((entry, i) => {
    const subject = `nonEvidenceArtifacts[${i}]`;
    if (isJsonObject(entry)) checks.push(...artifactCheck(entry, subject, observed, claimedIds, rules));
    else checks.push(check("artifact.binding", "FAIL", "entry is not an object", { subject }));
  });
  const uncovered = observed.content.filter((a) => !claimedIds.has(a.artifactId));
  checks.push(
    uncovered.length === 0
      ? check(
          "artifacts.coverage",
          "PASS",
          `every observed content artifact (${observed.content.length}) is committed in the payload`,
        )
      : check(
          "artifacts.coverage",
          "FAIL",
          `observed artifact(s) not committed in the payload: ${listCapped(uncovered.map((a) => `${a.artifactId}${a.name !== undefined ? ` (name ${showValue(a.name)})` : ""}`))}`,
        ),
  );
  return checks;
}

const ARTIFACT_MEMBERS = ["artifactId", "name", "contentCommitment"] as const;

function artifactCheck(
  entry: JsonObject,
  subject: string,
  observed: ObservedArtifacts,
  claimedIds: Set<string>,
  rules: PartsRules,
): Check[] {
  const id = "artifact.binding";
  const missing = ARTIFACT_MEMBERS.filter((m) => !hasMember(entry, m));
  if (missing.length > 0)
    return [
      check(id, "FAIL", `the entry lacks ${missing.join(", ")}: nothing to compare is never a match`, { subject }),
    ];
  const artifactId = member(entry, "artifactId");
  const name = member(entry, "name");
  const commitment = member(entry, "contentCommitment");
  if (typeof artifactId !== "string") return [check(id, "FAIL", "artifactId is not a string", { subject })];
  if (name !== null && typeof name !== "string")
    return [check(id, "FAIL", "name is neither a string nor null", { subject })];
  if (claimedIds.has(artifactId))
    return [check(id, "FAIL", `artifactId ${artifactId} is committed twice`, { subject })];
  claimedIds.add(artifactId);
  const values: Record<string, string> = { artifactId, contentCommitment: valueText(commitment) };
  const match = observed.byId.get(artifactId);
  if (!match) {
    // Artifact identity binds (contract §9.3): a same-named artifact does not stand in for it,
    // but the detail says whether one exists, so a producer defect reads differently from a forgery.
    const same = observed.sameName(name);
    const hint =
      same.total > 0
        ? same.shown
            .map(
              (a) =>
                `; the observed artifact ${a.artifactId} has the same name ${showValue(name)} and its content ${observed.commitment(a).hex === commitment ? "matches" : "does not match"} the commitment`,
            )
            .join("") +
          (same.total > same.shown.length
            ? `; and ${same.total - same.shown.length} more artifacts have that name`
            : "")
        : "; no observed artifact has that name either";
    return [
      check(id, "FAIL", `payload artifactId ${showValue(artifactId)} is not an artifact of the observed Task${hint}`, {
        subject,
        values,
      }),
    ];
  }
  const c = observed.commitment(match);
  values.recomputed = c.hex;
  if (!sameString(name, match.name)) {
    return [
      check(
        id,
        "FAIL",
        `artifact ${artifactId}: payload name ${showValue(name)} != observed name ${showValue(match.name)}`,
        { subject, values },
      ),
    ];
  }
  if (commitment !== c.hex) {
    return [
      check(
        id,
        "FAIL",
        `artifact ${artifactId}: contentCommitment ${showValue(commitment)} != SHA-256 of the observed text ${c.hex}`,
        { subject, values },
      ),
    ];
  }
  const what = `artifact ${artifactId}`;
  const perPart = { present: hasMember(entry, "partCommitments"), partCommitments: member(entry, "partCommitments") };
  if (perPart.present || rules.requireAll) {
    return [
      check(id, "PASS", `${what}: its text matches the commitment ${c.hex}; its parts are compared one by one`, {
        subject,
        values,
      }),
      ...partsChecks(perPart, match.parts, what, subject, rules, check),
    ];
  }
  if (c.otherParts > 0) {
    return [
      check(
        id,
        "INCONCLUSIVE",
        `${what}: its text matches the commitment ${c.hex}, but it has ${uncoveredParts(c.otherParts)} (${uncommittedKinds(match.parts)})`,
        { subject, values, code: "PART_NOT_COMMITTED" },
      ),
    ];
  }
  return [
    check(
      id,
      "PASS",
      `artifact ${artifactId} content matches its commitment ${c.hex}${splitNotCommitted(c.textParts)}`,
      {
        subject,
        values,
      },
    ),
  ];
}

/** §9.27: several text parts are bound as their joined text; the detail says the split is not. */
function splitNotCommitted(textParts: number): string {
  return textParts > 1
    ? ` (its ${textParts} text parts are bound as their text joined with "\\n": the split into parts is not committed)`
    : "";
}

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

function transcriptChecks(
  payload: JsonObject,
  task: A2ATask,
  firstTask: A2ATask | undefined,
  rules: PartsRules,
): Check[] {
  const transcript = member(payload, "transcript");
  if (!Array.isArray(transcript))
    return [check("transcript.sequence", "FAIL", "taskEvidencePayload.transcript is not an array")];
  const checks: Check[] = [];
  const history = task.history ?? [];
  const { byKey: historyById, repeated } = indexBy(history, (m) => m.messageId);
  checks.push(
    repeated.length === 0
      ? check(
          "transcript.unambiguous",
          "PASS",
          `the ${history.length} observed history message(s) have distinct messageIds`,
        )
      : check(
          "transcript.unambiguous",
          "FAIL",
          `the observed history holds several messages with messageId ${listCapped(repeated.map((r) => showValue(r)))}: the observation cannot be matched to the commitment unambiguously`,
        ),
  );
  const { entries: all, fault } = readTranscript(transcript);
  checks.push(
    fault
      ? check("transcript.sequence", "FAIL", fault)
      : check("transcript.sequence", "PASS", `${transcript.length} transcript entries, sequence contiguous from 0`),
  );
  const entries = all.filter((e): e is MessageEntry => e.kind === "message");
  if (entries.length !== all.length) {
    const observedById = new Map(historyById);
    if (task.statusMessage && !observedById.has(task.statusMessage.messageId))
      observedById.set(task.statusMessage.messageId, task.statusMessage);
    const shownElsewhere = new Map(sameTask(firstTask, task) ? callerShown(firstTask) : []);
    checks.push(...transitionChecks(all, payload, { task, byId: observedById, shownElsewhere }, check));
  }
  const byId = new Map(entries.map((e) => [e.messageId, e]));
  // After the terminal Task's own checks, so a defect of what GetTask shows is reported first.
  const first = sameTask(firstTask, task) ? firstTaskChecks(firstTask, entries, byId, rules) : [];
  const matched = new Set<string>();
  let lastIndex = -1;
  if (history.length === 0 && !task.statusMessage) {
    checks.push(...first);
    // A Task holds at least the Message that created it: a history not shown is not an empty one,
    // and an empty transcript compared with nothing must not read as bound.
    checks.push(
      check(
        "transcript.unobserved",
        "INCONCLUSIVE",
        entries.length > 0
          ? `the observed Task carries no history, so none of the ${entries.length} transcript entries can be compared`
          : "the observed Task carries no history and the transcript no Message entry: none of the Task's Messages (it has at least the one that created it) is compared",
      ),
    );
    return checks;
  }
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
  if (task.statusMessage)
    checks.push(...statusMessageCheck(task.statusMessage, historyById, byId, matched, lastIndex, task, rules));
  checks.push(...first);
  const unobserved = entries.filter((e) => !matched.has(e.messageId));
  if (unobserved.length > 0) {
    checks.push(
      check(
        "transcript.unobserved",
        "INCONCLUSIVE",
        `transcript entries not in the observed history (history may be truncated): ${listCapped(unobserved.map((e) => `transcript[${e.index}] ${e.messageId}`))}`,
      ),
    );
  } else {
    const opening = unshownOpening(history, first.length > 0);
    if (opening) checks.push(check("transcript.unobserved", "INCONCLUSIVE", opening));
  }
  return checks;
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
