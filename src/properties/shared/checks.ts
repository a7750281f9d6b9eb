/**
 * Building blocks for property modules: named checks, and the one rule that turns checks into a
 * property state (contract §4): FAIL if any check FAILs; otherwise INCONCLUSIVE if any check is
 * INCONCLUSIVE; otherwise PASS if a check ran and passed; otherwise NOT_CHECKED, else NOT_PRESENT.
 *
 * Each property declares the ids of its checks once (`checksFor([...])`); the builders it gets
 * back accept only those ids, so a typo is a compile error and docs/properties.md can be held to
 * the list by a test.
 */
import type { FailureCode } from "../../codes/index.js";
import type { Check, PropertyResult, State } from "./types.js";

export interface CheckExtras {
  readonly subject?: string;
  readonly code?: FailureCode;
  readonly values?: Readonly<Record<string, string>>;
  readonly operator?: Check["operator"];
}

type Building = { -readonly [K in keyof Check]: Check[K] };

/**
 * A check, its members in the report's order. Built member by member: a bundle makes about sixty
 * checks, most before V8 has optimized this, and a spread of a conditional object costs a copy and
 * a lookup of its shape each.
 */
function makeCheck(id: string, state: State, detail: string, extras?: CheckExtras): Check {
  const c: Building = { id, state, detail };
  if (extras === undefined) return c;
  if (extras.subject !== undefined) c.subject = extras.subject;
  if (extras.code !== undefined) c.code = extras.code;
  if (extras.values !== undefined) c.values = extras.values;
  if (extras.operator !== undefined) c.operator = extras.operator;
  return c;
}

export interface CheckBuilders<Id extends string> {
  /** The property's check ids, in the order its header comment lists them. */
  readonly ids: readonly Id[];
  readonly check: (id: Id, state: State, detail: string, extras?: CheckExtras) => Check;
  /** A property with nothing to check: one check saying why, with the given state. */
  readonly only: (id: Id, state: State, detail: string, extras?: CheckExtras) => PropertyResult;
}

export function checksFor<const Ids extends readonly string[]>(ids: Ids): CheckBuilders<Ids[number]> {
  return {
    ids,
    check: makeCheck,
    only: (id, state, detail, extras) => ({ state, detail, checks: [makeCheck(id, state, detail, extras)] }),
  };
}

const PRECEDENCE: readonly State[] = ["FAIL", "INCONCLUSIVE", "PASS", "NOT_CHECKED", "NOT_PRESENT"];

export function deriveState(checks: readonly Check[]): State {
  // One pass: the rank of the most deciding state seen (PRECEDENCE's order).
  let best = PRECEDENCE.length - 1;
  for (const c of checks) {
    const rank = PRECEDENCE.indexOf(c.state);
    if (rank >= 0 && rank < best) best = rank;
    if (best === 0) break;
  }
  return PRECEDENCE[best] as State;
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

/** The check-id union of a property's builders: `IdOf<typeof CHECKS>`. */
export type IdOf<B> = B extends CheckBuilders<infer Id> ? Id : never;
