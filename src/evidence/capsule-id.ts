/**
 * The capsule's identity as the record presents it (content-binding.md §7; AAC check 2): the
 * capsule_id recomputed from the presented capsule beside the carried one, and — for a structured
 * carrier that widened numbers to doubles — the narrowing under which it still holds (contract
 * §9.17). Read once per input; producerSignature judges it, inspect shows the id the Producer
 * Envelope is checked against.
 */
import { isJsonObject, member, type JsonObject } from "../json/value.js";
import { checkCarriedCapsuleId, computeCapsuleId } from "../aac/capsule-id.js";
import type { FailureCode } from "../codes/index.js";
import type { EvidenceContext } from "./context.js";
import { findNarrowing } from "./widening.js";

export type CapsuleIdReading =
  /** The recomputed capsule_id equals the carried one. */
  | { readonly kind: "equal"; readonly formatVersion: string; readonly capsuleId: string }
  /** It equals the carried one only with `narrowed` widened numbers narrowed back to integers. */
  | { readonly kind: "widened"; readonly capsuleId: string; readonly narrowed: number }
  /** It does not recompute, and too many widened candidates stop the search. */
  | { readonly kind: "tooMany"; readonly reason: string }
  /** The capsule's format has no recomputation rule here. */
  | { readonly kind: "unsupported"; readonly detail: string; readonly code: FailureCode }
  /** The recomputed id differs from the carried one: `recomputed`, when the capsule has one. */
  | { readonly kind: "changed"; readonly detail: string; readonly code: FailureCode; readonly recomputed?: string }
  /** The id cannot be recomputed at all. */
  | { readonly kind: "unreadable"; readonly detail: string; readonly code: FailureCode; readonly path?: string };

/** The presented capsule's identity, or undefined when the bundle carries no capsule object. */
export function capsuleIdReading(ctx: EvidenceContext): CapsuleIdReading | undefined {
  return ctx.once("capsuleId", () => {
    const capsule = member(ctx.bundle, "capsule");
    return isJsonObject(capsule) ? readCapsuleId(capsule, ctx.structuredCarrier) : undefined;
  });
}

function readCapsuleId(capsule: JsonObject, structured: boolean): CapsuleIdReading {
  const r = checkCarriedCapsuleId(capsule);
  if (!r.ok && structured) {
    // A structured carrier widened the capsule's numbers to doubles; the id may still hold for
    // the capsule as sealed (contract §9.17), which is all that can be said.
    const n = findNarrowing(capsule, (candidate) => checkCarriedCapsuleId(candidate).ok);
    if (n.kind === "match") {
      const again = checkCarriedCapsuleId(n.value);
      return { kind: "widened", capsuleId: again.ok ? again.value.capsuleId : "", narrowed: n.narrowed };
    }
    if (n.kind === "tooMany") return { kind: "tooMany", reason: n.reason };
  }
  if (r.ok) return { kind: "equal", formatVersion: r.value.formatVersion, capsuleId: r.value.capsuleId };
  if (r.code === "AAC_FORMAT_VERSION_UNSUPPORTED") return { kind: "unsupported", detail: r.detail, code: r.code };
  if (r.code === "AAC_CAPSULE_ID_MISMATCH") {
    // The recomputed id is what a valid envelope must sign (the reference verifies against it).
    const recomputed = computeCapsuleId(capsule);
    return {
      kind: "changed",
      detail: r.detail,
      code: r.code,
      ...(recomputed.ok ? { recomputed: recomputed.value.capsuleId } : {}),
    };
  }
  return { kind: "unreadable", detail: r.detail, code: r.code, ...(r.path !== undefined ? { path: r.path } : {}) };
}

/** The id a Producer Envelope must sign, when the capsule's identity gives one. */
export function recomputedCapsuleId(reading: CapsuleIdReading | undefined): string | undefined {
  if (reading === undefined) return undefined;
  switch (reading.kind) {
    case "equal":
    case "widened":
      return reading.capsuleId;
    case "changed":
      return reading.recomputed;
    case "tooMany":
    case "unsupported":
    case "unreadable":
      return undefined;
  }
}
