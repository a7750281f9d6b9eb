/**
 * The policy stage (contract §6): from one input's property results and levels, the exit code and
 * every reason it is not 0. Renderers print these reasons; they never re-derive them.
 *
 * The default policy answers one question: did a producer the caller trusts sign this record, and
 * is it the record of the Task the caller observed? Exit 0 needs all of:
 *   - the achieved level ≥ the negotiated minimumEvidence when the input shows one, else SIGNED_RECORD
 *     (`--min-evidence LEVEL` replaces this level);
 *   - identityAuthorityBinding PASS (a key the trust file pins signed it);
 *   - taskBinding PASS (the record is of the observed Task);
 *   - every `--require`d property PASS.
 * `--min-evidence NONE` drops the level and both default requirements: then only FAILs and
 * explicit `--require` matter.
 *
 *   1  some property FAILs (tamper, mismatch, forgery), whatever was required
 *   3  nothing FAILs, but a part of the policy does not hold
 *   0  the policy holds
 * Several inputs: the worst of 1 > 2 > 3 > 0 — a FAIL is never hidden behind "could not run".
 */
import { EVIDENCE_LEVELS, levelRank, type EvidenceLevel, type EvidenceLevelOrNone } from "./profile.js";
import { PROPERTY_NAMES, type PropertyName, type Properties } from "./properties/index.js";
import type { EvidenceLevelReport } from "./properties/level.js";

export interface Policy {
  /** Properties that must be PASS, beyond the default two. */
  readonly require?: readonly PropertyName[];
  /**
   * The least evidence level that exits 0. Absent: the negotiated minimum when the input shows
   * one, else SIGNED_RECORD. NONE: no level, and no default requirements.
   */
  readonly minEvidence?: EvidenceLevelOrNone;
  /**
   * `--insecure-accept-uncommitted-parts` (part-commitments.md §5): a required taskBinding that is
   * INCONCLUSIVE only because Parts of a v1 record are uncommitted (`PART_NOT_COMMITTED`) is
   * accepted, and each input says which Parts were. It changes no state and no FAIL.
   */
  readonly acceptUncommittedParts?: boolean;
}

/** The level the default policy asks for when neither the caller nor the input names one. */
export const DEFAULT_MIN_EVIDENCE: EvidenceLevel = "SIGNED_RECORD";

/** Required unless `--min-evidence NONE`: who signed it, and is it the observed Task's record. */
export const DEFAULT_REQUIRED: readonly PropertyName[] = ["identityAuthorityBinding", "taskBinding"];

export type InputExitCode = 0 | 1 | 3;
export type ExitCode = 0 | 1 | 2 | 3;

export interface PolicyDecision {
  readonly exitCode: InputExitCode;
  /** Why the exit code is not 0, one line per unmet part; empty when the policy holds. */
  readonly reasons: readonly string[];
  /** What the caller's explicit opt-ins accepted that would otherwise not hold (for the input's notes). */
  readonly accepted: readonly string[];
}

/** What the policy needs to know about the input besides the property results. */
export interface PolicyFacts {
  /** The trust file pins at least one producer key. */
  readonly producersPinned: boolean;
  /** A trust file was given (it may pin no producer). */
  readonly trustGiven?: boolean;
  /** The input shows (or --task gave) the Task the caller observed. */
  readonly observedTask: boolean;
}

function defaultReason(name: PropertyName, properties: Properties, facts: PolicyFacts): string {
  const r = properties[name];
  if (name === "identityAuthorityBinding" && r.state === "NOT_CHECKED" && !facts.producersPinned) {
    return `no producer key is pinned: anyone could have made this record; ${facts.trustGiven ? "the trust file lists no producers" : "pass --trust with a trust file that pins the producer's key"}`;
  }
  if (name === "taskBinding" && r.state === "NOT_CHECKED" && !facts.observedTask)
    return "no observed Task: pass --task";
  return `${name} is ${r.state}: ${r.detail}`;
}

