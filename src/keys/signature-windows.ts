/**
 * The `key.window` checks of the producer's own signatures (contract §5.1): the record's envelope
 * (producerSignature) judged at the time the record provably existed, the checkpoint's signature
 * (checkpointSignature) at the time the checkpoint did. Each is present only when the key that
 * signed is pinned with a window, so a trust file without windows changes no report.
 */
import type { TrustedKey } from "../trust/config.js";
import type { EvidenceContext } from "../evidence/context.js";
import type { Check } from "../check.js";
import { judgeAt, windowCheck, type Judgement, type TimeSource } from "./judge.js";
import { checkpointTime, recordTime } from "./trusted-time.js";
import { pinnedProducerWindows } from "./pinned.js";

const RANK: Readonly<Record<Judgement["state"], number>> = { FAIL: 2, INCONCLUSIVE: 1, PASS: 0 };

/** The check for a key pinned (perhaps more than once) with windows: the strictest entry decides. */
function strictest(what: string, keys: readonly TrustedKey[], e: TimeSource | undefined, subject?: string): Check {
  const judged = keys.map((k) => ({ k, j: judgeAt(k.window ?? {}, e) }));
  const worst = judged.reduce((a, b) => (RANK[b.j.state] > RANK[a.j.state] ? b : a));
  return windowCheck(what, worst.k.window ?? {}, worst.j, e, {
    key: worst.k.key.ed25519Hex ?? worst.k.key.fingerprint,
    ...(subject !== undefined ? { subject } : {}),
  });
}

/** producerSignature's `key.window`: the capsule's signing key, judged when the record existed. */
export function producerKeyWindow(ctx: EvidenceContext, keyHex: unknown): Check | undefined {
  if (typeof keyHex !== "string") return undefined;
  const keys = pinnedProducerWindows(ctx, keyHex);
  if (keys.length === 0) return undefined;
  return strictest(`the record's producer signature by ${keyHex}`, keys, recordTime(ctx));
}

/** checkpointSignature's `key.window`: the checkpoint's signing key, judged when the checkpoint existed. */
export function checkpointKeyWindow(ctx: EvidenceContext, keyHex: string): Check | undefined {
  const keys = pinnedProducerWindows(ctx, keyHex);
  if (keys.length === 0) return undefined;
  return strictest(`the checkpoint's signature by ${keyHex}`, keys, checkpointTime(ctx));
}
