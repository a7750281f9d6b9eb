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
  // Producer Envelope (content-binding.md §8.3), in its check order
  /** The capsule_id the envelope is checked against is not 64 lowercase hex. */
  "ENVELOPE_CAPSULE_ID_MALFORMED",
  /** The envelope exceeds 4096 bytes. */
  "ENVELOPE_TOO_LARGE",
  /** Not a strict tagged COSE_Sign1 with an integer-labelled protected map, an empty unprotected map and an attached payload. */
  "ENVELOPE_MALFORMED",
  /** The protected alg is not the integer -8 (EdDSA). */
  "ENVELOPE_ALGORITHM_MISMATCH",
  /** The protected content type is not "application/agent-action-capsule-id". */
  "ENVELOPE_CONTENT_TYPE_MISMATCH",
  /** The protected kid is not a 32-byte bstr. */
  "ENVELOPE_KID_INVALID",
  /** The protected labels are not exactly {1, 3, 4}. */
  "ENVELOPE_PROTECTED_HEADERS_INVALID",
  /** The payload is not the raw 32 bytes of capsule_id. */
  "ENVELOPE_PAYLOAD_MISMATCH",
  /** The signature is not 64 bytes or does not verify under kid. */
  "ENVELOPE_SIGNATURE_INVALID",
] as const;
export type AacCode = (typeof AAC_CODES)[number];
