/**
 * MMR hashing and proof verification: the worked examples of §3.2–§3.4, proofs of random trees
 * from the link-walking test builder, and every failure path of the three verifiers.
 */
import { describe, expect, it } from "vitest";
import {
  bagPeaks,
  interiorHash,
  leafHash,
  verifyConsistency,
  verifyInclusion,
  verifyRange,
  type ConsistencyProof,
  type InclusionProof,
  type RangeProof,
} from "../../src/log/mmr.js";
import { bytesToHex, sha256, utf8 } from "../../src/util/bytes.js";
import { TestMmr } from "./mmr-builder.js";
import { expectCode, okValue } from "./fixtures.js";

/** The spec's fixture: body[s] = SHA-256("asg-ledger-mmr-vector-leaf-{s}"), s 1-based. */
const body = (seq: number) => sha256(utf8(`asg-ledger-mmr-vector-leaf-${seq}`));

function fixture(leaves: number): TestMmr {
  const mmr = new TestMmr();
  for (let s = 1; s <= leaves; s++) mmr.appendBody(body(s));
  return mmr;
}

/** Abbreviated spec values `abcd1234…wxyz` match on both ends. */
function expectAbbrev(actual: Uint8Array, abbrev: string): void {
  const [head, tail] = abbrev.split("…") as [string, string | undefined];
  const h = bytesToHex(actual);
  expect(h.startsWith(head), `${h} vs ${abbrev}`).toBe(true);
  if (tail) expect(h.endsWith(tail), `${h} vs ${abbrev}`).toBe(true);
}

