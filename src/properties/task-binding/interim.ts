/**
 * interim.cited (docs/profile.md §3.2): the terminal payload's citations read one by one, the
 * supplied interim records indexed by evidenceId, and each cited, supplied record handed to
 * interim.prefix (prefix.ts); each record given with its paused Task to interim.observed
 * (observed.ts).
 */
import { showValue } from "../../json/diff.js";
import { asSafeInteger, jsonEquals, member, type JsonObject, type JsonValue } from "../../json/value.js";
import type { EvidenceContext } from "../../evidence/context.js";
import { equalAsCarried } from "../../evidence/widening.js";
import type { Check } from "../shared/types.js";
import { interimRecords, type InterimRecord } from "../../evidence/interim.js";
import { citationFault, stateAt, transcriptOf, type Citation, type Make } from "./citations.js";
import { prefixCheck } from "./prefix.js";
import { observedCheck } from "./observed.js";

export function interimCitationChecks(ctx: EvidenceContext, payload: JsonObject, make: Make): Check[] {
  const cited = member(payload, "interimEvidence");
  const records = interimRecords(ctx);
  if (cited === undefined && records.length === 0) return [];
  if (cited !== undefined && !Array.isArray(cited))
    return [make("interim.cited", "FAIL", `taskEvidencePayload.interimEvidence is not an array: ${showValue(cited)}`)];
  const checks: Check[] = [];
  const citations = cited === undefined ? [] : readCitations(cited, transcriptOf(payload), make, checks);
  const byId = recordsById(records, make, checks);
  checks.push(...citedChecks(ctx, payload, citations, byId, make));
  for (const r of records)
    if (r.located.pausedTask) checks.push(observedCheck(r, transcriptOf(payload), citations, make));
  checks.push(...uncitedChecks(byId, citations, make));
  return checks;
}

/** The well-formed citations, in order; a FAIL in `checks` for each one that is not. */
function readCitations(
  cited: readonly JsonValue[],
  transcript: readonly JsonValue[],
  make: Make,
  checks: Check[],
): Citation[] {
  const citations: Citation[] = [];
  const citedSoFar = new Set<string>();
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
  return citations;
}

/** The supplied records by evidenceId (the first of each); a record without one, or two forms of one, said in `checks`. */
function recordsById(records: readonly InterimRecord[], make: Make, checks: Check[]): Map<string, InterimRecord> {
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
  return byId;
}

/** Each citation: supplied (then its record is this Task's at that pause) or listed as not supplied. */
function citedChecks(
  ctx: EvidenceContext,
  payload: JsonObject,
  citations: readonly Citation[],
  byId: ReadonlyMap<string, InterimRecord>,
  make: Make,
): Check[] {
  const checks: Check[] = [];
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
  return checks;
}

/** A supplied record the terminal payload does not cite: a dropped citation. */
function uncitedChecks(byId: ReadonlyMap<string, InterimRecord>, citations: readonly Citation[], make: Make): Check[] {
  const citedIds = new Set(citations.map((c) => c.evidenceId));
  const checks: Check[] = [];
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
 * A copy that came through a structured carrier (a `data` part, metadata: a protobuf Struct, on
 * any binding) has had its numbers passed through doubles (`2` printed `2.0`, contract §9.1), so
 * where either copy did, numbers are compared by the double they carry, as `bundle.copiesAgree`
 * compares the copies of one bundle; bytes carried exactly are compared as written. Bundles whose
 * payload or capsule differ under one evidenceId are two records claiming one id.
 */
function twoForms(id: string, seen: InterimRecord, r: InterimRecord, make: Make): Check {
  const subject = r.label;
  const where = `${seen.located.location} and ${r.located.location}`;
  const byValue = seen.ctx.structuredCarrier || r.ctx.structuredCarrier;
  const same = (x: JsonValue | undefined, y: JsonValue | undefined): boolean =>
    jsonEquals(x, y) || (byValue && equalAsCarried(x, y));
  const committed = ["taskEvidencePayload", "capsule"];
  const asWritten = committed.every((m) => jsonEquals(member(seen.located.bundle, m), member(r.located.bundle, m)));
  const differ = asWritten
    ? []
    : committed.filter((m) => !same(member(seen.located.bundle, m), member(r.located.bundle, m)));
  const a = seen.ctx.recomputedEvidenceId;
  const b = r.ctx.recomputedEvidenceId;
  // Spellings apart, equal payloads recompute to one evidenceId: the widened one only when narrowed.
  if (differ.length === 0 && a.ok && b.ok && (a.value.hex === b.value.hex || !asWritten)) {
    return make(
      "interim.cited",
      "PASS",
      `two forms of one interim record ${id} (${where}): ${oneRecord(seen, r, asWritten)}; each form is verified`,
      { subject },
    );
  }
  const widened = byValue ? " (numbers compared by value, as a structured carrier passes them through doubles)" : "";
  return make(
    "interim.cited",
    "FAIL",
    `two different interim bundles carry evidenceId ${id} (${where}): ${differ.length > 0 ? `their ${differ.join(" and ")} differ${widened}` : "their payloads do not recompute to one evidenceId"}, so they are not two copies of one record`,
    { subject },
  );
}

/** How two forms are one record: the same payload and capsule as written or by value, and other log material or none. */
function oneRecord(seen: InterimRecord, r: InterimRecord, asWritten: boolean): string {
  const reissued = "under other log material (sealed under its own checkpoint and re-issued under a later one)";
  if (asWritten) return `the same payload and capsule ${reissued}`;
  const byValue = "equal by value (a structured carrier passes them through doubles)";
  return equalAsCarried(seen.located.bundle, r.located.bundle)
    ? `one bundle, its numbers ${byValue}`
    : `the same payload and capsule, their numbers ${byValue}, ${reissued}`;
}
