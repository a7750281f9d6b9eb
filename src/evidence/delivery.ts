/** The delivery mode a bundle was delivered by, read from where it was found (a2a-wire.md §6.12). */
import type { LocatedBundle } from "../input/locate.js";
import type { EvidenceContext } from "./context.js";

export function deliveryModeOf(located: LocatedBundle): string | undefined {
  if (located.carrier === "raw" || located.carrier === "data") return "EVIDENCE_ARTIFACT";
  if (located.carrier === "inline") return located.artifact ? "EVIDENCE_ARTIFACT" : "INLINE_METADATA";
  return undefined;
}

/**
 * Where the observed Task delivered the bundle: the verified copy when a Task carried it, else the
 * first copy the observed Task carries (a bare bundle's `--task`). Undefined when no Task carried
 * it — then the delivery the references state was not observed.
 */
export function deliveredIn(ctx: EvidenceContext): LocatedBundle | undefined {
  if (deliveryModeOf(ctx.located) !== undefined) return ctx.located;
  return ctx.bundles.find((b) => deliveryModeOf(b) !== undefined);
}
