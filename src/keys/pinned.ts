/**
 * Which pinned keys carry a window (contract §5.1). Without any, no key.window check is made and
 * no trusted time is computed: a trust file without windows gives the reports it always gave.
 *
 * A compromise is the key's, not one entry's: a signature is judged by the windows of the entry
 * it was matched to and by every revocation of the same key material anywhere in the trust file —
 * under any producer authority, Transparency Service URL, witness or PEAC issuer kid — and the
 * strictest decides (judge.ts). Otherwise whoever holds a key revoked in one entry would have its
 * signatures matched to another entry that pins it bare. A planned life (`validFrom`,
 * `validUntil`) stays its entry's: a key handed from one entry to another is not retired by it.
 */
import type { TrustConfig } from "../trust/config.js";
import type { KeyWindow } from "../trust/key-window.js";
import type { EvidenceContext } from "../evidence/context.js";
import { member } from "../json/value.js";

/**
 * A window the trust file gives a key, and the entry that gives it: a producer authority's key
 * list, a Transparency Service, a witness key or a PEAC issuer's key (by object identity).
 */
interface Pinned {
  readonly window: KeyWindow;
  readonly owner: object;
}

const NONE: readonly KeyWindow[] = [];
const indexes = new WeakMap<TrustConfig, ReadonlyMap<string, readonly Pinned[]>>();

/**
 * Every window of every key the trust file pins, by key material: a key's fingerprint (the raw
 * hex of an Ed25519 key, the JWK thumbprint URI of an EC key), in trust-file order. A PEAC kid
 * revoked with `revokedKids` while a key is pinned under it revokes that key with no date (as of
 * the epoch: nothing is ever before it).
 */
function windowIndex(trust: TrustConfig): ReadonlyMap<string, readonly Pinned[]> {
  const known = indexes.get(trust);
  if (known !== undefined) return known;
  const index = new Map<string, Pinned[]>();
  const add = (material: string, window: KeyWindow | undefined, owner: object) => {
    if (window === undefined) return;
    const list = index.get(material);
    if (list === undefined) index.set(material, [{ window, owner }]);
    else list.push({ window, owner });
  };
  for (const keys of trust.producers.values()) for (const k of keys) add(k.key.fingerprint, k.window, keys);
  for (const s of trust.transparencyServices.values()) for (const k of s.keys) add(k.key.fingerprint, k.window, s);
  for (const w of trust.witnesses) for (const k of w.keys) add(k.publicKeyHex, k.window, k);
  for (const i of trust.peacIssuers?.values() ?? []) {
    for (const k of i.keys.values()) add(k.hex, k.window, k);
    for (const kid of i.revokedKids) {
      const k = i.keys.get(kid);
      if (k !== undefined)
        add(k.hex, { revokedAt: 0n, reason: `revokedKids: kid ${JSON.stringify(kid)} of ${i.iss}` }, i);
    }
  }
  indexes.set(trust, index);
  return index;
}

/** Whether any key the trust file pins carries a window: without one, nothing here runs. */
export function hasWindows(trust: TrustConfig | undefined): boolean {
  return trust !== undefined && windowIndex(trust).size > 0;
}

/**
 * The windows a signature by a key is judged by (`material`: its fingerprint, for an Ed25519 key
 * its raw hex); empty when there are none. `own` is the entry the signature was matched to (see
 * `Pinned`): its windows count whole. Every other entry that pins the same key counts with its
 * `revokedAt` only: a compromise is the key's, whichever entry says it, while `validFrom` and
 * `validUntil` are one entry's planned use of the key (contract §5.1: windows that touch are a
 * clean hand-over, from one authority, URL or kid to another). Without `own`, every window whole.
 */
export function keyWindows(trust: TrustConfig | undefined, material: string, own?: object): readonly KeyWindow[] {
  const pinned = trust === undefined ? undefined : windowIndex(trust).get(material);
  if (pinned === undefined) return NONE;
  const out: KeyWindow[] = [];
  for (const p of pinned) {
    if (own === undefined || p.owner === own) out.push(p.window);
    else if (p.window.revokedAt !== undefined)
      out.push({
        revokedAt: p.window.revokedAt,
        ...(p.window.reason !== undefined ? { reason: p.window.reason } : {}),
      });
  }
  return out;
}

/**
 * The windows of a producer key (raw hex): those its payload's authority pins it with, and every
 * other entry's revocation of it. A key its authority does not pin is judged by every window.
 */
export function pinnedProducerWindows(ctx: EvidenceContext, keyHex: string): readonly KeyWindow[] {
  if (!hasWindows(ctx.trust)) return NONE;
  const authority = ctx.payload ? member(ctx.payload, "authority") : undefined;
  const own = typeof authority === "string" ? ctx.trust?.producers.get(authority) : undefined;
  const pinnedHere = own?.some((k) => k.key.fingerprint === keyHex) === true;
  return keyWindows(ctx.trust, keyHex, pinnedHere ? own : undefined);
}
