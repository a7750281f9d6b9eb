/**
 * taskBinding — the payload describes the Task the caller observed (contract §4, §9.3–§9.5;
 * content-binding.md §6, §11).
 *
 * The reference demo takes the "observed" artifact ids from the payload itself, which proves
 * nothing. Here every value is recomputed from the observed Task:
 *   task.id, task.contextId, task.terminalState   payload fields == the observed Task's
 *   task.authority, task.tenant                    only when the caller passes --authority / --tenant
 *                                                  (A2A Tasks carry neither)
 *   artifact.binding (per payload artifact)        its artifactId is an observed non-evidence artifact, the
 *                                                  name matches, contentCommitment == SHA-256 of its text
 *   artifacts.coverage                             every observed non-evidence artifact is in the payload
 *   transcript.sequence                            sequence numbers are 0, 1, 2, … in order
 *   transcript.message (per history message)       present in the transcript, in order, same role,
 *                                                  partCommitment == SHA-256 of its text parts joined by "\n"
 *   transcript.unobserved                          transcript entries the history does not show: INCONCLUSIVE
 *                                                  (A2A does not guarantee complete history)
 */
import { showValue, valueText } from "../json/diff.js";
import { member, isJsonObject, asSafeInteger, type JsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { sha256Hex, utf8 } from "../util/bytes.js";
import { EVIDENCE_ARTIFACT_ID, EVIDENCE_MEDIA_TYPE, EXTENSION_URI, TERMINAL_TASK_STATES } from "../profile.js";
import { textOfParts, type A2AArtifact, type A2ATask } from "../input/a2a.js";
import type { Check, PropertyResult } from "./shared/types.js";
import { checksFor, type IdOf, decide } from "./shared/checks.js";
import type { EvidenceContext } from "./shared/context.js";

export const CHECKS = checksFor(["task.observed", "task.id", "task.contextId", "task.terminalState", "task.authority", "task.tenant", "artifact.binding", "artifacts.coverage", "transcript.sequence", "transcript.message", "transcript.unobserved"]);
const { check, only } = CHECKS;
type CheckId = IdOf<typeof CHECKS>;

export function taskBinding(ctx: EvidenceContext): PropertyResult {
  const payload = ctx.payload;
  if (!payload) return only("task.observed", "NOT_PRESENT", "the bundle carries no taskEvidencePayload");
  const task = ctx.observedTask;
  if (!task) {
    return only(
      "task.observed",
      "NOT_CHECKED",
      "no observed Task: verify a GetTask response or Task, or pass the observed Task with --task",
    );
  }
  const checks: Check[] = [
    fieldCheck("task.id", payload, "taskId", task.id, "Task id"),
    fieldCheck("task.contextId", payload, "contextId", task.contextId, "Task contextId"),
    terminalStateCheck(payload, task),
    optionCheck("task.authority", payload, "authority", ctx.options.authority, "--authority"),
    optionCheck("task.tenant", payload, "tenantId", ctx.options.tenant, "--tenant"),
    ...artifactChecks(payload, task),
    ...transcriptChecks(payload, task),
  ];
  return decide(checks, "payload binds the observed task, terminal state, artifacts and transcript");
}

function fieldCheck(id: CheckId, payload: JsonObject, name: string, observed: string | undefined, what: string): Check {
  const claimed = member(payload, name);
  const values = { payload: valueText(claimed), observed: valueText(observed) };
  if (observed === undefined) return check(id, "NOT_CHECKED", `the observed Task has no ${what}`, { values });
  if (claimed === observed) return check(id, "PASS", `payload ${name} equals the observed ${what} ${observed}`, { values });
  return check(id, "FAIL", `payload ${name} ${showValue(claimed)} != observed ${what} ${showValue(observed)}`, { values });
}

function terminalStateCheck(payload: JsonObject, task: A2ATask): Check {
  const id = "task.terminalState";
  const claimed = member(payload, "terminalState");
  const values = { payload: valueText(claimed), observed: task.state };
  if (!(TERMINAL_TASK_STATES as readonly string[]).includes(task.state)) {
    return check(id, "FAIL", `the observed Task is in ${task.state}, not a terminal state: evidence describes a terminal Task`, { values });
  }
  if (claimed === task.state) return check(id, "PASS", `payload terminalState equals the observed ${task.state}`, { values });
  return check(id, "FAIL", `payload terminalState ${showValue(claimed)} != observed Task state ${task.state}`, { values });
}

function optionCheck(id: CheckId, payload: JsonObject, name: string, expected: string | undefined, flag: string): Check {
  const claimed = member(payload, name);
  if (expected === undefined) {
    return check(id, "NOT_CHECKED", `payload ${name} ${showValue(claimed)} not compared: not observable in A2A; pass ${flag} to compare`);
  }
  const values = { payload: valueText(claimed), expected };
  if (claimed === expected) return check(id, "PASS", `payload ${name} equals ${flag} ${expected}`, { values });
  return check(id, "FAIL", `payload ${name} ${showValue(claimed)} != ${flag} ${showValue(expected)}`, { values });
}

/** An observed artifact is evidence (not content) when any of the three evidence markers is on it. */
function isEvidenceArtifact(a: A2AArtifact): boolean {
  return (
    a.extensions.includes(EXTENSION_URI) ||
    a.parts.some((p) => p.mediaType === EVIDENCE_MEDIA_TYPE) ||
    a.artifactId === EVIDENCE_ARTIFACT_ID
  );
}

function commitmentOf(parts: A2AArtifact["parts"]): { hex: string; note: string } {
  const t = textOfParts(parts);
  const note = t.otherParts > 0 ? ` (${t.otherParts} non-text part(s) are not covered by the commitment)` : "";
  return { hex: sha256Hex(utf8(t.text)), note };
}

function artifactChecks(payload: JsonObject, task: A2ATask): Check[] {
  const claimedList = member(payload, "nonEvidenceArtifacts");
  if (!Array.isArray(claimedList)) {
    return [check("artifact.binding", "FAIL", "taskEvidencePayload.nonEvidenceArtifacts is not an array")];
  }
  if (task.artifacts === undefined && claimedList.length > 0) {
    return [
      check(
        "artifact.binding",
        "INCONCLUSIVE",
        `the payload commits to ${claimedList.length} artifact(s) but the observed Task carries no artifacts member (not requested or not returned)`,
      ),
    ];
  }
  const observed = (task.artifacts ?? []).filter((a) => !isEvidenceArtifact(a));
  const byId = new Map(observed.map((a) => [a.artifactId, a]));
  const claimedIds = new Set<string>();
  const checks: Check[] = [];
  claimedList.forEach((entry, i) => {
    const subject = `nonEvidenceArtifacts[${i}]`;
    if (!isJsonObject(entry)) {
      checks.push(check("artifact.binding", "FAIL", "entry is not an object", { subject }));
      return;
    }
    checks.push(artifactCheck(entry, subject, byId, observed, claimedIds));
  });
  const uncovered = observed.filter((a) => !claimedIds.has(a.artifactId));
  checks.push(
    uncovered.length === 0
      ? check("artifacts.coverage", "PASS", `every observed non-evidence artifact (${observed.length}) is committed in the payload`)
      : check(
          "artifacts.coverage",
          "FAIL",
          `observed artifact(s) not committed in the payload: ${uncovered.map((a) => `${a.artifactId}${a.name !== undefined ? ` (name ${showValue(a.name)})` : ""}`).join(", ")}`,
        ),
  );
  return checks;
}

function artifactCheck(
  entry: JsonObject,
  subject: string,
  byId: ReadonlyMap<string, A2AArtifact>,
  observed: readonly A2AArtifact[],
  claimedIds: Set<string>,
): Check {
  const id = "artifact.binding";
  const artifactId = member(entry, "artifactId");
  const name = member(entry, "name");
  const commitment = member(entry, "contentCommitment");
  if (typeof artifactId !== "string") return check(id, "FAIL", "artifactId is not a string", { subject });
  if (claimedIds.has(artifactId)) return check(id, "FAIL", `artifactId ${artifactId} is committed twice`, { subject });
  claimedIds.add(artifactId);
  const values: Record<string, string> = { artifactId, contentCommitment: valueText(commitment) };
  const match = byId.get(artifactId);
  if (!match) {
    // Artifact identity binds (contract §9.3): a same-named artifact does not stand in for it,
    // but the detail says whether one exists, so a producer defect reads differently from a forgery.
    const sameName = observed.filter((a) => name !== undefined && a.name === name);
    const hint = sameName.length
      ? sameName
          .map((a) => {
            const c = commitmentOf(a.parts);
            return `; the observed artifact ${a.artifactId} has the same name ${showValue(name)} and its content ${c.hex === commitment ? "matches" : "does not match"} the commitment`;
          })
          .join("")
      : "; no observed artifact has that name either";
    return check(id, "FAIL", `payload artifactId ${showValue(artifactId)} is not an artifact of the observed Task${hint}`, { subject, values });
  }
  const c = commitmentOf(match.parts);
  values.recomputed = c.hex;
  if (name !== undefined && name !== (match.name ?? null)) {
    return check(id, "FAIL", `artifact ${artifactId}: payload name ${showValue(name)} != observed name ${showValue(match.name)}`, { subject, values });
  }
  if (commitment !== c.hex) {
    return check(id, "FAIL", `artifact ${artifactId}: contentCommitment ${showValue(commitment)} != SHA-256 of the observed text ${c.hex}${c.note}`, { subject, values });
  }
  return check(id, "PASS", `artifact ${artifactId} content matches its commitment ${c.hex}${c.note}`, { subject, values });
}

function transcriptChecks(payload: JsonObject, task: A2ATask): Check[] {
  const transcript = member(payload, "transcript");
  if (!Array.isArray(transcript)) return [check("transcript.sequence", "FAIL", "taskEvidencePayload.transcript is not an array")];
  const checks: Check[] = [];
  const entries: { messageId: string; role: JsonValue | undefined; partCommitment: JsonValue | undefined; index: number }[] = [];
  let sequenceFault: string | undefined;
  const seen = new Set<string>();
  transcript.forEach((e, i) => {
    const at = joinPath("transcript", i);
    if (!isJsonObject(e)) {
      sequenceFault ??= `${at} is not an object`;
      return;
    }
    if (asSafeInteger(member(e, "sequence")) !== i) sequenceFault ??= `${at}.sequence is ${showValue(member(e, "sequence"))}, expected ${i}`;
    const messageId = member(e, "messageId");
    if (typeof messageId !== "string") {
      sequenceFault ??= `${at}.messageId is not a string`;
      return;
    }
    if (seen.has(messageId)) sequenceFault ??= `${at}: messageId ${messageId} appears twice`;
    seen.add(messageId);
    entries.push({ messageId, role: member(e, "role"), partCommitment: member(e, "partCommitment"), index: i });
  });
  checks.push(
    sequenceFault
      ? check("transcript.sequence", "FAIL", sequenceFault)
      : check("transcript.sequence", "PASS", `${transcript.length} transcript entries, sequence contiguous from 0`),
  );
  const history = task.history ?? [];
  if (history.length === 0) {
    if (entries.length > 0) {
      checks.push(
        check("transcript.unobserved", "INCONCLUSIVE", `the observed Task carries no history, so none of the ${entries.length} transcript entries can be compared`),
      );
    }
    return checks;
  }
  const byId = new Map(entries.map((e) => [e.messageId, e]));
  let lastIndex = -1;
  const matched = new Set<string>();
  for (const m of history) {
    const subject = `history message ${m.messageId}`;
    const entry = byId.get(m.messageId);
    const t = textOfParts(m.parts);
    const recomputed = sha256Hex(utf8(t.text));
    const values: Record<string, string> = { recomputed };
    if (!entry) {
      checks.push(check("transcript.message", "FAIL", `message ${m.messageId} (${m.role}) of the observed history is missing from the transcript`, { subject, values }));
      continue;
    }
    matched.add(m.messageId);
    values.partCommitment = valueText(entry.partCommitment);
    if (entry.index < lastIndex) {
      checks.push(check("transcript.message", "FAIL", `message ${m.messageId} is out of order: transcript[${entry.index}] comes before an earlier history message`, { subject, values }));
      continue;
    }
    lastIndex = entry.index;
    if (entry.role !== m.role) {
      checks.push(check("transcript.message", "FAIL", `message ${m.messageId}: transcript role ${showValue(entry.role)} != observed role ${m.role}`, { subject, values }));
    } else if (entry.partCommitment !== recomputed) {
      checks.push(
        check("transcript.message", "FAIL", `message ${m.messageId}: partCommitment ${showValue(entry.partCommitment)} != SHA-256 of its text ${recomputed}`, { subject, values }),
      );
    } else {
      const note = t.otherParts > 0 ? ` (${t.otherParts} non-text part(s) not covered)` : "";
      checks.push(check("transcript.message", "PASS", `message ${m.messageId} (${m.role}) at transcript[${entry.index}] matches ${recomputed}${note}`, { subject, values }));
    }
  }
  const unobserved = entries.filter((e) => !matched.has(e.messageId));
  if (unobserved.length > 0) {
    checks.push(
      check(
        "transcript.unobserved",
        "INCONCLUSIVE",
        `transcript entries not in the observed history (history may be truncated): ${unobserved.map((e) => `transcript[${e.index}] ${e.messageId}`).join(", ")}`,
      ),
    );
  }
  return checks;
}
