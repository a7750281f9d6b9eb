/**
 * peacReceipts: the PEAC interaction receipts an A2A Task carries (PEAC A2A Receipt Profile,
 * peac-carriers.md §5), each verified offline under the issuer keys the caller's trust file pins.
 *
 * Every carrier is its own check, with its path as subject: a failed carrier is never outvoted by
 * others that pass. The same receipt at several places is verified once and reported at each.
 *
 * What a PASS proves: each receipt was signed by the pinned key of its issuer and is unmodified
 * since. What it does not prove: that the receipt is about this Task — Wire 0.2 claims carry no
 * Task binding — so type, jti, iat and the like are reported as the issuer's claims.
 *
 * This property is not part of the A2A Task Evidence profile and never enters the evidence level.
 */
import { joinPath } from "../json/path.js";
import { isJsonObject, member, type JsonValue } from "../json/value.js";
import type { A2ATask } from "../input/a2a.js";
import { CLOCK_SKEW_SECONDS, PEAC_EXTENSION_URI } from "../peac/constants.js";
import { computeReceiptRef, readCarrier, readPayload } from "../peac/carrier.js";
import { RFC3339_OFFSET_DATETIME } from "../peac/extensions.js";
import { verifyReceipt, type ReceiptVerdict } from "../peac/receipt.js";
import { printable } from "../util/printable.js";
import type { PinnedPeacIssuer } from "../peac/receipt.js";
import type { Check, PropertyResult } from "./shared/types.js";
import { checksFor, decide } from "./shared/checks.js";
import type { EvidenceContext } from "../evidence/context.js";
import { peacKeyWindow } from "../keys/peac-window.js";

export const CHECKS = checksFor([
  "peac.task",
  "peac.carriers",
  "peac.payload",
  "peac.carrier",
  "peac.time",
  "key.window",
]);
const { check, only } = CHECKS;

/**
 * `profile`: a placement the profile names and A2A v1.0 defines (Message, Artifact metadata).
 * `non-standard`: `status.metadata`, where PEAC's attach helper writes but TaskStatus has no field.
 * `non-profile`: `Task.metadata` or a Part's metadata, valid A2A but not a profile placement.
 */
export type Placement = "profile" | "non-standard" | "non-profile";

export interface MetadataHit {
  /** Path of the value under the extension key. */
  readonly path: string;
  readonly placement: Placement;
  readonly value: JsonValue;
}

/**
 * Every metadata map of the Task that has the PEAC extension key, in document order. A holder's
 * path is formatted only for a hit: most Tasks carry no PEAC metadata anywhere.
 */
export function locatePeacMetadata(task: A2ATask): MetadataHit[] {
  const hits: MetadataHit[] = [];
  const look = (metadata: JsonValue | undefined, holder: string, placement: Placement, via?: string): void => {
    if (!isJsonObject(metadata)) return;
    const value = member(metadata, PEAC_EXTENSION_URI);
    if (value === undefined) return;
    const path = via === undefined ? joinPath(holder, "metadata") : joinPath(joinPath(holder, via), "metadata");
    hits.push({ path: joinPath(path, PEAC_EXTENSION_URI), placement, value });
  };
  look(task.statusMetadata, task.path, "non-standard", "status");
  const messages = [...(task.statusMessage ? [task.statusMessage] : []), ...(task.history ?? [])];
  for (const m of messages) {
    look(m.metadata, m.path, "profile");
    for (const p of m.parts) look(p.metadata, p.path, "non-profile");
  }
  for (const a of task.artifacts ?? []) {
    look(a.metadata, a.path, "profile");
    for (const p of a.parts) look(p.metadata, p.path, "non-profile");
  }
  look(task.metadata, task.path, "non-profile");
  return hits;
}

const PLACEMENT_WARNING: Readonly<Record<Placement, string | undefined>> = {
  profile: undefined,
  "non-standard": "non_standard_placement: A2A v1.0 TaskStatus has no metadata field",
  "non-profile": "non_profile_placement: not a placement of the PEAC A2A Receipt Profile",
};

