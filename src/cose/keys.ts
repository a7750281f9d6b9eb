/**
 * Public keys for signature verification: raw Ed25519 hex (the profile's `key_id` form), PEM
 * SubjectPublicKeyInfo and JWK, limited to Ed25519, P-256 and P-384 — the curves behind EdDSA,
 * ES256 and ES384 (log-and-receipts.md §1.1).
 *
 * Private key material is refused outright, never reduced to its public half: a trust file that
 * holds a private key is a leak the operator must hear about, not something to paper over.
 */
import { createPublicKey, hash, type JsonWebKey, type KeyObject } from "node:crypto";
import { ED25519_SPKI_PREFIX, ed25519KeyFromRaw, ed25519RawFromKey } from "../crypto/ed25519.js";
import { hasMember, isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { fail, ok, type Result } from "../result.js";
import { base64ToBytesStrict, bytesToHex, hex64ToBytes, hexToBytes } from "../util/bytes.js";

export type KeyAlgorithm = "Ed25519" | "P-256" | "P-384";

export interface PublicKeyInfo {
  readonly key: KeyObject;
  readonly algorithm: KeyAlgorithm;
  /** The raw 32-byte key in lowercase hex, for Ed25519 only: comparable with a bundle's `key_id`. */
  readonly ed25519Hex?: string;
  /** Stable display form: the raw hex for Ed25519, the RFC 9278 JWK thumbprint URI for EC keys. */
  readonly fingerprint: string;
}

/** A key given as 64 lowercase hex (raw Ed25519), PEM SubjectPublicKeyInfo text, or a JWK object. */
export function importPublicKey(spec: JsonValue): Result<PublicKeyInfo> {
  if (typeof spec === "string") {
    const raw = hex64ToBytes(spec);
    if (raw !== undefined) return publicKeyFromRawEd25519(raw);
    if (spec.includes("-----BEGIN")) return importPublicKeyFromPem(spec);
    return fail("KEY_MALFORMED", "a key string must be 64 lowercase hex (raw Ed25519) or PEM text");
  }
  if (isJsonObject(spec)) return importPublicKeyFromJwk(spec);
  return fail("KEY_MALFORMED", "a key must be a string (hex or PEM) or a JWK object");
}

/** The reference implementation's `tsPubkeysB64` form: standard base64 of the PEM text. */
export function importPublicKeyFromBase64Pem(b64: string): Result<PublicKeyInfo> {
  const pem = base64ToBytesStrict(b64);
  if (pem === undefined) return fail("KEY_MALFORMED", "not strict standard base64");
  return importPublicKeyFromPem(Buffer.from(pem).toString("latin1"));
}

export function publicKeyFromRawEd25519(raw: Uint8Array): Result<PublicKeyInfo> {
  const key = ed25519KeyFromRaw(raw);
  if (key === undefined)
    return fail(
      "KEY_MALFORMED",
      raw.length === 32
        ? "not an admissible Ed25519 public key: a small-order or non-canonical point, under which signatures anyone can make verify"
        : `not a raw 32-byte Ed25519 public key (${raw.length} bytes)`,
    );
  const hex = bytesToHex(raw);
  return ok({ key, algorithm: "Ed25519", ed25519Hex: hex, fingerprint: hex });
}

const PEM_BLOCK = /^-----BEGIN ([A-Z0-9 ]+)-----\r?\n((?:[A-Za-z0-9+/=]+\r?\n)+)-----END \1-----(?:\r?\n)?$/;

/** Exactly one PEM block labelled PUBLIC KEY (RFC 7468 SubjectPublicKeyInfo), nothing around it. */
export function importPublicKeyFromPem(pem: string): Result<PublicKeyInfo> {
  const match = PEM_BLOCK.exec(pem);
  if (match === null) return fail("KEY_MALFORMED", "not a single PEM block");
  const label = match[1] as string;
  if (label.includes("PRIVATE")) return fail("KEY_PRIVATE", `PEM ${label} refused: private key material`);
  if (label !== "PUBLIC KEY")
    return fail("KEY_UNSUPPORTED", `PEM ${label}: only PUBLIC KEY (SubjectPublicKeyInfo) is accepted`);
  const der = base64ToBytesStrict((match[2] as string).replace(/\r?\n/g, ""));
  if (der === undefined) return fail("KEY_MALFORMED", "PEM body is not strict base64");
  if (!oneDerValue(der))
    return fail("KEY_MALFORMED", "the PEM body is not one definite-length DER SEQUENCE with nothing after it");
  const plain = plainSpki(der);
  if (plain !== undefined) return plain;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(der), format: "der", type: "spki" });
  } catch (e) {
    return fail("KEY_MALFORMED", `not a SubjectPublicKeyInfo: ${e instanceof Error ? e.message : String(e)}`);
  }
  return describe(key);
}

