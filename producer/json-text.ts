/**
 * Serializers for what the producer writes: `pyjsonBytes` for every digest preimage and for the
 * evidence artifact bytes (the reference server's `json.dumps(sort_keys=True,
 * separators=(",",":"))`), and `jsonText` for the files a reader opens (2-space indented, like the
 * reference vector files). Both write numbers by their lexeme, so a `60.0` printed by a Python
 * emitter stays `60.0` — `JSON.stringify` would turn it into `60`.
 */
import { JsonNumber, fromPlain, isJsonObject, type JsonObject, type JsonValue } from "../src/json/value.js";
import { pyjson, compareCodePoints } from "../src/canon/pyjson.js";
import { jcs, jcsString } from "../src/canon/jcs.js";
import { sha256Hex, utf8 } from "../src/util/bytes.js";
import { ProducerError } from "./errors.js";

/** A JSON object built in code; `JsonNumber`s inside (e.g. `60.0`) are kept as they are. */
export function jsonObject(plain: Record<string, unknown>): JsonObject {
  return fromPlain(plain) as JsonObject;
}

/** A deep copy, so each place a value appears in an exchange can be changed on its own. */
export function copyObject(v: JsonObject): JsonObject {
  return fromPlain(v) as JsonObject;
}

/** The JSON integer lexeme of a count or index. */
export function int(n: number): JsonNumber {
  return new JsonNumber(String(n));
}

/** UTF-8 of pyjson(value); pure ASCII by construction. */
export function pyjsonBytes(value: JsonValue): Uint8Array {
  const r = pyjson(value);
  if (!r.ok) throw new ProducerError("PRODUCER_CANONICALIZATION", `pyjson: ${r.detail} at ${r.path ?? "$"}`);
  return utf8(r.value.text);
}

/** hex SHA-256 of pyjson(value): evidenceId, coreManifestDigest, agent_output_digest. */
export function pyjsonDigestHex(value: JsonValue): string {
  return sha256Hex(pyjsonBytes(value));
}

/** RFC 8785 JCS with the AAC restriction (safe integers only), the capsule_id preimage. */
export function jcsBytes(value: JsonValue): Uint8Array {
  const r = jcs(value, { numbers: "safe-integers" });
  if (!r.ok) throw new ProducerError("PRODUCER_CANONICALIZATION", `jcs: ${r.detail} at ${r.path ?? "$"}`);
  return utf8(r.value);
}

/** hex SHA-256 of RFC 8785 JCS with ECMAScript numbers: a data Part's commitment (part-commitments.md §2). */
export function jcsDigestHex(value: JsonValue): string {
  const r = jcs(value);
  if (!r.ok) throw new ProducerError("PRODUCER_CANONICALIZATION", `jcs: ${r.detail} at ${r.path ?? "$"}`);
  return sha256Hex(utf8(r.value));
}

export interface JsonTextOptions {
  /** Sort members by code point, as Python's `sort_keys=True` does (default true). */
  readonly sortKeys?: boolean;
  /** One line, no spaces and no trailing newline, as a server writes a stream event (default false). */
  readonly compact?: boolean;
}

/**
 * Indented JSON text with a trailing newline (or, `compact`, one line without it). Strings carry
 * non-ASCII as raw UTF-8 (U+2028 included, which JSON allows), so a verifier's parser meets real
 * UTF-8, not escapes.
 */
export function jsonText(value: JsonValue, options: JsonTextOptions = {}): string {
  const out: string[] = [];
  const compact = options.compact ?? false;
  writeValue(value, out, compact ? null : "", options.sortKeys ?? true);
  if (!compact) out.push("\n");
  return out.join("");
}

/** `indent` null writes compact text. */
function writeValue(v: JsonValue, out: string[], indent: string | null, sortKeys: boolean): void {
  if (v === null) out.push("null");
  else if (v === true) out.push("true");
  else if (v === false) out.push("false");
  else if (typeof v === "string") out.push(quote(v));
  else if (v instanceof JsonNumber) out.push(v.lexeme);
  else if (Array.isArray(v)) {
    if (v.length === 0) return void out.push("[]");
    const inner = indent === null ? null : indent + "  ";
    out.push("[");
    v.forEach((item, i) => {
      if (inner === null) out.push(i === 0 ? "" : ",");
      else out.push(i === 0 ? "\n" : ",\n", inner);
      writeValue(item, out, inner, sortKeys);
    });
    out.push(indent === null ? "]" : `\n${indent}]`);
  } else if (isJsonObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return void out.push("{}");
    if (sortKeys) keys.sort(compareCodePoints);
    const inner = indent === null ? null : indent + "  ";
    out.push("{");
    keys.forEach((k, i) => {
      if (inner === null) out.push(i === 0 ? "" : ",", quote(k), ":");
      else out.push(i === 0 ? "\n" : ",\n", inner, quote(k), ": ");
      writeValue(v[k] as JsonValue, out, inner, sortKeys);
    });
    out.push(indent === null ? "}" : `\n${indent}}`);
  }
}

function quote(s: string): string {
  const q = jcsString(s);
  if (q === undefined)
    throw new ProducerError("PRODUCER_CANONICALIZATION", "string with a lone surrogate has no UTF-8 form");
  return q;
}

/**
 * The lexeme Python's `repr(float(n))` prints, for the numbers where it is plain decimal: `60` →
 * `60.0`, `2.5` → `2.5`. Exponent forms (`1e-07` vs `1e-7`) differ between the two languages, so
 * they are refused rather than guessed.
 */
export function pythonFloat(n: number): JsonNumber {
  const text = String(n);
  if (!Number.isFinite(n) || Object.is(n, -0) || /e/i.test(text) || Math.abs(n) >= 1e16) {
    throw new ProducerError("PRODUCER_INVALID_OPTION", `${text} has no plain-decimal Python float form`);
  }
  return new JsonNumber(Number.isInteger(n) ? `${text}.0` : text);
}
