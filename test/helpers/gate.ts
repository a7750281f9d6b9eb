import { expect } from "vitest";
import { EvidencePolicyError } from "../../src/a2a-js/index.js";
import { isFailedInput, type Report, type VerifiedInput } from "../../src/report/model.js";

/** The EvidencePolicyError a gated call rejects with; a call that resolves fails the test. */
export async function refusal(p: Promise<unknown>): Promise<EvidencePolicyError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(EvidencePolicyError);
    return e as EvidencePolicyError;
  }
  throw new Error("the gate let it through");
}

/** The one input of a gate's report (a verdict it let through, or its refusal's), verified; anything else fails the test. */
export function onlyInput(report: Report | undefined): VerifiedInput {
  const input = report?.inputs[0];
  if (!input || isFailedInput(input)) throw new Error("no verified input");
  return input;
}
