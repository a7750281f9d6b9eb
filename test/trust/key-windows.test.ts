/**
 * Keys over time in the trust file (contract §5, §5.1): every role takes a key object with a
 * window; a window that makes no sense is a trust-file error naming its path.
 */
import { describe, expect, it } from "vitest";
import { loadTrustConfig } from "../../src/trust/config.js";
import { fromPlain } from "../../src/json/value.js";

const KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
const OTHER = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";

function load(v: unknown) {
  return loadTrustConfig(fromPlain(v));
}

function failure(v: unknown) {
  const r = load(v);
  if (r.ok) throw new Error("expected a failure");
  return r;
}

const s = (t: string) => BigInt(Date.parse(t) / 1000);
const producer = (key: unknown) => ({ version: 1, producers: [{ authority: "a", keys: [KEY, key] }] });

describe("key windows in the trust file", () => {
  it("reads a window in every role, and a bare key has none", () => {
    const r = load({
      version: 1,
      producers: [
        {
          authority: "a",
          keys: [KEY, { key: OTHER, validFrom: "2026-01-01T00:00:00Z", validUntil: "2026-06-01T00:00:00Z" }],
        },
      ],
      transparencyServices: [
        {
          url: "https://ts.example",
          keys: [{ key: KEY, revokedAt: "2026-03-01T12:00:00Z", reason: "stolen" }],
          operator: "independent",
        },
      ],
      witnesses: [
        {
          name: "w.example/w",
          keys: [{ key: OTHER, validUntil: "2027-01-01T00:00:00Z" }],
          operator: "independent",
          statements: ["cll-mmr-consistency/v1"],
        },
      ],
      peacIssuers: [
        { iss: "https://issuer.example", keys: [{ kid: "k1", key: KEY, revokedAt: "2026-05-05T05:05:05Z" }] },
      ],
    });
    if (!r.ok) throw new Error(r.detail);
    const [bare, windowed] = r.value.producers.get("a") ?? [];
    expect(bare && "window" in bare).toBe(false);
    expect(windowed?.window).toEqual({ validFrom: s("2026-01-01T00:00:00Z"), validUntil: s("2026-06-01T00:00:00Z") });
    expect(windowed?.key.ed25519Hex).toBe(OTHER);
    expect(windowed?.path).toBe("producers[0].keys[1]");
    expect(r.value.transparencyServices.get("https://ts.example")?.keys[0]?.window).toEqual({
      revokedAt: s("2026-03-01T12:00:00Z"),
      reason: "stolen",
    });
    expect(r.value.witnesses[0]?.keys[0]?.window).toEqual({ validUntil: s("2027-01-01T00:00:00Z") });
    expect(r.value.witnesses[0]?.keys[0]?.publicKeyHex).toBe(OTHER);
    expect(r.value.peacIssuers?.get("https://issuer.example")?.keys.get("k1")?.window).toEqual({
      revokedAt: s("2026-05-05T05:05:05Z"),
    });
  });

  it("a window that ends before it begins is an error at validUntil", () => {
    const f = failure(producer({ key: OTHER, validFrom: "2026-06-01T00:00:00Z", validUntil: "2026-01-01T00:00:00Z" }));
    expect(f.code).toBe("TRUST_SCHEMA");
    expect(f.path).toBe("producers[0].keys[1].validUntil");
    expect(f.detail).toMatch(/before validFrom/);
  });

  it("a revocation before the key was valid is an error at revokedAt", () => {
    const f = failure(producer({ key: OTHER, validFrom: "2026-06-01T00:00:00Z", revokedAt: "2026-01-01T00:00:00Z" }));
    expect(f.path).toBe("producers[0].keys[1].revokedAt");
  });

  it.each([
    ["2026-02-30T00:00:00Z"],
    ["2026-01-01T00:00:00+01:00"],
    ["2026-01-01T00:00:00.5Z"],
    ["2026-01-01 00:00:00Z"],
    ["2026-01-01T24:00:00Z"],
    ["yesterday"],
  ])("a malformed time %s is an error naming its member", (t) => {
    const f = failure(producer({ key: OTHER, revokedAt: t }));
    expect(f.code).toBe("TRUST_SCHEMA");
    expect(f.path).toBe("producers[0].keys[1].revokedAt");
  });

  it("an unknown member of a key object is an error (a typo must not fail open)", () => {
    const f = failure(producer({ key: OTHER, revokedAT: "2026-01-01T00:00:00Z" }));
    expect(f.path).toBe("producers[0].keys[1]");
    expect(f.detail).toMatch(/unknown member "revokedAT"/);
  });

  it("a time that is not a string, and a bad key inside a key object, name their paths", () => {
    expect(failure(producer({ key: OTHER, validFrom: 5 })).path).toBe("producers[0].keys[1].validFrom");
    expect(failure(producer({ key: "nothex", validFrom: "2026-01-01T00:00:00Z" })).path).toMatch(
      /^producers\[0\]\.keys\[1\]/,
    );
  });

  it("witness and PEAC windows are checked the same way", () => {
    const w = failure({
      version: 1,
      witnesses: [
        { name: "w", keys: [{ key: KEY, validUntil: "not a time" }], operator: "independent", statements: [] },
      ],
    });
    expect(w.path).toBe("witnesses[0].keys[0].validUntil");
    const p = failure({
      version: 1,
      peacIssuers: [
        { iss: "https://issuer.example", keys: [{ kid: "k1", key: KEY, validFrom: "2026-13-01T00:00:00Z" }] },
      ],
    });
    expect(p.path).toBe("peacIssuers[0].keys[0].validFrom");
  });
});
