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
import type { EvidenceLevelReport } from "./level.js";

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

export interface PolicyDecision extends PolicyTerms {
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

/** What the policy asks of one input: the properties that must be PASS, and the level to meet with its source. */
export interface PolicyTerms {
  /**
   * The properties that must be PASS: the default two (unless `--min-evidence NONE`), then each
   * `--require`d one not among them, in the order given. An untyped caller's name that is no
   * property stays in the list: nothing meets it.
   */
  readonly required: readonly PropertyName[];
  /** The level to meet and why: the caller's flag, the negotiated minimum, or the default. */
  readonly minimum: { readonly level: EvidenceLevelOrNone; readonly source: string };
}

/**
 * The one statement of what the policy requires of an input whose negotiated minimum is
 * `negotiated` (null when it shows none): the verdict below, the renderers and the SDK gate all
 * read it, so none of them works it out again.
 */
export function policyTerms(policy: Policy, negotiated: string | null): PolicyTerms {
  const defaults = policy.minEvidence === "NONE" ? [] : DEFAULT_REQUIRED;
  const required = [...defaults, ...(policy.require ?? []).filter((p) => !defaults.includes(p))];
  if (policy.minEvidence !== undefined)
    return { required, minimum: { level: policy.minEvidence, source: "--min-evidence" } };
  const known = (EVIDENCE_LEVELS as readonly string[]).includes(negotiated ?? "");
  return known
    ? { required, minimum: { level: negotiated as EvidenceLevel, source: "the negotiated minimumEvidence" } }
    : { required, minimum: { level: DEFAULT_MIN_EVIDENCE, source: "the default minimum" } };
}

/** Why the achieved level does not meet the minimum, or undefined when it does. */
function levelReason(achieved: EvidenceLevelOrNone, minimum: PolicyTerms["minimum"]): string | undefined {
  // levelRank of a name it does not know is NONE's: an untyped caller's typo must not drop the level.
  if (minimum.level !== "NONE" && !(EVIDENCE_LEVELS as readonly string[]).includes(minimum.level))
    return `evidence level ${achieved} is below ${JSON.stringify(minimum.level)} (${minimum.source}): not an evidence level, so nothing meets it`;
  if (levelRank(achieved) < levelRank(minimum.level))
    return `evidence level ${achieved} is below ${minimum.level} (${minimum.source})`;
  return undefined;
}

/** Why a required property does not hold, or undefined when it does (or the caller's opt-in accepts it). */
function requiredReason(
  p: PropertyName,
  policy: Policy,
  properties: Properties,
  facts: PolicyFacts,
  accept: (p: PropertyName) => boolean,
): string | undefined {
  const isDefault = policy.minEvidence !== "NONE" && DEFAULT_REQUIRED.includes(p);
  // An untyped caller's typo names no property: nothing meets it (not a crash, not a pass).
  if (!isDefault && !Object.hasOwn(properties, p))
    return `required ${JSON.stringify(p)} is not a property, so nothing meets it`;
  if (properties[p].state === "PASS" || accept(p)) return undefined;
  return isDefault
    ? defaultReason(p, properties, facts)
    : `required ${p} is ${properties[p].state}: ${properties[p].detail}`;
}

export function decidePolicy(
  properties: Properties,
  level: EvidenceLevelReport,
  policy: Policy,
  facts: PolicyFacts,
): PolicyDecision {
  const terms = policyTerms(policy, level.negotiated);
  const failing = PROPERTY_NAMES.filter((p) => properties[p].state === "FAIL");
  if (failing.length > 0)
    return { ...terms, exitCode: 1, reasons: failing.map((p) => `${p} FAIL: ${properties[p].detail}`), accepted: [] };
  const accepted: string[] = [];
  const accept = (p: PropertyName): boolean => {
    const waived = policy.acceptUncommittedParts === true ? uncommittedPartsOnly(p, properties) : undefined;
    if (waived) accepted.push(waived);
    return waived !== undefined;
  };
  const reasons = [
    levelReason(level.achieved, terms.minimum),
    ...terms.required.map((p) => requiredReason(p, policy, properties, facts, accept)),
  ].filter((r) => r !== undefined);
  return { ...terms, exitCode: reasons.length > 0 ? 3 : 0, reasons, accepted };
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
