/** Shared helpers of the log tests: vector loading, hex, and an MMR built with src's own math. */
import { expect } from "vitest";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { asSafeInteger, isJsonObject, member, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { heightOf, interiorHash } from "../../src/log/mmr.js";
import type { Result } from "../../src/result.js";
import { hexToBytes } from "../../src/util/bytes.js";
import { readExternal } from "../helpers/external.js";

/** A published vector file, parsed strictly (inputs must never go through JSON.parse). */
export function readVector(...parts: string[]): JsonObject {
  const parsed = parseStrictJson(readExternal(...parts));
  if (!parsed.ok || !isJsonObject(parsed.value)) throw new Error(`${parts.join("/")} does not parse`);
  return parsed.value;
}

/** A member that must exist (vectors are trusted to have their documented shape). */
export function get(obj: JsonValue | undefined, name: string): JsonValue {
  if (!isJsonObject(obj)) throw new Error(`not an object where "${name}" was expected`);
  const v = member(obj, name);
  if (v === undefined) throw new Error(`vector lacks "${name}"`);
  return v;
}

export function str(v: JsonValue | undefined): string {
  if (typeof v !== "string") throw new Error("expected a string");
  return v;
}

export function arr(v: JsonValue | undefined): JsonValue[] {
  if (!Array.isArray(v)) throw new Error("expected an array");
  return v;
}

export function int(v: JsonValue | undefined): number {
  const n = asSafeInteger(v);
  if (n === undefined) throw new Error("expected an integer");
  return n;
}

export function hex(s: JsonValue | undefined): Uint8Array {
  const b = typeof s === "string" ? hexToBytes(s) : undefined;
  if (b === undefined) throw new Error(`not hex: ${String(s)}`);
  return b;
}

/** Unwraps an ok Result, failing the test with the failure's code and detail otherwise. */
export function okValue<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.code}: ${r.detail}${r.path ? ` at ${r.path}` : ""}`);
  return r.value;
}

/** Asserts a failure with exactly this code. */
export function expectCode<T>(r: Result<T>, code: string): void {
  expect(r.ok ? "ok" : r.code).toBe(code);
}

/**
 * The node array of an MMR whose leaf nodes are given, built with src's heightOf and
 * interiorHash (the datatrails AddHashedLeaf loop): a parent follows while the next position is
 * taller than the node just written.
 */
export function buildNodes(leafNodes: readonly Uint8Array[]): Uint8Array[] {
  const nodes: Uint8Array[] = [];
  for (const leaf of leafNodes) {
    let pos = nodes.length;
    nodes.push(leaf);
    let height = 0;
    while ((heightOf(pos + 1) as number) > height) {
      const left = nodes[pos + 1 - 2 ** (height + 1)] as Uint8Array;
      nodes.push(interiorHash(left, nodes[pos] as Uint8Array, pos + 1));
      pos += 1;
      height += 1;
    }
  }
  return nodes;
}
