/**
 * Adversarial cases: each one is an attack on one rule of the contract (§6, §9.10–21), built with
 * the independent producer so that every signature, digest and proof in it is valid and only the
 * attack remains. The verdict can then only come from the rule under attack, never from a broken
 * signature, and the case asserts what the contract requires: the property's state, the check
 * that decides it, and the exit code.
 *
 * Cases whose fix has not landed yet are named in PENDING_FIXES (pending.ts): they are skipped,
 * loudly, and start running the moment their name leaves that list.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  verify,
  render,
  makeStyle,
  isFailedInput,
  type PropertyName,
  type Report,
  type State,
  type VerifiedInput,
  type VerifyRequest,
} from "../../src/index.js";
import { fromPlain, isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { buildExchange, type Exchange } from "../../producer/exchange.js";
import { resign, type ResignKeys, type SemanticMutation } from "../../producer/mutate.js";
import type { ExchangeOptions } from "../../producer/options.js";
import { REPO_ROOT } from "../helpers/external.js";
import { CAPTURE } from "../properties/harness.js";
import { PENDING_FIXES } from "./pending.js";
import { corpusCheck } from "../helpers/corpus.js";

export type ExitCode = 0 | 1 | 2 | 3;

export interface Expected {
  /** The exit code; several where the contract allows several states (then `more` ties them together). */
  readonly exitCode: ExitCode | readonly ExitCode[];
  /** The property the attack targets, its state (one of several where the contract says only "not PASS") and deciding check. */
  readonly property?: PropertyName;
  readonly state?: State | readonly State[];
  readonly check?: string;
  readonly detail?: RegExp;
  /**
   * Properties that must stay PASS, so the verdict comes from the attack and not from a broken
   * signature or proof; default the record's own: contentBinding, producerSignature,
   * localInclusion, checkpointSignature (less the targeted property).
   */
  readonly intact?: readonly PropertyName[];
  /** A reason the report must state for the input (contract §6: every reason the policy did not hold). */
  readonly policyReason?: RegExp;
  /**
   * A generous cap on this one input's verification, for the bounded-work rule (§9.20): far above
   * what the honest input costs, far below what a superlinear blow-up costs. Not a benchmark.
   */
  readonly maxMs?: number;
  /** Further assertions on the report. */
  readonly more?: (report: Report, input: VerifiedInput | undefined) => void;
}

export interface AdversarialCase {
  readonly name: string;
  /** The contract rule the attack is on, e.g. "§9.13". */
  readonly rule: string;
  /** What the attacker changed, in one line. */
  readonly attack: string;
  readonly request?: () => VerifyRequest;
  readonly expected?: Expected;
  /** For attacks on the output channel, which verify() does not reach. */
  readonly run?: () => void | Promise<void>;
}

const RECORD: readonly PropertyName[] = [
  "contentBinding",
  "producerSignature",
  "localInclusion",
  "checkpointSignature",
];

export const validateReport = new Ajv2020({ strict: true }).compile(
  JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "report.schema.json"), "utf8")),
);

/** The report as the JSON format prints it. */
export function reportJson(report: Report): string {
  return render("json", report, { verbose: false, style: makeStyle(false) });
}

/** The report of a request, checked against the report schema through its JSON rendering. */
export function verified(request: VerifyRequest): Report {
  const report = verify(request);
  const json = reportJson(report);
  expect(validateReport(JSON.parse(json)), JSON.stringify(validateReport.errors)).toBe(true);
  corpusCheck(report);
  return report;
}

