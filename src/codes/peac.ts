/**
 * Failure codes of PEAC receipt carriers. Where PEAC registers a code (specs/kernel/errors.json,
 * or verifyLocal's result codes) it is used verbatim, so a report can be compared with PEAC's own
 * verifier; the `PEAC_*` codes are this verifier's, for rules PEAC states without a code.
 */
export const PEAC_CODES = [
  /** The value under the PEAC extension key is not `{ carriers: [≥1 carrier], meta? }`. */
  "PEAC_PAYLOAD_MALFORMED",
  /** A carrier does not match the PeacEvidenceCarrier schema. */
  "PEAC_CARRIER_INVALID",
  /** A carrier's compact JWS is larger than the A2A transport limit (65,536 bytes). */
  "PEAC_CARRIER_OVERSIZE",
  /** A carrier has a receipt_ref but no receipt_jws: nothing to verify offline (never fetched). */
  "PEAC_REFERENCE_ONLY",
  /** receipt_ref is not sha256 of the carried compact JWS. */
  "PEAC_RECEIPT_REF_MISMATCH",
  /** A JWS segment is not canonical unpadded base64url (PEAC's decoder is lenient; this verifier is not). */
  "PEAC_JWS_NONCANONICAL_B64URL",
  /** Two different receipts of one issuer in the Task claim the same jti. */
  "PEAC_DUPLICATE_JTI",
  // PEAC's own codes.
  "E_INVALID_FORMAT",
  "E_JWS_EMBEDDED_KEY",
  "E_JWS_CRIT_REJECTED",
  "E_JWS_B64_REJECTED",
  "E_JWS_ZIP_REJECTED",
  "E_JWS_MISSING_KID",
  "E_IJSON_DUPLICATE_MEMBER_NAME",
  "E_IJSON_NUMBER_OUT_OF_RANGE",
  "E_IJSON_INVALID_STRING",
  "E_WIRE_VERSION_MISMATCH",
  /** A Wire 0.1 (`peac-receipt/0.1`) receipt: frozen, refused by PEAC's Wire 0.2 verifiers. */
  "E_UNSUPPORTED_WIRE_VERSION",
  "E_INVALID_SIGNATURE",
  "E_CONSTRAINT_VIOLATION",
  "E_NOT_YET_VALID",
  "E_OCCURRED_AT_FUTURE",
  "E_EXTENSION_GROUP_REQUIRED",
  "E_EXTENSION_GROUP_MISMATCH",
  /** The trust file pins no key for the receipt's (iss, kid). */
  "E_KEY_NOT_FOUND",
  /** The trust file lists the receipt's kid as revoked for its issuer. */
  "E_REVOKED_KEY_USED",
] as const;
export type PeacCode = (typeof PEAC_CODES)[number];
