/**
 * The terminal payload's citations of interim records (docs/profile.md, v3.2 additions; A2A Task
 * Evidence §8.1.6, §12): `interimEvidence`, one `{evidenceId, sequence}` per interim record, in
 * transcript order, where `sequence` is the transition into the interrupted state it was sealed at.
 *
 *   interim.cited   each citation is well-formed and names a transition into an interrupted state;
 *                   each supplied interim record is cited (a record the caller holds that the
 *                   terminal payload leaves out is a dropped citation: FAIL); a citation whose
 *                   record is not supplied is listed, not verified
 *   interim.prefix  a cited, supplied record is this Task's record at that pause: the same record
 *                   profile and extension version, the same Task,
 *                   authority, tenant and capture policy; sealed in the state that transition
 *                   entered; its transcript is the terminal transcript up to and including that
 *                   transition; every effect it recorded is in the terminal record unchanged, and
 *                   every effect the record of an earlier pause recorded is in it; it cites exactly
 *                   the interim records before it
 *   interim.observed a record given with the paused Task that carried it (--interim) describes that
 *                   Task: its id and context, the state it waits in, every Message of its history
 *                   and its status.message, and every effect (content Artifact) it shows — the
 *                   effects done before the pause are recorded before it — and no effect it does
 *                   not show
 */
import { firstDifference, listCapped, showValue, type Difference } from "../../json/diff.js";
import { asSafeInteger, isJsonObject, jsonEquals, member, type JsonObject, type JsonValue } from "../../json/value.js";
import { sha256HexOfText } from "../../util/bytes.js";
import { textOfParts, type A2AMessage } from "../../input/a2a.js";
import { CAPTURE_POLICY_V2, partsVerdict } from "./parts.js";
import { TRANSITION_KIND } from "../../profile.js";
import type { EvidenceContext } from "../../evidence/context.js";
import type { Check, State } from "./types.js";
import type { CheckExtras } from "./checks.js";
import { interimRecords, type InterimRecord } from "../../evidence/interim.js";
import {
  citationFault,
  effectsOf,
  ownCitations,
  sameCitations,
  stateAt,
  transcriptOf,
  type Citation,
} from "../../evidence/citations.js";
import { foreignIds, uncoveredParts } from "./transcript.js";

type Make = (
  id: "interim.cited" | "interim.prefix" | "interim.observed",
  state: State,
  detail: string,
  extras?: CheckExtras,
) => Check;

/** The members that say whose record it is: an interim record must say the same as the terminal one. */
const SAME_TASK_MEMBERS = ["taskId", "contextId", "authority", "tenantId", "capturePolicyId"] as const;

export function interimCitationChecks(ctx: EvidenceContext, payload: JsonObject, make: Make): Check[] {
  const cited = member(payload, "interimEvidence");
  const records = interimRecords(ctx);
  if (cited === undefined && records.length === 0) return [];
  const checks: Check[] = [];
  const citations: Citation[] = [];
  const citedSoFar = new Set<string>();
  if (cited !== undefined) {
    if (!Array.isArray(cited))
      return [
        make("interim.cited", "FAIL", `taskEvidencePayload.interimEvidence is not an array: ${showValue(cited)}`),
      ];
    const transcript = transcriptOf(payload);
    cited.forEach((c, i) => {
      const subject = `interimEvidence[${i}]`;
      const fault = citationFault(c, transcript, citations, citedSoFar);
      if (fault) checks.push(make("interim.cited", "FAIL", fault, { subject }));
      else {
        const evidenceId = member(c as JsonObject, "evidenceId") as string;
        citedSoFar.add(evidenceId);
        citations.push({ evidenceId, sequence: asSafeInteger(member(c as JsonObject, "sequence")) as number, subject });
      }
    });
  }
  const byId = new Map<string, InterimRecord>();
  for (const r of records) {
    const id = r.evidenceId;
    if (id === undefined) {
      checks.push(
        make("interim.cited", "FAIL", "the supplied interim record carries no evidenceId: nothing can cite it", {
          subject: r.label,
        }),
      );
      continue;
    }
    const seen = byId.get(id);
    if (seen && !jsonEquals(seen.located.bundle, r.located.bundle)) checks.push(twoForms(id, seen, r, make));
    if (!seen) byId.set(id, r);
  }
  const citedIds = new Set(citations.map((c) => c.evidenceId));
  // The latest earlier pause whose record is supplied: its effects were done before this pause too.
  let earlier: InterimRecord | undefined;
  for (const c of citations) {
    const r = byId.get(c.evidenceId);
    const state = stateAt(transcriptOf(payload), c.sequence);
    checks.push(
      r
        ? make(
            "interim.cited",
            "PASS",
            `interim record ${c.evidenceId}, sealed in ${state} at transcript[${c.sequence}], is cited and supplied (${r.located.location})`,
            { subject: c.subject },
          )
        : make(
            "interim.cited",
            "NOT_CHECKED",
            `interim record ${c.evidenceId}, sealed in ${state} at transcript[${c.sequence}], is cited but not supplied: pass it (or the paused Task that carries it) with --interim to verify it`,
            { subject: c.subject },
          ),
    );
    if (r) {
      checks.push(prefixCheck(ctx, payload, citations, c, r, earlier, make));
      earlier = r;
    }
  }
  for (const r of records)
    if (r.located.pausedTask) checks.push(observedCheck(r, transcriptOf(payload), citations, make));
  for (const [id, r] of byId) {
    if (!citedIds.has(id)) {
      checks.push(
        make(
          "interim.cited",
          "FAIL",
          `the supplied interim record ${id} is not cited by the terminal payload: a dropped citation (the record of a pause this Task went through is missing from its terminal record)`,
          {
            subject: r.label,
          },
        ),
      );
    }
  }
  return checks;
}