export function expectCase(c: AdversarialCase): void | Promise<void> {
  if (c.run) return c.run();
  const request = (c.request as () => VerifyRequest)();
  const e = c.expected as Expected;
  const started = performance.now();
  const report = verified(request);
  const elapsed = performance.now() - started;
  if (e.maxMs !== undefined) expect(elapsed, `verification took ${Math.round(elapsed)} ms`).toBeLessThan(e.maxMs);
  const first = report.inputs[0];
  const input = first && !isFailedInput(first) ? first : undefined;
  if (e.property) {
    expect(input, `${c.name}: the input was not verified: ${JSON.stringify(first)}`).toBeDefined();
    const result = (input as VerifiedInput).properties[e.property];
    const states = typeof e.state === "string" ? [e.state] : (e.state ?? []);
    expect(states, `${e.property} is ${result.state}: ${result.detail}`).toContain(result.state);
    if (e.check !== undefined) {
      const deciding = result.checks.filter((k) => k.state === result.state).map((k) => k.id);
      expect(deciding, `${e.property} ${result.state}: no ${e.check} check in that state (${result.detail})`).toContain(
        e.check,
      );
    }
    if (e.detail) expect(JSON.stringify(result)).toMatch(e.detail);
  }
  if (input) {
    const intact = e.intact ?? RECORD.filter((p) => p !== e.property);
    const broken = intact
      .filter((p) => input.properties[p].state !== "PASS")
      .map((p) => `${p} ${input.properties[p].state}: ${input.properties[p].detail}`);
    expect(broken, "the attack must leave the record's signatures and proofs valid").toEqual([]);
  }
  if (e.policyReason)
    expect(input?.reasons.join("\n") ?? "", "the reasons the JSON report gives").toMatch(e.policyReason);
  const exits: readonly ExitCode[] = typeof e.exitCode === "number" ? [e.exitCode] : e.exitCode;
  expect(
    exits,
    `exit code ${report.policy.exitCode} (${
      input
        ? Object.entries(input.properties)
            .map(([p, r]) => `${p}=${r.state}`)
            .join(" ")
        : JSON.stringify(first)
    })`,
  ).toContain(report.policy.exitCode);
  e.more?.(report, input);
}

/** Registers every case as a test; the pending ones are skipped with a SKIPPED line on stderr. */
export function runCases(cases: readonly AdversarialCase[]): void {
  for (const c of cases) {
    const title = `${c.rule} ${c.name}: ${c.attack}`;
    const pending = PENDING_FIXES[c.name];
    if (pending !== undefined) {
      process.stderr.write(`SKIPPED: adversarial case "${c.name}" until the verifier implements ${pending}\n`);
      it.skip(`SKIPPED (pending fix, ${pending}): ${title}`, () => expectCase(c));
    } else {
      it(title, () => expectCase(c));
    }
  }
}

// ---- building the attacks ----

/** The honest capture of the property tests (first and terminal Task, prior checkpoint, one service). */
export function honest(options: ExchangeOptions = {}): Exchange {
  return buildExchange({ ...CAPTURE, ...options });
}

/** The honest capture with one semantic change, every digest, signature and proof derived again. */
export function attacked(mutation: SemanticMutation, options: ExchangeOptions = {}, keys: ResignKeys = {}): Exchange {
  return resign(honest(options), mutation, keys);
}

/** The verify() request for an exchange: its input and its own trust file, plus `extra`. */
export function requestOf(e: Exchange, extra: Partial<VerifyRequest> = {}): VerifyRequest {
  return { inputs: [{ source: "attack", data: e.input }], trust: e.trust, ...extra };
}

export function copy<T extends JsonValue>(v: T): T {
  return fromPlain(v) as T;
}

export function objectAt(root: JsonValue, ...path: Array<string | number>): JsonObject {
  let cur: JsonValue | undefined = root;
  for (const seg of path)
    cur =
      typeof seg === "number" ? (Array.isArray(cur) ? cur[seg] : undefined) : isJsonObject(cur) ? cur[seg] : undefined;
  if (!isJsonObject(cur)) throw new Error(`no object at ${path.join(".")}`);
  return cur;
}

export function arrayAt(root: JsonValue, ...path: Array<string | number>): JsonValue[] {
  const parent = objectAt(root, ...path.slice(0, -1));
  const v = parent[path[path.length - 1] as string];
  if (!Array.isArray(v)) throw new Error(`no array at ${path.join(".")}`);
  return v;
}

export const obj = (plain: Record<string, unknown>): JsonObject => fromPlain(plain) as JsonObject;
