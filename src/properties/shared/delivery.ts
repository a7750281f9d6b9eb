/** The delivery mode a bundle was delivered by, read from where it was found (a2a-wire.md §6.12). */
import type { LocatedBundle } from "../../input/locate.js";

export function deliveryModeOf(located: LocatedBundle): string | undefined {
  if (located.carrier === "raw" || located.carrier === "data") return "EVIDENCE_ARTIFACT";
  if (located.carrier === "inline") return located.artifact ? "EVIDENCE_ARTIFACT" : "INLINE_METADATA";
  return undefined;
}