/**
 * Two supplied bundles with one evidenceId (contract §9.24): an interim record sealed under its
 * own checkpoint and re-issued with a later one (docs/profile.md §3.1) is one record in two forms —
 * the same recomputed evidenceId, the same payload and capsule, other log material. Each form is
 * verified by every property like any supplied record; they are two copies, not a contradiction.
 * Bundles whose payload or capsule differ under one evidenceId are two records claiming one id.
 */
function twoForms(id: string, seen: InterimRecord, r: InterimRecord, make: Make): Check {
  const subject = r.label;
  const where = `${seen.located.location} and ${r.located.location}`;
  const differ = ["taskEvidencePayload", "capsule"].filter(
    (m) => !jsonEquals(member(seen.located.bundle, m), member(r.located.bundle, m)),
  );
  const a = seen.ctx.recomputedEvidenceId;
  const b = r.ctx.recomputedEvidenceId;
  if (differ.length === 0 && a.ok && b.ok && a.value.hex === b.value.hex) {
    return make(
      "interim.cited",
      "PASS",
      `two forms of one interim record ${id} (${where}): the same payload and capsule under other log material (sealed under its own checkpoint and re-issued under a later one); each form is verified`,
      { subject },
    );
  }
  return make(
    "interim.cited",
    "FAIL",
    `two different interim bundles carry evidenceId ${id} (${where}): ${differ.length > 0 ? `their ${differ.join(" and ")} differ` : "their payloads do not recompute to one evidenceId"}, so they are not two copies of one record`,
    { subject },
  );
}

