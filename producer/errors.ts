/**
 * The producer is a build tool, not a verifier: it refuses options it cannot turn into an honest
 * exchange by throwing a ProducerError with a stable code, so a vector definition that asks for
 * the impossible (a leaf outside its log, a key seed of the wrong length) stops the generator
 * instead of silently writing a malformed vector.
 */

export const PRODUCER_CODES = [
  /** An option contradicts another or is out of its domain (e.g. an empty transcript). */
  "PRODUCER_INVALID_OPTION",
  /** A leaf index or tree size outside the log it refers to (MMR or RFC 9162). */
  "PRODUCER_INDEX_OUT_OF_RANGE",
  /** A value the profile's canonicalization cannot serialize (e.g. a lone surrogate). */
  "PRODUCER_CANONICALIZATION",
  /** Key material of the wrong length or outside the curve's scalar range. */
  "PRODUCER_BAD_KEY_SEED",
  /** A witness refused to cosign (unknown log, bad signature, wrong old size, no valid proof). */
  "PRODUCER_WITNESS_REFUSED",
] as const;
export type ProducerCode = (typeof PRODUCER_CODES)[number];

export class ProducerError extends Error {
  readonly code: ProducerCode;
  constructor(code: ProducerCode, detail: string) {
    super(`${code}: ${detail}`);
    this.name = "ProducerError";
    this.code = code;
  }
}
