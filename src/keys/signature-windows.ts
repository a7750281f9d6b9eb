/**
 * The `key.window` checks of the producer's own signatures (contract §5.1): the record's envelope
 * (producerSignature) judged at the time the record provably existed, the checkpoint's signature
 * (checkpointSignature) at the time the checkpoint did. Each is present only when the key that
 * signed is pinned with a window, so a trust file without windows changes no report.
 */
import type { EvidenceContext } from "../evidence/context.js";
import type { Check } from "../check.js";
import { judgeAt, strictest, windowCheck, type TimeSource } from "./judge.js";
import { checkpointTime, recordTime } from "./trusted-time.js";
import { pinnedProducerWindows } from "./pinned.js";

/** The check of a signature by `keyHex`, judged at `e` by the strictest window pinned for the key; undefined for none. */
export function producerWindowCheck(
  ctx: EvidenceContext,
  what: string,
  keyHex: string,
  e: () => TimeSource | undefined,
  subject?: string,
): Check | undefined {
  const windows = pinnedProducerWindows(ctx, keyHex);
  if (windows.length === 0) return undefined;
  const at = e();
  const worst = strictest(windows, (w) => judgeAt(w, at));
  if (worst === undefined) return undefined;
  return windowCheck(what, worst.window, worst.j, at, {
    key: keyHex,
    ...(subject !== undefined ? { subject } : {}),
  });
}

/** producerSignature's `key.window`: the capsule's signing key, judged when the record existed. */
export function producerKeyWindow(ctx: EvidenceContext, keyHex: unknown): Check | undefined {
  if (typeof keyHex !== "string") return undefined;
  return producerWindowCheck(ctx, `the record's producer signature by ${keyHex}`, keyHex, () => recordTime(ctx));
}

/** checkpointSignature's `key.window`: the checkpoint's signing key, judged when the checkpoint existed. */
export function checkpointKeyWindow(ctx: EvidenceContext, keyHex: string): Check | undefined {
  return producerWindowCheck(ctx, `the checkpoint's signature by ${keyHex}`, keyHex, () => checkpointTime(ctx));
}
