/**
 * The traced primitives: a trace sees every step, each step recomputes by hand (node:crypto, not
 * the project's hash helpers), and passing a trace never changes a result — valid or tampered.
 */
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bagPeaks, verifyConsistency, verifyInclusion, type InclusionProof, type MmrFold } from "../../src/log/mmr.js";
import { verifyCheckpointChain } from "../../src/log/checkpoint-chain.js";
import { rfc9162LeafHash, rfc9162RootFromInclusion } from "../../src/log/rfc9162.js";
import { ccfRootFromInclusion } from "../../src/log/ccf.js";
import { decodeSign1, sigStructure, verifySign1 } from "../../src/cose/sign1.js";
import { publicKeyFromRawEd25519 } from "../../src/cose/keys.js";
import { encode } from "cborg";
import { TestMmr } from "../log/mmr-builder.js";
import { auditPath } from "../log/rfc9162-oracle.js";

function sha(...parts: Uint8Array[]): Uint8Array {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const be64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return new Uint8Array(b);
};
const body = (i: number) => sha(Buffer.from(`leaf-${i}`));

function mmrOf(leaves: number): TestMmr {
  const m = new TestMmr();
  for (let i = 0; i < leaves; i++) m.appendBody(body(i));
  return m;
}

function flipped(b: Uint8Array): Uint8Array {
  const c = b.slice();
  c[0] = (c[0] as number) ^ 1;
  return c;
}

describe("verifyInclusion with a trace", () => {
  it("sees the leaf hash, each fold, the peaks and every bagging step, each recomputed by hand", () => {
    let checked = 0;
    for (let leaves = 1; leaves <= 33; leaves++) {
      const m = mmrOf(leaves);
      for (let i = 0; i < leaves; i++) {
        const proof = m.inclusion(i, m.size);
        let leaf: Uint8Array | undefined;
        const folds: Parameters<MmrFold>[] = [];
        let peaks: readonly Uint8Array[] = [];
        let index = -1;
        const bags: [number, Uint8Array, Uint8Array, Uint8Array][] = [];
        let root: Uint8Array | undefined;
        const r = verifyInclusion(m.root(m.size), m.size, i, body(i), proof, {
          leaf: (h) => (leaf = h),
          fold: (...f) => folds.push(f),
          peaks: (p, k) => ((peaks = p), (index = k)),
          bag: (...b) => bags.push(b),
          root: (c) => (root = c),
        });
        expect(r.ok).toBe(true);
        expect(hex(leaf as Uint8Array)).toBe(hex(sha(new Uint8Array([0]), body(i))));
        let acc = leaf as Uint8Array;
        for (const [position, sibling, siblingIsLeft, result] of folds) {
          const expected = siblingIsLeft
            ? sha(be64(position + 1), sibling, acc)
            : sha(be64(position + 1), acc, sibling);
          expect(hex(result)).toBe(hex(expected));
          acc = result;
        }
        expect(folds.length).toBe(proof.witness.length);
        expect(hex(peaks[index] as Uint8Array)).toBe(hex(acc));
        let bag = peaks[peaks.length - 1] as Uint8Array;
        for (const [k, right, left, result] of bags) {
          expect([hex(right), hex(left)]).toEqual([hex(bag), hex(peaks[k] as Uint8Array)]);
          bag = sha(right, left);
          expect(hex(result)).toBe(hex(bag));
        }
        expect(bags.length).toBe(peaks.length - 1);
        expect(hex(root as Uint8Array)).toBe(hex(m.root(m.size)));
        checked++;
      }
    }
    expect(checked).toBe((33 * 34) / 2);
  });

  it("gives the same result with and without a trace, for valid and tampered proofs", () => {
    const m = mmrOf(13);
    for (let i = 0; i < 13; i++) {
      const proof = m.inclusion(i, m.size);
      const tampered: InclusionProof[] = [
        proof,
        ...proof.witness.map((_, k) => ({
          ...proof,
          witness: proof.witness.map((w, j) => (j === k ? flipped(w) : w)),
        })),
        { ...proof, peaksLeft: proof.peaksLeft.map(flipped) },
        { ...proof, witness: proof.witness.slice(1) },
        { ...proof, leafIndex: (i + 1) % 13 },
      ];
      for (const p of tampered) {
        const plain = verifyInclusion(m.root(m.size), m.size, i, body(i), p);
        const traced = verifyInclusion(m.root(m.size), m.size, i, body(i), p, {
          fold: () => undefined,
          bag: () => undefined,
          peaks: () => undefined,
        });
        expect(traced).toEqual(plain);
      }
    }
  });
});

