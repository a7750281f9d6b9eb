/**
 * Keys a trust file pins for Agent Card signatures (JWS, a2a-wire.md §7.2): the project's key
 * forms (raw Ed25519 hex, PEM SubjectPublicKeyInfo, public JWK) for Ed25519, P-256 and P-384, and
 * RSA (≥ 2048 bits) as PEM or JWK, for RS256/PS256 cards. A JWK's `kid` is kept, so a signature's
 * `kid` can pick its key; private key material is refused, as everywhere else.
 */
import { createPublicKey, hash, type JsonWebKey, type KeyObject } from "node:crypto";
import { hasMember, isJsonObject, member, type JsonValue } from "../json/value.js";
import { importPublicKey } from "../cose/keys.js";
import { fail, ok, type Result } from "../result.js";

export type AgentKeyType = "Ed25519" | "P-256" | "P-384" | "RSA";

export interface AgentKey {
  readonly key: KeyObject;
  readonly type: AgentKeyType;
  /** The JWK's `kid`, when the key was given as a JWK that has one. */
  readonly kid?: string;
  /** Raw hex (Ed25519) or the RFC 7638 thumbprint URI, for reports. */
  readonly fingerprint: string;
}

const MIN_RSA_BITS = 2048;

function rsaKey(spec: JsonValue): KeyObject | undefined {
  try {
    if (typeof spec === "string" && spec.includes("-----BEGIN PUBLIC KEY-----")) return createPublicKey(spec);
    if (
      isJsonObject(spec) &&
      member(spec, "kty") === "RSA" &&
      typeof member(spec, "n") === "string" &&
      typeof member(spec, "e") === "string"
    ) {
      const jwk: JsonWebKey = { kty: "RSA", n: member(spec, "n") as string, e: member(spec, "e") as string };
      return createPublicKey({ key: jwk, format: "jwk" });
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function rsaThumbprint(key: KeyObject): string {
  const { e, n } = key.export({ format: "jwk" });
  const digest = hash("sha256", `{"e":"${e}","kty":"RSA","n":"${n}"}`, "base64url");
  return `urn:ietf:params:oauth:jwk-thumbprint:sha-256:${digest}`;
}

export function importAgentKey(spec: JsonValue): Result<AgentKey> {
  const kid =
    isJsonObject(spec) && typeof member(spec, "kid") === "string" ? { kid: member(spec, "kid") as string } : {};
  const r = importPublicKey(spec);
  if (r.ok) return ok({ key: r.value.key, type: r.value.algorithm, fingerprint: r.value.fingerprint, ...kid });
  if (r.code !== "KEY_UNSUPPORTED") return r;
  if (isJsonObject(spec) && (hasMember(spec, "d") || hasMember(spec, "p")))
    return fail("KEY_PRIVATE", "JWK carries private key material");
  const key = rsaKey(spec);
  if (!key || key.type !== "public" || key.asymmetricKeyType !== "rsa") return r;
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS)
    return fail("KEY_UNSUPPORTED", `RSA key of ${bits} bits: at least ${MIN_RSA_BITS} are required`);
  return ok({ key, type: "RSA", fingerprint: rsaThumbprint(key), ...kid });
}
