/**
 * What the e2e tests read of a report and of the SDK's bytes: the one verified input, its
 * properties against a kind's expected row, and the Task inside a GetTask response body.
 */
import { expect } from "vitest";
import { isFailedInput, PROPERTY_NAMES, type Report, type VerifiedInput } from "../../src/index.js";
import { producerTrust } from "../../producer/seal.js";
import { REFERENCE_REQUIREMENT } from "./client.js";
import type { KindExpectation } from "./expectations.js";
import { E2E_AUTHORITY } from "./kinds.js";

export const TRUST = producerTrust({ authority: E2E_AUTHORITY });
export const MIN = REFERENCE_REQUIREMENT.minimumEvidence as "EXTERNALLY_REGISTERED";

export function verified(report: Report): VerifiedInput {
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`input not verified: ${JSON.stringify(input ?? report.error)}`);
  return input;
}

export function expectReport(report: Report, expected: KindExpectation): VerifiedInput {
  const input = verified(report);
  const states = Object.fromEntries(PROPERTY_NAMES.map((p) => [p, input.properties[p].state]));
  expect(states).toEqual(expected.properties);
  expect(input.evidenceLevel).toEqual({ achieved: expected.achieved, claimed: expected.claimed, negotiated: MIN });
  expect(report.policy.exitCode).toBe(expected.exitCode);
  const negotiationFails = input.properties.negotiation.checks.filter((c) => c.state === "FAIL").map((c) => c.id);
  expect(negotiationFails).toEqual(expected.negotiationFails ?? []);
  return input;
}

/** Each lifecycle check of a verified input (docs/properties.md, the Task lifecycle), as `id state`, in property order. */
export const lifecycleChecks = (input: VerifiedInput): string[] =>
  PROPERTY_NAMES.flatMap((p) =>
    input.properties[p].checks
      .filter((c) => /^(interim\.|transcript\.(transition|resumption)$)/.test(c.id))
      .map((c) => `${c.id} ${c.state}`),
  );

/** The interim.* checks of a Task whose one interim record was supplied with its paused Task, all PASS, in property order. */
export const INTERIM_PASSES: readonly string[] = [
  "interim.content PASS",
  "interim.signature PASS",
  "interim.cited PASS",
  "interim.prefix PASS",
  "interim.observed PASS",
  "interim.inclusion PASS",
  "interim.log PASS",
  "interim.checkpoint PASS",
];

export const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** The Task of a GetTask response body: a JSON-RPC envelope's result, or the REST body itself. */
export function taskOf(getTaskBody: Uint8Array): Record<string, unknown> {
  const body = JSON.parse(text(getTaskBody)) as Record<string, unknown>;
  return (body.jsonrpc === "2.0" ? body.result : body) as Record<string, unknown>;
}
