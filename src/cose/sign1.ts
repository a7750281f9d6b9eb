/**
 * COSE_Sign1 (RFC 9052 §4.2, §4.4) as log-and-receipts.md §1.3 requires it: tag 18, strict CBOR
 * outside and inside the protected bstr, the protected bytes kept exactly as received (producers
 * order header maps differently; re-encoding would break valid signatures), alg read only from
 * the protected header, `crit` enforced, a detached payload supplied by the caller.
 */
import { verify } from "node:crypto";
import { verifyEd25519 } from "../crypto/ed25519.js";
import { fail, ok, type Result } from "../result.js";
import { CborTagged, decodeStrictCbor, describeCbor, encodeSigStructure, type CborKey, type CborMap } from "./cbor.js";
import type { KeyAlgorithm, PublicKeyInfo } from "./keys.js";

export interface Sign1 {
  /** The protected header bstr content exactly as received: what the signature covers. */
  readonly protectedBytes: Uint8Array;
  readonly protectedHeader: CborMap;
  readonly unprotectedHeader: CborMap;
  /** Attached payload, or null when detached (the caller supplies it to verifySign1). */
  readonly payload: Uint8Array | null;
  readonly signature: Uint8Array;
}

export const HEADER_ALG = 1;
export const HEADER_CRIT = 2;
export const HEADER_CONTENT_TYPE = 3;
export const HEADER_KID = 4;

const COSE_SIGN1_TAG = 18;

export function decodeSign1(bytes: Uint8Array): Result<Sign1> {
  const decoded = decodeStrictCbor(bytes, { tags: [COSE_SIGN1_TAG] });
  if (!decoded.ok) return decoded;
  const message = decoded.value;
  if (!(message instanceof CborTagged)) return fail("COSE_UNTAGGED", "a COSE_Sign1 must carry tag 18");
  const parts = message.value as unknown;
  if (!Array.isArray(parts) || parts.length !== 4)
    return fail("COSE_STRUCTURE_INVALID", "COSE_Sign1 must be a 4-element array");
  const [protectedBytes, unprotectedHeader, payload, signature] = parts as unknown[];
  if (!(protectedBytes instanceof Uint8Array))
    return fail("COSE_STRUCTURE_INVALID", "protected header must be a bstr", "[0]");
  if (!(unprotectedHeader instanceof Map))
    return fail("COSE_STRUCTURE_INVALID", "unprotected header must be a map", "[1]");
  if (payload !== null && !(payload instanceof Uint8Array)) {
    return fail("COSE_STRUCTURE_INVALID", "payload must be a bstr or nil", "[2]");
  }
  if (!(signature instanceof Uint8Array)) return fail("COSE_STRUCTURE_INVALID", "signature must be a bstr", "[3]");
  const protectedHeader = decodeProtected(protectedBytes);
  if (!protectedHeader.ok) return protectedHeader;
  for (const label of unprotectedHeader.keys()) {
    // RFC 9052 §3: a label MUST NOT occur in both buckets; otherwise which one is read is a choice
    // an attacker gets to exploit (the unprotected one is not signed).
    if (protectedHeader.value.has(label)) {
      return fail("COSE_HEADER_DUPLICATE_LABEL", `label ${String(label)} is in both headers`, "[1]");
    }
  }
  return ok({
    protectedBytes,
    protectedHeader: protectedHeader.value,
    unprotectedHeader: unprotectedHeader as CborMap,
    payload,
    signature,
  });
}

/** The protected bstr is empty (an empty map) or the strict encoding of a map (RFC 9052 §3). */
function decodeProtected(bytes: Uint8Array): Result<CborMap> {
  if (bytes.length === 0) return ok(new Map());
  const header = decodeStrictCbor(bytes);
  if (!header.ok) return fail(header.code, `protected header: ${header.detail}`, "[0]");
  if (!(header.value instanceof Map)) return fail("COSE_STRUCTURE_INVALID", "protected header is not a map", "[0]");
  return ok(header.value);
}

interface AlgorithmSpec {
  readonly key: KeyAlgorithm;
  readonly signatureLength: number;
  readonly hash: "sha256" | "sha384" | null;
}

const ALGORITHMS: ReadonlyMap<number, AlgorithmSpec> = new Map([
  [-8, { key: "Ed25519", signatureLength: 64, hash: null }], // EdDSA (pure Ed25519)
  [-7, { key: "P-256", signatureLength: 64, hash: "sha256" }], // ES256, r‖s
  [-35, { key: "P-384", signatureLength: 96, hash: "sha384" }], // ES384, r‖s
]);

/**
 * alg from the protected header only. An unprotected alg is never consulted: alone it leaves alg
 * missing (COSE_ALG_MISSING), next to a protected one decodeSign1 has already refused the message.
 */
