/**
 * Number widening through structured carriers (contract §9.1, a2a-wire.md §6.12). A bundle in a
 * `data` part or inline in metadata has passed through protobuf Struct/Value, where every number
 * is a double: a Python emitter then prints `1` as `1.0`, and integers beyond 2^53 lose digits.
 * A digest mismatch such widening could explain is not evidence of tampering; one it cannot
 * explain is.
 */
import { JsonNumber, isJsonObject, newJsonObject, type JsonValue } from "../../json/value.js";

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

/** Writes every integral number that is not written as an integer (`1.0`, `1e2`) back as one. */
export function narrowIntegralNumbers(v: JsonValue): { value: JsonValue; narrowed: number } {
  let narrowed = 0;
  const walk = (x: JsonValue): JsonValue => {
    if (x instanceof JsonNumber) {
      if (INTEGER.test(x.lexeme)) return x;
      const n = x.toNumber();
      if (Number.isSafeInteger(n)) {
        narrowed++;
        return new JsonNumber(String(n === 0 ? 0 : n));
      }
      return x;
    }
    if (Array.isArray(x)) return x.map(walk);
    if (isJsonObject(x)) {
      const out = newJsonObject();
      for (const k of Object.keys(x)) out[k] = walk(x[k] as JsonValue);
      return out;
    }
    return x;
  };
  const value = walk(v);
  return { value, narrowed };
}

/** True when the value holds a number a double cannot carry exactly (|n| ≥ 2^53). */
export function hasImpreciseNumbers(v: JsonValue): boolean {
  if (v instanceof JsonNumber) return Math.abs(v.toNumber()) >= 2 ** 53;
  if (Array.isArray(v)) return v.some(hasImpreciseNumbers);
  if (isJsonObject(v)) return Object.keys(v).some((k) => hasImpreciseNumbers(v[k] as JsonValue));
  return false;
}
