/**
 * A PEAC issuer key with a window (contract §5.1): a receipt in the Task is in no log and no
 * witness saw it, so only --at bounds it; the receipt's own iat never rescues a revoked key.
 */
import { describe, expect, it } from "vitest";
import { fromPlain, type JsonObject } from "../../src/json/value.js";
import { at, capture, check } from "../properties/harness.js";
import { carrierOf, claims, issuerEntry, peacPayload, peacSigner, PEAC_URI } from "../peac/signer.js";
import { expectWindow } from "./harness.js";

const A = await peacSigner("keys: issuer A", "https://issuer.example", "k1");
/** iat 2026-10-01T09:30:00Z: the issuer's claim, hours before the revocation. */
const RECEIPT = await A.sign(claims(A, { jti: "receipt-keys-1", iat: 1790847000 }));

const e = capture(
  {},
  {
    finalTask: (task) => {
      const target = at(task, "history", 1);
      target.metadata = fromPlain({ [PEAC_URI]: peacPayload(carrierOf(RECEIPT)) }) as JsonObject;
    },
  },
);

function trustWith(window: Record<string, string>): JsonObject {
  const entry = issuerEntry(A) as { keys: Record<string, unknown>[] };
  entry.keys = entry.keys.map((k) => ({ ...k, ...window }));
  return { ...(e.trust as JsonObject), peacIssuers: fromPlain([entry]) } as JsonObject;
}

describe("a PEAC key with a window", () => {
  it("revoked: FAIL KEY_REVOKED without --at, whatever iat the receipt states", () => {
    const input = check(e, { trust: trustWith({ revokedAt: "2026-10-01T12:00:00Z" }) });
    expectWindow(input, "peacReceipts", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
  });

  it("revoked: PASS when --at is before the revocation", () => {
    const input = check(e, {
      trust: trustWith({ revokedAt: "2026-10-01T12:00:00Z" }),
      request: { at: "2026-10-01T09:31:00Z" },
    });
    expectWindow(input, "peacReceipts", "PASS", { state: "PASS", time: "2026-10-01T09:31:00Z", source: /^--at$/ });
  });

  it("validFrom after --at: FAIL KEY_NOT_YET_VALID; validUntil without a time: INCONCLUSIVE", () => {
    const early = check(e, {
      trust: trustWith({ validFrom: "2026-10-02T00:00:00Z" }),
      request: { at: "2026-10-01T09:31:00Z" },
    });
    expectWindow(early, "peacReceipts", "FAIL", {
      state: "FAIL",
      code: "KEY_NOT_YET_VALID",
      time: "2026-10-01T09:31:00Z",
    });
    const retired = check(e, { trust: trustWith({ validUntil: "2026-10-02T00:00:00Z" }) });
    expectWindow(retired, "peacReceipts", "INCONCLUSIVE", {
      state: "INCONCLUSIVE",
      code: "KEY_VALIDITY_UNPROVEN",
      time: "none",
    });
  });

  it("a key without a window: no key.window check, PASS as before", () => {
    const input = check(e, { trust: trustWith({}) });
    expect(input.properties.peacReceipts.state).toBe("PASS");
    expect(input.properties.peacReceipts.checks.some((c) => c.id === "key.window")).toBe(false);
  });
});
