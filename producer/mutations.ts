/**
 * Small, exact changes used by the negative vectors. Each flips as little as possible — one hex
 * digit, one byte — so a vector shows that the verifier notices the smallest change to the object
 * it covers, not merely a wholesale replacement.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "../src/json/value.js";
import { base64ToBytesStrict, bytesToBase64 } from "../src/util/bytes.js";
import { ProducerError } from "./errors.js";

/** The hex string with the digit at `index` changed (XOR 1 on that nibble). */
export function flipHexDigit(hex: string, index = 0): string {
  const digit = parseInt(hex[index] ?? "", 16);
  if (Number.isNaN(digit)) throw new ProducerError("PRODUCER_INVALID_OPTION", `no hex digit at ${index} of "${hex}"`);
  return hex.slice(0, index) + (digit ^ 1).toString(16) + hex.slice(index + 1);
}

/** Flips one hex digit of the string member `name` of `o` (default: its first digit; −1: its last). */
export function flipHexMember(o: JsonObject, name: string, index = 0): void {
  const value = o[name];
  if (typeof value !== "string") throw new ProducerError("PRODUCER_INVALID_OPTION", `member ${name} is not a string`);
  o[name] = flipHexDigit(value, index < 0 ? value.length + index : index);
}

/** Standard base64 of the same bytes with the last byte XOR 0x01 (inside a trailing signature). */
export function flipLastBase64Byte(b64: string): string {
  const bytes = base64ToBytesStrict(b64);
  if (bytes === undefined || bytes.length === 0)
    throw new ProducerError("PRODUCER_INVALID_OPTION", "not standard base64 of a non-empty byte string");
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0x01;
  return bytesToBase64(bytes);
}

/** The object at a member path, for hooks that change one nested member. */
export function objectAt(root: JsonObject, ...path: Array<string | number>): JsonObject {
  let cur: JsonValue | undefined = root;
  for (const seg of path) {
    cur =
      typeof seg === "number" ? (Array.isArray(cur) ? cur[seg] : undefined) : isJsonObject(cur) ? cur[seg] : undefined;
  }
  if (!isJsonObject(cur)) throw new ProducerError("PRODUCER_INVALID_OPTION", `no object at ${path.join(".")}`);
  return cur;
}

/** The array at a member path. */
export function arrayAt(root: JsonObject, ...path: Array<string | number>): JsonValue[] {
  const last = path[path.length - 1];
  const parent = objectAt(root, ...path.slice(0, -1));
  const value = typeof last === "string" ? parent[last] : undefined;
  if (!Array.isArray(value)) throw new ProducerError("PRODUCER_INVALID_OPTION", `no array at ${path.join(".")}`);
  return value;
}
