/**
 * What the junit, github and html formats say about a property or an exit code, in one place so
 * that they say the same thing. Reads the report defensively: fields the model may gain (a policy
 * `reasons` list, an `operator` on checks) are used when present and well-formed, never assumed.
 */
import { levelRank } from "../profile.js";
import { asText } from "./untrusted.js";
import { PROPERTY_NAMES, type Check, type PropertyName, type PropertyResult, type Report, type VerifiedInput } from "./model.js";

/** What each exit code means (docs/exit-codes.md). */
export const EXIT_MEANING: Readonly<Record<0 | 1 | 2 | 3, string>> = {
  0: "the policy holds",
  1: "some property FAILs",
  2: "could not run: the input could not be verified",
  3: "nothing FAILs, but a required property is not PASS or the evidence level is below the minimum",
};

export function exitMeaning(code: number): string {
  return code === 0 || code === 1 || code === 2 || code === 3 ? EXIT_MEANING[code] : `unknown exit code ${code}`;
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

export function isRequired(report: Report, name: PropertyName): boolean {
  return Array.isArray(report.policy.require) && report.policy.require.includes(name);
}

/** Properties that FAIL, in report order. */
export function failing(input: VerifiedInput): PropertyName[] {
  return PROPERTY_NAMES.filter((p) => input.properties[p].state === "FAIL");
}

/**
 * Every reason this input's exit code is not 0. Taken from the report when it states them (on the
 * input, or on the policy: strings, or objects with a message and optionally the input's source),
 * else derived from the properties, the required list and the evidence level.
 */
export function policyReasons(input: VerifiedInput, report: Report): string[] {
  if (input.exitCode === 0) return [];
  const stated =
    readReasons((input as { reasons?: unknown }).reasons, input.source, true) ??
    readReasons((report.policy as { reasons?: unknown }).reasons, input.source, report.inputs.length === 1);
  if (stated !== undefined && stated.length > 0) return stated;
  const reasons: string[] = [];
  const failed = failing(input);
  if (failed.length > 0) reasons.push(`${failed.join(", ")} FAIL`);
  const unmet = PROPERTY_NAMES.filter((p) => isRequired(report, p) && input.properties[p].state !== "PASS");
  if (unmet.length > 0) reasons.push(`required ${unmet.map((p) => `${p} is ${input.properties[p].state}`).join(", ")}, not PASS`);
  const { achieved } = input.evidenceLevel;
  const minimum = report.policy.minEvidence;
  if (levelRank(achieved) < levelRank(minimum)) reasons.push(`evidence level ${achieved} is below the minimum ${minimum}`);
  if (reasons.length === 0) reasons.push(exitMeaning(input.exitCode));
  return reasons;
}

function readReasons(value: unknown, source: string, unattributedAreOurs: boolean): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: string[] = [];
  for (const r of value as unknown[]) {
    if (typeof r === "string") {
      if (unattributedAreOurs) out.push(r);
      continue;
    }
    if (typeof r !== "object" || r === null) continue;
    const o = r as Record<string, unknown>;
    const text = [o.message, o.reason, o.text].find((t): t is string => typeof t === "string");
    if (text === undefined) continue;
    const owner = typeof o.source === "string" ? o.source : typeof o.input === "string" ? o.input : undefined;
    if (owner === undefined ? unattributedAreOurs : owner === source) out.push(text);
  }
  return out;
}
