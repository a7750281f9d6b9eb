/**
 * A continuity witness's key window (contract §5.1): a cosignature is judged at the time it
 * claims, bounded by `--at`; a line under a key outside its window is not counted (`key.window`,
 * INCONCLUSIVE; a revoked key counts only when `--at` is before its revocation). The windows are
 * every one the trust file gives the key material, wherever it pins it: the strictest decides.
 */
import type { TrustConfig, TrustedWitnessKey } from "../trust/config.js";
import type { Check } from "../check.js";
import { earliest, judgeOwnClaim, strictest, windowCheck, type TimeSource } from "./judge.js";
import { keyWindows } from "./pinned.js";

/** The `key.window` check of a verified cosignature whose witness key has a window; undefined otherwise. */
export function witnessKeyWindow(
  trust: TrustConfig | undefined,
  key: TrustedWitnessKey,
  timestamp: bigint,
  callerTime: TimeSource | undefined,
  label: string,
  subject: string,
): Check | undefined {
  const windows = keyWindows(trust, key.publicKeyHex, key);
  if (windows.length === 0) return undefined;
  const claimed = { seconds: timestamp, source: "the cosignature's own timestamp" };
  const worst = strictest(windows, (w) => judgeOwnClaim(w, claimed, callerTime));
  if (worst === undefined) return undefined;
  const c = windowCheck(`${label}'s cosignature`, worst.window, worst.j, earliest([claimed, callerTime]), {
    subject,
    key: key.publicKeyHex,
  });
  return worst.j.state === "PASS" ? c : { ...c, detail: `${c.detail}; not counted` };
}
