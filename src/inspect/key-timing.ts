/**
 * What `inspect` says of a key over time (contract §5.1): the window a trust-file entry gives the
 * key, and the trusted time its signature is judged at — the same times the `key.window` checks of
 * `verify` use, so the explanation never contradicts the report.
 */
import type { KeyMatch } from "./model.js";
import type { EvidenceContext } from "../evidence/context.js";
import { windowText, type KeyWindow } from "../trust/key-window.js";
import { timeShown, type TimeSource } from "../keys/judge.js";
import { hasWindows, keyWindows, pinnedProducerWindows } from "../keys/pinned.js";
import { checkpointTime, priorCheckpointTime, recordTime } from "../keys/trusted-time.js";
import { callerAt } from "../keys/service-window.js";

function judged(t: TimeSource | undefined): string {
  return t === undefined
    ? "no trusted time (no independent witness or service time, no --at)"
    : `${timeShown(t)} (${t.source})`;
}

/** Every window the trust file gives the key, wherever it pins it (the strictest decides in verify). */
function windows(list: readonly KeyWindow[]): string | undefined {
  const texts = list.map(windowText);
  return texts.length > 0 ? texts.join("; ") : undefined;
}

/** The time a producer-key role's signature is judged at. */
function producerRoleTime(ctx: EvidenceContext, role: string): TimeSource | undefined {
  if (role.startsWith("the prior checkpoint's")) return priorCheckpointTime(ctx);
  if (role.startsWith("the checkpoint's")) return checkpointTime(ctx);
  return recordTime(ctx);
}

/**
 * How a Transparency Service's or witness's own signature is judged: at the time it claims,
 * bounded by --at (named when given).
 */
function ownClaimTime(ctx: EvidenceContext, claimed: string): string {
  const at = callerAt(ctx.options);
  const bound = at === undefined ? "--at" : `--at ${timeShown(at)}`;
  return `${claimed}, bounded by ${bound} (a revoked key counts only with --at before revokedAt)`;
}

/**
 * The key match with its window and the time it is judged at, when the trust file pins it with a
 * window; the match as it was otherwise. Roles are `keysSection`'s.
 */
export function withKeyTiming(ctx: EvidenceContext, k: KeyMatch): KeyMatch {
  if (!hasWindows(ctx.trust) || k.matches.length === 0) return k;
  if (k.role.startsWith("Transparency Service ")) {
    const service = ctx.trust?.transparencyServices.get(k.role.slice("Transparency Service ".length));
    const window = windows(
      (service?.keys ?? [])
        .filter((x) => k.matches.includes(x.path))
        .flatMap((x) => keyWindows(ctx.trust, x.key.fingerprint, service)),
    );
    return window === undefined
      ? k
      : {
          ...k,
          window,
          judgedAt: ownClaimTime(ctx, "the receipt's own signed iat"),
        };
  }
  if (k.role.startsWith("witness ")) {
    const keys = (ctx.trust?.witnesses ?? []).flatMap((w) => w.keys.filter((x) => k.matches.includes(x.path)));
    const window = windows(keys.flatMap((x) => keyWindows(ctx.trust, x.publicKeyHex, x)));
    return window === undefined
      ? k
      : {
          ...k,
          window,
          judgedAt: ownClaimTime(ctx, "each cosignature's own timestamp"),
        };
  }
  const window = windows(pinnedProducerWindows(ctx, k.key));
  return window === undefined ? k : { ...k, window, judgedAt: judged(producerRoleTime(ctx, k.role)) };
}
