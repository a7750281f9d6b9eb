/**
 * What every mutant's report must satisfy, whatever the mutation:
 *   1. verify() returns (never throws), within the per-input cap;
 *   2. the report, rendered as JSON, matches schemas/report.schema.json;
 *   3. every property's state follows from its checks (contract §4);
 *   4. the exit code is 1 exactly when some property FAILs (§6);
 *   5. a change at a place a PASSing property covers leaves it not PASS (coverage.ts);
 *   6. now and then: the same input gives a byte-identical JSON report (§7).
 */
import { expect } from "vitest";
import {
  verify,
  isFailedInput,
  PROPERTY_NAMES,
  type PropertyName,
  type Report,
  type State,
  type TrustConfig,
  type VerifiedInput,
} from "../../src/index.js";
import { JsonNumber, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { reportJson, validateReport } from "../adversarial/harness.js";
import { PER_INPUT_MS } from "./config.js";
import { classify } from "./coverage.js";
import type { Doc } from "./corpus.js";
import type { Mutation } from "./mutate-raw.js";
import { changesValue } from "./mutate-raw.js";
import { knownFinding } from "./known.js";
import { normalize } from "./sites.js";

const PRECEDENCE: readonly State[] = ["FAIL", "INCONCLUSIVE", "PASS", "NOT_CHECKED", "NOT_PRESENT"];

/** The §4 rule: FAIL, else INCONCLUSIVE, else PASS, else NOT_CHECKED, else NOT_PRESENT. */
export function stateFromChecks(states: readonly State[]): State {
  return PRECEDENCE.find((s) => states.includes(s)) ?? "NOT_PRESENT";
}

/**
 * continuity overrides the rule in one direction only: where its checks would give PASS by
 * precedence, it may be less (NOT_PRESENT, NOT_CHECKED) because PASS needs the chain verified and
 * the quorum met, and a check that only says cosignature lines are present verifies nothing
 * (continuity.ts header; vectors/README.md "Continuity"). Never more than the rule gives.
 */
function ruleException(p: PropertyName, input: VerifiedInput, derived: State): boolean {
  const r = input.properties[p];
  return p === "continuity" && derived === "PASS" && (r.state === "NOT_PRESENT" || r.state === "NOT_CHECKED");
}

export interface Verified {
  readonly report: Report;
  readonly input?: VerifiedInput;
}

export function run(data: JsonValue, trust: JsonValue | TrustConfig, deterministic = false): Verified {
  const started = performance.now();
  const report = verify({ inputs: [{ source: "mutant", data }], trust });
  const elapsed = performance.now() - started;
  expect(elapsed, "one input took longer than the per-input cap").toBeLessThan(PER_INPUT_MS);
  const json = reportJson(report);
  if (!validateReport(JSON.parse(json)))
    throw new Error(`the report does not match its schema: ${JSON.stringify(validateReport.errors?.slice(0, 3))}`);
  if (deterministic)
    expect(
      reportJson(verify({ inputs: [{ source: "mutant", data }], trust })),
      "the same input gave another report",
    ).toBe(json);
  const first = report.inputs[0];
  const input = first && !isFailedInput(first) ? first : undefined;
  if (input) {
    for (const p of PROPERTY_NAMES) {
      const r = input.properties[p];
      const derived = stateFromChecks(r.checks.map((c) => c.state));
      // §4: "NOT_PRESENT or NOT_CHECKED when nothing could be checked": the contract does not order the two.
      const nothingChecked = (s: State) => s === "NOT_PRESENT" || s === "NOT_CHECKED";
      if (
        derived !== r.state &&
        !(nothingChecked(derived) && nothingChecked(r.state)) &&
        !ruleException(p, input, derived)
      )
        throw new Error(
          `${p} is ${r.state} but its checks give ${derived}: ${r.checks.map((c) => `${c.id} ${c.state}`).join(", ")}`,
        );
    }
    const fails = PROPERTY_NAMES.some((p) => input.properties[p].state === "FAIL");
    if ((input.exitCode === 1) !== fails)
      throw new Error(`exit ${input.exitCode} with ${fails ? "a" : "no"} FAILing property`);
  }
  return { report, ...(input ? { input } : {}) };
}

export interface Finding {
  readonly property: PropertyName;
  readonly where: string;
  readonly mutation: string;
  readonly detail: string;
}

/** Invariant 5: the properties that covered the changed place and were PASS are PASS no more. */
export function coverageViolations(
  m: Mutation,
  before: Doc,
  after: Doc,
  original: VerifiedInput,
  mutant: Verified,
): Finding[] {
  if (!changesValue(m)) return [];
  const c = classify({ mutation: m, before, after, original });
  const where = normalize(before, m.site).join(".");
  if (c.covers.size === 0 && c.benign === undefined)
    throw new Error(`coverage map incomplete: no rule for ${where} (${m.op}): ${m.description}`);
  if (!mutant.input) return [];
  const out: Finding[] = [];
  const digestFail = digestMustFail(m, where);
  if (
    digestFail &&
    original.properties[digestFail].state === "PASS" &&
    mutant.input.properties[digestFail].state !== "FAIL"
  ) {
    const finding = {
      property: digestFail,
      where,
      mutation: m.description,
      detail: `${mutant.input.properties[digestFail].state} where only a FAIL is due: ${mutant.input.properties[digestFail].detail}`,
    };
    if (!knownFinding(finding, m)) out.push(finding);
  }
  for (const p of c.covers) {
    if (original.properties[p].state !== "PASS" || mutant.input.properties[p].state !== "PASS") continue;
    const finding = { property: p, where, mutation: m.description, detail: mutant.input.properties[p].detail };
    if (!knownFinding(finding, m)) out.push(finding);
  }
  return out;
}

/**
 * Invariant 5b (§9.17): a change inside the payload or the manifest that is not an integer written
 * as an integral double cannot be explained by widening, so the digest check FAILs — never
 * INCONCLUSIVE; likewise a change inside the capsule is never excused (its format aside, §9.2).
 */
function digestMustFail(m: Mutation, where: string): PropertyName | undefined {
  if (m.op === "reorder") return undefined;
  const widening =
    m.before instanceof JsonNumber &&
    m.after instanceof JsonNumber &&
    m.before.isIntegerLexeme &&
    m.before.toNumber() === m.after.toNumber();
  if (widening) return undefined;
  if (/^bundle\.(taskEvidencePayload|manifest)\./.test(where)) return "contentBinding";
  if (/^bundle\.capsule\./.test(where) && !/^bundle\.capsule\.format_version$/.test(where)) return "producerSignature";
  return undefined;
}

export type { JsonObject };
