/**
 * Small-order and non-canonical Ed25519 points are not keys in any role: OpenSSL imports them,
 * and under the identity point the signature R = identity, S = 0 verifies for every message.
 */
import { describe, expect, it } from "vitest";
import { ED25519_SPKI_PREFIX } from "../../src/crypto/ed25519.js";
import { importPublicKey } from "../../src/cose/keys.js";
import { importWitnessKey } from "../../src/witness/keys.js";
import { parseCheckpoint, verifyCheckpointSignature } from "../../src/log/checkpoint.js";
import { fromPlain } from "../../src/json/value.js";
import { hexToBytes } from "../../src/util/bytes.js";

const NOT_KEYS = {
  identity: "01" + "00".repeat(31),
  "identity, x sign bit": "01" + "00".repeat(30) + "80",
  "identity, y = p + 1": "ee" + "ff".repeat(30) + "7f",
  "order 2": "ec" + "ff".repeat(30) + "7f",
  "order 4": "00".repeat(32),
  "order 8": "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
};

const pem = (raw: Uint8Array) =>
  `-----BEGIN PUBLIC KEY-----\n${Buffer.concat([ED25519_SPKI_PREFIX, raw]).toString("base64")}\n-----END PUBLIC KEY-----\n`;

describe("Ed25519 points that are no one's key", () => {
  it.each(Object.entries(NOT_KEYS))("%s: refused as raw hex, PEM and JWK, and as a witness key", (_, hex) => {
    const raw = hexToBytes(hex) as Uint8Array;
    const x = Buffer.from(raw).toString("base64url");
    for (const spec of [hex, pem(raw), fromPlain({ kty: "OKP", crv: "Ed25519", x })]) {
      const r = importPublicKey(spec);
      expect(r.ok ? "imported" : r.code).toBe("KEY_MALFORMED");
    }
    expect(importWitnessKey(hex, "witness.example/w1").ok).toBe(false);
  });

  it("a checkpoint 'signed' under the identity point with the universal signature does not verify", () => {
    const cp = parseCheckpoint(
      fromPlain({
        v: 1,
        kind: "mmr_checkpoint",
        log_id: "log",
        mmr_size: 1,
        root: "ab".repeat(32),
        prev_size: 0,
        prev_root: "",
        key_id: NOT_KEYS.identity,
        timestamp: "2026-10-01T09:30:00Z",
        signature: NOT_KEYS.identity + "00".repeat(32),
      }),
      "cllCheckpoint",
    );
    if (!cp.ok) throw new Error(cp.detail);
    const r = verifyCheckpointSignature(cp.value);
    expect(r.ok ? "verified" : r.code).toBe("CHECKPOINT_SIGNATURE_INVALID");
  });
});
