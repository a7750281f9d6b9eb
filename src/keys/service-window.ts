/**
 * A Transparency Service's key window, for `externalRegistration` (contract §5.1): a receipt is
 * judged at the `iat` it claims, bounded by `--at`; a receipt under a key outside its window is
 * not counted (a revoked key: INCONCLUSIVE, never FAIL, unless `--at` places it before revocation).
 */
import { receiptIatOf, type CheckedReceipt } from "../log/receipt.js";
import { verifyReceiptSignature } from "../log/receipt.js";
import type { TrustConfig, TrustedKey, TrustedService } from "../trust/config.js";
import type { KeyWindow } from "../trust/key-window.js";
import { parseRfc3339, withinSecondAfter } from "../witness/time.js";
import type { Check } from "../check.js";
import { judgeOwnClaim, strictest, windowCheck, type Judgement, type TimeSource } from "./judge.js";
import { keyWindows } from "./pinned.js";

/** The caller's --at as a time source; undefined without one (or with one that does not parse). */
export function callerAt(options: { readonly at?: string }): TimeSource | undefined {
  if (options.at === undefined) return undefined;
  const r = parseRfc3339(options.at);
  if (!r.ok) return undefined;
  return { seconds: r.value, source: "--at", ...(withinSecondAfter(options.at) ? { withinSecond: options.at } : {}) };
}

/** The pinned key of `service` a receipt verifies under, if any. */
export function receiptKey(service: TrustedService, receipt: CheckedReceipt): TrustedKey | undefined {
  return service.keys.find((k) => verifyReceiptSignature(receipt, k.key).ok);
}

/**
 * A receipt under `key`, judged at the time it claims bounded by `at` by every window the trust
 * file gives that key, wherever it is pinned: the strictest decides. Undefined for no window.
 */
export function judgeReceiptKey(
  trust: TrustConfig | undefined,
  service: TrustedService,
  key: TrustedKey,
  claimed: TimeSource | undefined,
  at: TimeSource | undefined,
): { readonly window: KeyWindow; readonly j: Judgement } | undefined {
  return strictest(keyWindows(trust, key.key.fingerprint, service), (w) => judgeOwnClaim(w, claimed, at));
}

/**
 * The `key.window` check of a receipt that verified under a pinned key of `service`, when that key
 * has a window; undefined otherwise. Anything but PASS: the stamp is not counted.
 */
export function serviceKeyWindow(
  trust: TrustConfig | undefined,
  service: TrustedService,
  receipt: CheckedReceipt,
  options: { readonly at?: string },
  subject: string,
): Check | undefined {
  // Without a window for any of the service's keys, wherever pinned, nothing is judged: no second signature check.
  if (!service.keys.some((k) => keyWindows(trust, k.key.fingerprint, service).length > 0)) return undefined;
  const key = receiptKey(service, receipt);
  if (key === undefined) return undefined;
  const iat = receiptIatOf(receipt);
  const claimed = iat === undefined ? undefined : { seconds: iat, source: `the receipt's own iat` };
  const at = callerAt(options);
  const judged = judgeReceiptKey(trust, service, key, claimed, at);
  if (judged === undefined) return undefined;
  const { window, j } = judged;
  const e = claimed === undefined ? at : at === undefined || claimed.seconds <= at.seconds ? claimed : at;
  const check = windowCheck(`the receipt's signature by ${service.url}`, window, j, e, {
    subject,
    key: key.key.fingerprint,
  });
  return j.state === "PASS" ? check : { ...check, detail: `${check.detail}; the stamp is not counted` };
}
