/**
 * What the junit, github and html formats say about a property or an exit code, in one place so
 * that they say the same thing. Optional fields (a check's `operator`, `values`) are read
 * defensively: a report built by another version or by hand may lack them or carry odd types.
 */
import { DEFAULT_MIN_EVIDENCE, policyTerms, type Policy, type PolicyTerms } from "../policy.js";
import { asText } from "./untrusted.js";
import {
  PROPERTY_NAMES,
  type Check,
  type FailedInput,
  type InputError,
  type PropertyName,
  type PropertyResult,
  type Report,
  type VerifiedInput,
} from "./model.js";

/** What each exit code means (docs/exit-codes.md). */
export const EXIT_MEANING: Readonly<Record<0 | 1 | 2 | 3, string>> = {
  0: "the policy holds",
  1: "some property FAILs",
  2: "could not run: the input could not be verified",
  3: "nothing FAILs, but a required property is not PASS or the evidence level is below the minimum, or a Task has not ended",
};

export function exitMeaning(code: number): string {
  return code === 0 || code === 1 || code === 2 || code === 3 ? EXIT_MEANING[code] : `unknown exit code ${code}`;
}

/** What an input that was not verified means: it could not be (exit 2), or its Task has not ended (exit 3). */
export function notVerifiedMeaning(input: FailedInput): string {
  return input.exitCode === 3 ? "the Task has not ended: its evidence is pending" : exitMeaning(2);
}

/** `CODE: message at path` for an input that could not be verified, or a run that verified nothing. */
export function errorText(e: InputError): string {
  return `${e.code}: ${e.message}${e.path ? ` at ${e.path}` : ""}`;
}

/** The checks that decided the property's state: those in that state (the rule of `decide()`). */
export function decidingChecks(p: PropertyResult): readonly Check[] {
  return p.checks.filter((c) => c.state === p.state);
}

/** `id [subject]: detail (code)` for one check. */
export function checkLine(c: Check): string {
  const operator = checkOperator(c);
  return `${c.id}${c.subject ? ` [${c.subject}]` : ""}: ${c.detail}${c.code ? ` (${c.code})` : ""}${operator ? ` (operator: ${operator})` : ""}`;
}

/** The check's values as `name: value` pairs, in the order the property listed them. */
export function checkValues(c: Check): [string, string][] {
  const values: unknown = c.values;
  if (typeof values !== "object" || values === null) return [];
  return Object.entries(values as Record<string, unknown>).map(([k, v]) => [k, asText(v)]);
}

/** The operator label of a Transparency Service or witness check (contract §9.19), when the report carries one. */
export function checkOperator(c: Check): string | undefined {
  const operator: unknown = (c as { operator?: unknown }).operator;
  return typeof operator === "string" && operator !== "" ? operator : undefined;
}

/**
 * What the report's policy asks of an input that negotiated `negotiated` (policy.ts states it, for
 * the verdict and here alike). A report from elsewhere is read defensively: a `require` that is
 * not a list requires nothing beyond the default two.
 */
function termsOf(report: Report, negotiated: string | null): PolicyTerms {
  const { require, minEvidence } = report.policy;
  const policy: Policy = {
    ...(Array.isArray(require) ? { require } : {}),
    ...(minEvidence !== null && minEvidence !== undefined ? { minEvidence } : {}),
  };
  return policyTerms(policy, negotiated);
}

/**
 * Whether the policy requires the property to be PASS: `--require`d, or one of the two the default
 * policy always requires unless `--min-evidence NONE`.
 */
export function isRequired(report: Report, name: PropertyName): boolean {
  return termsOf(report, null).required.includes(name);
}

/** The properties the policy requires to be PASS, in report order; "none" when there are none. */
export function requiredText(report: Report): string {
  const required = PROPERTY_NAMES.filter((p) => isRequired(report, p));
  return required.length > 0 ? required.join(", ") : "none";
}

/** The least evidence level the policy asks for, as the report states it. */
export function minimumText(report: Report): string {
  return report.policy.minEvidence ?? `the negotiated minimum, else ${DEFAULT_MIN_EVIDENCE}`;
}

/** The level this input had to reach: --min-evidence, else the negotiated minimum, else the default. */
export function inputMinimum(report: Report, input: VerifiedInput): string {
  return termsOf(report, input.evidenceLevel.negotiated).minimum.level;
}

/**
 * Every reason this input's exit code is not 0, as the policy stage stated them. A report from
 * elsewhere that states none still says what its exit code means.
 */
export function policyReasons(input: VerifiedInput): string[] {
  if (input.exitCode === 0) return [];
  const stated: unknown = (input as { reasons?: unknown }).reasons;
  const reasons = Array.isArray(stated) ? stated.map((r) => asText(r)) : [];
  return reasons.length > 0 ? reasons : [exitMeaning(input.exitCode)];
}

/** Why a property's testcase or annotation gates: a FAIL, or a required property that is not PASS. */
export type Finding = "FAIL" | "POLICY_NOT_MET";

export function propertyFinding(report: Report, name: PropertyName, state: string): Finding | undefined {
  if (state === "FAIL") return "FAIL";
  return state !== "PASS" && isRequired(report, name) ? "POLICY_NOT_MET" : undefined;
}

/**
 * The reasons for the input's exit code that no property finding already carries, so that a
 * report counts each finding once: for exit 3, the evidence level below the minimum and a
 * requirement that names no property (as the policy stage words them); for a report built
 * elsewhere whose exit code no property finding explains, every reason. Empty for exit 0.
 */
export function policyOwnReasons(report: Report, input: VerifiedInput): string[] {
  if (input.exitCode === 0) return [];
  const reasons = policyReasons(input);
  const findings = PROPERTY_NAMES.map((p) => propertyFinding(report, p, input.properties[p].state));
  const explained = input.exitCode === 1 ? findings.includes("FAIL") : findings.some((f) => f !== undefined);
  if (!explained) return reasons;
  return input.exitCode === 3
    ? reasons.filter((r) => r.startsWith("evidence level ") || r.startsWith('required "'))
    : [];
}
