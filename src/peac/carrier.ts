/**
 * PEAC carriers (A2A Receipt Profile §3; Evidence Carrier Contract §2–§6): the payload under the
 * extension key, each carrier's structure and size, and the receipt_ref rule. PEAC's own extraction drops malformed carriers silently and never measures
 * them; here every one is reported, with its path.
 */
import { joinPath } from "../json/path.js";
import { isJsonNumber, isJsonObject, member, type JsonValue } from "../json/value.js";
import { sha256Hex } from "../util/bytes.js";
import type { PeacCode } from "../codes/peac.js";
import { A2A_CARRIER_MAX_BYTES } from "./constants.js";
import { printable } from "../util/printable.js";
import { ecmaJsonLength } from "./shape.js";

export interface PayloadCarriers {
  readonly carriers: readonly { readonly path: string; readonly value: JsonValue }[];
  /** What is wrong with `meta`, which PEAC never validates and which never changes a limit here. */
  readonly metaWarnings: readonly string[];
  readonly format?: string;
  /** meta.max_size when it is a positive integer: it may lower the size a warning is given at, never raise the limit. */
  readonly maxSize?: number;
}

export type PayloadResult =
  { readonly ok: true; readonly value: PayloadCarriers } | { readonly ok: false; readonly detail: string };

const META_MEMBERS = ["transport", "format", "max_size", "redaction"];

/** `{ carriers: PeacEvidenceCarrier[≥1], meta?: CarrierMeta }` (A2AP §3.2), found at `path`. */
export function readPayload(v: JsonValue, path: string): PayloadResult {
  if (!isJsonObject(v)) return { ok: false, detail: "the PEAC payload must be an object { carriers, meta? }" };
  const carriers = member(v, "carriers");
  if (!Array.isArray(carriers) || carriers.length === 0)
    return { ok: false, detail: "the PEAC payload must have a non-empty carriers array" };
  const warnings: string[] = [];
  const meta = member(v, "meta");
  let format: string | undefined;
  let maxSize: number | undefined;
  if (meta !== undefined) {
    if (!isJsonObject(meta)) warnings.push("meta_invalid: meta is not an object");
    else {
      const transport = member(meta, "transport");
      const f = member(meta, "format");
      const size = member(meta, "max_size");
      const redaction = member(meta, "redaction");
      if (typeof transport !== "string" || transport === "")
        warnings.push("meta_invalid: transport must be a non-empty string");
      else if (transport !== "a2a")
        warnings.push(`meta_transport: transport is ${printable(JSON.stringify(transport))}, not "a2a"`);
      if (f !== "embed" && f !== "reference") warnings.push('meta_invalid: format must be "embed" or "reference"');
      else format = f;
      const n = isJsonNumber(size) ? Number(size.lexeme) : NaN;
      if (!Number.isSafeInteger(n) || n <= 0) warnings.push("meta_invalid: max_size must be a positive integer");
      else maxSize = n;
      if (maxSize !== undefined && maxSize !== A2A_CARRIER_MAX_BYTES)
        warnings.push(
          `meta_max_size: max_size is ${maxSize}, not ${A2A_CARRIER_MAX_BYTES}; the A2A limit applies regardless`,
        );
      if (redaction !== undefined && !(Array.isArray(redaction) && redaction.every((r) => typeof r === "string")))
        warnings.push("meta_invalid: redaction must be an array of strings");
      const unknown = Object.keys(meta).filter((k) => !META_MEMBERS.includes(k));
      if (unknown.length > 0)
        warnings.push(
          `meta_invalid: unknown member(s) ${printable(unknown.slice(0, 20).join(", "))}${unknown.length > 20 ? ` and ${unknown.length - 20} more` : ""}`,
        );
    }
  }
  const at = joinPath(path, "carriers");
  return {
    ok: true,
    value: {
      carriers: carriers.map((c, i) => ({ path: joinPath(at, i), value: c })),
      metaWarnings: warnings,
      ...(format ? { format } : {}),
      ...(maxSize ? { maxSize } : {}),
    },
  };
}

export interface Carrier {
  readonly receiptRef: string;
  readonly receiptJws?: string;
  readonly unknownMembers: readonly string[];
}

export type CarrierResult =
  | { readonly ok: true; readonly value: Carrier; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly code: PeacCode; readonly detail: string };