/** The level to meet and why: the caller's flag, the negotiated minimum, or the default. */
function requiredLevel(policy: Policy, level: EvidenceLevelReport): { level: EvidenceLevelOrNone; source: string } {
  if (policy.minEvidence !== undefined) return { level: policy.minEvidence, source: "--min-evidence" };
  const negotiated = (EVIDENCE_LEVELS as readonly string[]).includes(level.negotiated ?? "")
    ? (level.negotiated as EvidenceLevel)
    : undefined;
  if (negotiated) return { level: negotiated, source: "the negotiated minimumEvidence" };
  return { level: DEFAULT_MIN_EVIDENCE, source: "the default minimum" };
}

export function decidePolicy(
  properties: Properties,
  level: EvidenceLevelReport,
  policy: Policy,
  facts: PolicyFacts,
): PolicyDecision {
  const failing = PROPERTY_NAMES.filter((p) => properties[p].state === "FAIL");
  if (failing.length > 0)
    return { exitCode: 1, reasons: failing.map((p) => `${p} FAIL: ${properties[p].detail}`), accepted: [] };
  const reasons: string[] = [];
  const accepted: string[] = [];
  const acceptable = (p: PropertyName): boolean => {
    const waived = policy.acceptUncommittedParts === true ? uncommittedPartsOnly(p, properties) : undefined;
    if (waived) accepted.push(waived);
    return waived !== undefined;
  };
  const required = requiredLevel(policy, level);
  // levelRank of a name it does not know is NONE's: an untyped caller's typo must not drop the level.
  if (required.level !== "NONE" && !(EVIDENCE_LEVELS as readonly string[]).includes(required.level)) {
    reasons.push(
      `evidence level ${level.achieved} is below ${JSON.stringify(required.level)} (${required.source}): not an evidence level, so nothing meets it`,
    );
  } else if (levelRank(level.achieved) < levelRank(required.level)) {
    reasons.push(`evidence level ${level.achieved} is below ${required.level} (${required.source})`);
  }
  const defaults = policy.minEvidence === "NONE" ? [] : DEFAULT_REQUIRED;
  for (const p of defaults)
    if (properties[p].state !== "PASS" && !acceptable(p)) reasons.push(defaultReason(p, properties, facts));
  for (const p of policy.require ?? []) {
    if (defaults.includes(p)) continue;
    // An untyped caller's typo names no property: nothing meets it (not a crash, not a pass).
    if (!Object.hasOwn(properties, p)) {
      reasons.push(`required ${JSON.stringify(p)} is not a property, so nothing meets it`);
      continue;
    }
    if (properties[p].state !== "PASS" && !acceptable(p))
      reasons.push(`required ${p} is ${properties[p].state}: ${properties[p].detail}`);
  }
  return { exitCode: reasons.length > 0 ? 3 : 0, reasons, accepted };
}

/**
 * The note for a taskBinding that is INCONCLUSIVE only for Parts nothing commits, naming each;
 * undefined for any other property or state (any other doubt is never waived).
 */
function uncommittedPartsOnly(p: PropertyName, properties: Properties): string | undefined {
  const r = properties[p];
  if (p !== "taskBinding" || r.state !== "INCONCLUSIVE") return undefined;
  const doubts = r.checks.filter((c) => c.state === "INCONCLUSIVE");
  if (!doubts.every((c) => c.code === "PART_NOT_COMMITTED")) return undefined;
  const shown = doubts.slice(0, 20).map((c) => c.subject ?? c.id);
  const more = doubts.length > shown.length ? `, and ${doubts.length - shown.length} more` : "";
  return `--insecure-accept-uncommitted-parts: taskBinding is INCONCLUSIVE and accepted as required: Parts nothing commits were accepted uncommitted in ${shown.join(", ")}${more}`;
}

/** The order of exit codes from worst to best (contract §6): a FAIL outranks an input that could not be read. */
export const EXIT_ORDER = [1, 2, 3, 0] as const;

/**
 * Several inputs: the worst of 1 > 2 > 3 > 0. A FAIL is a finding about evidence and is never
 * hidden behind "could not run" (a CI that retries exit 2 would retry a forgery away).
 */
export function combinedExitCode(codes: readonly ExitCode[]): ExitCode {
  return EXIT_ORDER.find((c) => codes.includes(c)) ?? 0;
}
