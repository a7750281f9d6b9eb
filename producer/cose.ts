/**
 * COSE_Sign1 (RFC 9052 §4.2) as the profile's producers write it. Header maps keep the order the
 * producer chose, not canonical CBOR order: the reference writes the Producer Envelope's protected
 * map as labels 3, 4, 1 and the local Transparency Service's as 395, 1, and a verifier must sign
 * and verify over those bytes as they are, never a re-encoding. Reproducing the orders here makes
 * every generated vector exercise that rule.
 */
import { encode } from "cborg";
import { concatBytes } from "../src/util/bytes.js";

/** A CBOR value as cborg encodes it; Maps keep insertion order under `encodeCbor`. */
export type CborValue = number | string | null | Uint8Array | CborValue[] | Map<number, CborValue>;

/** Definite-length CBOR with map entries in insertion order (no re-sorting). */
export function encodeCbor(value: CborValue): Uint8Array {
  return encode(value, { mapSorter: () => 0 });
}

/** The tag-18 prefix: major type 6, value 18 fits the initial byte. */
const COSE_SIGN1_TAG = Uint8Array.of(0xd2);

/** Sig_structure = ["Signature1", protected bstr as sent, external_aad h'', payload]. */
export function sigStructure1(protectedBytes: Uint8Array, payload: Uint8Array): Uint8Array {
  return encodeCbor(["Signature1", protectedBytes, new Uint8Array(0), payload]);
}

export interface Sign1Parts {
  /** Protected header entries, in the order they are to be encoded. */
  readonly protectedHeader: ReadonlyArray<readonly [number, CborValue]>;
  readonly unprotectedHeader: Map<number, CborValue>;
  /** The signed payload. */
  readonly payload: Uint8Array;
  /** True when the payload is detached: the message carries nil and the verifier supplies it. */
  readonly detached: boolean;
  readonly sign: (toBeSigned: Uint8Array) => Uint8Array;
}

/** The tagged COSE_Sign1 bytes. */
export function coseSign1(parts: Sign1Parts): Uint8Array {
  const protectedBytes = encodeCbor(new Map(parts.protectedHeader));
  const signature = parts.sign(sigStructure1(protectedBytes, parts.payload));
  const body = encodeCbor([protectedBytes, parts.unprotectedHeader, parts.detached ? null : parts.payload, signature]);
  return concatBytes(COSE_SIGN1_TAG, body);
}
