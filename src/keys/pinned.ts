/**
 * Which pinned keys carry a window (contract §5.1). Without any, no key.window check is made and
 * no trusted time is computed: a trust file without windows gives the reports it always gave.
 */
import { member } from "../json/value.js";
import type { TrustConfig, TrustedKey } from "../trust/config.js";
import type { EvidenceContext } from "../evidence/context.js";

const windowed = new WeakMap<TrustConfig, boolean>();

/** Whether any key the trust file pins carries a window: without one, nothing here runs. */
export function hasWindows(trust: TrustConfig | undefined): boolean {
  if (trust === undefined) return false;
  const known = windowed.get(trust);
  if (known !== undefined) return known;
  const any =
    [...trust.producers.values()].some((keys) => keys.some((k) => k.window)) ||
    [...trust.transparencyServices.values()].some((s) => s.keys.some((k) => k.window)) ||
    trust.witnesses.some((w) => w.keys.some((k) => k.window)) ||
    [...(trust.peacIssuers?.values() ?? [])].some((i) => [...i.keys.values()].some((k) => k.window));
  windowed.set(trust, any);
  return any;
}

/**
 * The pinned entries of a producer key (raw hex) that carry a window: those for the payload's
 * authority, or — when the key is not pinned there — wherever else it is pinned (a compromise is
 * the key's, whichever authority lists it).
 */
export function pinnedProducerWindows(ctx: EvidenceContext, keyHex: string): TrustedKey[] {
  if (!hasWindows(ctx.trust)) return [];
  const authority = ctx.payload ? member(ctx.payload, "authority") : undefined;
  const own = typeof authority === "string" ? (ctx.trust?.producers.get(authority) ?? []) : [];
  const matching = (keys: readonly TrustedKey[]) => keys.filter((k) => k.key.ed25519Hex === keyHex);
  const here = matching(own);
  const found = here.length > 0 ? here : [...(ctx.trust?.producers.values() ?? [])].flatMap(matching);
  return found.filter((k) => k.window !== undefined);
}