const NO_ISSUERS: ReadonlyMap<string, PinnedPeacIssuer> = new Map();

/** The caller's `at` in Unix seconds; undefined when absent, null when it is not an RFC 3339 time. */
function parseAt(at: string | undefined): number | undefined | null {
  if (at === undefined) return undefined;
  if (!RFC3339_OFFSET_DATETIME.test(at)) return null;
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? null : ms / 1000;
}

interface CarrierOutcome {
  readonly path: string;
  readonly ref?: string;
  readonly verdict?: ReceiptVerdict;
  readonly check: Check;
}

export function peacReceipts(ctx: EvidenceContext): PropertyResult {
  const task = ctx.observedTask;
  if (task === undefined)
    return only(
      "peac.task",
      "NOT_CHECKED",
      "no observed Task: PEAC receipts are carried in the Task's metadata (pass --task)",
    );
  const hits = locatePeacMetadata(task).filter((h) => h.value !== null);
  if (hits.length === 0) return only("peac.carriers", "NOT_PRESENT", "the Task carries no PEAC receipt carrier");

  const issuers = ctx.trust?.peacIssuers ?? NO_ISSUERS;
  const now = parseAt(ctx.options.at);
  const memo = new Map<string, ReceiptVerdict>();
  const verdictOf = (jws: string): ReceiptVerdict => {
    let verdict = memo.get(jws);
    if (verdict === undefined) {
      verdict = verifyReceipt(jws, issuers, now ?? undefined);
      memo.set(jws, verdict);
    }
    return verdict;
  };
  const checks: Check[] = [];
  const outcomes: CarrierOutcome[] = [];
  const windows: Check[] = [];

  for (const hit of hits) {
    const payload = readPayload(hit.value, hit.path);
    if (!payload.ok) {
      checks.push(check("peac.payload", "FAIL", payload.detail, { subject: hit.path, code: "PEAC_PAYLOAD_MALFORMED" }));
      continue;
    }
    const placement = PLACEMENT_WARNING[hit.placement];
    for (const c of payload.value.carriers) {
      const outcome = carrierOutcome(c, payload.value, placement, verdictOf);
      outcomes.push(outcome);
      const verdict = outcome.verdict;
      const window = verdict?.state === "PASS" ? peacKeyWindow(ctx.trust, verdict, ctx.options, c.path) : undefined;
      if (window) windows.push(window);
    }
  }

  checks.push(...duplicateJti(outcomes).map((o) => o.check));
  checks.push(...timeCheck(outcomes, ctx.options.at, now));
  checks.push(...windows);
  const receipts = new Set(outcomes.map((o) => o.ref)).size;
  return decide(
    checks,
    () =>
      `${receipts} PEAC receipt(s) at ${outcomes.length} place(s), each signed by its issuer's pinned key and unmodified; ` +
      "this does not show that they are about this Task (PEAC receipt claims carry no Task binding)",
  );
}

