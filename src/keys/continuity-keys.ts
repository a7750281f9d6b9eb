/**
 * Keys over time in `continuity` (contract §5.1):
 *   - a witness's cosignature (src/keys/witness-window.ts);
 *   - the prior checkpoint's key is judged at the time the prior checkpoint provably existed (the
 *     independent witnesses' cosignatures of it, `--at`): a revoked key FAILs (`key.window`);
 *   - succession: a prior checkpoint and this one signed by two keys pinned for the payload's
 *     authority, with windows that do not run backwards, are one log across a rotation (`chain.key`).
 */
import { member } from "../json/value.js";
import type { Checkpoint } from "../log/checkpoint.js";
import { bytesToHex } from "../util/bytes.js";
import type { EvidenceContext } from "../evidence/context.js";
import type { Check } from "../check.js";
import { earliest } from "./judge.js";
import { producerWindowCheck } from "./signature-windows.js";
import { pinnedProducerWindows } from "./pinned.js";
import { callerAt } from "./service-window.js";
import { witnessTimes } from "./witness-time.js";
import { showTime } from "../trust/key-window.js";

/**
 * The `key.window` check of the prior checkpoint's key (the manifest's checkpoint parses, and so
 * does its prior, `prior`), when it is pinned with a window.
 */
export function priorKeyWindow(ctx: EvidenceContext, prior: Checkpoint): Check | undefined {
  const keyHex = bytesToHex(prior.keyId);
  return producerWindowCheck(
    ctx,
    `the prior checkpoint's signature by ${keyHex}`,
    keyHex,
    () => {
      const at = callerAt(ctx.options);
      return earliest([...witnessTimes(ctx, at).prior, at]);
    },
    "prior checkpoint",
  );
}

/** The least (`sign` -1n) or greatest (1n) of some times, undefined for none. */
function bound(times: readonly (bigint | undefined)[], sign: bigint): bigint | undefined {
  let out: bigint | undefined;
  for (const t of times) if (t !== undefined && (out === undefined || (t - out) * sign > 0n)) out = t;
  return out;
}

/**
 * `chain.key` across a rotation: PASS when the prior and current checkpoint keys differ and both
 * are pinned for the payload's authority, and the current key's window does not end before the
 * prior key's begins (over every window the trust file gives each key); undefined otherwise (the
 * rotation stays unproven).
 */
export function successionCheck(ctx: EvidenceContext, current: Checkpoint, prior: Checkpoint): Check | undefined {
  const priorKey = bytesToHex(prior.keyId);
  const key = bytesToHex(current.keyId);
  const authority = ctx.payload ? member(ctx.payload, "authority") : undefined;
  if (priorKey === key || typeof authority !== "string") return undefined;
  const pinned = ctx.trust?.producers.get(authority) ?? [];
  if (!pinned.some((k) => k.key.ed25519Hex === priorKey) || !pinned.some((k) => k.key.ed25519Hex === key))
    return undefined;
  const values = { priorKey, key, authority };
  // A key pinned with several windows (anywhere in the trust file): its earliest end, the old key's latest start.
  const ends = bound(
    pinnedProducerWindows(ctx, key).map((w) => w.validUntil ?? w.revokedAt),
    -1n,
  );
  const begins = bound(
    pinnedProducerWindows(ctx, priorKey).map((w) => w.validFrom),
    1n,
  );
  if (ends !== undefined && begins !== undefined && ends < begins)
    return {
      id: "chain.key",
      state: "INCONCLUSIVE",
      detail: `the prior checkpoint is signed by ${priorKey}, this one by ${key}, both pinned for ${authority}, but the new key's window ends (${showTime(ends)}) before the old key's begins (${showTime(begins)}): not a succession`,
      code: "CONTINUITY_KEY_ROTATION",
      values,
    };
  return {
    id: "chain.key",
    state: "PASS",
    detail: `the log rotated keys between the prior checkpoint (${priorKey}) and this one (${key}): both are pinned for authority ${authority}, one log across the rotation`,
    values,
  };
}
