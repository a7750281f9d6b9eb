/**
 * Reading published vector files with the strict parser. Some vectors keep `12.50`, `-0` and
 * duplicate keys on purpose, which `JSON.parse` would silently rewrite; the expected values are
 * read from the same strictly parsed tree.
 */
import { expect } from "vitest";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { isJsonObject, member, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { bytesToHex, sha256Hex, utf8 } from "../../src/util/bytes.js";
import { readExternal } from "./external.js";

export function readVector(...parts: string[]): JsonObject {
  const parsed = parseStrictJson(readExternal(...parts));
  if (!parsed.ok) throw new Error(`${parts.join("/")}: ${parsed.code} at ${parsed.path}: ${parsed.detail}`);
  return asObject(parsed.value, parts.join("/"));
}

export function asObject(v: JsonValue | undefined, what: string): JsonObject {
  if (!isJsonObject(v)) throw new Error(`${what} is not an object`);
  return v;
}

/** A member that must exist (any JSON value). */
export function field(obj: JsonObject, name: string): JsonValue {
  const v = member(obj, name);
  if (v === undefined) throw new Error(`member ${name} is missing`);
  return v;
}

export function str(obj: JsonObject, name: string): string {
  const v = member(obj, name);
  if (typeof v !== "string") throw new Error(`member ${name} is not a string`);
  return v;
}

export function objectField(obj: JsonObject, name: string): JsonObject {
  return asObject(member(obj, name), `member ${name}`);
}

export function strings(obj: JsonObject, name: string): string[] {
  const v = member(obj, name);
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string"))
    throw new Error(`member ${name} is not a list of strings`);
  return v as string[];
}

/**
 * Asserts a computed preimage against a vector's `{pre_image?, pre_image_bytes_hex, digest}`
 * (under the given member names), byte for byte and digest for digest.
 */
export function expectPreImage(
  preImage: string,
  vector: JsonObject,
  names: { preImage?: string; bytesHex: string; digest: string } = {
    preImage: "pre_image",
    bytesHex: "pre_image_bytes_hex",
    digest: "digest",
  },
): void {
  if (names.preImage !== undefined && member(vector, names.preImage) !== undefined)
    expect(preImage).toBe(str(vector, names.preImage));
  expect(bytesToHex(utf8(preImage))).toBe(str(vector, names.bytesHex));
  expect(sha256Hex(utf8(preImage))).toBe(str(vector, names.digest));
}
