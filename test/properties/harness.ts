/**
 * What every property test shares: an honest capture built by the independent producer, a
 * verify() call that returns the one verified input, and assertions that name the deciding check.
 *
 * The baseline is a capture (first and terminal Task) with a prior checkpoint, other log leaves
 * around ours and a Transparency Service log of 7 entries, so every property — negotiation
 * included — is at its honest state, and a single mutation shows up as a change from it.
 */
import { expect } from "vitest";
import { JsonNumber, fromPlain, isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { verify, type InputData, type VerifyRequest } from "../../src/verify.js";
import {
  PROPERTY_NAMES,
  isFailedInput,
  type Check,
  type PropertyName,
  type State,
  type VerifiedInput,
} from "../../src/report/model.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { buildExchange, type Exchange } from "../../producer/exchange.js";
import { states } from "../../producer/expectations.js";
import type { ExchangeOptions, Tamper } from "../../producer/options.js";
import { corpusCheck } from "../helpers/corpus.js";

export const EXT = "https://agentactioncapsule.org/extensions/a2a-task-evidence/v1";
export const TS_URL = "https://ts.a2a-evidence.example";
/** A record profile this verifier does not implement. */
export const OTHER_PROFILE = "https://example.com/profiles/other/v9";

export const MESSAGE_0 = uuidFromLabel("capture message 0");
export const MESSAGE_1 = uuidFromLabel("capture message 1");
export const ARTIFACT_0 = uuidFromLabel("capture artifact 0");

export const CAPTURE: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("capture task"),
  contextId: uuidFromLabel("capture context"),
  transcript: [
    { messageId: MESSAGE_0, role: "ROLE_USER", parts: ["Quote EUR/USD for a 10 000 EUR transfer."] },
    { messageId: MESSAGE_1, role: "ROLE_AGENT", parts: ["Quote ready: 1.0842 — valid for 30 s."] },
  ],
  artifacts: [{ artifactId: ARTIFACT_0, name: "quote", parts: ["EUR/USD 1.0842", "valid until 09:30:30Z"] }],
  leavesBefore: 5,
  leavesAfter: 3,
  priorCheckpoint: { leafCount: 5 },
  witnesses: [{ url: TS_URL, treeSize: 7, leafIndex: 4 }],
};

export type States = Record<PropertyName, State>;

/**
 * The honest capture's states, as the producer's expectations state them: continuity is
 * NOT_PRESENT without witness cosignatures, captureCoverage and outcomeCorroboration never PASS
 * from one v1 record.
 */
export const BASELINE: States = states();

/** The baseline with the named properties changed. */
export function baseline(changes: Partial<States> = {}): States {
  return { ...BASELINE, ...changes };
}

/** The capture exchange with `options` over the baseline options and one tamper hook set. */
export function capture(options: ExchangeOptions = {}, tamper?: Tamper): Exchange {
  return buildExchange({ ...CAPTURE, ...options, ...(tamper ? { tamper } : {}) });
}

export interface Presented {
  /** The verifier input; default the exchange's own input. */
  readonly input?: InputData;
  /** The trust file; default the exchange's; null for none. */
  readonly trust?: JsonValue | null;
  readonly request?: Omit<VerifyRequest, "inputs" | "trust">;
}

/** verify() over one input; fails the test if the input was not verified. */
export function check(e: Exchange, presented: Presented = {}): VerifiedInput {
  const trust = presented.trust === undefined ? e.trust : presented.trust;
  const report = verify({
    inputs: [{ source: "test", data: presented.input ?? e.input }],
    ...(trust === null ? {} : { trust }),
    ...presented.request,
  });
  corpusCheck(report);
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`not verified: ${JSON.stringify(report.error ?? input)}`);
  return input;
}

/** Builds the capture with one tamper hook and verifies it with its own trust file. */
export function tampered(tamper: Tamper, options: ExchangeOptions = {}, presented: Presented = {}): VerifiedInput {
  return check(capture(options, tamper), presented);
}

export function statesOf(input: VerifiedInput): States {
  return Object.fromEntries(PROPERTY_NAMES.map((p) => [p, input.properties[p].state])) as States;
}

export interface Decision {
  readonly state: State;
  /** The id of the first check with that state: the one that decided the property. */
  readonly check: string;
  readonly subject?: string;
  /** The failure code the deciding check carries; omitted means it carries none. */
  readonly code?: string;
  /** A fragment the property's detail must contain, where the wording is the point. */
  readonly detail?: string | RegExp;
}

/** The property's state and the check that decided it (first check in that state). */
export function expectDecided(input: VerifiedInput, property: PropertyName, d: Decision): Check {
  const result = input.properties[property];
  const deciding = result.checks.find((c) => c.state === d.state);
  expect({
    property,
    state: result.state,
    check: deciding?.id,
    subject: deciding?.subject,
    code: deciding?.code,
  }).toEqual({
    property,
    state: d.state,
    check: d.check,
    subject: d.subject,
    code: d.code,
  });
  if (d.detail !== undefined) expect(result.detail).toMatch(d.detail);
  return deciding as Check;
}

