/**
 * A continuity witness's key window (contract §5.1): a cosignature is judged at the time it
 * claims, bounded by `--at`; a line under a key outside its window is not counted (`key.window`,
 * INCONCLUSIVE; a revoked key counts only when `--at` is before its revocation).
 */
import type { TrustedWitnessKey } from "../trust/config.js";
import type { Check } from "../check.js";
import { earliest, judgeOwnClaim, windowCheck, type TimeSource } from "./judge.js";

/** The `key.window` check of a verified cosignature whose witness key has a window; undefined otherwise. */
export function witnessKeyWindow(
  key: TrustedWitnessKey,
  timestamp: bigint,
  callerTime: TimeSource | undefined,
  label: string,
  subject: string,
): Check | undefined {
  if (key.window === undefined) return undefined;
  const claimed = { seconds: timestamp, source: "the cosignature's own timestamp" };
  const j = judgeOwnClaim(key.window, claimed, callerTime);
  const c = windowCheck(`${label}'s cosignature`, key.window, j, earliest([claimed, callerTime]), {
    subject,
    key: key.publicKeyHex,
  });
  return j.state === "PASS" ? c : { ...c, detail: `${c.detail}; not counted` };
}
