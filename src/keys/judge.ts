/**
 * The rules of contract §5.1 for one signature by a key with a window, as the `key.window` check
 * of the property that owns the signature.
 *
 * A signature on the evidence (producer, checkpoint, PEAC) is judged at `E`, the time the signed
 * object provably existed (src/keys/trusted-time.ts):
 *   revokedAt   PASS only if E < revokedAt; otherwise FAIL KEY_REVOKED
 *   validFrom   FAIL KEY_NOT_YET_VALID when E < validFrom; with no E the bound holds
 *   validUntil  PASS if E ≤ validUntil; with no E, or E after it, INCONCLUSIVE KEY_VALIDITY_UNPROVEN
 *
 * A Transparency Service's or witness's own signature is judged at the time it claims (a receipt's
 * `iat`, a cosignature's timestamp) bounded by `--at`. A revoked key's signature counts only when
 * `--at` places it before `revokedAt` — its own timestamp never does — and is otherwise not
 * counted (INCONCLUSIVE, never FAIL).
 */
import type { FailureCode } from "../codes/index.js";
import type { Check, State } from "../check.js";
import { showTime, windowText, windowValues, type KeyWindow } from "../trust/key-window.js";

/** The time a signature is judged at, and where it came from (for the report). */
export interface TimeSource {
  /** The time in whole seconds, rounded down. */
  readonly seconds: bigint;
  /**
   * The time as the caller wrote it, when it lies within the second after `seconds` rather than at
   * it (an --at with a fraction of a second); the report shows it as written.
   */
  readonly withinSecond?: string;
  /** e.g. "cosignature of witness w1 over the checkpoint at mmr_size 7", "--at". */
  readonly source: string;
}

export interface Judgement {
  readonly state: Extract<State, "PASS" | "FAIL" | "INCONCLUSIVE">;
  readonly detail: string;
  readonly code?: FailureCode;
}

/** The earliest of some times (a later --at never replaces an earlier witness time). */
export function earliest(times: readonly (TimeSource | undefined)[]): TimeSource | undefined {
  let best: TimeSource | undefined;
  for (const t of times) if (t !== undefined && (best === undefined || before(t, best))) best = t;
  return best;
}

/** Whether `a` is earlier than `b`: in an earlier second, or at the second `b` is within. */
function before(a: TimeSource, b: TimeSource): boolean {
  return (
    a.seconds < b.seconds || (a.seconds === b.seconds && b.withinSecond !== undefined && a.withinSecond === undefined)
  );
}

/**
 * Whether `e` is after the whole second `bound`. Rounded down, a time within the second after
 * `bound` reads as `bound`; it is after it all the same. (`e < bound` and `e >= bound` are exact
 * on the rounded seconds: no time within a second crosses a whole-second bound.)
 */
function after(e: TimeSource, bound: bigint): boolean {
  return e.seconds > bound || (e.seconds === bound && e.withinSecond !== undefined);
}

/** A time for reports: as the caller wrote it when it is finer than a second. */
export function timeShown(t: TimeSource): string {
  return t.withinSecond ?? showTime(t.seconds);
}

function at(t: TimeSource): string {
  return `${timeShown(t)} (${t.source})`;
}

/** A signature on the evidence, judged at E (contract §5.1). */
export function judgeAt(w: KeyWindow, e: TimeSource | undefined): Judgement {
  if (w.revokedAt !== undefined) {
    if (e === undefined)
      return {
        state: "FAIL",
        code: "KEY_REVOKED",
        detail: `the key is revoked as of ${showTime(w.revokedAt)} and nothing independent shows the object existed before: a compromised key proves nothing by itself`,
      };
    if (e.seconds >= w.revokedAt)
      return {
        state: "FAIL",
        code: "KEY_REVOKED",
        detail: `the key is revoked as of ${showTime(w.revokedAt)}; the earliest proof of existence is ${at(e)}, not before it`,
      };
  }
  if (w.validFrom !== undefined && e !== undefined && e.seconds < w.validFrom)
    return {
      state: "FAIL",
      code: "KEY_NOT_YET_VALID",
      detail: `the object existed at ${at(e)}, before the key became valid at ${showTime(w.validFrom)}`,
    };
  if (w.validUntil !== undefined && (e === undefined || after(e, w.validUntil)))
    return {
      state: "INCONCLUSIVE",
      code: "KEY_VALIDITY_UNPROVEN",
      detail:
        e === undefined
          ? `the key was valid until ${showTime(w.validUntil)} and nothing independent shows when the object was signed`
          : `the key was valid until ${showTime(w.validUntil)}; the earliest proof of existence is ${at(e)}, after it: it may have been signed in time, nothing shows it`,
    };
  return {
    state: "PASS",
    detail:
      e === undefined ? "no proof of time is needed: the window has no end" : `judged at ${at(e)}: within the window`,
  };
}

/**
 * A Transparency Service's or witness's own signature, judged at the time it claims bounded by
 * `--at`. Anything but PASS means the signature is not counted.
 */
export function judgeOwnClaim(
  w: KeyWindow,
  claimed: TimeSource | undefined,
  callerAt: TimeSource | undefined,
): Judgement {
  if (w.revokedAt !== undefined && (callerAt === undefined || callerAt.seconds >= w.revokedAt))
    return {
      state: "INCONCLUSIVE",
      code: "KEY_REVOKED",
      detail: `the key is revoked as of ${showTime(w.revokedAt)}${callerAt === undefined ? " and no --at places this signature before it" : `; --at ${timeShown(callerAt)} is not before it`} (its own timestamp cannot): not counted`,
    };
  const { revokedAt: _handled, ...rest } = w;
  const j = judgeAt(rest, earliest([claimed, callerAt]));
  // Another party's signature outside its own key's window is not counted; it is no finding about the evidence.
  return j.state === "FAIL" ? { ...j, state: "INCONCLUSIVE", detail: `${j.detail}: not counted` } : j;
}

const RANK: Readonly<Record<Judgement["state"], number>> = { FAIL: 2, INCONCLUSIVE: 1, PASS: 0 };

/**
 * One signature by a key the trust file gives several windows (one key pinned in several places):
 * the strictest judgement decides (FAIL over INCONCLUSIVE over PASS; the first of equals), with
 * the window that gave it. Undefined for no window.
 */
export function strictest(
  windows: readonly KeyWindow[],
  judge: (w: KeyWindow) => Judgement,
): { readonly window: KeyWindow; readonly j: Judgement } | undefined {
  let worst: { window: KeyWindow; j: Judgement } | undefined;
  for (const window of windows) {
    const j = judge(window);
    if (worst === undefined || RANK[j.state] > RANK[worst.j.state]) worst = { window, j };
  }
  return worst;
}

/** The `key.window` check for one judged signature. `what` names the signature and its key. */
export function windowCheck(
  what: string,
  w: KeyWindow,
  j: Judgement,
  e: TimeSource | undefined,
  extra: { readonly subject?: string; readonly key: string },
): Check {
  return {
    id: "key.window",
    state: j.state,
    detail: `${what}: key ${windowText(w)}; ${j.detail}`,
    ...(extra.subject !== undefined ? { subject: extra.subject } : {}),
    ...(j.code !== undefined ? { code: j.code } : {}),
    values: {
      key: extra.key,
      ...windowValues(w),
      ...(e !== undefined ? { trustedTime: timeShown(e), timeSource: e.source } : { trustedTime: "none" }),
    },
  };
}
