/** What the verifier accepts as one input, and the strict parse that turns it into a JSON value. */
import { parseStrictJson, DEFAULT_JSON_LIMITS } from "../json/strict-json.js";
import type { JsonValue } from "../json/value.js";
import { ok, type Result } from "../result.js";

/** Raw bytes, text, or an already parsed value. */
export type InputData = Uint8Array | string | JsonValue;

export function toJsonValue(data: InputData): Result<JsonValue> {
  return typeof data === "string" || data instanceof Uint8Array ? parseStrictJson(data, DEFAULT_JSON_LIMITS) : ok(data);
}