const RECEIPT_REF = /^sha256:[a-f0-9]{64}$/;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const OPTIONAL_STRINGS = [
  "policy_binding",
  "actor_binding",
  "request_nonce",
  "verification_report_ref",
  "use_policy_ref",
  "representation_ref",
  "attestation_ref",
];
const KNOWN = ["receipt_ref", "receipt_jws", "receipt_url", ...OPTIONAL_STRINGS];
/** KERNEL_CONSTRAINTS.MAX_STRING_LENGTH, in UTF-16 code units as zod measures. */
const MAX_STRING = 65_536;

/** ReceiptUrlSchema: a URL, ≤ 2048, https://, no credentials. A locator hint only: never fetched. */
function receiptUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url.trim())) return "receipt_url is not a URL";
  if (url.length > 2048) return "receipt_url too long (more than 2048 characters)";
  if (!url.startsWith("https://")) return "receipt_url must use HTTPS scheme";
  try {
    const u = new URL(url);
    if (u.username || u.password) return "receipt_url must not contain credentials";
  } catch {
    return "receipt_url is not a URL";
  }
  return undefined;
}

/** PeacEvidenceCarrierSchema, then the A2A size limit on the compact JWS. */
export function readCarrier(v: JsonValue, metaMaxSize?: number): CarrierResult {
  const bad = (detail: string): CarrierResult => ({ ok: false, code: "PEAC_CARRIER_INVALID", detail });
  if (!isJsonObject(v)) return bad("a carrier must be an object");
  const ref = member(v, "receipt_ref");
  if (typeof ref !== "string" || !RECEIPT_REF.test(ref))
    return bad("invalid receipt_ref format: must be sha256:<64 lowercase hex>");
  const jws = member(v, "receipt_jws");
  if (jws !== undefined && (typeof jws !== "string" || !COMPACT_JWS.test(jws)))
    return bad("invalid receipt_jws format: must be a compact JWS (header.payload.signature, base64url)");
  const url = member(v, "receipt_url");
  if (url !== undefined) {
    if (typeof url !== "string") return bad("receipt_url must be a string");
    const problem = receiptUrlProblem(url);
    if (problem) return bad(problem);
  }
  for (const name of OPTIONAL_STRINGS) {
    const s = member(v, name);
    if (s !== undefined && (typeof s !== "string" || s.length > MAX_STRING))
      return bad(`${name} must be a string of at most ${MAX_STRING} characters`);
  }
  // The published boundary (carrier-boundary fixtures) measures the JWS: 65,536 bytes fit, one more does not.
  if (typeof jws === "string" && jws.length > A2A_CARRIER_MAX_BYTES) {
    return {
      ok: false,
      code: "PEAC_CARRIER_OVERSIZE",
      detail: `receipt_jws is ${jws.length} bytes; the A2A carrier limit is ${A2A_CARRIER_MAX_BYTES}`,
    };
  }
  const warnings: string[] = [];
  const unknownMembers = Object.keys(v).filter((k) => !KNOWN.includes(k));
  if (unknownMembers.length > 0)
    warnings.push(
      `unknown_carrier_member: ${printable(unknownMembers.slice(0, 20).join(", "))}${unknownMembers.length > 20 ? ` and ${unknownMembers.length - 20} more` : ""} (PEAC strips them)`,
    );
  // PEAC's attach-time measure is the whole carrier as JSON.stringify prints it; its extraction never measures.
  const serialized = ecmaJsonLength(v);
  if (serialized > A2A_CARRIER_MAX_BYTES)
    warnings.push(
      `carrier_over_attach_limit: carrier size ${serialized} bytes exceeds the ${A2A_CARRIER_MAX_BYTES}-byte attach-time limit`,
    );
  else if (metaMaxSize !== undefined && serialized > metaMaxSize)
    warnings.push(`carrier_over_meta_max_size: carrier size ${serialized} bytes exceeds meta.max_size ${metaMaxSize}`);
  return {
    ok: true,
    value: { receiptRef: ref, ...(typeof jws === "string" ? { receiptJws: jws } : {}), unknownMembers },
    warnings,
  };
}

/** receipt_ref = "sha256:" + lowercase hex of SHA-256 over the compact JWS's bytes (ECC §5.1). */
export function computeReceiptRef(jws: string): string {
  return `sha256:${sha256Hex(new Uint8Array(Buffer.from(jws, "utf8")))}`;
}
