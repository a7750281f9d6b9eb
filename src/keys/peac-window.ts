/**
 * A PEAC issuer key's window (contract §5.1): a receipt carried in the Task is in no log and no
 * witness saw it, so the only independent time that bounds it is `--at`; the receipt's own `iat`
 * is its issuer's claim, reported and never used. `revokedKids` (a kid revoked with no time) stays
 * the receipt verifier's rule.
 *
 * A JWS names its own `kid`, so whoever holds a compromised key picks the entry its receipt is
 * looked up under: the receipt is judged by every window the trust file gives the key material,
 * under any kid or issuer (or in another role), and the strictest decides.
 */
import type { ReceiptVerdict } from "../peac/receipt.js";
import type { TrustConfig } from "../trust/config.js";
import type { Check } from "../check.js";
import { judgeAt, strictest, windowCheck } from "./judge.js";
import { keyWindows } from "./pinned.js";
import { callerAt } from "./service-window.js";

/** The `key.window` check of a verified PEAC receipt whose pinned key has a window; undefined otherwise. */
export function peacKeyWindow(
  trust: TrustConfig | undefined,
  verdict: ReceiptVerdict,
  options: { readonly at?: string },
  subject: string,
): Check | undefined {
  const iss = verdict.identity?.iss;
  const kid = verdict.claims.kid;
  const key = iss === undefined || kid === undefined ? undefined : trust?.peacIssuers?.get(iss)?.keys.get(kid);
  if (key === undefined) return undefined;
  const e = callerAt(options);
  const worst = strictest(keyWindows(trust, key.hex, key), (w) => judgeAt(w, e));
  if (worst === undefined) return undefined;
  return windowCheck(`the receipt's signature by ${iss} kid ${kid}`, worst.window, worst.j, e, {
    subject,
    key: key.hex,
  });
}
