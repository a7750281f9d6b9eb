/**
 * Keys over time (contract §5.1) for a PEAC issuer: a JWS names its own `kid`, so whoever holds a
 * compromised key chooses under which kid its receipts are looked up. When the trust file pins one
 * key under two kids of an issuer and gives one of them `revokedAt`, a receipt signed by that key
 * under the other kid is still a receipt signed by a revoked key: without a time that places it
 * before the revocation it must not PASS.
 */
import { describe, expect, it } from "vitest";
import { fromPlain, type JsonObject } from "../../src/json/value.js";
import { verify } from "../../src/verify.js";
import { isFailedInput, type VerifiedInput } from "../../src/report/model.js";
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

/** The verified input and exit code under the capture's trust file with these `peacIssuers`. */
function runWith(issuers: unknown[], request: { at?: string } = {}): { input: VerifiedInput; exitCode: number } {
  const trust = { ...(e.trust as JsonObject), peacIssuers: fromPlain(issuers) } as JsonObject;
  const report = verify({ inputs: [{ source: "test", data: e.input }], trust, ...request });
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`not verified: ${JSON.stringify(input)}`);
  return { input, exitCode: report.policy.exitCode };
}

/** The issuer's own entry, its key (kid k1) as `first`, then `more` entries of the same key. */
function entryWith(first: Record<string, unknown>, ...more: Record<string, unknown>[]): Record<string, unknown> {
  const entry = issuerEntry(A) as { keys: Record<string, unknown>[] };
  const bare = entry.keys[0] as Record<string, unknown>;
  return { ...entry, keys: [{ ...bare, ...first }, ...more.map((m) => ({ key: bare.key, ...m }))] };
}

const windowsOf = (input: VerifiedInput) => input.properties.peacReceipts.checks.filter((c) => c.id === "key.window");

it("a receipt under the bare kid of a key revoked under another kid FAILs peacReceipts KEY_REVOKED", () => {
  const { input, exitCode } = runWith([entryWith({}, { kid: "k0", revokedAt: "2026-10-01T12:00:00Z" })]);
  expectWindow(input, "peacReceipts", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
  expect(exitCode).toBe(1);
});

it("a receipt under the bare kid of a key another issuer pins revoked FAILs peacReceipts KEY_REVOKED", () => {
  const other = {
    iss: "https://issuer-mirror.example",
    keys: [{ kid: "k1", key: A.publicKeyHex, revokedAt: "2026-10-01T12:00:00Z" }],
  };
  const { input } = runWith([entryWith({}), other]);
  expectWindow(input, "peacReceipts", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
});

it("a receipt under a kid whose key is retired there and revoked under another kid: the revocation decides", () => {
  const { input } = runWith([
    entryWith({ validUntil: "2027-01-01T00:00:00Z" }, { kid: "k0", revokedAt: "2026-10-01T12:00:00Z" }),
  ]);
  expectWindow(input, "peacReceipts", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
});

describe("honest look-alikes", () => {
  it("one key bare under two kids: PASS, no key.window check", () => {
    const { input, exitCode } = runWith([entryWith({}, { kid: "k0" })]);
    expect(input.properties.peacReceipts.state).toBe("PASS");
    expect(windowsOf(input)).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it("one key under two kids with the same revokedAt, --at before it: PASS, as when pinned once", () => {
    const revoked = { revokedAt: "2026-10-01T12:00:00Z" };
    const request = { at: "2026-10-01T09:31:00Z" };
    const once = runWith([entryWith(revoked)], request);
    const twice = runWith([entryWith(revoked, { kid: "k0", ...revoked })], request);
    expectWindow(twice.input, "peacReceipts", "PASS", { state: "PASS", time: "2026-10-01T09:31:00Z" });
    expect(windowsOf(twice.input)).toEqual(windowsOf(once.input));
  });

  it("a rotation: another key revoked under k0, this one bare under k1: PASS", () => {
    const B = "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29";
    const { input } = runWith([entryWith({}, { kid: "k0", key: B, revokedAt: "2026-10-01T00:00:00Z" })]);
    expect(input.properties.peacReceipts.state).toBe("PASS");
    expect(windowsOf(input)).toEqual([]);
  });
});

describe("revokedKids: a kid revoked with its key pinned revokes that key under every kid", () => {
  it("the receipt's kid k1 pins the key that kid k0 (revoked) pins: FAIL key.window KEY_REVOKED, exit 1", () => {
    const { input, exitCode } = runWith([{ ...entryWith({}, { kid: "k0" }), revokedKids: ["k0"] }]);
    const c = expectWindow(input, "peacReceipts", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
    expect(c.detail).toMatch(/revokedKids: kid "k0" of https:\/\/issuer\.example/);
    expect(exitCode).toBe(1);
  });

  it("the key revoked by kid under another issuer: FAIL alike", () => {
    const other = {
      iss: "https://issuer-mirror.example",
      keys: [{ kid: "old", key: A.publicKeyHex }],
      revokedKids: ["old"],
    };
    const { input } = runWith([entryWith({}), other]);
    expectWindow(input, "peacReceipts", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
  });

  it("look-alikes: a revoked kid with no key, or with another key, leaves k1's receipt PASS", () => {
    const B = "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29";
    expect(runWith([{ ...entryWith({}), revokedKids: ["k0"] }]).input.properties.peacReceipts.state).toBe("PASS");
    const rotated = { ...entryWith({}, { kid: "k0", key: B }), revokedKids: ["k0"] };
    expect(runWith([rotated]).input.properties.peacReceipts.state).toBe("PASS");
  });
});
