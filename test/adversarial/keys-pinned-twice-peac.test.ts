/**
 * Keys over time (contract §5.1) for a PEAC issuer: a JWS names its own `kid`, so whoever holds a
 * compromised key chooses under which kid its receipts are looked up. When the trust file pins one
 * key under two kids of an issuer and gives one of them `revokedAt`, a receipt signed by that key
 * under the other kid is still a receipt signed by a revoked key: without a time that places it
 * before the revocation it must not PASS.
 */
import { expect, it } from "vitest";
import { fromPlain, type JsonObject } from "../../src/json/value.js";
import { verify } from "../../src/verify.js";
import { isFailedInput } from "../../src/report/model.js";
import { at, capture } from "../properties/harness.js";
import { carrierOf, claims, issuerEntry, peacPayload, peacSigner, PEAC_URI } from "../peac/signer.js";
import { expectWindow } from "../keys/harness.js";

const A = await peacSigner("keys twice: issuer A", "https://issuer.example", "k1");
const RECEIPT = await A.sign(claims(A, { jti: "receipt-keys-twice-1", iat: 1790847000 }));

const e = capture(
  {},
  {
    finalTask: (task) => {
      const target = at(task, "history", 1);
      target.metadata = fromPlain({ [PEAC_URI]: peacPayload(carrierOf(RECEIPT)) }) as JsonObject;
    },
  },
);

it("a receipt under the bare kid of a key revoked under another kid FAILs peacReceipts KEY_REVOKED", () => {
  const entry = issuerEntry(A) as { keys: Record<string, unknown>[] };
  const bare = entry.keys[0] as Record<string, unknown>;
  entry.keys = [bare, { kid: "k0", key: bare.key, revokedAt: "2026-10-01T12:00:00Z" }];
  const trust = { ...(e.trust as JsonObject), peacIssuers: fromPlain([entry]) } as JsonObject;
  const report = verify({ inputs: [{ source: "test", data: e.input }], trust });
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`not verified: ${JSON.stringify(input)}`);
  expectWindow(input, "peacReceipts", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
  expect(report.policy.exitCode).toBe(1);
});
