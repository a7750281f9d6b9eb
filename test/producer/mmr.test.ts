import { describe, expect, it } from "vitest";
import { describeExternal, readExternal } from "../helpers/external.js";
import { bytesToHex, hexToBytes, sha256, utf8 } from "../../src/util/bytes.js";
import { MmrBuilder, bagPeaks, mountains, mmrLeafHash, mmrSizeForLeaves } from "../../producer/mmr.js";
import { codeOf } from "./code-of.js";
import { mmrConsistencyHolds, mmrInclusionHolds } from "./proof-folds.js";

const hexes = (a: Uint8Array[]) => a.map(bytesToHex);

/** The worked example of log-and-receipts.md §3.2: body[s] = SHA-256("asg-ledger-mmr-vector-leaf-{s}"). */
function fixture(leaves: number): MmrBuilder {
  const mmr = new MmrBuilder();
  for (let s = 1; s <= leaves; s++) mmr.appendBody(sha256(utf8(`asg-ledger-mmr-vector-leaf-${s}`)));
  return mmr;
}

describe("MMR builder against the worked example (log-and-receipts.md §3.2)", () => {
  it("reproduces the fixture's nodes and the roots for 1–7 leaves", () => {
    const mmr = fixture(7);
    expect(bytesToHex(sha256(utf8("asg-ledger-mmr-vector-leaf-1")))).toMatch(/^c0fce8ae.*c4fe$/);
    expect(bytesToHex(mmr.node(0))).toMatch(/^184208f6.*8e01$/);
    expect(bytesToHex(mmr.node(2))).toMatch(/^f7b19d3f.*5694$/);
    expect(bytesToHex(mmr.node(5))).toMatch(/^05c9493b.*20c1$/);
    expect(bytesToHex(mmr.node(6))).toMatch(/^44588de7.*6755$/);
    const prefixes = ["184208f6", "f7b19d3f", "e5280e43", "44588de7", "a19de527", "ade39981", "a0c0e8e7"];
    prefixes.forEach((prefix, i) =>
      expect(bytesToHex(mmr.root(i + 1)), `${i + 1} leaves`).toMatch(new RegExp(`^${prefix}`)),
    );
    expect(bytesToHex(mmr.root(5))).toMatch(/3f1a$/);
  });

  it("sizes logs in nodes, not leaves (§3.1)", () => {
    const sizes: Array<[number, number]> = [
      [0, 0],
      [1, 1],
      [2, 3],
      [3, 4],
      [4, 7],
      [5, 8],
      [6, 10],
      [7, 11],
      [12, 22],
      [21, 39],
    ];
    for (const [leaves, size] of sizes) expect(mmrSizeForLeaves(leaves), `${leaves} leaves`).toBe(size);
    expect(fixture(7).size).toBe(11);
    expect(mountains(7).map((m) => m.peak)).toEqual([6, 9, 10]);
  });

  it("gives the §3.3 example proof: 5 leaves, leaf 3 → witness [leaf3, p2], peaks_right [leaf5]", () => {
    const mmr = fixture(5);
    const proof = mmr.inclusionProof(3);
    expect(proof.size).toBe(8);
    expect(hexes(proof.witness)).toEqual(hexes([mmr.node(3), mmr.node(2)]));
    expect(hexes(proof.peaksLeft)).toEqual([]);
    expect(hexes(proof.peaksRight)).toEqual(hexes([mmr.node(7)]));
  });

  it("gives the §3.4 example consistency proof: 3 → 5 leaves", () => {
    const mmr = fixture(5);
    const proof = mmr.consistencyProof(3);
    expect([proof.sizeA, proof.sizeB]).toEqual([4, 8]);
    expect(proof.witness.map(hexes)).toEqual([hexes([mmr.node(5)]), hexes([mmr.node(4), mmr.node(2)])]);
    expect(hexes(proof.newPeaks)).toEqual(hexes([mmr.node(6), mmr.node(7)]));
  });

  it("bags no peaks into 32 zero bytes and one peak into itself", () => {
    expect(bagPeaks([])).toEqual(new Uint8Array(32));
    const leaf = mmrLeafHash(new Uint8Array(32));
    expect(bagPeaks([leaf])).toEqual(leaf);
  });

  it("emits proofs the spec's climbing verifier accepts, for every leaf and every prefix of a 40-leaf log", () => {
    const mmr = new MmrBuilder();
    const bodies = Array.from({ length: 40 }, (_, i) => sha256(utf8(`leaf ${i}`)));
    bodies.forEach((b) => mmr.appendBody(b));
    for (let n = 1; n <= 40; n++) {
      for (let i = 0; i < n; i++) {
        const proof = mmr.inclusionProof(i, n);
        expect(mmrInclusionHolds(mmr.root(n), proof.size, bodies[i]!, proof), `leaf ${i} of ${n}`).toBe(true);
      }
      for (let a = 0; a <= n; a++) {
        expect(mmrConsistencyHolds(mmr.root(a), mmr.root(n), mmr.consistencyProof(a, n)), `${a} → ${n}`).toBe(true);
      }
    }
  });

  it("refuses proofs outside the log with PRODUCER_INDEX_OUT_OF_RANGE", () => {
    const mmr = fixture(3);
    expect(codeOf(() => mmr.inclusionProof(3))).toBe("PRODUCER_INDEX_OUT_OF_RANGE");
    expect(codeOf(() => mmr.inclusionProof(-1))).toBe("PRODUCER_INDEX_OUT_OF_RANGE");
    expect(codeOf(() => mmr.inclusionProof(0, 4))).toBe("PRODUCER_INDEX_OUT_OF_RANGE");
    expect(codeOf(() => mmr.consistencyProof(3, 2))).toBe("PRODUCER_INDEX_OUT_OF_RANGE");
    expect(codeOf(() => mmr.root(4))).toBe("PRODUCER_INDEX_OUT_OF_RANGE");
    expect(codeOf(() => mmr.node(4))).toBe("PRODUCER_INDEX_OUT_OF_RANGE");
  });

  it("refuses a body digest that is not 32 bytes with PRODUCER_INVALID_OPTION", () => {
    expect(codeOf(() => new MmrBuilder().appendBody(new Uint8Array(31)))).toBe("PRODUCER_INVALID_OPTION");
  });
});

