/**
 * interim.prefix (docs/profile.md §3): a cited, supplied interim record is this Task's record at
 * that pause — the same record profile and extension version, the same Task, authority, tenant and
 * capture policy; sealed in the state its transition entered; its transcript the terminal one up
 * to that transition; its effects kept, the earlier pauses' effects in it; citing exactly the
 * interim records before it.
 */
import { firstDifference, showValue, type Difference } from "../../json/diff.js";
import { isJsonObject, jsonEquals, member, type JsonObject, type JsonValue } from "../../json/value.js";
import type { EvidenceContext } from "../../evidence/context.js";
import type { Check } from "../shared/types.js";
import type { InterimRecord } from "../../evidence/interim.js";
import {
  effectsOf,
  ownCitations,
  sameCitations,
  SAME_TASK_MEMBERS,
  stateAt,
  transcriptOf,
  type Citation,
  type Make,
} from "./citations.js";

export function prefixCheck(
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
  const profile = profileFault(ctx, r);
  if (profile) return fail(profile);
  const interim = r.ctx.payload;
  if (!interim) return fail("the interim record carries no taskEvidencePayload");
  const fault =
    taskFault(interim, payload, c) ?? effectsFault(interim, payload, earlier) ?? citationsFault(interim, citations, c);
  if (fault) return fail(fault);
  const state = stateAt(transcriptOf(payload), c.sequence);
  const effects = member(interim, "nonEvidenceArtifacts");
  return make(
    "interim.prefix",
    "PASS",
    `this Task's record at the pause at transcript[${c.sequence}] (${state}): the transcript up to it and ${Array.isArray(effects) ? effects.length : 0} effect(s) recorded there agree with the terminal record`,
    { subject },
  );
}

/** One Task, one profile: an interim record under another profile would be judged by rules it does not follow. */
function profileFault(ctx: EvidenceContext, r: InterimRecord): string | undefined {
  for (const m of ["recordProfile", "extensionVersion"]) {
    if (!jsonEquals(member(r.located.bundle, m), member(ctx.bundle, m))) {
      return `its ${m} ${showValue(member(r.located.bundle, m))} is not the terminal record's ${showValue(member(ctx.bundle, m))}`;
    }
  }
  return undefined;
}

/** The same Task, sealed in the state the cited transition entered, its transcript the terminal one's prefix. */
function taskFault(interim: JsonObject, payload: JsonObject, c: Citation): string | undefined {
  for (const m of SAME_TASK_MEMBERS) {
    if (!jsonEquals(member(interim, m), member(payload, m))) {
      return `its ${m} ${showValue(member(interim, m))} is not the terminal record's ${showValue(member(payload, m))}: the record of ${m === "tenantId" ? "another tenant" : m === "authority" ? "another authority" : m === "capturePolicyId" ? "another capture policy" : "another Task"}`;
    }
  }
  const state = stateAt(transcriptOf(payload), c.sequence);
  if (member(interim, "terminalState") !== state) {
    return `it was sealed in ${showValue(member(interim, "terminalState"))}, but the transition at transcript[${c.sequence}] enters ${state}`;
  }
  const mine = transcriptOf(interim);
  const theirs = transcriptOf(payload);
  if (mine.length !== c.sequence + 1) {
    return `its transcript has ${mine.length} entries; sealed at transcript[${c.sequence}] it holds exactly the ${c.sequence + 1} entries up to and including that transition`;
  }
  for (let i = 0; i < mine.length; i++) {
    if (!jsonEquals(mine[i], theirs[i])) {
      const d = firstDifference(theirs[i], mine[i]) as Difference;
      return `its transcript[${i}] differs from the terminal record's at ${d.path}: ${showValue(d.right)} vs ${showValue(d.left)} — the record of the pause and the end disagree on what happened before it`;
    }
  }
  return undefined;
}

/** Every effect the record dates before the pause is in the terminal record unchanged, and the earlier pause's are in it. */
function effectsFault(
  interim: JsonObject,
  payload: JsonObject,
  earlier: InterimRecord | undefined,
): string | undefined {
  const finalArtifacts = member(payload, "nonEvidenceArtifacts");
  const byArtifact = new Map<string, JsonValue>();
  for (const a of Array.isArray(finalArtifacts) ? finalArtifacts : []) {
    const id = isJsonObject(a) ? member(a, "artifactId") : undefined;
    if (typeof id === "string" && !byArtifact.has(id)) byArtifact.set(id, a);
  }
  const effects = member(interim, "nonEvidenceArtifacts");
  // A missing member is a FAIL, never a skipped comparison (contract §9.13), as in the terminal record.
  if (!Array.isArray(effects))
    return `its nonEvidenceArtifacts ${showValue(effects)} is not an array: the effects done before the pause are not stated`;
  for (const a of effects) {
    const id = isJsonObject(a) ? member(a, "artifactId") : undefined;
    const kept = typeof id === "string" ? byArtifact.get(id) : undefined;
    if (!jsonEquals(kept, a)) {
      return `it records artifact ${showValue(id)} as done before the pause, but the terminal record ${kept === undefined ? "does not commit it" : "commits it with other content"}: an effect recorded before the pause is not undone after it`;
    }
  }
  // Effects accumulate: what the record of an earlier pause recorded was done before this pause too.
  const done = effectsOf(interim) as Map<string, JsonValue>;
  for (const [id, a] of effectsOf(earlier?.ctx.payload) ?? []) {
    if (!jsonEquals(done.get(id), a)) {
      return `the record of the earlier pause (${earlier?.evidenceId ?? ""}) records artifact ${showValue(id)} as done, but this one ${done.has(id) ? "records it with other content" : "does not"}: an effect done before one pause is done before the next`;
    }
  }
  return undefined;
}

/** It cites exactly the interim records the terminal record cites before its own pause. */
function citationsFault(interim: JsonObject, citations: readonly Citation[], c: Citation): string | undefined {
  const before = citations
    .filter((x) => x.sequence < c.sequence)
    .map((x) => ({ evidenceId: x.evidenceId, sequence: x.sequence }));
  const own = member(interim, "interimEvidence");
  const ownList = ownCitations(own);
  const same = sameCitations(ownList, before);
  if (!same)
    return `it cites ${showValue(own ?? [])}, not exactly the ${before.length} interim record(s) the terminal record cites before transcript[${c.sequence}]`;
  return undefined;
}
