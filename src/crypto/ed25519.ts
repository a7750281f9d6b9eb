/**
 * Ed25519 (RFC 8032, pure) verification under a raw 32-byte public key, the key form this
 * profile uses everywhere (`key_id` is the raw key in hex, never a hash).
 */
import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { bytesToHex, bytesToLatin1 } from "../util/bytes.js";
import { pointRejection } from "./ed25519-points.js";

/** id-Ed25519 SubjectPublicKeyInfo prefix (RFC 8410): SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING }. */
export const ED25519_SPKI_PREFIX = new Uint8Array([
  0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
]);

/**
 * One bundle names the same key several times (envelope kid, checkpoint key_id, prior checkpoint,
 * trust file), and importing a key costs more than verifying with it: imported keys are kept, a
 * bounded number of them. KeyObjects are immutable, so sharing them is safe.
 */
const imported = new Map<string, KeyObject>();
const MAX_IMPORTED = 256;

/**
 * A KeyObject for a raw Ed25519 public key, or undefined if the bytes are not one. A small-order
 * or non-canonical point is not one: OpenSSL would take it, and under it a signature anyone can
 * make verifies, in every role (trust file, envelope kid, checkpoint key_id, witness).
 */
export function ed25519KeyFromRaw(raw: Uint8Array): KeyObject | undefined {
  if (raw.length !== 32) return undefined;
  const hex = bytesToHex(raw);
  const known = imported.get(hex);
  if (known) return known;
  if (pointRejection(raw) !== null) return undefined;
  let key: KeyObject;
  try {
    // As a JWK, the raw key goes to OpenSSL as it is. As DER (the same key), it would go through
    // OpenSSL's decoder framework, whose first use in a process costs more than the verification.
    const x = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("base64url");
    key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" });
  } catch {
    return undefined;
  }
  if (imported.size >= MAX_IMPORTED) imported.delete(imported.keys().next().value as string);
  imported.set(hex, key);
  return key;
}

/** The raw 32 bytes of an Ed25519 KeyObject. */
export function ed25519RawFromKey(key: KeyObject): Uint8Array | undefined {
  if (key.asymmetricKeyType !== "ed25519") return undefined;
  const der = key.export({ format: "der", type: "spki" });
  return new Uint8Array(der.subarray(der.length - 32));
}

/**
 * Verification is a pure function of (key, message, signature), and a run meets the same triple
 * again and again: the checkpoint every bundle under it names, a receipt shared by a batch, the
 * look at each input's checkpoints before a multi-input run. Outcomes for short messages (every
 * message this profile signs is a digest or a small Sig_structure) are kept per key, bounded.
 */
const outcomes = new WeakMap<KeyObject, Map<string, boolean>>();
const MAX_OUTCOMES_PER_KEY = 1024;
const MAX_REMEMBERED_MESSAGE = 512;

/** Verifies a 64-byte Ed25519 signature; false (never a throw) for any malformed input. */
export function verifyEd25519(key: KeyObject, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64 || key.asymmetricKeyType !== "ed25519") return false;
  const remember = message.length <= MAX_REMEMBERED_MESSAGE;
  let known = remember ? outcomes.get(key) : undefined;
  const id = remember ? bytesToLatin1(signature) + bytesToLatin1(message) : "";
  const seen = known?.get(id);
  if (seen !== undefined) return seen;
  let result: boolean;
  try {
    result = verify(null, message, key, signature);
  } catch {
    result = false;
  }
  if (remember) {
    if (!known) {
      known = new Map();
      outcomes.set(key, known);
    }
    if (known.size >= MAX_OUTCOMES_PER_KEY) known.clear();
    known.set(id, result);
  }
  return result;
}