/**
 * The bytes are one definite-length SEQUENCE and nothing after it. OpenSSL reads a
 * SubjectPublicKeyInfo and ignores whatever follows it (and takes BER's indefinite length); such
 * a key is refused here instead.
 */
function oneDerValue(der: Uint8Array): boolean {
  if (der.length < 2 || der[0] !== 0x30) return false;
  const first = der[1] as number;
  if (first < 0x80) return der.length === 2 + first;
  const n = first & 0x7f;
  if (n === 0 || n > 3 || der.length < 2 + n) return false;
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + (der[2 + i] as number);
  return der.length === 2 + n + length;
}

/**
 * The SubjectPublicKeyInfo prefixes of the three supported keys in their one plain encoding
 * (RFC 8410; RFC 5480 with a named curve and an uncompressed point), and the curve's field size.
 */
const SPKI_FORMS: readonly {
  readonly prefix: Uint8Array;
  readonly crv: "Ed25519" | "P-256" | "P-384";
  readonly bytes: number;
}[] = [
  { prefix: ED25519_SPKI_PREFIX, crv: "Ed25519", bytes: 32 },
  {
    // SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING { 04 || X || Y } }
    prefix: hexToBytes("3059301306072a8648ce3d020106082a8648ce3d030107034200") as Uint8Array,
    crv: "P-256",
    bytes: 32,
  },
  {
    // SEQUENCE { SEQUENCE { id-ecPublicKey, secp384r1 }, BIT STRING { 04 || X || Y } }
    prefix: hexToBytes("3076301006072a8648ce3d020106052b81040022036200") as Uint8Array,
    crv: "P-384",
    bytes: 48,
  },
];

/**
 * A SubjectPublicKeyInfo in one of SPKI_FORMS, imported from its raw key or coordinates (as a
 * JWK), which is the same key: as DER it would go through OpenSSL's decoder framework, whose
 * first use in a process costs more than a verification. Undefined for any other DER, and for
 * coordinates OpenSSL refuses, so that the DER import decides (and words) every refusal.
 */
