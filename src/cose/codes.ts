/** Failure codes of strict CBOR decoding, COSE_Sign1 verification and key import. */
export const COSE_CODES = [
  "CBOR_MALFORMED",
] as const;
export type CoseCode = (typeof COSE_CODES)[number];
