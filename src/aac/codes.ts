/** Failure codes of the AAC capsule identity and the Producer Envelope. */
export const AAC_CODES = [
  "AAC_CAPSULE_ID_MISMATCH",
] as const;
export type AacCode = (typeof AAC_CODES)[number];
