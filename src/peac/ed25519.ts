/**
 * PEAC's Ed25519 profile (crypto/src/ed25519.ts, internal/ed25519-admissibility.ts): before the
 * cofactorless RFC 8032 check, the public key A and the signature's R must be admissible point
 * encodings and S must be reduced. OpenSSL (node:crypto) alone accepts small-order keys and R
 * values, and a non-canonical y, that PEAC rejects (ed25519-speccheck cases 0, 1, 2 and 11), so a
 * signature node:crypto accepts is not yet a signature PEAC accepts.
 */
import { ed25519KeyFromRaw, verifyEd25519 } from "../crypto/ed25519.js";
import { isReducedScalar, pointRejection } from "../crypto/ed25519-points.js";

export { pointRejection, type PointRejection } from "../crypto/ed25519-points.js";

export type SignatureVerdict = { readonly valid: true } | { readonly valid: false; readonly reason: string };

/** PEAC profile Ed25519 verification of `signature` over `message` under the raw key `publicKeyRaw`. */
export function verifyPeacEd25519(
  publicKeyRaw: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): SignatureVerdict {
  if (publicKeyRaw.length !== 32) return { valid: false, reason: `public key is ${publicKeyRaw.length} bytes, not 32` };
  if (signature.length !== 64)
    return { valid: false, reason: `Ed25519 signature has invalid length (${signature.length} bytes, not 64)` };
  const a = pointRejection(publicKeyRaw);
  if (a !== null) return { valid: false, reason: `public key rejected by the PEAC Ed25519 profile (${a})` };
  if (!isReducedScalar(signature.subarray(32)))
    return { valid: false, reason: "signature scalar S is not reduced (S ≥ L)" };
  const r = pointRejection(signature.subarray(0, 32));
  if (r !== null) return { valid: false, reason: `signature R rejected by the PEAC Ed25519 profile (${r})` };
  const key = ed25519KeyFromRaw(publicKeyRaw);
  if (key === undefined) return { valid: false, reason: "public key is not an Ed25519 point" };
  return verifyEd25519(key, message, signature)
    ? { valid: true }
    : { valid: false, reason: "Ed25519 signature verification failed" };
}
