/** For mutation tests: every (container, key) position in a parsed JSON value. */
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";

export type Position = [JsonObject | JsonValue[], string | number];

/** Every (container, key) position in a value, depth first. */
export function positions(v: JsonValue, out: Position[] = []): Position[] {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([v, i]), positions(x, out)));
  else if (isJsonObject(v)) {
    for (const k of Object.keys(v)) {
      out.push([v, k]);
      positions(v[k] as JsonValue, out);
    }
  }
  return out;
}
