/**
 * Which pinned keys carry a window (contract §5.1). Without any, no key.window check is made and
 * no trusted time is computed: a trust file without windows gives the reports it always gave.
 *
 * A window is the key's, not one entry's: a compromise (`revokedAt`) or a retirement is a fact
 * about the key material, so a signature is judged by every window the trust file gives that
 * material — under any producer authority, Transparency Service URL, witness or PEAC issuer kid —
 * and the strictest decides (judge.ts). Otherwise whoever holds a key revoked in one entry would
 * have its signatures matched to another entry that pins it bare.
 */
import type { TrustConfig } from "../trust/config.js";
import type { KeyWindow } from "../trust/key-window.js";
import type { EvidenceContext } from "../evidence/context.js";

const NONE: readonly KeyWindow[] = [];
const indexes = new WeakMap<TrustConfig, ReadonlyMap<string, readonly KeyWindow[]>>();

/**
 * The windows of every key the trust file pins, by key material: a key's fingerprint (the raw
 * hex of an Ed25519 key, the JWK thumbprint URI of an EC key), in trust-file order.
 */
function windowIndex(trust: TrustConfig): ReadonlyMap<string, readonly KeyWindow[]> {
  const known = indexes.get(trust);
  if (known !== undefined) return known;
  const index = new Map<string, KeyWindow[]>();
  const add = (material: string, window: KeyWindow | undefined) => {
    if (window === undefined) return;
    const list = index.get(material);
    if (list === undefined) index.set(material, [window]);
    else list.push(window);
  };
  for (const keys of trust.producers.values()) for (const k of keys) add(k.key.fingerprint, k.window);
  for (const s of trust.transparencyServices.values()) for (const k of s.keys) add(k.key.fingerprint, k.window);
  for (const w of trust.witnesses) for (const k of w.keys) add(k.publicKeyHex, k.window);
  for (const i of trust.peacIssuers?.values() ?? []) for (const k of i.keys.values()) add(k.hex, k.window);
  indexes.set(trust, index);
  return index;
}

/** Whether any key the trust file pins carries a window: without one, nothing here runs. */
export function hasWindows(trust: TrustConfig | undefined): boolean {
  return trust !== undefined && windowIndex(trust).size > 0;
}

/**
 * Every window the trust file gives a key, wherever it is pinned (`material`: its fingerprint, for
 * an Ed25519 key its raw hex); empty when it is pinned nowhere with one.
 */
export function keyWindows(trust: TrustConfig | undefined, material: string): readonly KeyWindow[] {
  return trust === undefined ? NONE : (windowIndex(trust).get(material) ?? NONE);
}

/** The windows of a producer key (raw hex): every entry of the trust file that pins it with one. */
export function pinnedProducerWindows(ctx: EvidenceContext, keyHex: string): readonly KeyWindow[] {
  return keyWindows(ctx.trust, keyHex);
}
