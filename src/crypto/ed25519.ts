/**
 * Ed25519 (RFC 8032, pure) verification under a raw 32-byte public key, the key form this
 * profile uses everywhere (`key_id` is the raw key in hex, never a hash).
 */
import { createPublicKey, verify, type KeyObject } from "node:crypto";

/** id-Ed25519 SubjectPublicKeyInfo prefix (RFC 8410): SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING }. */
const ED25519_SPKI_PREFIX = new Uint8Array([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

/** A KeyObject for a raw Ed25519 public key, or undefined if the bytes are not one. */
export function ed25519KeyFromRaw(raw: Uint8Array): KeyObject | undefined {
  if (raw.length !== 32) return undefined;
  const der = Buffer.concat([ED25519_SPKI_PREFIX, raw]);
  try {
    return createPublicKey({ key: der, format: "der", type: "spki" });
  } catch {
    return undefined;
  }
}

/** The raw 32 bytes of an Ed25519 KeyObject. */
export function ed25519RawFromKey(key: KeyObject): Uint8Array | undefined {
  if (key.asymmetricKeyType !== "ed25519") return undefined;
  const der = key.export({ format: "der", type: "spki" });
  return new Uint8Array(der.subarray(der.length - 32));
}

/** Verifies a 64-byte Ed25519 signature; false (never a throw) for any malformed input. */
export function verifyEd25519(key: KeyObject, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64 || key.asymmetricKeyType !== "ed25519") return false;
  try {
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}
