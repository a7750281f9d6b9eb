/** Failure codes of `verify-card` that stop it before any signature is judged. All of them exit 2. */
export const CARD_CODES = [
  /** The card is not strict JSON, or not an object. */
  "CARD_NOT_JSON",
  /** The card is not a v1.0 Agent Card (a v0.3 shape, a member of the wrong type, a field under both its JSON and proto names). */
  "CARD_MALFORMED",
] as const;
export type CardCode = (typeof CARD_CODES)[number];
