/**
 * CLL `mmr-conformance-vectors/vectors.json` (checkpointed-local-log): 27 root, inclusion,
 * consistency and range cases over the fixture leaves `sha256("asg-ledger-mmr-vector-leaf-{seq}")`.
 * Absent `expect` means true.
 */
import { expect, it } from "vitest";
import type { JsonValue } from "../../src/json/value.js";
import {
  bagPeaks,
  leafHash,
  nodeCount,
  parseConsistencyProof,
  parseInclusionProof,
  parseRangeProof,
  peaks,
  verifyConsistency,
  verifyInclusion,
  verifyRange,
} from "../../src/log/mmr.js";
import type { Result } from "../../src/result.js";
import { bytesToHex, sha256, utf8 } from "../../src/util/bytes.js";
import { describeExternal } from "../helpers/external.js";
import { arr, buildNodes, expectCode, get, hex, int, okValue, readVector, str } from "./fixtures.js";

/** The code each expect:false case must fail with. */
const NEGATIVE: Record<string, string> = {
  "neg-range-interior-leaf-altered": "MMR_ROOT_MISMATCH",
  "neg-range-witness-tampered": "MMR_ROOT_MISMATCH",
  "neg-inclusion-witness-tampered": "MMR_ROOT_MISMATCH",
  // Old and new peaks are genuine (both roots bag correctly); only the climb from the old peak fails.
  "neg-consistency-witness-tampered": "MMR_PEAK_MISMATCH",
};

describeExternal("cll", "CLL MMR conformance vectors (cll/mmr-conformance-vectors.json)", () => {
  const v = readVector("cll", "mmr-conformance-vectors.json");
  const identity = get(v, "leaf_identity");
  const template = str(get(identity, "template"));
  const seqStart = int(get(identity, "seq_start"));
  const cases = arr(get(v, "cases"));
  const body = (leafIndex: number) => sha256(utf8(template.replace("{seq}", String(leafIndex + seqStart))));
  const rootOf = (leaves: number) => {
    const nodes = buildNodes(Array.from({ length: leaves }, (_, i) => leafHash(body(i))));
    return bagPeaks(okValue(peaks(nodes.length)).map((p) => nodes[p] as Uint8Array));
  };
  const named = (kind: string) => cases.filter((c) => get(c, "kind") === kind);
  const expected = (c: JsonValue) => (c as { expect?: JsonValue }).expect !== false;
  const check = (c: JsonValue, r: Result<true>) => {
    const name = str(get(c, "name"));
    if (expected(c)) expect(okValue(r), name).toBe(true);
    else expectCode(r, NEGATIVE[name] ?? `a code for ${name}`);
  };

  it("has 27 cases, 4 of them expect:false, as its count says", () => {
    expect(cases).toHaveLength(27);
    expect(int(get(v, "count"))).toBe(27);
    expect(
      cases
        .filter((c) => !expected(c))
        .map((c) => str(get(c, "name")))
        .sort(),
    ).toEqual(Object.keys(NEGATIVE).sort());
  });

  it("reproduces every root (7) from the leaf-identity template", () => {
    const roots = named("root");
    expect(roots).toHaveLength(7);
    for (const c of roots) {
      const leaves = int(get(c, "leaf_count"));
      expect(nodeCount(leaves)).toBe(int(get(c, "size")));
      expect(bytesToHex(rootOf(leaves)), str(get(c, "name"))).toBe(str(get(c, "root_hex")));
    }
  });

  it("verifies every inclusion case (8), the negative one with its code", () => {
    const incl = named("inclusion");
    expect(incl).toHaveLength(8);
    for (const c of incl) {
      const leafIndex = int(get(c, "leaf_index"));
      expect(str(get(c, "body_digest_hex"))).toBe(bytesToHex(body(leafIndex)));
      expect(str(get(c, "root_hex"))).toBe(bytesToHex(rootOf(int(get(c, "leaf_count")))));
      const proof = okValue(parseInclusionProof(get(c, "proof"), "proof"));
      check(
        c,
        verifyInclusion(hex(get(c, "root_hex")), int(get(c, "size")), leafIndex, hex(get(c, "body_digest_hex")), proof),
      );
    }
  });

  it("verifies every consistency case (7), the negative one with its code", () => {
    const cons = named("consistency");
    expect(cons).toHaveLength(7);
    for (const c of cons) {
      expect(str(get(c, "root_a_hex"))).toBe(bytesToHex(rootOf(int(get(c, "leaf_count_a")))));
      expect(str(get(c, "root_b_hex"))).toBe(bytesToHex(rootOf(int(get(c, "leaf_count_b")))));
      const proof = okValue(parseConsistencyProof(get(c, "proof"), "proof"));
      const r = verifyConsistency(
        hex(get(c, "root_a_hex")),
        int(get(c, "size_a")),
        hex(get(c, "root_b_hex")),
        int(get(c, "size_b")),
        proof,
      );
      check(c, r);
    }
  });

  it("verifies every range case (5), the negatives with their codes", () => {
    const ranges = named("range");
    expect(ranges).toHaveLength(5);
    for (const c of ranges) {
      const from = int(get(c, "from_index"));
      const to = int(get(c, "to_index"));
      const bodies = arr(get(c, "body_digests")).map(hex);
      const templateBodies = Array.from({ length: to - from + 1 }, (_, i) => bytesToHex(body(from + i)));
      // Positives carry the template's bodies; the altered-leaf negative differs in exactly one.
      const differing = bodies.filter((b, i) => bytesToHex(b) !== templateBodies[i]).length;
      expect(differing, str(get(c, "name"))).toBe(str(get(c, "name")) === "neg-range-interior-leaf-altered" ? 1 : 0);
      const proof = okValue(parseRangeProof(get(c, "proof"), "proof"));
      check(c, verifyRange(hex(get(c, "root_hex")), int(get(c, "size")), from, to, bodies, proof));
    }
  });
});
