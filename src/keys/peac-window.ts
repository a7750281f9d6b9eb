/**
 * A PEAC issuer key's window (contract §5.1): a receipt carried in the Task is in no log and no
 * witness saw it, so the only independent time that bounds it is `--at`; the receipt's own `iat`
 * is its issuer's claim, reported and never used. `revokedKids` (a kid revoked with no time) stays
 * the receipt verifier's rule.
 */
import type { PinnedPeacIssuer, ReceiptVerdict } from "../peac/receipt.js";
import type { TrustedPeacKey } from "../trust/peac-issuers.js";
import type { Check } from "../check.js";
import { judgeAt, windowCheck } from "./judge.js";
import { callerAt } from "./service-window.js";

/** The `key.window` check of a verified PEAC receipt whose pinned key has a window; undefined otherwise. */
export function peacKeyWindow(
  issuers: ReadonlyMap<string, PinnedPeacIssuer>,
  verdict: ReceiptVerdict,
  options: { readonly at?: string },
  subject: string,
): Check | undefined {
  const iss = verdict.identity?.iss;
  const kid = verdict.claims.kid;
  const pinned = iss === undefined || kid === undefined ? undefined : issuers.get(iss)?.keys.get(kid);
  const key = pinned as Partial<TrustedPeacKey> | undefined;
  if (key?.window === undefined) return undefined;
  const e = callerAt(options);
  return windowCheck(`the receipt's signature by ${iss} kid ${kid}`, key.window, judgeAt(key.window, e), e, {
    subject,
    key: key.hex ?? kid ?? "",
  });
}