interface SnakeInclusionCase {
  leaf_index: number;
  size: number;
  body_digest: string;
  root: string;
  proof: { leaf_index: number; witness: string[]; peaks_left: string[]; peaks_right: string[] };
}

interface SnakeConsistencyCase {
  root_a: string;
  root_b: string;
  proof: { size_a: number; size_b: number; old_peaks: string[]; witness: string[][]; new_peaks: string[] };
}

const bytesOf = (list: string[]) => list.map((h) => hexToBytes(h)!);
const snakeInclusion = (p: SnakeInclusionCase["proof"]) => ({
  leafIndex: p.leaf_index,
  witness: bytesOf(p.witness),
  peaksLeft: bytesOf(p.peaks_left),
  peaksRight: bytesOf(p.peaks_right),
});
const snakeConsistency = (p: SnakeConsistencyCase["proof"]) => ({
  sizeA: p.size_a,
  sizeB: p.size_b,
  oldPeaks: bytesOf(p.old_peaks),
  witness: p.witness.map(bytesOf),
  newPeaks: bytesOf(p.new_peaks),
});

interface CllCase {
  name: string;
  kind: string;
  leaf_count?: number;
  leaf_count_a?: number;
  leaf_count_b?: number;
  leaf_index?: number;
  root_hex?: string;
  proof?: Record<string, unknown>;
  expect?: boolean;
}

describeExternal("cll", "MMR builder against the CLL conformance vectors", () => {
  const vectors = JSON.parse(new TextDecoder().decode(readExternal("cll", "mmr-conformance-vectors.json"))) as {
    cases: CllCase[];
  };
  const mmr = fixture(7);

  const ours = (c: CllCase): unknown => {
    if (c.kind === "inclusion") {
      const p = mmr.inclusionProof(c.leaf_index!, c.leaf_count!);
      return {
        v: 1,
        kind: "inclusion",
        size: p.size,
        leaf_index: p.leafIndex,
        witness: hexes(p.witness),
        peaks_left: hexes(p.peaksLeft),
        peaks_right: hexes(p.peaksRight),
      };
    }
    const p = mmr.consistencyProof(c.leaf_count_a!, c.leaf_count_b!);
    return {
      v: 1,
      kind: "consistency",
      size_a: p.sizeA,
      size_b: p.sizeB,
      old_peaks: hexes(p.oldPeaks),
      witness: p.witness.map(hexes),
      new_peaks: hexes(p.newPeaks),
    };
  };

  it.each(vectors.cases.filter((c) => c.kind === "root").map((c) => [c.name, c] as const))("%s: same root", (_, c) => {
    expect(bytesToHex(mmr.root(c.leaf_count!))).toBe(c.root_hex);
  });

  const proofCases = vectors.cases.filter((c) => c.kind === "inclusion" || c.kind === "consistency");
  it.each(proofCases.filter((c) => c.expect !== false).map((c) => [c.name, c] as const))(
    "%s: the same proof, member for member",
    (_, c) => {
      expect(ours(c)).toEqual(c.proof);
    },
  );

  it.each(proofCases.filter((c) => c.expect === false).map((c) => [c.name, c] as const))(
    "%s: our honest proof differs from the tampered one",
    (_, c) => {
      expect(ours(c)).not.toEqual(c.proof);
    },
  );
});

