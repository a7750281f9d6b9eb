/** Failure codes of the trust file. All of them exit 2. */
export const TRUST_CODES = [
  /** The trust file is not strict JSON. */
  "TRUST_NOT_JSON",
  /** The trust file does not match schemas/trust-config.schema.json. */
  "TRUST_SCHEMA",
  /** A key in the trust file cannot be imported. */
  "TRUST_KEY_INVALID",
  /** The same authority, service URL or witness id is listed twice. */
  "TRUST_DUPLICATE_ENTRY",
  /** The trust file holds private key material (a PEM private key, a JWK with "d"): refused, named by path. */
  "TRUST_PRIVATE_KEY",
] as const;
export type TrustCode = (typeof TRUST_CODES)[number];
