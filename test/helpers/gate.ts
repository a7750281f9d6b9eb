import { expect } from "vitest";
import { EvidencePolicyError } from "../../src/a2a-js/index.js";

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
