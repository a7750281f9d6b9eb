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
import { earliest, judgeAt, windowCheck } from "./judge.js";
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
  const keys = pinnedProducerWindows(ctx, keyHex);
  if (keys.length === 0) return undefined;
  const at = callerAt(ctx.options);
  const e = earliest([...witnessTimes(ctx, at).prior, at]);
  const judged = keys.map((k) => ({ k, j: judgeAt(k.window ?? {}, e) }));
  const worst = judged.find((x) => x.j.state === "FAIL") ?? judged.find((x) => x.j.state !== "PASS") ?? judged[0];
  if (worst === undefined) return undefined;
  return windowCheck(`the prior checkpoint's signature by ${keyHex}`, worst.k.window ?? {}, worst.j, e, {
    subject: "prior checkpoint",
    key: keyHex,
  });
}

/**
 * `chain.key` across a rotation: PASS when the prior and current checkpoint keys differ and both
 * are pinned for the payload's authority, and the current key's window does not end before the
 * prior key's begins; undefined otherwise (the rotation stays unproven).
 */
export function successionCheck(ctx: EvidenceContext, current: Checkpoint, prior: Checkpoint): Check | undefined {
  const priorKey = bytesToHex(prior.keyId);
  const key = bytesToHex(current.keyId);
  const authority = ctx.payload ? member(ctx.payload, "authority") : undefined;
  if (priorKey === key || typeof authority !== "string") return undefined;
  const pinned = ctx.trust?.producers.get(authority) ?? [];
  const priorPin = pinned.find((k) => k.key.ed25519Hex === priorKey);
  const currentPin = pinned.find((k) => k.key.ed25519Hex === key);
  if (priorPin === undefined || currentPin === undefined) return undefined;
  const values = { priorKey, key, authority };
  const ends = currentPin.window?.validUntil ?? currentPin.window?.revokedAt;
  const begins = priorPin.window?.validFrom;
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
