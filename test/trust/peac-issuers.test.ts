/**
 * The peacIssuers trust section: what loads, and every mistake that would otherwise turn all
 * receipts into "no pinned key" without a word, refused with exit-2 codes and JSON paths.
 */
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadTrustConfig } from "../../src/trust/config.js";
import { fromPlain } from "../../src/json/value.js";

const ed = generateKeyPairSync("ed25519");
const edRaw = Buffer.from(ed.publicKey.export({ format: "der", type: "spki" }))
  .subarray(12)
  .toString("hex");
const edJwk = ed.publicKey.export({ format: "jwk" });
const edPem = ed.publicKey.export({ format: "pem", type: "spki" }).toString();
const p256Pem = generateKeyPairSync("ec", { namedCurve: "P-256" })
  .publicKey.export({ format: "pem", type: "spki" })
  .toString();
const TORSION = "0000000000000000000000000000000000000000000000000000000000000080";

const trust = (peacIssuers: unknown) => loadTrustConfig(fromPlain({ version: 1, peacIssuers }));
function failure(peacIssuers: unknown): { code: string; detail: string; path?: string } {
  const r = trust(peacIssuers);
  if (r.ok) throw new Error("expected a failure");
  return r;
}

describe("peacIssuers", () => {
  it("loads issuers by iss, keys by kid (hex, JWK or PEM), and revoked kids", () => {
    const r = trust([
      {
        iss: "https://issuer.example",
        keys: [
          { kid: "k1", key: edRaw },
          { kid: "k2", key: edJwk },
        ],
        revokedKids: ["k0"],
      },
      { iss: "did:web:issuer.example", keys: [{ kid: "2026-01", key: edPem }] },
    ]);
    if (!r.ok) throw new Error(r.detail);
    const a = r.value.peacIssuers?.get("https://issuer.example");
    expect([...(a?.keys.keys() ?? [])]).toEqual(["k1", "k2"]);
    expect([a?.keys.get("k1")?.hex, a?.keys.get("k2")?.hex, a?.keys.get("k1")?.path]).toEqual([
      edRaw,
      edRaw,
      "peacIssuers[0].keys[0].key",
    ]);
    expect([...(a?.revokedKids ?? [])]).toEqual(["k0"]);
    expect(r.value.peacIssuers?.get("did:web:issuer.example")?.keys.get("2026-01")?.hex).toBe(edRaw);
  });

  it("a kid both pinned and revoked (a JWKS copied with its revoked_keys) loads: revocation wins at verification", () => {
    const r = trust([
      {
        iss: "https://a.example",
        keys: [
          { kid: "k0", key: edRaw },
          { kid: "k1", key: edJwk },
        ],
        revokedKids: ["k0"],
      },
    ]);
    if (!r.ok) throw new Error(r.detail);
    const a = r.value.peacIssuers?.get("https://a.example");
    expect([[...(a?.keys.keys() ?? [])], [...(a?.revokedKids ?? [])]]).toEqual([["k0", "k1"], ["k0"]]);
  });

  it("an issuer may have only revoked kids", () => {
    const r = trust([{ iss: "https://issuer.example", keys: [], revokedKids: ["k0"] }]);
    expect(r.ok).toBe(true);
  });

  it.each([
    ["a trailing slash", "https://issuer.example/"],
    ["the default port", "https://issuer.example:443"],
    ["an uppercase host", "https://Issuer.example"],
    ["http", "http://issuer.example"],
    ["a path", "https://issuer.example/receipts"],
  ])("refuses an iss no Wire 0.2 receipt can carry: %s", (_what, iss) => {
    expect(failure([{ iss, keys: [{ kid: "k1", key: edRaw }] }])).toMatchObject({
      code: "TRUST_SCHEMA",
      path: "peacIssuers[0].iss",
    });
  });

  it("refuses an issuer listed twice, a kid listed twice, a kid revoked twice", () => {
    expect(
      failure([
        { iss: "https://a.example", keys: [] },
        { iss: "https://a.example", keys: [] },
      ]),
    ).toMatchObject({ code: "TRUST_DUPLICATE_ENTRY", path: "peacIssuers[1].iss" });
    expect(
      failure([
        {
          iss: "https://a.example",
          keys: [
            { kid: "k1", key: edRaw },
            { kid: "k1", key: edRaw },
          ],
        },
      ]),
    ).toMatchObject({ code: "TRUST_DUPLICATE_ENTRY", path: "peacIssuers[0].keys[1].kid" });
    expect(failure([{ iss: "https://a.example", keys: [], revokedKids: ["k0", "k0"] }])).toMatchObject({
      code: "TRUST_DUPLICATE_ENTRY",
      path: "peacIssuers[0].revokedKids[1]",
    });
  });

  it("refuses a kid over 256 UTF-8 bytes, as receipts do", () => {
    expect(failure([{ iss: "https://a.example", keys: [{ kid: "é".repeat(129), key: edRaw }] }])).toMatchObject({
      code: "TRUST_SCHEMA",
      path: "peacIssuers[0].keys[0].kid",
    });
  });

  it("refuses a key that is not Ed25519, or that PEAC's Ed25519 profile rejects", () => {
    expect(failure([{ iss: "https://a.example", keys: [{ kid: "k1", key: p256Pem }] }])).toMatchObject({
      code: "TRUST_KEY_INVALID",
      path: "peacIssuers[0].keys[0].key",
    });
    const torsion = failure([{ iss: "https://a.example", keys: [{ kid: "k1", key: TORSION }] }]);
    expect(torsion.code).toBe("TRUST_KEY_INVALID");
    expect(torsion.detail).toMatch(/torsion_point|not a raw 32-byte Ed25519|small-order/);
  });

  it("refuses private key material and unknown members", () => {
    const priv = ed.privateKey.export({ format: "jwk" });
    expect(failure([{ iss: "https://a.example", keys: [{ kid: "k1", key: priv }] }])).toMatchObject({
      code: "TRUST_PRIVATE_KEY",
      path: "peacIssuers[0].keys[0].key",
    });
    expect(failure([{ iss: "https://a.example", keys: [{ kid: "k1", key: edRaw, use: "sig" }] }])).toMatchObject({
      code: "TRUST_SCHEMA",
      path: "peacIssuers[0].keys[0]",
    });
    expect(failure([{ iss: "https://a.example", keys: [], pins: [] }])).toMatchObject({
      code: "TRUST_SCHEMA",
      path: "peacIssuers[0]",
    });
  });

  it("a trust file without the section pins no issuer", () => {
    const r = loadTrustConfig(fromPlain({ version: 1 }));
    expect(r.ok && r.value.peacIssuers?.size).toBe(0);
  });
});
