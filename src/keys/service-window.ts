/**
 * A Transparency Service's key window, for `externalRegistration` (contract §5.1): a receipt is
 * judged at the `iat` it claims, bounded by `--at`; a receipt under a key outside its window is
 * not counted (a revoked key: INCONCLUSIVE, never FAIL, unless `--at` places it before revocation).
 */
import { receiptIatOf, type CheckedReceipt } from "../log/receipt.js";
import { verifyReceiptSignature } from "../log/receipt.js";
import type { TrustedKey, TrustedService } from "../trust/config.js";
import { parseRfc3339, withinSecondAfter } from "../witness/time.js";
import type { Check } from "../check.js";
import { judgeOwnClaim, windowCheck, type TimeSource } from "./judge.js";

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
 * The `key.window` check of a receipt that verified under a pinned key of `service`, when that key
 * has a window; undefined otherwise. Anything but PASS: the stamp is not counted.
 */
export function serviceKeyWindow(
  service: TrustedService,
  receipt: CheckedReceipt,
  options: { readonly at?: string },
  subject: string,
): Check | undefined {
  // Without a window on any of the service's keys there is nothing to judge: no second signature check.
  if (!service.keys.some((k) => k.window !== undefined)) return undefined;
  const key = receiptKey(service, receipt);
  if (key?.window === undefined) return undefined;
  const iat = receiptIatOf(receipt);
  const claimed = iat === undefined ? undefined : { seconds: iat, source: `the receipt's own iat` };
  const at = callerAt(options);
  const j = judgeOwnClaim(key.window, claimed, at);
  const e = claimed === undefined ? at : at === undefined || claimed.seconds <= at.seconds ? claimed : at;
  const check = windowCheck(`the receipt's signature by ${service.url}`, key.window, j, e, {
    subject,
    key: key.key.fingerprint,
  });
  return j.state === "PASS" ? check : { ...check, detail: `${check.detail}; the stamp is not counted` };
}