function prefixCheck(
  ctx: EvidenceContext,
  payload: JsonObject,
  citations: readonly Citation[],
  c: Citation,
  r: InterimRecord,
  earlier: InterimRecord | undefined,
  make: Make,
): Check {
  const subject = r.label;
  const fail = (detail: string) => make("interim.prefix", "FAIL", detail, { subject });
  // One Task, one profile: an interim record under another profile would be judged by rules it does not follow.
  for (const m of ["recordProfile", "extensionVersion"]) {
    if (!jsonEquals(member(r.located.bundle, m), member(ctx.bundle, m))) {
      return fail(
        `its ${m} ${showValue(member(r.located.bundle, m))} is not the terminal record's ${showValue(member(ctx.bundle, m))}`,
      );
    }
  }
  const interim = r.ctx.payload;
  if (!interim) return fail("the interim record carries no taskEvidencePayload");
  for (const m of SAME_TASK_MEMBERS) {
    if (!jsonEquals(member(interim, m), member(payload, m))) {
      return fail(
        `its ${m} ${showValue(member(interim, m))} is not the terminal record's ${showValue(member(payload, m))}: the record of ${m === "tenantId" ? "another tenant" : m === "authority" ? "another authority" : m === "capturePolicyId" ? "another capture policy" : "another Task"}`,
      );
    }
  }
  const state = stateAt(transcriptOf(payload), c.sequence);
  if (member(interim, "terminalState") !== state) {
    return fail(
      `it was sealed in ${showValue(member(interim, "terminalState"))}, but the transition at transcript[${c.sequence}] enters ${state}`,
    );
  }
  const mine = transcriptOf(interim);
  const theirs = transcriptOf(payload);
  if (mine.length !== c.sequence + 1) {
    return fail(
      `its transcript has ${mine.length} entries; sealed at transcript[${c.sequence}] it holds exactly the ${c.sequence + 1} entries up to and including that transition`,
    );
  }
  for (let i = 0; i < mine.length; i++) {
    if (!jsonEquals(mine[i], theirs[i])) {
      const d = firstDifference(theirs[i], mine[i]) as Difference;
      return fail(
        `its transcript[${i}] differs from the terminal record's at ${d.path}: ${showValue(d.right)} vs ${showValue(d.left)} — the record of the pause and the end disagree on what happened before it`,
      );
    }
  }
  const finalArtifacts = member(payload, "nonEvidenceArtifacts");
  const byArtifact = new Map<string, JsonValue>();
  for (const a of Array.isArray(finalArtifacts) ? finalArtifacts : []) {
    const id = isJsonObject(a) ? member(a, "artifactId") : undefined;
    if (typeof id === "string" && !byArtifact.has(id)) byArtifact.set(id, a);
  }
  const effects = member(interim, "nonEvidenceArtifacts");
  // A missing member is a FAIL, never a skipped comparison (contract §9.13), as in the terminal record.
  if (!Array.isArray(effects))
    return fail(
      `its nonEvidenceArtifacts ${showValue(effects)} is not an array: the effects done before the pause are not stated`,
    );
  for (const a of effects) {
    const id = isJsonObject(a) ? member(a, "artifactId") : undefined;
    const kept = typeof id === "string" ? byArtifact.get(id) : undefined;
    if (!jsonEquals(kept, a)) {
      return fail(
        `it records artifact ${showValue(id)} as done before the pause, but the terminal record ${kept === undefined ? "does not commit it" : "commits it with other content"}: an effect recorded before the pause is not undone after it`,
      );
    }
  }
  // Effects accumulate: what the record of an earlier pause recorded was done before this pause too.
  const done = effectsOf(interim) as Map<string, JsonValue>;
  for (const [id, a] of effectsOf(earlier?.ctx.payload) ?? []) {
    if (!jsonEquals(done.get(id), a)) {
      return fail(
        `the record of the earlier pause (${earlier?.evidenceId ?? ""}) records artifact ${showValue(id)} as done, but this one ${done.has(id) ? "records it with other content" : "does not"}: an effect done before one pause is done before the next`,
      );
    }
  }
  const before = citations
    .filter((x) => x.sequence < c.sequence)
    .map((x) => ({ evidenceId: x.evidenceId, sequence: x.sequence }));
  const own = member(interim, "interimEvidence");
  const ownList = ownCitations(own);
  const same = sameCitations(ownList, before);
  if (!same)
    return fail(
      `it cites ${showValue(own ?? [])}, not exactly the ${before.length} interim record(s) the terminal record cites before transcript[${c.sequence}]`,
    );
  return make(
    "interim.prefix",
    "PASS",
    `this Task's record at the pause at transcript[${c.sequence}] (${state}): the transcript up to it and ${Array.isArray(effects) ? effects.length : 0} effect(s) recorded there agree with the terminal record`,
    { subject },
  );
}

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
function observedCheck(
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
  if (member(payload, "taskId") !== task.id || (member(payload, "contextId") ?? "") !== (task.contextId ?? "")) {
    return fail(
      `it names Task ${showValue(member(payload, "taskId"))} (context ${showValue(member(payload, "contextId"))}), but came with Task ${task.id} (context ${showValue(task.contextId ?? "")})`,
    );
  }
  if (member(payload, "terminalState") !== task.state) {
    return fail(
      `it was sealed in ${showValue(member(payload, "terminalState"))}, but the Task it came with waits in ${task.state}`,
    );
  }
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
  // Parts no commitment covers: counted, so a match of the text is not read as a match of the content.
  let uncovered = 0;
  const perPart = member(payload, "capturePolicyId") === CAPTURE_POLICY_V2;
  let last = -1;
  let resuming: number | undefined;
  const history = task.history ?? [];
  const sequence = citations.find((c) => c.evidenceId === r.evidenceId)?.sequence;
  for (const [i, m] of history.entries()) {
    const e = byMessage.get(m.messageId);
    const foreign = foreignIds(m, task);
    if (foreign) return fail(`the paused Task's ${foreign}`);
    if (!e && i === history.length - 1) resuming = resumingEntry(m, transcriptOf(payload), terminal, sequence);
    if (resuming !== undefined) {
      uncovered += textOfParts(m.parts).otherParts;
      break;
    }
    if (!e)
      return fail(
        `the paused Task's Message ${m.messageId} is not in the interim record's transcript: what happened before the pause is recorded at the pause (the one Message it may show beyond it is the resuming Message the terminal record commits right after this record's cited pause)`,
      );
    if (e.index < last)
      return fail(`the paused Task's Message ${m.messageId} is out of order in the interim record's transcript`);
    last = e.index;
    const text = textOfParts(m.parts);
    const recomputed = sha256HexOfText(text.text);
    if (member(e.entry, "partCommitment") !== recomputed || member(e.entry, "role") !== m.role) {
      return fail(
        `the paused Task's Message ${m.messageId} is not what the interim record commits at transcript[${e.index}] (role, or partCommitment != ${recomputed})`,
      );
    }
    const parts = partsVerdict(e.entry, m.parts, `the paused Task's Message ${m.messageId}`, perPart);
    if (parts.fault) return fail(parts.fault);
    if (!parts.covered) uncovered += Math.max(1, text.otherParts);
  }
  // The request the paused Task shows is its status.message (the SDKs also append it to history):
  // what the caller was asked at the pause is part of what the record sealed there describes.
  const shown = task.statusMessage;
  const inHistory = shown ? history.find((m) => m.messageId === shown.messageId) : undefined;
  if (shown && inHistory && !jsonEquals(inHistory.json, shown.json)) {
    return fail(
      `the paused Task's status.message has the messageId of ${inHistory.path} but different content: one messageId, two observations`,
    );
  }
  if (shown && !inHistory) {
    const e = byMessage.get(shown.messageId);
    const text = textOfParts(shown.parts);
    const recomputed = sha256HexOfText(text.text);
    if (!e)
      return fail(
        `the paused Task's status.message ${shown.messageId} is not in the interim record's transcript: the request shown at the pause is recorded at the pause`,
      );
    if (e.index < last)
      return fail(
        `the paused Task's status.message ${shown.messageId} is out of order in the interim record's transcript`,
      );
    if (member(e.entry, "partCommitment") !== recomputed || member(e.entry, "role") !== shown.role) {
      return fail(
        `the paused Task's status.message ${shown.messageId} is not what the interim record commits at transcript[${e.index}] (role, or partCommitment != ${recomputed})`,
      );
    }
    const foreign = foreignIds(shown, task);
    if (foreign) return fail(`the paused Task's ${foreign}`);
    const parts = partsVerdict(e.entry, shown.parts, `the paused Task's status.message ${shown.messageId}`, perPart);
    if (parts.fault) return fail(parts.fault);
    if (!parts.covered) uncovered += Math.max(1, text.otherParts);
  }
  const effects = effectsOf(payload) ?? new Map<string, JsonValue>();
  const shownEffects = new Set<string>();
  for (const a of paused.content) {
    shownEffects.add(a.artifactId);
    const text = textOfParts(a.parts);
    const recomputed = sha256HexOfText(text.text);
    const entry = effects.get(a.artifactId);
    const committed = isJsonObject(entry) ? member(entry, "contentCommitment") : undefined;
    if (entry === undefined || committed !== recomputed) {
      return fail(
        entry === undefined
          ? `the paused Task shows artifact ${a.artifactId}, which its interim record does not record: an effect done before the pause is recorded before it`
          : `the paused Task's artifact ${a.artifactId} is not what the interim record commits (${showValue(committed)} != ${recomputed})`,
      );
    }
    // The name is committed too (as taskBinding's artifact.binding compares it); absent is "".
    const name = isJsonObject(entry) ? member(entry, "name") : undefined;
    if ((name === null || name === undefined ? "" : name) !== (a.name ?? "")) {
      return fail(
        `the paused Task's artifact ${a.artifactId} is named ${showValue(a.name ?? "")}, but the interim record commits it as ${showValue(name)}`,
      );
    }
    const parts = partsVerdict(entry, a.parts, `the paused Task's artifact ${a.artifactId}`, perPart);
    if (parts.fault) return fail(parts.fault);
    if (!parts.covered) uncovered += Math.max(1, text.otherParts);
  }
  // The other way too: an effect the record dates before the pause that the paused Task did not
  // show was done later (a re-issued interim record can be sealed after the pause).
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
  const summary = `the paused Task it came with (${task.state}, ${history.length} Message(s), ${paused.content.length} effect(s))`;
  const excepted =
    resuming === undefined
      ? ""
      : `, its last Message ${history.at(-1)?.messageId ?? ""} excepted: that is the resuming Message the terminal record commits at transcript[${resuming}], shown by the server before the state left the pause`;
  if (uncovered > 0)
    return make(
      "interim.observed",
      "INCONCLUSIVE",
      `${summary} matches what it records${excepted}; but it has ${uncoveredParts(uncovered)}`,
      { subject },
    );
  return make("interim.observed", "PASS", `${summary} is what it records${excepted}`, { subject });
}
