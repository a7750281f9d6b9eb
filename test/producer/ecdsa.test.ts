import { createPublicKey, verify } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { describe, expect, it } from "vitest";
import { bytesToHex, sha256, utf8 } from "../../src/util/bytes.js";
import { p256FromScalar, p256FromSeed } from "../../producer/ecdsa-p256.js";
import { ed25519FromSeed, seedFromLabel } from "../../producer/ed25519.js";
import { codeOf } from "./code-of.js";

/** RFC 6979 Appendix A.2.5: P-256, SHA-256. */
const RFC6979_KEY = 0xc9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721n;

describe("deterministic ES256 (RFC 6979)", () => {
  it('reproduces RFC 6979 A.2.5: public key and the signatures of "sample" and "test"', () => {
    const signer = p256FromScalar(RFC6979_KEY);
    expect(bytesToHex(signer.publicKeyPoint)).toBe(
      "04" +
        "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6" +
        "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
    );
    expect(bytesToHex(signer.sign(utf8("sample")))).toBe(
      "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716" +
        "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
    );
    expect(bytesToHex(signer.sign(utf8("test")))).toBe(
      "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367" +
        "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083",
    );
  });

  it("agrees with @noble/curves (lowS off) and node:crypto verifies, across seeds and messages", () => {
    for (let i = 0; i < 8; i++) {
      const seed = seedFromLabel(`ecdsa ${i}`);
      const signer = p256FromSeed(seed);
      const message = utf8(`message ${i} ✓`.repeat(i + 1));
      const signature = signer.sign(message);
      expect(bytesToHex(p256.sign(message, scalarBytes(seed), { lowS: false })), `seed ${i}`).toBe(
        bytesToHex(signature),
      );
      const key = createPublicKey(signer.publicKeyPem);
      expect(verify("sha256", message, { key, dsaEncoding: "ieee-p1363" }, signature)).toBe(true);
      expect(verify("sha256", utf8("another message"), { key, dsaEncoding: "ieee-p1363" }, signature)).toBe(false);
    }
  });

  it("refuses a scalar outside [1, n) or a seed that is not 32 bytes with PRODUCER_BAD_KEY_SEED", () => {
    const n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
    expect(codeOf(() => p256FromScalar(0n))).toBe("PRODUCER_BAD_KEY_SEED");
    expect(codeOf(() => p256FromScalar(n))).toBe("PRODUCER_BAD_KEY_SEED");
    expect(codeOf(() => p256FromSeed(new Uint8Array(31)))).toBe("PRODUCER_BAD_KEY_SEED");
  });
});

/** The private scalar p256FromSeed derives, d = (seed mod (n − 1)) + 1, as 32 bytes for noble. */
function scalarBytes(seed: Uint8Array): Uint8Array {
  const n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
  const d = (BigInt("0x" + bytesToHex(seed)) % (n - 1n)) + 1n;
  return Uint8Array.from(Buffer.from(d.toString(16).padStart(64, "0"), "hex"));
}

describe("Ed25519 keys from seeds", () => {
  it("derives the RFC 8032 test 1 public key from its seed, and signs deterministically", () => {
    const seed = Uint8Array.from(
      Buffer.from("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "hex"),
    );
    const signer = ed25519FromSeed(seed);
    expect(signer.publicKeyHex).toBe("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    expect(bytesToHex(signer.sign(new Uint8Array(0)))).toBe(
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    );
    expect(signer.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(createPublicKey(signer.publicKeyPem).export({ format: "der", type: "spki" }).subarray(12)).toEqual(
      Buffer.from(signer.publicKeyRaw),
    );
  });

  it("names seeds by label, 32 bytes each, distinct per label", () => {
    expect(seedFromLabel("producer")).toEqual(sha256(utf8("a2a-evidence producer key seed: producer")));
    expect(seedFromLabel("a")).not.toEqual(seedFromLabel("b"));
  });

  it("refuses a seed that is not 32 bytes with PRODUCER_BAD_KEY_SEED", () => {
    expect(codeOf(() => ed25519FromSeed(new Uint8Array(33)))).toBe("PRODUCER_BAD_KEY_SEED");
  });
});
