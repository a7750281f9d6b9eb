/**
 * Keys over time (contract §5.1), as a relying party meets them: an honest capture whose
 * checkpoints a CLL-aware witness cosigned (producer/witness.ts) — the prior at 09:00:10Z, the
 * current one at 09:30:10Z (ten seconds after the producer's stated checkpoint times) — verified
 * under a trust file whose keys carry windows.
 */
import { expect } from "vitest";
import { fromPlain, toPlain, type JsonObject } from "../../src/json/value.js";
import { verify, type VerifyRequest } from "../../src/verify.js";
import { isFailedInput, type Check, type PropertyName, type VerifiedInput } from "../../src/report/model.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { buildExchange, type Exchange } from "../../producer/exchange.js";
import type { ExchangeOptions } from "../../producer/options.js";

export const TS = "https://ts.a2a-evidence.example";
export const W1 = "witness-one.a2a-evidence.example/cll-w1";
/** When the witness cosigned the current checkpoint, and the prior one. */
export const CURRENT_COSIGNED = "2026-10-01T09:30:10Z";
export const PRIOR_COSIGNED = "2026-10-01T09:00:10Z";

export const PLAIN: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("keys task"),
  contextId: uuidFromLabel("keys context"),
  transcript: [
    { messageId: uuidFromLabel("keys message 0"), role: "ROLE_USER", parts: ["Transfer 250 EUR to account 42."] },
    { messageId: uuidFromLabel("keys message 1"), role: "ROLE_AGENT", parts: ["Transfer 42-0007 booked."] },
  ],
  artifacts: [{ artifactId: uuidFromLabel("keys artifact 0"), name: "booking", parts: ["booking 42-0007"] }],
  leavesBefore: 5,
  leavesAfter: 3,
  priorCheckpoint: { leafCount: 5 },
  witnesses: [{ url: TS, treeSize: 7, leafIndex: 4 }],
};

/** The same capture, its checkpoints cosigned by one independent witness. */
export const WITNESSED: ExchangeOptions = { ...PLAIN, continuity: { witnesses: [{ name: W1 }] } };

export type Trust = {
  producers: { authority: string; keys: unknown[] }[];
  transparencyServices: { url: string; keys: unknown[]; operator: string }[];
  witnesses?: { keys: unknown[] }[];
};

export function build(options: ExchangeOptions): Exchange {
  return buildExchange(options);
}

/** The exchange's own trust file, changed by `edit` (plain JSON). */
export function trustOf(e: Exchange, edit: (t: Trust) => void = () => {}): JsonObject {
  const t = toPlain(e.trust) as Trust;
  edit(t);
  return fromPlain(t) as JsonObject;
}

/** The producer key of the exchange, with a window. */
export function producerWindow(window: Record<string, string>): (t: Trust) => void {
  return (t) => {
    const p = t.producers[0] as { keys: unknown[] };
    p.keys[0] = { key: p.keys[0], ...window };
  };
}

export function run(
  e: Exchange,
  trust: JsonObject,
  request: Omit<VerifyRequest, "inputs" | "trust"> = {},
): { input: VerifiedInput; exitCode: number } {
  const report = verify({ inputs: [{ source: "test", data: e.input }], trust, ...request });
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`not verified: ${JSON.stringify(input)}`);
  return { input, exitCode: report.policy.exitCode };
}

/** The one key.window check of a property (with this subject). */
export function windowOf(input: VerifiedInput, property: PropertyName, subject?: string): Check {
  const found = input.properties[property].checks.filter(
    (c) => c.id === "key.window" && (subject === undefined || c.subject === subject),
  );
  expect(found.length, `one key.window check in ${property}`).toBe(1);
  return found[0] as Check;
}

export interface Expected {
  readonly state: string;
  readonly code?: string;
  /** The trusted time the check names, or "none". */
  readonly time: string;
  /** A fragment of where that time came from. */
  readonly source?: RegExp;
}

/** The property's state, and its key.window check's state, code and time used. */
export function expectWindow(
  input: VerifiedInput,
  property: PropertyName,
  propertyState: string,
  e: Expected,
  subject?: string,
): Check {
  const c = windowOf(input, property, subject);
  expect({
    property: input.properties[property].state,
    state: c.state,
    code: c.code,
    time: c.values?.trustedTime,
  }).toEqual({ property: propertyState, state: e.state, code: e.code, time: e.time });
  if (e.source) expect(c.values?.timeSource).toMatch(e.source);
  return c;
}
