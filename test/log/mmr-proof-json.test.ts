/** MMR proof objects from JSON: both spellings, strict integer tokens, strict hashes, exact codes. */
import { describe, expect, it } from "vitest";
import { parseStrictJson } from "../../src/json/strict-json.js";
import type { JsonValue } from "../../src/json/value.js";
import { parseConsistencyProof, parseInclusionProof, parseRangeProof } from "../../src/log/mmr.js";
import { bytesToHex } from "../../src/util/bytes.js";
import { expectCode, okValue } from "./fixtures.js";

const H1 = "11".repeat(32);
const H2 = "22".repeat(32);

function json(text: string): JsonValue {
  const r = parseStrictJson(text);
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

/** An inclusion proof object with `members` replacing or adding to the snake_case defaults. */
function inclusion(members: Record<string, string>, drop: string[] = []): JsonValue {
  const base: Record<string, string> = {
    v: "1",
    kind: '"inclusion"',
    size: "4",
    leaf_index: "2",
    witness: "[]",
    peaks_left: `["${H1}"]`,
    peaks_right: "[]",
    ...members,
  };
  const body = Object.entries(base)
    .filter(([k]) => !drop.includes(k))
    .map(([k, v]) => `"${k}":${v}`)
    .join(",");
  return json(`{${body}}`);
}

const CAMEL =
  '{"v":1,"kind":"inclusion","size":4,"leafIndex":2,"witness":[],"peaksLeft":["' + H1 + '"],"peaksRight":[]}';

describe("parseInclusionProof", () => {
  it("reads the CLL snake_case form and the A2A camelCase form to the same proof", () => {
    const snake = okValue(parseInclusionProof(inclusion({}), "p"));
    const camel = okValue(parseInclusionProof(json(CAMEL), "p"));
    expect(camel).toEqual(snake);
    expect(snake.size).toBe(4);
    expect(snake.leafIndex).toBe(2);
    expect(snake.peaksLeft.map(bytesToHex)).toEqual([H1]);
  });

  it.each([
    ["not an object", "[]", "MMR_PROOF_MALFORMED", "p"],
    [
      "both spellings of leaf_index",
      CAMEL.replace('"leafIndex":2', '"leafIndex":2,"leaf_index":2'),
      "MMR_PROOF_MALFORMED",
      "p",
    ],
    ["snake leaf_index with camel peaks", CAMEL.replace('"leafIndex"', '"leaf_index"'), "MMR_PROOF_MALFORMED", "p"],
    ["an unknown member", CAMEL.replace('"v":1', '"v":1,"note":"x"'), "MMR_PROOF_MALFORMED", "p.note"],
    ["a camel proof missing peaksRight", CAMEL.replace(',"peaksRight":[]', ""), "MMR_PROOF_MALFORMED", "p"],
    ["a missing v", CAMEL.replace('"v":1,', ""), "MMR_PROOF_MALFORMED", "p.v"],
    ["a missing kind", CAMEL.replace('"kind":"inclusion",', ""), "MMR_PROOF_MALFORMED", "p.kind"],
    [
      "a version 2 proof with members of its own",
      CAMEL.replace('"v":1', '"v":2,"hash_alg":"sha3"'),
      "MMR_PROOF_VERSION_UNSUPPORTED",
      "p.v",
    ],
  ])("refuses %s", (_name, text, code, path) => {
    const r = parseInclusionProof(json(text), "p");
    expectCode(r, code);
    if (!r.ok) expect(r.path).toBe(path);
  });

  it.each([
    ["v: 2", { v: "2" }, [], "MMR_PROOF_VERSION_UNSUPPORTED", "p.v"],
    ["v: true", { v: "true" }, [], "MMR_PROOF_MALFORMED", "p.v"],
    ["v: 1.0", { v: "1.0" }, [], "MMR_PROOF_MALFORMED", "p.v"],
    ["kind: consistency", { kind: '"consistency"' }, [], "MMR_PROOF_KIND_MISMATCH", "p.kind"],
    ["kind: 1", { kind: "1" }, [], "MMR_PROOF_MALFORMED", "p.kind"],
    ["size: true (a bool posing as an int)", { size: "true" }, [], "MMR_PROOF_MALFORMED", "p.size"],
    ['size: "4"', { size: '"4"' }, [], "MMR_PROOF_MALFORMED", "p.size"],
    ["leaf_index: 2.0", { leaf_index: "2.0" }, [], "MMR_PROOF_MALFORMED", "p.leaf_index"],
    ["leaf_index: 2e0", { leaf_index: "2e0" }, [], "MMR_PROOF_MALFORMED", "p.leaf_index"],
    ["leaf_index: 2^53", { leaf_index: "9007199254740992" }, [], "MMR_PROOF_MALFORMED", "p.leaf_index"],
    ["a missing witness", {}, ["witness"], "MMR_PROOF_MALFORMED", "p"],
    ["witness not an array", { witness: `"${H1}"` }, [], "MMR_PROOF_MALFORMED", "p.witness"],
    ["a 33-byte witness hash", { witness: `["${H1}ab"]` }, [], "MMR_HASH_MALFORMED", "p.witness[0]"],
    ["a 31-byte left peak", { peaks_left: `["${H1.slice(2)}"]` }, [], "MMR_HASH_MALFORMED", "p.peaks_left[0]"],
    [
      "uppercase hex",
      { peaks_right: `["${H2.toUpperCase().replace(/2/g, "A")}"]` },
      [],
      "MMR_HASH_MALFORMED",
      "p.peaks_right[0]",
    ],
    ["non-hex characters", { witness: `["${"zz".repeat(32)}"]` }, [], "MMR_HASH_MALFORMED", "p.witness[0]"],
    ["a number as a hash", { witness: "[1]" }, [], "MMR_HASH_MALFORMED", "p.witness[0]"],
    ["peaks_right not an array", { peaks_right: "null" }, [], "MMR_PROOF_MALFORMED", "p.peaks_right"],
  ] as const)("refuses %s", (_name, members, drop, code, path) => {
    const r = parseInclusionProof(inclusion(members, [...drop]), "p");
    expectCode(r, code);
    if (!r.ok) expect(r.path).toBe(path);
  });

  it("leaves range checks to the verifier: a negative index parses", () => {
    expect(okValue(parseInclusionProof(inclusion({ leaf_index: "-1" }), "p")).leafIndex).toBe(-1);
  });
});

describe("parseConsistencyProof", () => {
  const good = `{"v":1,"kind":"consistency","size_a":1,"size_b":3,"old_peaks":["${H1}"],"witness":[["${H2}"]],"new_peaks":["${H1}"]}`;

  it("reads the snake_case form", () => {
    const p = okValue(parseConsistencyProof(json(good), "c"));
    expect([p.sizeA, p.sizeB]).toEqual([1, 3]);
    expect(p.witness.map((w) => w.map(bytesToHex))).toEqual([[H2]]);
  });

  it.each([
    ["camelCase sizeA", good.replace('"size_a"', '"sizeA"'), "MMR_PROOF_MALFORMED", "c.sizeA"],
    ["kind inclusion", good.replace('"consistency"', '"inclusion"'), "MMR_PROOF_KIND_MISMATCH", "c.kind"],
    ["size_a: false", good.replace('"size_a":1', '"size_a":false'), "MMR_PROOF_MALFORMED", "c.size_a"],
    ["size_b: 3.5", good.replace('"size_b":3', '"size_b":3.5'), "MMR_PROOF_MALFORMED", "c.size_b"],
    [
      "a bad old peak",
      good.replace(`"old_peaks":["${H1}"]`, '"old_peaks":["00"]'),
      "MMR_HASH_MALFORMED",
      "c.old_peaks[0]",
    ],
    ["witness not an array", good.replace(`"witness":[["${H2}"]]`, '"witness":{}'), "MMR_PROOF_MALFORMED", "c.witness"],
    [
      "a witness path not an array",
      good.replace(`"witness":[["${H2}"]]`, `"witness":["${H2}"]`),
      "MMR_PROOF_MALFORMED",
      "c.witness[0]",
    ],
    ["a bad witness hash", good.replace(`[["${H2}"]]`, `[["${H2}00"]]`), "MMR_HASH_MALFORMED", "c.witness[0][0]"],
    [
      "a bad new peak",
      good.replace(`"new_peaks":["${H1}"]`, '"new_peaks":[null]'),
      "MMR_HASH_MALFORMED",
      "c.new_peaks[0]",
    ],
  ])("refuses %s", (_name, text, code, path) => {
    const r = parseConsistencyProof(json(text), "c");
    expectCode(r, code);
    if (!r.ok) expect(r.path).toBe(path);
  });
});

describe("parseRangeProof", () => {
  const good = `{"v":1,"kind":"range","size":4,"from_index":0,"to_index":1,"witness":["${H1}"]}`;

  it("reads the snake_case form", () => {
    const p = okValue(parseRangeProof(json(good), "r"));
    expect([p.size, p.fromIndex, p.toIndex, p.witness.length]).toEqual([4, 0, 1, 1]);
  });

  it.each([
    ["v: 0", good.replace('"v":1', '"v":0'), "MMR_PROOF_VERSION_UNSUPPORTED", "r.v"],
    ["kind inclusion", good.replace('"range"', '"inclusion"'), "MMR_PROOF_KIND_MISMATCH", "r.kind"],
    ['size: "4"', good.replace('"size":4', '"size":"4"'), "MMR_PROOF_MALFORMED", "r.size"],
    ["from_index: 0.0", good.replace('"from_index":0', '"from_index":0.0'), "MMR_PROOF_MALFORMED", "r.from_index"],
    ["to_index: true", good.replace('"to_index":1', '"to_index":true'), "MMR_PROOF_MALFORMED", "r.to_index"],
    ["a bad witness hash", good.replace(`["${H1}"]`, `["${H1}0"]`), "MMR_HASH_MALFORMED", "r.witness[0]"],
    ["a missing to_index", good.replace('"to_index":1,', ""), "MMR_PROOF_MALFORMED", "r"],
  ])("refuses %s", (_name, text, code, path) => {
    const r = parseRangeProof(json(text), "r");
    expectCode(r, code);
    if (!r.ok) expect(r.path).toBe(path);
  });
});