describe("verifyConsistency and the chain with a trace", () => {
  it("climbs each old peak to its new peak, each fold recomputed by hand; results unchanged", () => {
    const m = mmrOf(21);
    const sizes = [...m.peakSets.keys()].filter((s) => s > 0);
    let climbs = 0;
    for (const a of sizes) {
      for (const b of sizes) {
        if (b < a) continue;
        const proof = m.consistency(a, b);
        const tops: [number, Uint8Array][] = [];
        let acc: Uint8Array | undefined;
        let current = -1;
        const traced = verifyConsistency(m.root(a), a, m.root(b), b, proof, {
          climb: (i) => ((current = i), (acc = proof.oldPeaks[i])),
          fold: (position, sibling, siblingIsLeft, result) => {
            const expected = siblingIsLeft
              ? sha(be64(position + 1), sibling, acc as Uint8Array)
              : sha(be64(position + 1), acc as Uint8Array, sibling);
            expect(hex(result)).toBe(hex(expected));
            acc = result;
          },
          top: (i, top) => {
            expect([i, hex(top)]).toEqual([current, hex(acc as Uint8Array)]);
            tops.push([i, top]);
          },
        });
        expect(traced).toEqual(verifyConsistency(m.root(a), a, m.root(b), b, proof));
        expect(traced.ok).toBe(true);
        expect(tops.length).toBe(proof.oldPeaks.length);
        climbs += tops.length;
        const bad = { ...proof, newPeaks: proof.newPeaks.map(flipped) };
        expect(verifyConsistency(m.root(a), a, m.root(b), b, bad, { fold: () => undefined })).toEqual(
          verifyConsistency(m.root(a), a, m.root(b), b, bad),
        );
      }
    }
    expect(climbs).toBeGreaterThan(50);
  });

  it("verifyCheckpointChain hands its trace to the consistency proof, and only there", () => {
    // A first checkpoint has no proof: nothing is traced, and the result is the untraced one.
    const seen: string[] = [];
    const first = {
      logId: "l",
      mmrSize: 1,
      root: new Uint8Array(32),
      prevSize: 0,
      prevRoot: null,
    } as unknown as Parameters<typeof verifyCheckpointChain>[1];
    expect(verifyCheckpointChain(null, first, null, { bagged: (w) => seen.push(w) })).toEqual(
      verifyCheckpointChain(null, first, null),
    );
    expect(seen).toEqual([]);
  });
});

describe("bagPeaks with a step callback", () => {
  it("returns the same root and sees SHA-256(right ‖ left) at each step", () => {
    for (let n = 0; n <= 6; n++) {
      const peaks = Array.from({ length: n }, (_, i) => body(100 + i));
      const steps: number[] = [];
      const traced = bagPeaks(peaks, (i, right, left, result) => {
        steps.push(i);
        expect(hex(result)).toBe(hex(sha(right, left)));
      });
      expect(hex(traced)).toBe(hex(bagPeaks(peaks)));
      expect(steps).toEqual(Array.from({ length: Math.max(0, n - 1) }, (_, k) => n - 2 - k));
    }
  });
});

describe("RFC 9162 and CCF paths with a fold callback", () => {
  it("each fold is SHA-256(0x01 ‖ left ‖ right) and the root is the oracle's, with or without the callback", () => {
    for (let n = 1; n <= 17; n++) {
      const entries = Array.from({ length: n }, (_, i) => body(200 + i));
      for (let m = 0; m < n; m++) {
        const path = auditPath(m, entries);
        let acc = rfc9162LeafHash(entries[m] as Uint8Array);
        const traced = rfc9162RootFromInclusion(acc, m, n, path, (i, sibling, siblingIsLeft, result) => {
          expect(hex(sibling)).toBe(hex(path[i] as Uint8Array));
          acc = siblingIsLeft ? sha(new Uint8Array([1]), sibling, acc) : sha(new Uint8Array([1]), acc, sibling);
          expect(hex(result)).toBe(hex(acc));
        });
        expect(traced).toEqual(rfc9162RootFromInclusion(rfc9162LeafHash(entries[m] as Uint8Array), m, n, path));
        const bad = path.map((p, i) => (i === 0 ? flipped(p) : p));
        expect(rfc9162RootFromInclusion(rfc9162LeafHash(entries[m] as Uint8Array), m, n, bad, () => undefined)).toEqual(
          rfc9162RootFromInclusion(rfc9162LeafHash(entries[m] as Uint8Array), m, n, bad),
        );
      }
    }
  });

  it("a CCF leaf hash is SHA-256(write_set ‖ SHA-256(ce) ‖ claims); its steps fold on the stated side", () => {
    const leaf = { writeSetDigest: body(1), commitEvidence: "ce:2.5:abcd", claimsDigest: body(2) };
    const path = [
      { left: true, hash: body(3) },
      { left: false, hash: body(4) },
    ];
    let acc: Uint8Array = new Uint8Array();
    const traced = ccfRootFromInclusion(leaf, path, {
      leaf: (h) => {
        acc = sha(leaf.writeSetDigest, sha(Buffer.from(leaf.commitEvidence)), leaf.claimsDigest);
        expect(hex(h)).toBe(hex(acc));
      },
      fold: (i, sibling, siblingIsLeft, result) => {
        expect(siblingIsLeft).toBe(path[i]?.left);
        acc = siblingIsLeft ? sha(sibling, acc) : sha(acc, sibling);
        expect(hex(result)).toBe(hex(acc));
      },
    });
    expect(traced).toEqual(ccfRootFromInclusion(leaf, path));
    expect(traced.ok && hex(traced.value)).toBe(hex(acc));
  });
});

describe("verifySign1 with onSigStructure", () => {
  it("hands over the exact Sig_structure it verifies, and the result is the same either way", () => {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = new Uint8Array(publicKey.export({ format: "der", type: "spki" }).subarray(12));
    const protectedBytes = encode(new Map([[1, -8]]));
    const payload = body(9);
    const tbs = sigStructure(protectedBytes, new Uint8Array(0), payload);
    for (const signature of [
      new Uint8Array(sign(null, tbs, privateKey)),
      flipped(new Uint8Array(sign(null, tbs, privateKey))),
    ]) {
      const message = Buffer.concat([
        Buffer.from([0xd2]),
        Buffer.from(encode([protectedBytes, new Map(), payload, signature])),
      ]);
      const msg = decodeSign1(new Uint8Array(message));
      if (!msg.ok) throw new Error(msg.detail);
      const key = publicKeyFromRawEd25519(raw);
      if (!key.ok) throw new Error(key.detail);
      let seen: Uint8Array | undefined;
      const traced = verifySign1(msg.value, key.value, { onSigStructure: (b) => (seen = b) });
      expect(traced).toEqual(verifySign1(msg.value, key.value));
      expect(hex(seen as Uint8Array)).toBe(hex(tbs));
    }
  });
});