/** A small deterministic PRNG (mulberry32), so a failing tree can be rebuilt. */
function prng(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

function flipped(h: Uint8Array): Uint8Array {
  const out = h.slice();
  out[0] = (out[0] as number) ^ 1;
  return out;
}

describe("MMR worked examples (§3.2–§3.4)", () => {
  const mmr = fixture(7);
  const node = (pos: number) => mmr.node(pos).hash;

  it("hashes leaves and interior nodes as §3.2 shows", () => {
    expectAbbrev(body(1), "c0fce8ae…c4fe");
    expectAbbrev(leafHash(body(1)), "184208f6…8e01");
    const leaf = (s: number) => leafHash(body(s));
    const p2 = interiorHash(leaf(1), leaf(2), 2);
    const p5 = interiorHash(leaf(3), leaf(4), 5);
    const p6 = interiorHash(p2, p5, 6);
    expectAbbrev(p2, "f7b19d3f…5694");
    expectAbbrev(p5, "05c9493b…20c1");
    expectAbbrev(p6, "44588de7…6755");
    expectAbbrev(bagPeaks([p6, leaf(5)]), "a19de527…3f1a");
    expect(bytesToHex(sha256(leaf(5), p6))).toBe(bytesToHex(bagPeaks([p6, leaf(5)])));
    expect(bytesToHex(node(6))).toBe(bytesToHex(p6));
  });

  it("gives the roots for 1–7 leaves", () => {
    const roots = ["184208f6", "f7b19d3f", "e5280e43", "44588de7", "a19de527", "ade39981", "a0c0e8e7"];
    roots.forEach((r, i) => expectAbbrev(bagPeaks(fixture(i + 1).peakHashes(fixture(i + 1).size)), r));
    expect(bytesToHex(bagPeaks([]))).toBe("00".repeat(32));
  });

  it("verifies the path example: 5 leaves (size 8), leaf_index 3, witness [leaf3, p2], peaks_right [leaf5]", () => {
    const proof: InclusionProof = {
      size: 8,
      leafIndex: 3,
      witness: [node(3), node(2)],
      peaksLeft: [],
      peaksRight: [node(7)],
    };
    expect(okValue(verifyInclusion(bagPeaks([node(6), node(7)]), 8, 3, body(4), proof))).toBe(true);
    expect(fixture(5).inclusion(3, 8)).toEqual(proof);
  });

  it("verifies the 3 → 5 consistency example: witness [[p5], [leaf4, p2]], new_peaks [p6, leaf5]", () => {
    const proof: ConsistencyProof = {
      sizeA: 4,
      sizeB: 8,
      oldPeaks: [node(2), node(3)],
      witness: [[node(5)], [node(4), node(2)]],
      newPeaks: [node(6), node(7)],
    };
    const rootA = bagPeaks([node(2), node(3)]);
    expectAbbrev(rootA, "e5280e43");
    expect(okValue(verifyConsistency(rootA, 4, bagPeaks([node(6), node(7)]), 8, proof))).toBe(true);
    expect(fixture(5).consistency(4, 8)).toEqual(proof);
  });

  it("commits positions beyond 2^32 without truncation", () => {
    const pos = 2 ** 40 + 5;
    const be = new Uint8Array([0, 0, 1, 0, 0, 0, 0, 6]);
    expect(bytesToHex(interiorHash(body(1), body(2), pos))).toBe(bytesToHex(sha256(be, body(1), body(2))));
  });
});

describe("MMR proofs of random trees (test builder as oracle)", () => {
  const trees = [1, 2, 3, 17, 64, 65, 127, 300].map((leaves, t) => {
    const bodies = Array.from({ length: leaves }, (_, i) => sha256(utf8(`tree ${t} leaf ${i}`)));
    const mmr = new TestMmr();
    for (const b of bodies) mmr.appendBody(b);
    return { leaves, bodies, mmr, rand: prng(leaves * 7919 + t) };
  });

  it("verifies every leaf's inclusion at the final size, and at earlier sizes", () => {
    for (const { bodies, mmr, rand } of trees) {
      const sizes = [...mmr.peakSets.keys()].filter((s) => s > 0);
      for (const size of [mmr.size, ...Array.from({ length: 3 }, () => sizes[rand(sizes.length)] as number)]) {
        const leavesAt = mmr.leafPositions.filter((p) => p < size).length;
        for (let i = 0; i < leavesAt; i++) {
          const r = verifyInclusion(mmr.root(size), size, i, bodies[i] as Uint8Array, mmr.inclusion(i, size));
          expect(r.ok, `${bodies.length} leaves, size ${size}, leaf ${i}`).toBe(true);
        }
      }
    }
  });

  it("rejects a tampered witness hash with MMR_ROOT_MISMATCH", () => {
    for (const { bodies, mmr, rand } of trees.filter((x) => x.leaves > 3)) {
      const i = rand(bodies.length);
      const proof = mmr.inclusion(i, mmr.size);
      const w = rand(proof.witness.length);
      const bad = { ...proof, witness: proof.witness.map((h, j) => (j === w ? flipped(h) : h)) };
      expectCode(verifyInclusion(mmr.root(mmr.size), mmr.size, i, bodies[i] as Uint8Array, bad), "MMR_ROOT_MISMATCH");
    }
  });

  it("verifies consistency between several pairs of sizes, and rejects a rewritten old peak", () => {
    for (const { mmr, rand } of trees) {
      const sizes = [...mmr.peakSets.keys()];
      for (let n = 0; n < 12; n++) {
        const a = sizes[rand(sizes.length)] as number;
        const b = sizes[rand(sizes.length)] as number;
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const proof = mmr.consistency(lo, hi);
        expect(verifyConsistency(mmr.root(lo), lo, mmr.root(hi), hi, proof).ok, `${lo} → ${hi}`).toBe(true);
        if (lo === 0) continue;
        // A rewritten history: its peaks bag to its own (rewritten) root but do not climb.
        const oldPeaks = proof.oldPeaks.map((h, j) => (j === 0 ? flipped(h) : h));
        const r = verifyConsistency(bagPeaks(oldPeaks), lo, mmr.root(hi), hi, { ...proof, oldPeaks });
        expectCode(r, "MMR_PEAK_MISMATCH");
      }
    }
  });

  it("verifies random ranges, and rejects any one altered leaf of the range", () => {
    for (const { leaves, bodies, mmr, rand } of trees) {
      for (let n = 0; n < 10; n++) {
        const a = rand(leaves);
        const b = rand(leaves);
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const proof = mmr.range(lo, hi, mmr.size);
        const slice = bodies.slice(lo, hi + 1);
        expect(verifyRange(mmr.root(mmr.size), mmr.size, lo, hi, slice, proof).ok, `${leaves}: ${lo}..${hi}`).toBe(
          true,
        );
        const k = rand(slice.length);
        const altered = slice.map((x, j) => (j === k ? flipped(x) : x));
        expectCode(verifyRange(mmr.root(mmr.size), mmr.size, lo, hi, altered, proof), "MMR_ROOT_MISMATCH");
      }
    }
  });
});

describe("MMR verifiers: every failure path", () => {
  const mmr = fixture(7); // size 11, peaks [6, 9, 10]
  const root = mmr.root(11);
  const short = new Uint8Array(31);

  describe("verifyInclusion", () => {
    const proof = mmr.inclusion(4, 11); // leaf 4 sits under peak 9: one witness, one peak each side
    const run = (
      p: Partial<InclusionProof>,
      args: { root?: Uint8Array; size?: number; leaf?: number; body?: Uint8Array } = {},
    ) => verifyInclusion(args.root ?? root, args.size ?? 11, args.leaf ?? 4, args.body ?? body(5), { ...proof, ...p });

    it("accepts the genuine proof", () => {
      expect(proof.witness).toHaveLength(1);
      expect(okValue(run({}))).toBe(true);
    });
    it.each([
      ["a 31-byte root", {}, { root: short }, "MMR_HASH_MALFORMED"],
      ["a 33-byte body digest", {}, { body: new Uint8Array(33) }, "MMR_HASH_MALFORMED"],
      ["a proof for another size", { size: 10 }, {}, "MMR_PROOF_SIZE_MISMATCH"],
      ["a proof for another leaf", { leafIndex: 3 }, {}, "MMR_PROOF_INDEX_MISMATCH"],
      ["an invalid size", { size: 9 }, { size: 9 }, "MMR_SIZE_INVALID"],
      ["a leaf index = leaf count", { leafIndex: 7 }, { leaf: 7 }, "MMR_LEAF_INDEX_OUT_OF_RANGE"],
      ["a negative leaf index", { leafIndex: -1 }, { leaf: -1 }, "MMR_LEAF_INDEX_OUT_OF_RANGE"],
      ["a fractional leaf index", { leafIndex: 1.5 }, { leaf: 1.5 }, "MMR_LEAF_INDEX_OUT_OF_RANGE"],
      ["a witness longer than the path", { witness: [...proof.witness, root] }, {}, "MMR_WITNESS_LENGTH_MISMATCH"],
      ["a witness shorter than the path", { witness: [] }, {}, "MMR_WITNESS_LENGTH_MISMATCH"],
      ["too many left peaks", { peaksLeft: [...proof.peaksLeft, root] }, {}, "MMR_PEAKS_LENGTH_MISMATCH"],
      ["too few right peaks", { peaksRight: [] }, {}, "MMR_PEAKS_LENGTH_MISMATCH"],
      ["a 31-byte witness hash", { witness: [short] }, {}, "MMR_HASH_MALFORMED"],
      ["a 31-byte left peak", { peaksLeft: [short] }, {}, "MMR_HASH_MALFORMED"],
      ["a 31-byte right peak", { peaksRight: [short] }, {}, "MMR_HASH_MALFORMED"],
      ["another body", {}, { body: body(1) }, "MMR_ROOT_MISMATCH"],
    ] as const)("refuses %s", (_name, p, args, code) => {
      expectCode(run(p as Partial<InclusionProof>, args), code);
    });
    it("refuses a leaf index beyond a large tree before any hashing", () => {
      const big = 2 ** 50 - 1;
      expectCode(
        verifyInclusion(root, big, 2 ** 49, body(1), { ...proof, size: big, leafIndex: 2 ** 49 }),
        "MMR_LEAF_INDEX_OUT_OF_RANGE",
      );
      expectCode(
        verifyInclusion(root, big, 0, body(1), { ...proof, size: big, leafIndex: 0 }),
        "MMR_WITNESS_LENGTH_MISMATCH",
      );
    });
  });

  describe("verifyConsistency", () => {
    const proof = mmr.consistency(4, 11);
    const rootA = mmr.root(4);
    const run = (
      p: Partial<ConsistencyProof>,
      args: { rootA?: Uint8Array; sizeA?: number; rootB?: Uint8Array; sizeB?: number } = {},
    ) =>
      verifyConsistency(args.rootA ?? rootA, args.sizeA ?? 4, args.rootB ?? root, args.sizeB ?? 11, { ...proof, ...p });

    it("accepts the genuine proof", () => {
      expect(okValue(run({}))).toBe(true);
    });
    it.each([
      ["a 31-byte root_a", {}, { rootA: short }, "MMR_HASH_MALFORMED"],
      ["a 31-byte root_b", {}, { rootB: short }, "MMR_HASH_MALFORMED"],
      ["a proof for another size_a", { sizeA: 3 }, {}, "MMR_PROOF_SIZE_MISMATCH"],
      ["a proof for another size_b", { sizeB: 10 }, {}, "MMR_PROOF_SIZE_MISMATCH"],
      ["an invalid size_a", { sizeA: 5 }, { sizeA: 5 }, "MMR_SIZE_INVALID"],
      ["an invalid size_b", { sizeB: 12 }, { sizeB: 12 }, "MMR_SIZE_INVALID"],
      ["size_a > size_b", { sizeA: 11, sizeB: 4 }, { sizeA: 11, sizeB: 4 }, "MMR_CONSISTENCY_SIZE_DECREASING"],
      ["too few old peaks", { oldPeaks: proof.oldPeaks.slice(1) }, {}, "MMR_PEAKS_LENGTH_MISMATCH"],
      ["too many new peaks", { newPeaks: [...proof.newPeaks, root] }, {}, "MMR_PEAKS_LENGTH_MISMATCH"],
      ["one witness path too few", { witness: proof.witness.slice(1) }, {}, "MMR_WITNESS_LENGTH_MISMATCH"],
      ["a witness path one hash short", { witness: [proof.witness[0] ?? [], []] }, {}, "MMR_WITNESS_LENGTH_MISMATCH"],
      ["a 31-byte old peak", { oldPeaks: [short, short] }, {}, "MMR_HASH_MALFORMED"],
      ["a 31-byte new peak", { newPeaks: [short, short, short] }, {}, "MMR_HASH_MALFORMED"],
      ["a 31-byte witness hash", { witness: proof.witness.map((w) => w.map(() => short)) }, {}, "MMR_HASH_MALFORMED"],
      ["old peaks that do not bag to root_a", {}, { rootA: root }, "MMR_ROOT_MISMATCH"],
      ["new peaks that do not bag to root_b", {}, { rootB: rootA }, "MMR_ROOT_MISMATCH"],
      [
        "a witness that does not climb to the new peak",
        { witness: proof.witness.map((w) => w.map(flipped)) },
        {},
        "MMR_PEAK_MISMATCH",
      ],
    ] as const)("refuses %s", (_name, p, args, code) => {
      expectCode(run(p as Partial<ConsistencyProof>, args), code);
    });
    it("accepts the empty and same-size cases, and refuses a non-zero empty root", () => {
      const empty = new Uint8Array(32);
      expect(okValue(verifyConsistency(empty, 0, root, 11, mmr.consistency(0, 11)))).toBe(true);
      expect(okValue(verifyConsistency(root, 11, root, 11, mmr.consistency(11, 11)))).toBe(true);
      expectCode(verifyConsistency(root, 0, root, 11, mmr.consistency(0, 11)), "MMR_ROOT_MISMATCH");
    });
  });

  describe("verifyRange", () => {
    const bodies = [2, 3, 4, 5].map(body); // leaves 1..4
    const proof = mmr.range(1, 4, 11);
    const run = (
      p: Partial<RangeProof>,
      args: { root?: Uint8Array; size?: number; from?: number; to?: number; bodies?: Uint8Array[] } = {},
    ) =>
      verifyRange(args.root ?? root, args.size ?? 11, args.from ?? 1, args.to ?? 4, args.bodies ?? bodies, {
        ...proof,
        ...p,
      });

    it("accepts the genuine proof", () => {
      expect(okValue(run({}))).toBe(true);
    });
    it.each([
      ["a 31-byte root", {}, { root: short }, "MMR_HASH_MALFORMED"],
      ["a 31-byte body digest", {}, { bodies: [short, ...bodies.slice(1)] }, "MMR_HASH_MALFORMED"],
      ["a proof for another size", { size: 10 }, {}, "MMR_PROOF_SIZE_MISMATCH"],
      ["a proof for another from_index", { fromIndex: 0 }, {}, "MMR_PROOF_INDEX_MISMATCH"],
      ["a proof for another to_index", { toIndex: 5 }, {}, "MMR_PROOF_INDEX_MISMATCH"],
      ["an invalid size", { size: 6 }, { size: 6 }, "MMR_SIZE_INVALID"],
      ["a from_index below 0", { fromIndex: -1 }, { from: -1 }, "MMR_LEAF_INDEX_OUT_OF_RANGE"],
      ["a to_index = leaf count", { toIndex: 7 }, { to: 7 }, "MMR_LEAF_INDEX_OUT_OF_RANGE"],
      ["from_index after to_index", { fromIndex: 4, toIndex: 1 }, { from: 4, to: 1 }, "MMR_RANGE_INVALID"],
      ["one body digest too few", {}, { bodies: bodies.slice(1) }, "MMR_RANGE_BODY_COUNT_MISMATCH"],
      ["a witness one hash short", { witness: proof.witness.slice(1) }, {}, "MMR_WITNESS_LENGTH_MISMATCH"],
      ["a witness one hash long", { witness: [...proof.witness, root] }, {}, "MMR_WITNESS_LENGTH_MISMATCH"],
      ["a 31-byte witness hash", { witness: proof.witness.map(() => short) }, {}, "MMR_HASH_MALFORMED"],
      [
        "bodies out of order",
        {},
        { bodies: [bodies[1], bodies[0], bodies[2], bodies[3]] as Uint8Array[] },
        "MMR_ROOT_MISMATCH",
      ],
    ] as const)("refuses %s", (_name, p, args, code) => {
      expectCode(run(p as Partial<RangeProof>, args as { bodies?: Uint8Array[] }), code);
    });
  });
});
