/**
 * scitt-cose `test-vectors/mmr/proof-vectors.json`: 12 leaves (size 22) with real leaf hashes,
 * 4 positive and 5 negative inclusion cases, one positive and one negative consistency case.
 */
import { expect, it } from "vitest";
import type { JsonValue } from "../../src/json/value.js";
import {
  bagPeaks,
  leafHash,
  parseConsistencyProof,
  parseInclusionProof,
  peaks,
  verifyConsistency,
  verifyInclusion,
} from "../../src/log/mmr.js";
import type { Result } from "../../src/result.js";
import { bytesToHex } from "../../src/util/bytes.js";
import { describeExternal } from "../helpers/external.js";
import { arr, buildNodes, expectCode, get, hex, int, okValue, readVector, str } from "./fixtures.js";

function runInclusion(c: JsonValue): Result<true> {
  const proof = okValue(parseInclusionProof(get(c, "proof"), "proof"));
  return verifyInclusion(
    hex(get(c, "root")),
    int(get(c, "size")),
    int(get(c, "leaf_index")),
    hex(get(c, "body_digest")),
    proof,
  );
}

function runConsistency(c: JsonValue): Result<true> {
  const proof = okValue(parseConsistencyProof(get(c, "proof"), "proof"));
  return verifyConsistency(
    hex(get(c, "root_a")),
    int(get(c, "size_a")),
    hex(get(c, "root_b")),
    int(get(c, "size_b")),
    proof,
  );
}

/** The code each negative case must fail with: which check catches it is part of the contract. */
const NEGATIVE_INCLUSION: Record<string, string> = {
  "wrong-body-digest": "MMR_ROOT_MISMATCH",
  "wrong-root": "MMR_ROOT_MISMATCH",
  "truncated-witness": "MMR_WITNESS_LENGTH_MISMATCH",
  "sibling-swap": "MMR_ROOT_MISMATCH",
  "forged-leaf-as-interior": "MMR_ROOT_MISMATCH",
};
const NEGATIVE_CONSISTENCY: Record<string, string> = {
  "wrong-root-a": "MMR_ROOT_MISMATCH",
};

describeExternal("scitt-cose/mmr", "MMR proof vectors (scitt-cose/mmr/proof-vectors.json)", () => {
  const v = readVector("scitt-cose", "mmr", "proof-vectors.json");

  it("rebuilds full_root from the 12 body digests", () => {
    const bodies = arr(get(v, "body_digests")).map(hex);
    expect(bodies).toHaveLength(12);
    const nodes = buildNodes(bodies.map(leafHash));
    const size = int(get(v, "full_size"));
    expect(nodes).toHaveLength(size);
    const top = okValue(peaks(size)).map((p) => nodes[p] as Uint8Array);
    expect(bytesToHex(bagPeaks(top))).toBe(str(get(v, "full_root")));
  });

  it("accepts every inclusion case (4)", () => {
    const cases = arr(get(v, "inclusion_cases"));
    expect(cases).toHaveLength(4);
    for (const c of cases) {
      expect(get(c, "expect")).toBe(true);
      expect(runInclusion(c).ok, `leaf ${int(get(c, "leaf_index"))}`).toBe(true);
    }
  });

  /** Every labelled negative case is listed in `codes`, and fails with the code listed. */
  const expectNegatives = (member: string, codes: Record<string, string>, run: (c: JsonValue) => Result<true>) => {
    const cases = arr(get(v, member));
    expect(cases.map((c) => str(get(c, "label"))).sort()).toEqual(Object.keys(codes).sort());
    for (const c of cases) {
      expect(get(c, "expect")).toBe(false);
      expectCode(run(c), codes[str(get(c, "label"))] as string);
    }
  };

  it("rejects every negative inclusion case (5), each with its code", () => {
    expectNegatives("negative_inclusion_cases", NEGATIVE_INCLUSION, runInclusion);
  });

  it("accepts the consistency case (size 11 → 22)", () => {
    const c = get(v, "consistency_case");
    expect(get(c, "expect")).toBe(true);
    expect(okValue(runConsistency(c))).toBe(true);
  });

  it("rejects every negative consistency case (1), each with its code", () => {
    expectNegatives("negative_consistency_cases", NEGATIVE_CONSISTENCY, runConsistency);
  });
});
