/**
 * A PEAC issuer that renames a kid and keeps its key (kid k1 until the hand-over, kid k2 from it)
 * rotates nothing: `validFrom` / `validUntil` say when each entry trusts the key, and windows that
 * touch are a clean hand-over (contract §5.1). A receipt under k1, placed by --at inside k1's window,
 * is honest and must not FAIL KEY_NOT_YET_VALID because k2's entry begins later.
 */
import { expect, it } from "vitest";
import { fromPlain, type JsonObject } from "../../src/json/value.js";
import { verify } from "../../src/verify.js";
import { isFailedInput, type VerifiedInput } from "../../src/report/model.js";
import { at, capture } from "../properties/harness.js";
import { carrierOf, claims, issuerEntry, peacPayload, peacSigner, PEAC_URI } from "../peac/signer.js";
import { expectWindow } from "../keys/harness.js";

const A = await peacSigner("keys hand-over: issuer A", "https://issuer.example", "k1");
const RECEIPT = await A.sign(claims(A, { jti: "receipt-keys-handover-1", iat: 1790847000 }));
const HANDOVER = "2026-10-01T12:00:00Z";

const e = capture(
  {},
  {
    finalTask: (task) => {
      const target = at(task, "history", 1);
      target.metadata = fromPlain({ [PEAC_URI]: peacPayload(carrierOf(RECEIPT)) }) as JsonObject;
    },
  },
);

function runWith(issuers: unknown[], request: { at?: string }): { input: VerifiedInput; exitCode: number } {
  const trust = { ...(e.trust as JsonObject), peacIssuers: fromPlain(issuers) } as JsonObject;
  const report = verify({ inputs: [{ source: "test", data: e.input }], trust, ...request });
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`not verified: ${JSON.stringify(input)}`);
  return { input, exitCode: report.policy.exitCode };
}

it("kid k1 until the hand-over, the same key as k2 from it: a receipt under k1 with --at before it PASSes", () => {
  const entry = issuerEntry(A) as { keys: Record<string, unknown>[] };
  const k1 = entry.keys[0] as Record<string, unknown>;
  const renamed = {
    ...entry,
    keys: [
      { ...k1, validUntil: HANDOVER },
      { kid: "k2", key: k1.key, validFrom: HANDOVER },
    ],
  };
  const { input, exitCode } = runWith([renamed], { at: "2026-10-01T09:31:00Z" });
  expectWindow(input, "peacReceipts", "PASS", { state: "PASS", time: "2026-10-01T09:31:00Z" });
  expect(exitCode).toBe(0);
});
