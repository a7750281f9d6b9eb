/** Failure codes of keys over time (contract §5.1): a pinned key's window, judged at a trusted time. */
export const KEY_WINDOW_CODES = [
  "KEY_REVOKED", // the key is revoked and nothing independent shows the object existed before revokedAt (a service or witness signature: not counted)
  "KEY_VALIDITY_UNPROVEN", // the key's validUntil has passed, or no trusted time shows the object was signed before it
  "KEY_NOT_YET_VALID", // the object provably existed before the key's validFrom
] as const;
export type KeyWindowCode = (typeof KEY_WINDOW_CODES)[number];
