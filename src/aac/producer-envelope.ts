/**
 * AAC Producer Envelope (content-binding.md §8): a tagged COSE_Sign1 whose attached payload is the
 * raw 32-byte capsule_id, signed with EdDSA under the raw Ed25519 key carried as kid.
 *
 * The checks run in exactly the §8.3 order shared by the Python, Go and TypeScript ports, and
 * the first failure wins, so a finding code means the same thing here as in every other port.
 * Success authenticates a key, it does not authorize it: which key may speak for an authority is
 * the caller's trust policy (§8.3 step 9).
 */
import type { AacCode } from "../codes/aac.js";
import { decodeSign1, HEADER_ALG, HEADER_CONTENT_TYPE, HEADER_KID, verifySign1 } from "../cose/sign1.js";
import { publicKeyFromRawEd25519 } from "../cose/keys.js";
import { fail, ok, type Result } from "../result.js";
import { bytesEqual, bytesToHex, hexToBytes, isHex64 } from "../util/bytes.js";

export const ENVELOPE_CONTENT_TYPE = "application/agent-action-capsule-id";
/** An implementation limit shared by the ports, not spec text (§8.3 step 0). */
export const ENVELOPE_MAX_BYTES = 4096;
const COSE_ALG_EDDSA = -8;

/** The AAC vectors' finding code for each of our codes (aac/producer-envelope expected.json). */
export const ENVELOPE_FINDING_CODES = {
  ENVELOPE_CAPSULE_ID_MALFORMED: "capsule_id_malformed",
  ENVELOPE_TOO_LARGE: "envelope_too_large",
  ENVELOPE_MALFORMED: "envelope_malformed",
  ENVELOPE_ALGORITHM_MISMATCH: "envelope_algorithm_mismatch",
  ENVELOPE_CONTENT_TYPE_MISMATCH: "envelope_content_type_mismatch",
  ENVELOPE_KID_INVALID: "envelope_kid_invalid",
  ENVELOPE_PROTECTED_HEADERS_INVALID: "envelope_protected_headers_invalid",
  ENVELOPE_PAYLOAD_MISMATCH: "envelope_payload_mismatch",
  ENVELOPE_SIGNATURE_INVALID: "envelope_signature_invalid",
} as const satisfies { readonly [code in AacCode & `ENVELOPE_${string}`]: string };

/** `onSigStructure` sees the exact Sig_structure bytes the signature is checked over (`inspect`). */
export function verifyProducerEnvelope(
  envelope: Uint8Array,
  capsuleIdHex: string,
  onSigStructure?: (toBeSigned: Uint8Array) => void,
): Result<{ publicKeyHex: string }> {
  // Step 0.
  if (!isHex64(capsuleIdHex)) return fail("ENVELOPE_CAPSULE_ID_MALFORMED", "capsule_id must match ^[0-9a-f]{64}$");
  if (envelope.length > ENVELOPE_MAX_BYTES) {
    return fail("ENVELOPE_TOO_LARGE", `${envelope.length} bytes exceeds ${ENVELOPE_MAX_BYTES}`);
  }
  // Step 1: strict decode and the profile's shape.
  const decoded = decodeSign1(envelope);
  if (!decoded.ok) return fail("ENVELOPE_MALFORMED", `${decoded.code}: ${decoded.detail}`, decoded.path);
  const msg = decoded.value;
  if (msg.protectedBytes.length === 0) return fail("ENVELOPE_MALFORMED", "protected header is empty");
  for (const label of msg.protectedHeader.keys()) {
    if (typeof label !== "number")
      return fail("ENVELOPE_MALFORMED", `protected label ${JSON.stringify(label)} is not an integer`);
  }
  if (msg.unprotectedHeader.size !== 0) return fail("ENVELOPE_MALFORMED", "unprotected header must be the empty map");
  if (msg.payload === null) return fail("ENVELOPE_MALFORMED", "payload must be attached");
  // Step 2: typeof first, so a float or boolean can never compare equal to -8.
  const alg = msg.protectedHeader.get(HEADER_ALG);
  if (typeof alg !== "number" || alg !== COSE_ALG_EDDSA)
    return fail("ENVELOPE_ALGORITHM_MISMATCH", "alg must be EdDSA (-8)");
  // Step 3.
  if (msg.protectedHeader.get(HEADER_CONTENT_TYPE) !== ENVELOPE_CONTENT_TYPE) {
    return fail("ENVELOPE_CONTENT_TYPE_MISMATCH", `content type must be "${ENVELOPE_CONTENT_TYPE}"`);
  }
  // Step 4.
  const kid = msg.protectedHeader.get(HEADER_KID);
  if (!(kid instanceof Uint8Array) || kid.length !== 32) {
    return fail("ENVELOPE_KID_INVALID", "kid must be a bstr of the raw 32-byte Ed25519 public key");
  }
  // Step 5: with 1, 3 and 4 present and every label an integer, size 3 means exactly {1, 3, 4}.
  if (msg.protectedHeader.size !== 3)
    return fail("ENVELOPE_PROTECTED_HEADERS_INVALID", "protected labels must be exactly {1, 3, 4}");
  // Step 6: the raw bytes of capsule_id, not its 64 ASCII characters.
  if (!bytesEqual(msg.payload, hexToBytes(capsuleIdHex) as Uint8Array)) {
    return fail("ENVELOPE_PAYLOAD_MISMATCH", "payload is not the raw bytes of capsule_id");
  }
  // Step 7.
  if (msg.signature.length !== 64)
    return fail("ENVELOPE_SIGNATURE_INVALID", `signature is ${msg.signature.length} bytes, not 64`);
  // Step 8: the kid itself is the verification key (self-attested; see the header comment).
  const key = publicKeyFromRawEd25519(kid);
  const verified = key.ok
    ? verifySign1(msg, key.value, onSigStructure !== undefined ? { onSigStructure } : undefined)
    : key;
  if (!verified.ok) return fail("ENVELOPE_SIGNATURE_INVALID", `${verified.code}: ${verified.detail}`);
  return ok({ publicKeyHex: bytesToHex(kid) });
}
