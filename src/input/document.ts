/**
 * The JSON document form, every input's fallback: parsed strictly (duplicate members, lossy
 * numbers, depth; ../json/strict-json.ts). A document that is an array is a stream's events
 * (a2a-wire.md §2.7 step 1), folded here, before classification.
 */
import { DEFAULT_JSON_LIMITS, parseStrictJson } from "../json/strict-json.js";
import type { JsonValue } from "../json/value.js";
import { ok, type Result } from "../result.js";
import { eventArray, type InputValue } from "./decoded.js";
import { foldStreamArray } from "./stream/fold.js";

/** A parsed JSON value, decoded: an array folded as stream events, anything else as it is. */
export function decodeJsonValue(value: JsonValue): InputValue {
  return Array.isArray(value) ? eventArray(value, foldStreamArray(value)) : value;
}

/** JSON text or bytes, parsed strictly and decoded. */
export function decodeJsonText(b: Uint8Array | string): Result<InputValue> {
  const parsed = parseStrictJson(b, DEFAULT_JSON_LIMITS);
  if (!parsed.ok || !Array.isArray(parsed.value)) return parsed;
  return ok(decodeJsonValue(parsed.value));
}
