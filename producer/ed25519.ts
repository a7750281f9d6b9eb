/**
 * Ed25519 signing keys derived from fixed seeds, so every generated vector is byte-reproducible
 * (RFC 8032 signatures are deterministic). The public key is exported the way the profile names
 * it: raw 32 bytes, as lowercase hex (`key_id`, trust files) and as PEM SubjectPublicKeyInfo.
 */
import { createPrivateKey, createPublicKey, sign, type KeyObject } from "node:crypto";
import { bytesToHex, sha256, utf8 } from "../src/util/bytes.js";
import { ProducerError } from "./errors.js";

/** RFC 8410 PKCS#8 prefix for an Ed25519 private key whose 32-byte seed follows. */
const PKCS8_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

export interface Ed25519Signer {
  readonly alg: "EdDSA";
  readonly publicKeyRaw: Uint8Array;
  /** `key_id` form: lowercase hex of the raw public key, not a hash of it. */
  readonly publicKeyHex: string;
  readonly publicKeyPem: string;
  sign(message: Uint8Array): Uint8Array;
}

/** A 32-byte seed named by a label, so vectors can say which key they use without shipping it. */
export function seedFromLabel(label: string): Uint8Array {
  return sha256(utf8(`a2a-evidence producer key seed: ${label}`));
}

export function ed25519FromSeed(seed: Uint8Array): Ed25519Signer {
  if (seed.length !== 32)
    throw new ProducerError("PRODUCER_BAD_KEY_SEED", `Ed25519 seed must be 32 bytes, got ${seed.length}`);
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
  const publicKey = createPublicKey(privateKey);
  const spki = publicKey.export({ format: "der", type: "spki" });
  const publicKeyRaw = new Uint8Array(spki.subarray(spki.length - 32));
  return {
    alg: "EdDSA",
    publicKeyRaw,
    publicKeyHex: bytesToHex(publicKeyRaw),
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}
