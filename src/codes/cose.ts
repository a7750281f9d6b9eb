/** Failure codes of strict CBOR decoding, COSE_Sign1 verification and key import. */
export const COSE_CODES = [
  // Strict CBOR decoding (src/cose/cbor.ts).
  "CBOR_MALFORMED", // not well-formed CBOR: reserved byte, simple value, undefined, NaN/Infinity, …
  "CBOR_TRUNCATED", // the input ends inside a data item (or is empty)
  "CBOR_TRAILING_BYTES", // bytes follow the single top-level data item
  "CBOR_INDEFINITE_LENGTH", // an indefinite-length string, array or map (or a break code)
  "CBOR_NON_MINIMAL", // an integer, length or tag number not in its shortest encoding
  "CBOR_DUPLICATE_KEY", // a map repeats a key
  "CBOR_MAP_KEY_TYPE", // a map key that is neither an integer nor a text string
  "CBOR_INVALID_UTF8", // a text string whose bytes are not valid UTF-8
  "CBOR_TAG_UNSUPPORTED", // a tag the caller does not accept at all (COSE_Sign1 accepts only 18)
  "CBOR_NOT_CANONICAL_LENGTH", // the canonical re-encoding has a different length (e.g. a float wider than needed)
  "CBOR_TOO_LARGE", // the input exceeds the size cap (10 MiB for a COSE message)
  "CBOR_TOO_DEEP", // nesting exceeds the depth cap
  "CBOR_TYPE_MISMATCH", // a decoded value has the wrong type (e.g. a boolean or float where an integer is required)
  "CBOR_INTEGER_RANGE", // an integer outside the range a field allows (negative, or beyond 2^53 − 1)
  // COSE_Sign1 structure and verification (src/cose/sign1.ts).
  "COSE_UNTAGGED", // the message is not wrapped in CBOR tag 18 (COSE_Sign1)
  "COSE_STRUCTURE_INVALID", // not [protected bstr, unprotected map, payload bstr/nil, signature bstr]
  "COSE_HEADER_DUPLICATE_LABEL", // a label appears in both the protected and the unprotected header
  "COSE_ALG_MISSING", // the protected header has no alg (an unprotected alg is never used)
  "COSE_ALG_UNSUPPORTED", // alg is not an integer among EdDSA (−8), ES256 (−7), ES384 (−35)
  "COSE_CRIT_INVALID", // crit is not a non-empty array of labels, or sits in the unprotected header
  "COSE_CRIT_LABEL_ABSENT", // crit lists a label the protected header does not contain
  "COSE_CRIT_UNKNOWN", // crit lists a label this verifier does not understand
  "COSE_KEY_ALG_MISMATCH", // the verification key's type does not match alg
  "COSE_PAYLOAD_MISSING", // detached (nil) payload and the caller supplied none
  "COSE_PAYLOAD_AMBIGUOUS", // attached payload and the caller also supplied a detached one
  "COSE_SIGNATURE_LENGTH", // the signature has the wrong length for alg
  "COSE_SIGNATURE_INVALID", // the signature does not verify over Sig_structure
  // Public key import (src/cose/keys.ts).
  "KEY_MALFORMED", // not a parseable raw key, PEM SubjectPublicKeyInfo or JWK
  "KEY_UNSUPPORTED", // a well-formed key of another type or curve (RSA, P-521, X25519, …)
  "KEY_PRIVATE", // private key material (PEM PRIVATE KEY, JWK with "d"): refused outright
] as const;
export type CoseCode = (typeof COSE_CODES)[number];
