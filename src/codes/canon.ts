/** Failure codes of the canonicalizations (pyjson, RFC 8785 JCS, CPB JCS-N). */
export const CANON_CODES = [
  /** A number with a fraction or exponent where the algorithm admits only integers. */
  "CANON_FLOAT",
  /** An integer outside ±(2^53−1) where the algorithm admits only safe integers. */
  "CANON_UNSAFE_INTEGER",
  /** The token `-0`, which JCS-N rejects at the wire level. */
  "CANON_NEGATIVE_ZERO",
  /** A string that is not well-formed UTF-16 has no UTF-8 form. */
  "CANON_LONE_SURROGATE",
  /** Nesting beyond the canonicalizer's depth cap. */
  "CANON_TOO_DEEP",
  /** Two member names equal after Unicode NFC (JCS-N compares names that way). */
  "CANON_DUPLICATE_MEMBER_NFC",
  /** The value handed in is not of the shape the algorithm takes (e.g. not an object). */
  "CANON_NOT_AN_OBJECT",
] as const;
export type CanonCode = (typeof CANON_CODES)[number];
