/**
 * The library takes an input as a JsonValue the caller owns. A caller that verifies a value, changes
 * its checkpoint in place and verifies it again must be told about the checkpoint it now holds:
 * the same report as for a fresh parse of the changed value, never the reading of the old one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseStrictJson, verify, type JsonObject, type JsonValue } from "../../src/index.js";
import { REPO_ROOT } from "../helpers/external.js";

const DIR = join(REPO_ROOT, "vectors", "valid-inline-metadata");
const text = readFileSync(join(DIR, "input.json"), "utf8");
const trust = readFileSync(join(DIR, "trust.json"));

function parsed(): JsonValue {
  const r = parseStrictJson(text);
  if (!r.ok) throw new Error("vector does not parse");
  return r.value;
}

function checkpointOf(v: JsonValue): JsonObject {
  const found: JsonObject[] = [];
  const walk = (x: JsonValue): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x !== null && typeof x === "object" && !("lexeme" in x)) {
      const o = x as JsonObject;
      if (o.cllCheckpoint !== undefined && o.cllCheckpoint !== null && typeof o.cllCheckpoint === "object")
        found.push(o.cllCheckpoint as JsonObject);
      for (const k of Object.keys(o)) walk(o[k] as JsonValue);
    }
  };
  walk(v);
  if (found.length === 0) throw new Error("no cllCheckpoint in the vector");
  return found[0] as JsonObject;
}

/** Each property's state and detail, and the exit code. */
const states = (v: JsonValue): Record<string, string> => {
  const input = verify({ inputs: [{ source: "input", data: v }], trust }).inputs[0];
  if (input === undefined || !("properties" in input)) throw new Error("the input was not verified");
  const out: Record<string, string> = { exitCode: String(input.exitCode) };
  for (const [name, p] of Object.entries(input.properties)) out[name] = `${p.state}: ${p.detail}`;
  return out;
};

describe("a checkpoint changed in place by the caller between two verifications", () => {
  it("is read as it now is, as a fresh parse of the changed value is", () => {
    const value = parsed();
    const before = states(value);
    expect(before.checkpointSignature).toMatch(/^PASS/);
    // The caller edits a signed member in place: the signature no longer covers it.
    const cp = checkpointOf(value);
    cp.timestamp = "2000-01-01T00:00:00Z";
    const fresh = parsed();
    checkpointOf(fresh).timestamp = "2000-01-01T00:00:00Z";
    const expected = states(fresh);
    expect(expected.checkpointSignature).toMatch(/^FAIL/);
    expect(states(value)).toEqual(expected);
  });
});
