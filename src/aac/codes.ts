/** Failure codes of the AAC capsule identity and the Producer Envelope. */
export const AAC_CODES = [
  // capsule_id (content-binding.md §7.1)
  /** The capsule_id recomputed from the capsule differs from the one it carries. */
  "AAC_CAPSULE_ID_MISMATCH",
  /** A capsule is not a JSON object. */
  "AAC_NOT_AN_OBJECT",
  /** The capsule has no format_version member. */
  "AAC_FORMAT_VERSION_MISSING",
  /** format_version is present but not a string ("4", never 4). */
  "AAC_FORMAT_VERSION_NOT_STRING",
  /** format_version is neither "4" nor the vintage "2" (e.g. "1", the unpublished "3"). */
  "AAC_FORMAT_VERSION_UNSUPPORTED",
  /** A format "4" capsule does not declare canonicalization_id. */
  "AAC_CANONICALIZATION_ID_MISSING",
  /** canonicalization_id is present but not a string (null included). */
  "AAC_CANONICALIZATION_ID_NOT_STRING",
  /** canonicalization_id is not "jcs" on format "4", or is declared at all on format "2". */
  "AAC_CANONICALIZATION_PROFILE_MISMATCH",
  /** The capsule carries no capsule_id to compare with. */
  "AAC_CAPSULE_ID_MISSING",
  /** The carried capsule_id is not exactly 64 lowercase hex characters. */
  "AAC_CAPSULE_ID_MALFORMED",
] as const;
export type AacCode = (typeof AAC_CODES)[number];
