/**
 * The policy stage (contract §6): from one input's property results and level, the exit code and
 * every reason it is not 0. Renderers print these reasons; they never re-derive them.
 *
 *   1  some property FAILs (tamper, mismatch, forgery), whatever was required
 *   3  nothing FAILs, but a required property is not PASS or the level is below the minimum
 *   0  the policy holds
 * Several inputs: 2 when any could not be read; otherwise the worst of 1 > 3 > 0.
 */
import { levelRank, type EvidenceLevelOrNone } from "./profile.js";
import { PROPERTY_NAMES, type PropertyName, type Properties } from "./properties/index.js";
import type { EvidenceLevelReport } from "./properties/level.js";

export interface Policy {
  /** Properties that must be PASS. */
  readonly require?: readonly PropertyName[];
  /** The least evidence level that exits 0; default SIGNED_RECORD (nothing passes vacuously). */
  readonly minEvidence?: EvidenceLevelOrNone;
}

export const DEFAULT_MIN_EVIDENCE: EvidenceLevelOrNone = "SIGNED_RECORD";

export type InputExitCode = 0 | 1 | 3;
export type ExitCode = 0 | 1 | 2 | 3;

export interface PolicyDecision {
  readonly exitCode: InputExitCode;
  /** Why the exit code is not 0, most decisive first; empty when the policy holds. */
  readonly reasons: readonly string[];
}

export function decidePolicy(properties: Properties, level: EvidenceLevelReport, policy: Policy): PolicyDecision {
  const failing = PROPERTY_NAMES.filter((p) => properties[p].state === "FAIL");
  if (failing.length > 0) return { exitCode: 1, reasons: [`${failing.join(", ")} FAIL`] };
  const reasons: string[] = [];
  const unmet = (policy.require ?? []).filter((p) => properties[p].state !== "PASS");
  if (unmet.length > 0) reasons.push(`required ${unmet.join(", ")} not PASS`);
  const minimum = policy.minEvidence ?? DEFAULT_MIN_EVIDENCE;
  if (levelRank(level.achieved) < levelRank(minimum)) {
    reasons.push(`evidence level ${level.achieved} is below --min-evidence ${minimum}`);
  }
  return { exitCode: reasons.length > 0 ? 3 : 0, reasons };
}

/** Several inputs: 2 when any could not be read; otherwise the worst of 1 > 3 > 0. */
export function combinedExitCode(codes: readonly ExitCode[]): ExitCode {
  if (codes.includes(2)) return 2;
  if (codes.includes(1)) return 1;
  if (codes.includes(3)) return 3;
  return 0;
}