/** One carrier's outcome: read, its receipt_ref recomputed, its receipt verified (once per receipt). */
function carrierOutcome(
  c: { readonly path: string; readonly value: JsonValue },
  payload: Extract<ReturnType<typeof readPayload>, { ok: true }>["value"],
  placement: string | undefined,
  verdictOf: (jws: string) => ReceiptVerdict,
): CarrierOutcome {
  const carrier = readCarrier(c.value, payload.maxSize);
  if (!carrier.ok) {
    return {
      path: c.path,
      check: check("peac.carrier", "FAIL", carrier.detail, { subject: c.path, code: carrier.code }),
    };
  }
  const { receiptRef, receiptJws } = carrier.value;
  const warnings = [...(placement ? [placement] : []), ...payload.metaWarnings, ...carrier.warnings];
  const base = { receipt_ref: receiptRef };
  if (receiptJws === undefined) {
    const detail = "reference only (no receipt_jws): nothing to verify offline, and receipt_url is never fetched";
    return {
      path: c.path,
      ref: receiptRef,
      check: check("peac.carrier", "INCONCLUSIVE", detail, {
        subject: c.path,
        code: "PEAC_REFERENCE_ONLY",
        values: withWarnings(base, warnings),
      }),
    };
  }
  if (payload.format === "reference")
    warnings.push("format_mismatch: meta.format is reference but the carrier embeds receipt_jws");
  const computed = computeReceiptRef(receiptJws);
  if (computed !== receiptRef) {
    const values = withWarnings({ ...base, computed }, warnings);
    return {
      path: c.path,
      ref: receiptRef,
      check: check("peac.carrier", "FAIL", `receipt_ref mismatch: expected ${computed}, got ${receiptRef}`, {
        subject: c.path,
        code: "PEAC_RECEIPT_REF_MISMATCH",
        values,
      }),
    };
  }
  const verdict = verdictOf(receiptJws);
  const values = withWarnings({ ...base, ...verdict.claims }, [...warnings, ...verdict.warnings]);
  return {
    path: c.path,
    ref: receiptRef,
    verdict,
    check: check("peac.carrier", verdict.state, verdict.detail, {
      subject: c.path,
      ...(verdict.code ? { code: verdict.code } : {}),
      values,
    }),
  };
}

function withWarnings(values: Record<string, string>, warnings: readonly string[]): Record<string, string> {
  return warnings.length > 0 ? { ...values, warnings: warnings.join("; ") } : { ...values };
}

/**
 * WIRE-0.2 §20.5: a jti identifies one receipt. Two different verified receipts of one issuer with
 * the same jti are two records claiming one identity — both are reported, neither is trusted.
 * Only verified receipts take part: an unverifiable one cannot make a verified one fail.
 */
function duplicateJti(outcomes: CarrierOutcome[]): CarrierOutcome[] {
  const refsByIdentity = new Map<string, Set<string>>();
  const key = (o: CarrierOutcome): string | undefined =>
    o.verdict?.identity ? JSON.stringify([o.verdict.identity.iss, o.verdict.identity.jti]) : undefined;
  for (const o of outcomes) {
    const k = key(o);
    if (k !== undefined && o.ref !== undefined) refsByIdentity.set(k, (refsByIdentity.get(k) ?? new Set()).add(o.ref));
  }
  return outcomes.map((o) => {
    const k = key(o);
    const refs = k === undefined ? undefined : refsByIdentity.get(k);
    if (refs === undefined || refs.size < 2 || o.verdict?.identity === undefined) return o;
    const { iss, jti } = o.verdict.identity;
    const detail = `jti ${printable(JSON.stringify(jti))} of ${iss} names ${refs.size} different receipts in this Task; a jti identifies one receipt`;
    return {
      ...o,
      check: check("peac.carrier", "FAIL", detail, {
        subject: o.path,
        code: "PEAC_DUPLICATE_JTI",
        ...(o.check.values ? { values: o.check.values } : {}),
      }),
    };
  });
}

/** The time rules are listed even when they did not run, with the reason (contract §4). */
function timeCheck(
  outcomes: readonly CarrierOutcome[],
  at: string | undefined,
  now: number | null | undefined,
): Check[] {
  const reached = outcomes.filter((o) => o.verdict?.state === "PASS" || o.verdict?.timeChecked);
  if (reached.length === 0) return [];
  if (now === null) {
    return [
      check(
        "peac.time",
        "INCONCLUSIVE",
        `the time given (${printable(JSON.stringify(at))}) is not an RFC 3339 date-time with an offset: iat and occurred_at were not checked`,
      ),
    ];
  }
  if (now === undefined) {
    return [
      check(
        "peac.time",
        "NOT_CHECKED",
        `no --at time given: iat and occurred_at (at most ${CLOCK_SKEW_SECONDS} s after that time) were not checked; the times the receipts state are their issuers' claims`,
      ),
    ];
  }
  return [];
}