function plainSpki(der: Uint8Array): Result<PublicKeyInfo> | undefined {
  for (const form of SPKI_FORMS) {
    const { prefix, bytes } = form;
    const ec = form.crv !== "Ed25519";
    if (der.length !== prefix.length + (ec ? 1 + 2 * bytes : bytes)) continue;
    let same = true;
    for (let i = 0; i < prefix.length && same; i++) same = der[i] === prefix[i];
    if (!same) continue;
    const body = der.subarray(prefix.length);
    if (!ec) return publicKeyFromRawEd25519(body);
    if (body[0] !== 0x04) return undefined;
    const b64 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64url");
    const jwk: JsonWebKey = {
      kty: "EC",
      crv: form.crv,
      x: b64(body.subarray(1, 1 + bytes)),
      y: b64(body.subarray(1 + bytes)),
    };
    try {
      return describe(createPublicKey({ key: jwk, format: "jwk" }));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const JWK_CURVES: { readonly [crv: string]: { readonly kty: string; readonly bytes: number } } = {
  Ed25519: { kty: "OKP", bytes: 32 },
  "P-256": { kty: "EC", bytes: 32 },
  "P-384": { kty: "EC", bytes: 48 },
};

function importPublicKeyFromJwk(jwk: JsonObject): Result<PublicKeyInfo> {
  if (hasMember(jwk, "d")) return fail("KEY_PRIVATE", 'JWK has "d": private key material refused');
  const kty = member(jwk, "kty");
  const crv = member(jwk, "crv");
  if (typeof kty !== "string") return fail("KEY_MALFORMED", 'JWK "kty" must be a string');
  if (kty !== "OKP" && kty !== "EC") return fail("KEY_UNSUPPORTED", `JWK kty ${JSON.stringify(kty)}: only OKP and EC`);
  if (typeof crv !== "string") return fail("KEY_MALFORMED", 'JWK "crv" must be a string');
  const curve = Object.prototype.hasOwnProperty.call(JWK_CURVES, crv) ? JWK_CURVES[crv] : undefined;
  if (curve === undefined || curve.kty !== kty)
    return fail("KEY_UNSUPPORTED", `JWK ${kty} curve ${JSON.stringify(crv)} is not supported`);
  const x = coordinate(jwk, "x", curve.bytes);
  if (!x.ok) return x;
  if (kty === "OKP") return publicKeyFromRawEd25519(x.value);
  const y = coordinate(jwk, "y", curve.bytes);
  if (!y.ok) return y;
  // Only the members that define the key reach node:crypto; "kid", "use", "alg" are not its business.
  const plain: JsonWebKey = { kty, crv, x: member(jwk, "x") as string, y: member(jwk, "y") as string };
  try {
    return describe(createPublicKey({ key: plain, format: "jwk" }));
  } catch (e) {
    return fail("KEY_MALFORMED", `JWK is not a point on ${crv}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** A JWK coordinate: unpadded base64url (RFC 7518 §6.2.1.2) of exactly the curve's byte length. */
function coordinate(jwk: JsonObject, name: string, length: number): Result<Uint8Array> {
  const text = member(jwk, name);
  if (typeof text !== "string" || !BASE64URL.test(text))
    return fail("KEY_MALFORMED", `JWK "${name}" must be base64url text`);
  const bytes = new Uint8Array(Buffer.from(text, "base64url"));
  // Re-encoding catches non-zero trailing bits and lengths that are not a whole number of bytes.
  if (Buffer.from(bytes).toString("base64url") !== text || bytes.length !== length) {
    return fail("KEY_MALFORMED", `JWK "${name}" must encode exactly ${length} bytes`);
  }
  return ok(bytes);
}

function describe(key: KeyObject): Result<PublicKeyInfo> {
  // Through the raw key, so a DER form gets the same admissibility check as the others.
  if (key.asymmetricKeyType === "ed25519") return publicKeyFromRawEd25519(ed25519RawFromKey(key) as Uint8Array);
  const curve = key.asymmetricKeyType === "ec" ? key.asymmetricKeyDetails?.namedCurve : undefined;
  const algorithm = curve === "prime256v1" ? "P-256" : curve === "secp384r1" ? "P-384" : undefined;
  if (algorithm === undefined) {
    return fail(
      "KEY_UNSUPPORTED",
      `${key.asymmetricKeyType ?? "unknown"} key${curve ? ` on ${curve}` : ""}: only Ed25519, P-256, P-384`,
    );
  }
  return ok({ key, algorithm, fingerprint: jwkThumbprintUri(key) });
}

/**
 * RFC 7638 thumbprint of an EC key: SHA-256 over the required members in lexicographic order with
 * no whitespace. Every value is a curve name or base64url, so no JSON escaping can arise.
 */
function jwkThumbprintUri(key: KeyObject): string {
  const { crv, x, y } = key.export({ format: "jwk" });
  const canonical = `{"crv":"${crv}","kty":"EC","x":"${x}","y":"${y}"}`;
  const digest = hash("sha256", canonical, "base64url");
  return `urn:ietf:params:oauth:jwk-thumbprint:sha-256:${digest}`;
}
