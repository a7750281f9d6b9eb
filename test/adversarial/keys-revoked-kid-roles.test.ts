/**
 * A PEAC `revokedKids` entry whose kid pins a key revokes that key material under every kid and
 * issuer (src/peac/receipt.ts), and a revocation is the key material's wherever the trust file pins
 * it (docs/trust-config.md: "revoking a key in one entry revokes it everywhere"). The same key pinned
 * bare as the producer's key must not verify the record as if nothing revoked it.
 */
import { expect, it } from "vitest";
import { PLAIN, build, run, trustOf, type Trust } from "../keys/harness.js";

it("a producer key that a PEAC issuer pins under a revoked kid: producerSignature does not PASS, exit 1", () => {
  const plain = build(PLAIN);
  const trust = trustOf(plain, (t) => {
    const key = (t.producers[0] as { keys: unknown[] }).keys[0];
    (t as Trust & { peacIssuers?: unknown[] }).peacIssuers = [
      { iss: "https://issuer.example", keys: [{ kid: "k0", key }], revokedKids: ["k0"] },
    ];
  });
  const { input, exitCode } = run(plain, trust);
  const sig = input.properties.producerSignature;
  expect(sig.state).toBe("FAIL");
  expect(sig.checks.some((c) => c.state === "FAIL" && /REVOKED/.test(c.code ?? ""))).toBe(true);
  expect(exitCode).toBe(1);
});
