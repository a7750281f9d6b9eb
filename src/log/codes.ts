/** Failure codes of the log proofs: MMR, CLL checkpoint, RFC 9162, CCF and COSE receipts. */
export const LOG_CODES = [
  "MMR_SIZE_INVALID",
] as const;
export type LogCode = (typeof LOG_CODES)[number];