describeExternal("scitt-cose", "MMR builder against scitt-cose proof-vectors and KAT39", () => {
  const pv = JSON.parse(new TextDecoder().decode(readExternal("scitt-cose", "mmr", "proof-vectors.json"))) as {
    body_digests: string[];
    full_size: number;
    full_root: string;
    inclusion_cases: Array<{ leaf_index: number; size: number; proof: Record<string, unknown> }>;
    negative_inclusion_cases: Array<SnakeInclusionCase & { label: string }>;
    consistency_case: { size_a: number; root_a: string; proof: Record<string, unknown> };
    negative_consistency_cases: Array<SnakeConsistencyCase & { label: string }>;
  };
  const mmr = new MmrBuilder();
  pv.body_digests.forEach((d) => mmr.appendBody(hexToBytes(d)!));

  it("rebuilds full_size and full_root from the 12 body digests", () => {
    expect(mmr.size).toBe(pv.full_size);
    expect(bytesToHex(mmr.root())).toBe(pv.full_root);
  });

  it.each(pv.inclusion_cases.map((c) => [c.leaf_index, c] as const))("inclusion of leaf %i: the same proof", (_, c) => {
    const p = mmr.inclusionProof(c.leaf_index);
    expect({
      v: 1,
      kind: "inclusion",
      size: p.size,
      leaf_index: p.leafIndex,
      witness: hexes(p.witness),
      peaks_left: hexes(p.peaksLeft),
      peaks_right: hexes(p.peaksRight),
    }).toEqual(c.proof);
  });

  it("the consistency case: the same old root and proof", () => {
    const leavesA = [...Array(13).keys()].find((n) => mmrSizeForLeaves(n) === pv.consistency_case.size_a)!;
    expect(bytesToHex(mmr.root(leavesA))).toBe(pv.consistency_case.root_a);
    const p = mmr.consistencyProof(leavesA);
    expect({
      v: 1,
      kind: "consistency",
      size_a: p.sizeA,
      size_b: p.sizeB,
      old_peaks: hexes(p.oldPeaks),
      witness: p.witness.map(hexes),
      new_peaks: hexes(p.newPeaks),
    }).toEqual(pv.consistency_case.proof);
  });

  it.each(pv.negative_inclusion_cases.map((c) => [c.label, c] as const))(
    "negative inclusion %s: rejected, while our honest proof for that leaf holds",
    (_, c) => {
      expect(mmrInclusionHolds(hexToBytes(c.root)!, c.size, hexToBytes(c.body_digest)!, snakeInclusion(c.proof))).toBe(
        false,
      );
      const honest = mmr.inclusionProof(c.leaf_index);
      expect(mmrInclusionHolds(mmr.root(), honest.size, hexToBytes(pv.body_digests[honest.leafIndex]!)!, honest)).toBe(
        true,
      );
    },
  );

  it.each(pv.negative_consistency_cases.map((c) => [c.label, c] as const))(
    "negative consistency %s: rejected",
    (_, c) => {
      expect(mmrConsistencyHolds(hexToBytes(c.root_a)!, hexToBytes(c.root_b)!, snakeConsistency(c.proof))).toBe(false);
    },
  );

  it("KAT39: appending the 21 pre-hashed leaves gives all 39 nodes, every peak set and the bagged root", () => {
    const kat = JSON.parse(new TextDecoder().decode(readExternal("scitt-cose", "mmr", "kat39.json"))) as {
      leaves: string[];
      nodes: string[];
      peak_hashes: Record<string, string[]>;
      root_full: string;
    };
    const k = new MmrBuilder();
    const sizes: number[] = [];
    kat.leaves.forEach((l) => {
      k.appendLeafNode(hexToBytes(l)!);
      sizes.push(k.size);
    });
    expect(Array.from({ length: k.size }, (_, i) => bytesToHex(k.node(i)))).toEqual(kat.nodes);
    sizes.forEach((size, i) =>
      expect(hexes(k.peakHashes(i + 1)), `size ${size}`).toEqual(kat.peak_hashes[String(size - 1)]),
    );
    expect(Object.keys(kat.peak_hashes)).toHaveLength(sizes.length);
    expect(bytesToHex(k.root())).toBe(kat.root_full);
  });
});