export function protectedAlg(msg: Sign1): Result<number> {
  const alg = msg.protectedHeader.get(HEADER_ALG);
  if (alg === undefined) return fail("COSE_ALG_MISSING", "the protected header has no alg (label 1)");
  if (typeof alg !== "number" || !ALGORITHMS.has(alg)) {
    return fail("COSE_ALG_UNSUPPORTED", `alg ${describeCbor(alg)} is not EdDSA (-8), ES256 (-7) or ES384 (-35)`);
  }
  return ok(alg);
}

/**
 * RFC 9052 §3.1 crit: a non-empty array of labels, each present in the protected header and
 * understood by the caller. alg (1) is always understood here, since verifySign1 processes it.
 */
export function checkCrit(msg: Sign1, understood: ReadonlyArray<CborKey>): Result<void> {
  if (msg.unprotectedHeader.has(HEADER_CRIT)) return fail("COSE_CRIT_INVALID", "crit must be in the protected header");
  const crit = msg.protectedHeader.get(HEADER_CRIT);
  if (crit === undefined) return ok(undefined);
  if (!Array.isArray(crit) || crit.length === 0) return fail("COSE_CRIT_INVALID", "crit must be a non-empty array");
  for (const label of crit) {
    if (typeof label !== "number" && typeof label !== "string") {
      return fail("COSE_CRIT_INVALID", `crit entry ${describeCbor(label)} is not a label`);
    }
    if (!msg.protectedHeader.has(label))
      return fail("COSE_CRIT_LABEL_ABSENT", `crit label ${String(label)} is not in the protected header`);
    if (label !== HEADER_ALG && !understood.includes(label))
      return fail("COSE_CRIT_UNKNOWN", `crit label ${String(label)} is not understood`);
  }
  return ok(undefined);
}

export interface VerifySign1Options {
  /** The payload for a message whose payload is nil (detached). */
  readonly detachedPayload?: Uint8Array;
  readonly externalAad?: Uint8Array;
  /** Labels the caller processes and may therefore accept in crit. */
  readonly understoodCritLabels?: ReadonlyArray<CborKey>;
  /** Sees the exact Sig_structure bytes the signature is checked over (for `inspect`); changes nothing. */
  readonly onSigStructure?: (toBeSigned: Uint8Array) => void;
}

export function verifySign1(msg: Sign1, key: PublicKeyInfo, options: VerifySign1Options = {}): Result<{ alg: number }> {
  const alg = protectedAlg(msg);
  if (!alg.ok) return alg;
  const crit = checkCrit(msg, options.understoodCritLabels ?? []);
  if (!crit.ok) return crit;
  const spec = ALGORITHMS.get(alg.value) as AlgorithmSpec;
  if (key.algorithm !== spec.key) {
    return fail("COSE_KEY_ALG_MISMATCH", `alg ${alg.value} needs a ${spec.key} key, got ${key.algorithm}`);
  }
  if (msg.payload !== null && options.detachedPayload !== undefined) {
    return fail("COSE_PAYLOAD_AMBIGUOUS", "payload is attached and a detached payload was supplied too");
  }
  const payload = msg.payload ?? options.detachedPayload;
  if (payload === undefined) return fail("COSE_PAYLOAD_MISSING", "payload is detached and none was supplied");
  if (msg.signature.length !== spec.signatureLength) {
    return fail(
      "COSE_SIGNATURE_LENGTH",
      `alg ${alg.value} signature must be ${spec.signatureLength} bytes, got ${msg.signature.length}`,
    );
  }
  const toBeSigned = sigStructure(msg.protectedBytes, options.externalAad ?? new Uint8Array(0), payload);
  options.onSigStructure?.(toBeSigned);
  const valid =
    spec.hash === null
      ? verifyEd25519(key.key, toBeSigned, msg.signature)
      : verifyEcdsa(spec.hash, key, toBeSigned, msg.signature);
  if (!valid) return fail("COSE_SIGNATURE_INVALID", "signature does not verify over Sig_structure");
  return ok({ alg: alg.value });
}

/** RFC 9052 §4.4 Sig_structure for COSE_Sign1, over the protected bytes as received. */
export function sigStructure(protectedBytes: Uint8Array, externalAad: Uint8Array, payload: Uint8Array): Uint8Array {
  return encodeSigStructure(protectedBytes, externalAad, payload);
}

/** ECDSA with the raw r‖s signature COSE uses (RFC 9053 §2.1), not DER. */
function verifyEcdsa(
  hash: "sha256" | "sha384",
  key: PublicKeyInfo,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  try {
    return verify(hash, message, { key: key.key, dsaEncoding: "ieee-p1363" }, signature);
  } catch {
    return false;
  }
}
