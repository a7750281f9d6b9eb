/**
 * Strict decode of a Wire 0.2 compact JWS (`interaction-record+jwt`), in PEAC's order
 * (WIRE-0.2 §10; crypto/src/jws.ts): size, three segments, header through the I-JSON gate,
 * alg/typ, JOSE hardening and kid, payload through the I-JSON gate, typ/peac_version coherence.
 * Format errors are reported before any signature check ("format first"). Stricter than PEAC in
 * two places, both documented: segments must be canonical base64url, and `typ` is required
 * (PEAC's strict profile).
 */
import { hasMember, isJsonObject, member, type JsonObject } from "../json/value.js";
import { base64urlDecodeStrict } from "./base64url.js";
import type { PeacCode } from "../codes/peac.js";
import { MAX_KID_UTF8_BYTES, MAX_RECEIPT_BYTES, WIRE_01_TYP, WIRE_02_TYP, WIRE_02_TYP_MEDIA } from "./constants.js";
import { parseIJson } from "./ijson.js";
import { printable } from "../util/printable.js";
import { showValue } from "../json/diff.js";

export interface DecodedJws {
  readonly wire: "0.2" | "0.1";
  readonly header: JsonObject;
  readonly payload: JsonObject;
  readonly kid: string;
  /** The ASCII bytes of `<header_b64>.<payload_b64>`, exactly as received. */
  readonly signingInput: Uint8Array;
  readonly signature: Uint8Array;
}

export type JwsDecodeResult =
  | { readonly ok: true; readonly value: DecodedJws }
  | { readonly ok: false; readonly code: PeacCode; readonly detail: string };

/** An attacker's header or payload value, short and printable. */
const shown = (v: Parameters<typeof showValue>[0]): string => printable(showValue(v));

const bad = (code: PeacCode, detail: string): JwsDecodeResult => ({ ok: false, code, detail });

/** JOSE members that carry or point at key material: a receipt never names its own key. */
const EMBEDDED_KEY_MEMBERS = ["jwk", "x5c", "x5u", "jku"] as const;

/** No lone surrogates (a kid must have one UTF-8 form to be measured and compared). */
export function isWellFormedUnicode(s: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

export function isWellFormedKid(kid: unknown): kid is string {
  if (typeof kid !== "string" || kid.length === 0 || !isWellFormedUnicode(kid)) return false;
  return Buffer.byteLength(kid, "utf8") <= MAX_KID_UTF8_BYTES;
}

function segment(text: string, name: string): Uint8Array | JwsDecodeResult {
  const bytes = base64urlDecodeStrict(text);
  return bytes ?? bad("PEAC_JWS_NONCANONICAL_B64URL", `the ${name} segment is not canonical unpadded base64url`);
}

export function decodeCompactJws(jws: string): JwsDecodeResult {
  // The carrier pattern already limits receipt_jws to ASCII, so its length is its byte length.
  if (jws.length > MAX_RECEIPT_BYTES)
    return bad("E_INVALID_FORMAT", `JWS exceeds maximum size of ${MAX_RECEIPT_BYTES} bytes`);
  const parts = jws.split(".");
  if (parts.length !== 3)
    return bad("E_INVALID_FORMAT", `a compact JWS has three dot-separated parts, not ${parts.length}`);
  const [h64, p64, s64] = parts as [string, string, string];

  const headerBytes = segment(h64, "header");
  if (!(headerBytes instanceof Uint8Array)) return headerBytes;
  const h = parseIJson(headerBytes);
  if (!h.ok) return bad(h.code as PeacCode, `JWS header: ${h.detail}`);
  if (!isJsonObject(h.value)) return bad("E_INVALID_FORMAT", "JWS header is not a JSON object");
  const header = h.value;

  const alg = member(header, "alg");
  if (alg !== "EdDSA") return bad("E_INVALID_FORMAT", `alg must be "EdDSA", not ${shown(alg)}`);
  // typ is compared exactly, as PEAC's code does (its spec text says case-insensitive).
  const typ = member(header, "typ");
  let wire: "0.2" | "0.1";
  if (typ === WIRE_02_TYP || typ === WIRE_02_TYP_MEDIA) wire = "0.2";
  else if (typ === WIRE_01_TYP) wire = "0.1";
  else if (typ === undefined)
    return bad("E_INVALID_FORMAT", "typ is missing: the strict profile requires interaction-record+jwt");
  else return bad("E_INVALID_FORMAT", `typ ${shown(typ)} is not interaction-record+jwt`);

  if (wire === "0.2") {
    const kid = member(header, "kid");
    if (!isWellFormedKid(kid))
      return bad("E_JWS_MISSING_KID", `kid is missing, empty, malformed, or exceeds ${MAX_KID_UTF8_BYTES} UTF-8 bytes`);
    const embedded = EMBEDDED_KEY_MEMBERS.find((m) => hasMember(header, m));
    if (embedded) return bad("E_JWS_EMBEDDED_KEY", `embedded key material (${embedded}) is not permitted`);
    if (hasMember(header, "crit")) return bad("E_JWS_CRIT_REJECTED", "crit header is not permitted");
    if (member(header, "b64") === false)
      return bad("E_JWS_B64_REJECTED", "b64:false (unencoded payload) is not permitted");
    if (hasMember(header, "zip")) return bad("E_JWS_ZIP_REJECTED", "zip header is not permitted");
  }

  const payloadBytes = segment(p64, "payload");
  if (!(payloadBytes instanceof Uint8Array)) return payloadBytes;
  const p = parseIJson(payloadBytes);
  if (!p.ok) return bad(p.code as PeacCode, `JWS payload: ${p.detail}`);
  if (!isJsonObject(p.value)) return bad("E_INVALID_FORMAT", "JWS payload is not a JSON object");
  const payload = p.value;

  const version = member(payload, "peac_version");
  if (wire === "0.2" && version !== "0.2")
    return bad("E_WIRE_VERSION_MISMATCH", `typ is ${WIRE_02_TYP} but peac_version is ${shown(version)}`);
  if (wire === "0.1" && version === "0.2")
    return bad("E_WIRE_VERSION_MISMATCH", `typ is ${WIRE_01_TYP} but peac_version is "0.2"`);

  const signature = segment(s64, "signature");
  if (!(signature instanceof Uint8Array)) return signature;
  const kid = member(header, "kid");
  return {
    ok: true,
    value: {
      wire,
      header,
      payload,
      kid: typeof kid === "string" ? kid : "",
      signingInput: new Uint8Array(Buffer.from(`${h64}.${p64}`, "latin1")),
      signature,
    },
  };
}
