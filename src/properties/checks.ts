/**
 * Building blocks for property modules: named checks, and the one rule that turns checks into a
 * property state (contract §4): FAIL if any check FAILs; otherwise INCONCLUSIVE if any check is
 * INCONCLUSIVE; otherwise PASS if a check ran and passed; otherwise NOT_CHECKED, else NOT_PRESENT.
 */
import type { FailureCode } from "../codes/index.js";
import type { Check, PropertyResult, State } from "../report/model.js";

export interface CheckExtras {
  readonly subject?: string;
  readonly code?: FailureCode;
  readonly values?: Readonly<Record<string, string>>;
}

export function check(id: string, state: State, detail: string, extras: CheckExtras = {}): Check {
  return {
    id,
    state,
    detail,
    ...(extras.subject !== undefined ? { subject: extras.subject } : {}),
    ...(extras.code !== undefined ? { code: extras.code } : {}),
    ...(extras.values !== undefined ? { values: extras.values } : {}),
  };
}

const PRECEDENCE: readonly State[] = ["FAIL", "INCONCLUSIVE", "PASS", "NOT_CHECKED", "NOT_PRESENT"];

export function deriveState(checks: readonly Check[]): State {
  for (const s of PRECEDENCE) if (checks.some((c) => c.state === s)) return s;
  return "NOT_PRESENT";
}

/**
 * The property result for a list of checks. The detail is the first deciding check's detail,
 * prefixed with its subject, except for PASS, where the property's own summary is used.
 */
export function decide(checks: readonly Check[], passDetail: string | (() => string)): PropertyResult {
  const state = deriveState(checks);
  if (state === "PASS") return { state, detail: typeof passDetail === "string" ? passDetail : passDetail(), checks };
  const deciding = checks.find((c) => c.state === state) as Check;
  const detail = deciding.subject ? `${deciding.subject}: ${deciding.detail}` : deciding.detail;
  return { state, detail, checks };
}

/** A property with nothing to check: one check saying why, with the given state. */
export function only(id: string, state: State, detail: string, extras: CheckExtras = {}): PropertyResult {
  return { state, detail, checks: [check(id, state, detail, extras)] };
}
