/**
 * Interim records (A2A Task Evidence §8.1.6; docs/profile.md, v3.2 additions): the records a
 * producer seals when a Task pauses, which the terminal payload cites by evidenceId. When the
 * caller supplies one (a capture's `interimBundles`, or `--interim`), it is verified as a record
 * by the very rules the terminal record is — each by the property that owns the rule:
 *
 *   contentBinding        interim.content     its payload, manifest and capsule commit to each other
 *   producerSignature     interim.signature   the terminal record's producer key signed it
 *   checkpointSignature   interim.checkpoint  its checkpoint is signed by the terminal checkpoint's key
 *   localInclusion        interim.inclusion   it is a leaf under its checkpoint
 *                         interim.log         the same log, an earlier leaf, the same or an earlier
 *                                             checkpoint (consistent with the terminal one)
 *   taskBinding           interim.cited       every supplied record is cited, every citation well-formed
 *                         interim.prefix      it is this Task's record at that pause
 *
 * A check that holds for the terminal record says nothing about an interim one, and the reverse:
 * each property reports both, and a tampered interim record flips only the property that covers
 * what was changed.
 */
import type { EvidenceContext } from "../../evidence/context.js";
import { interimRecords, type InterimRecord } from "../../evidence/interim.js";
import type { Check, PropertyResult, State } from "./types.js";
import type { CheckExtras } from "./checks.js";

type Make<Id extends string> = (id: Id, state: State, detail: string, extras?: CheckExtras) => Check;

/**
 * One check per supplied interim record, stating how a property's own rules judge it: PASS, FAIL,
 * INCONCLUSIVE or NOT_CHECKED as that property decides; NOT_PRESENT becomes FAIL, because a
 * supplied interim record must be a whole record. `extra` adds the cross-record rule of the
 * property, when the record's own result is not already a FAIL.
 */
export function interimChecks<Id extends string>(
  ctx: EvidenceContext,
  id: Id,
  make: Make<Id>,
  run: (record: EvidenceContext) => PropertyResult,
  extra?: (record: InterimRecord) => { state: State; detail: string } | undefined,
): Check[] {
  return interimRecords(ctx).map((r) => {
    const result = ctx.once(`interim ${id} ${r.located.location}`, () => run(r.ctx));
    const subject = r.label;
    if (result.state === "NOT_PRESENT")
      return make(id, "FAIL", `the supplied interim record carries nothing for this property: ${result.detail}`, {
        subject,
      });
    if (result.state !== "FAIL") {
      const more = extra?.(r);
      if (more && more.state !== "PASS") return make(id, more.state, more.detail, { subject });
      if (more && result.state === "PASS") return make(id, "PASS", `${result.detail}; ${more.detail}`, { subject });
    }
    return make(id, result.state, result.detail, { subject });
  });
}

/**
 * A property's result over the terminal record, with its interim checks added. An interim record
 * that FAILs makes the property FAIL (a FAIL is never outvoted), one that is INCONCLUSIVE makes a
 * property that would PASS INCONCLUSIVE; a PASS never raises the terminal record's own state. When
 * the terminal record itself carries nothing for the property (NOT_PRESENT, NOT_CHECKED), an
 * interim record's PASS or INCONCLUSIVE is listed as NOT_CHECKED: it is about the interim record,
 * and must not read as the terminal record's. Without interim records the result is returned as it was.
 */
export function withInterim(result: PropertyResult, extra: readonly Check[]): PropertyResult {
  if (extra.length === 0) return result;
  const idle = result.state === "NOT_PRESENT" || result.state === "NOT_CHECKED";
  const listed = idle
    ? extra.map((c) =>
        c.state === "PASS" || c.state === "INCONCLUSIVE"
          ? {
              ...c,
              state: "NOT_CHECKED" as const,
              detail: `not counted, the terminal record being ${result.state} here (${c.state}: ${c.detail})`,
            }
          : c,
      )
    : extra;
  const checks = [...result.checks, ...listed];
  const failed = listed.find((c) => c.state === "FAIL");
  const inconclusive = listed.find((c) => c.state === "INCONCLUSIVE");
  const worst = failed ?? (result.state === "PASS" || result.state === "INCONCLUSIVE" ? inconclusive : undefined);
  if (result.state === "FAIL" || !worst) return { ...result, checks };
  return { state: worst.state, detail: `${worst.subject ?? ""}: ${worst.detail}`, checks };
}