/** One row of a table of single mutations and the decision each must produce. */
export interface Case {
  readonly name: string;
  /** The mutation: producer hooks over the baseline capture. */
  readonly tamper?: Tamper;
  /** Options over the baseline capture's. */
  readonly options?: ExchangeOptions;
  readonly presented?: Presented;
  readonly decided: Decision;
  /** Other properties that change, and only those (the orthogonality the contract asks for). */
  readonly also?: Partial<States>;
  /** Further checks of the property and the states the branch gives them. */
  readonly checks?: Readonly<Record<string, State>>;
}

/** Builds and verifies the case: its deciding check, its other checks, and every property's state. */
export function expectCase(property: PropertyName, c: Case): VerifiedInput {
  const input = check(capture(c.options, c.tamper), c.presented);
  expectDecided(input, property, c.decided);
  for (const [id, state] of Object.entries(c.checks ?? {}))
    expect([id, checkOf(input, property, id).state]).toEqual([id, state]);
  expect(statesOf(input)).toEqual(baseline({ [property]: c.decided.state, ...c.also }));
  return input;
}

/** The one check with this id (and subject); fails when it is absent or repeated. */
export function checkOf(input: VerifiedInput, property: PropertyName, id: string, subject?: string): Check {
  const found = input.properties[property].checks.filter(
    (c) => c.id === id && (subject === undefined || c.subject === subject),
  );
  expect(
    found.map((c) => c.id),
    `${property} ${id}`,
  ).toEqual([id]);
  return found[0] as Check;
}

/** The checks of a property as `id state` lines (subjects omitted), for order and coverage. */
export function checkStates(input: VerifiedInput, property: PropertyName): string[] {
  return input.properties[property].checks.map((c) => `${c.id} ${c.state}`);
}

/** A deep copy, JsonNumber lexemes kept. */
export function copy<T extends JsonValue>(v: T): T {
  return fromPlain(v) as T;
}

/** The object at a path of member names and indexes; throws when there is none. */
export function at(root: JsonValue, ...path: Array<string | number>): JsonObject {
  let cur: JsonValue | undefined = root;
  for (const seg of path)
    cur =
      typeof seg === "number" ? (Array.isArray(cur) ? cur[seg] : undefined) : isJsonObject(cur) ? cur[seg] : undefined;
  if (!isJsonObject(cur)) throw new Error(`no object at ${path.join(".")}`);
  return cur;
}

/** A copy with every integer lexeme `n` written as `n.0`, as a Python emitter prints a protobuf double. */
export function widened<T extends JsonValue>(v: T): T {
  const walk = (x: JsonValue): JsonValue => {
    if (x instanceof JsonNumber) return x.isIntegerLexeme ? new JsonNumber(`${x.lexeme}.0`) : x;
    if (Array.isArray(x)) return x.map(walk);
    if (isJsonObject(x)) return fromPlain(Object.fromEntries(Object.keys(x).map((k) => [k, walk(x[k] as JsonValue)])));
    return x;
  };
  return walk(v) as T;
}

/** The terminal Task inside a capture input. */
export function finalTaskOf(input: JsonValue): JsonObject {
  return at(input, "finalTask");
}

/** The reference copies the server owes: on the evidence Artifact and on the terminal Task. */
export function serverReferences(task: JsonObject): JsonObject[] {
  const artifacts = task.artifacts as JsonValue[];
  return [at(artifacts[artifacts.length - 1] as JsonValue, "metadata", EXT), at(task, "metadata", EXT)];
}

/**
 * A tamper that changes the TaskEvidenceReference identically in the bundle and in both server
 * copies (and, with `bundle`, the bundle itself).
 */
export function everyReference(change: (reference: JsonObject) => void, bundle?: (b: JsonObject) => void): Tamper {
  return {
    bundle: (b) => {
      bundle?.(b);
      change(at(b, "taskEvidenceReference"));
    },
    finalTask: (t) => serverReferences(t).forEach(change),
  };
}

/** A tamper that states `profile` in the bundle and in every reference copy: only the profile is unknown. */
export function underProfile(profile: string): Tamper {
  return everyReference(
    (r) => void (r.recordProfile = profile),
    (b) => void (b.recordProfile = profile),
  );
}

/** A bundle hook writing the members at these paths (member names) with widened integer lexemes. */
export function widenedAt(...paths: string[][]): NonNullable<Tamper["bundle"]> {
  return (b) => {
    for (const path of paths) {
      const parent = at(b, ...path.slice(0, -1));
      const name = path[path.length - 1] as string;
      parent[name] = widened(parent[name] as JsonValue);
    }
  };
}
