/**
 * A test-only MMR that keeps its nodes as an explicit tree (children and parent links) and
 * appends by merging equal-height peaks. It shares no position math with src/log: proofs come
 * from walking links, not from formulas, so it can serve as an oracle for the verifiers. Hashes
 * are re-implemented here too (they are pinned by KAT39 and the CLL vectors).
 */
import { createHash } from "node:crypto";
import type { ConsistencyProof, InclusionProof, RangeProof } from "../../src/log/mmr.js";

interface Node {
  readonly hash: Uint8Array;
  readonly height: number;
  readonly firstLeaf: number;
  readonly left?: number;
  readonly right?: number;
  parent?: number;
}

function sha(...parts: Uint8Array[]): Uint8Array {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

export function testLeafHash(body: Uint8Array): Uint8Array {
  return sha(new Uint8Array([0]), body);
}

function position8(pos: number): Uint8Array {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(pos + 1));
  return new Uint8Array(b);
}

export function testBag(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return new Uint8Array(32);
  let acc = hashes[hashes.length - 1] as Uint8Array;
  for (let i = hashes.length - 2; i >= 0; i--) acc = sha(acc, hashes[i] as Uint8Array);
  return acc;
}

export class TestMmr {
  readonly nodes: Node[] = [];
  readonly leafPositions: number[] = [];
  /** Peak positions of every size this MMR has had, keyed by size. */
  readonly peakSets = new Map<number, number[]>([[0, []]]);

  get size(): number {
    return this.nodes.length;
  }

  appendBody(body: Uint8Array): void {
    this.appendLeafNode(testLeafHash(body));
  }

  /** Appends an already-hashed leaf node (KAT39 style). */
  appendLeafNode(hash: Uint8Array): void {
    const peaks = [...(this.peakSets.get(this.size) as number[])];
    const pos = this.size;
    this.nodes.push({ hash, height: 0, firstLeaf: this.leafPositions.length });
    this.leafPositions.push(pos);
    peaks.push(pos);
    for (;;) {
      const r = peaks[peaks.length - 1] as number;
      const l = peaks[peaks.length - 2];
      if (l === undefined || this.node(l).height !== this.node(r).height) break;
      const parent = this.size;
      const left = this.node(l);
      this.nodes.push({
        hash: sha(position8(parent), left.hash, this.node(r).hash),
        height: left.height + 1,
        firstLeaf: left.firstLeaf,
        left: l,
        right: r,
      });
      left.parent = parent;
      this.node(r).parent = parent;
      peaks.splice(peaks.length - 2, 2, parent);
    }
    this.peakSets.set(this.size, peaks);
  }

  node(pos: number): Node {
    const n = this.nodes[pos];
    if (n === undefined) throw new Error(`no node ${pos}`);
    return n;
  }

  peaksAt(size: number): number[] {
    const p = this.peakSets.get(size);
    if (p === undefined) throw new Error(`${size} was never a size of this MMR`);
    return p;
  }

  peakHashes(size: number): Uint8Array[] {
    return this.peaksAt(size).map((p) => this.node(p).hash);
  }

  root(size: number): Uint8Array {
    return testBag(this.peakHashes(size));
  }

  /** Siblings from `pos` up to the peak of MMR(size) above it; returns that peak too. */
  private path(pos: number, size: number): { witness: Uint8Array[]; peak: number } {
    const witness: Uint8Array[] = [];
    let at = pos;
    for (let parent = this.node(at).parent; parent !== undefined && parent < size; parent = this.node(at).parent) {
      const p = this.node(parent);
      witness.push(this.node(p.left === at ? (p.right as number) : (p.left as number)).hash);
      at = parent;
    }
    return { witness, peak: at };
  }

  inclusion(leafIndex: number, size: number): InclusionProof {
    const { witness, peak } = this.path(this.leafPositions[leafIndex] as number, size);
    const peaks = this.peaksAt(size);
    const k = peaks.indexOf(peak);
    const hashes = this.peakHashes(size);
    return { size, leafIndex, witness, peaksLeft: hashes.slice(0, k), peaksRight: hashes.slice(k + 1) };
  }

  consistency(sizeA: number, sizeB: number): ConsistencyProof {
    const witness = this.peaksAt(sizeA).map((p) => this.path(p, sizeB).witness);
    return { sizeA, sizeB, oldPeaks: this.peakHashes(sizeA), witness, newPeaks: this.peakHashes(sizeB) };
  }

  range(fromIndex: number, toIndex: number, size: number): RangeProof {
    const witness: Uint8Array[] = [];
    const walk = (pos: number): void => {
      const n = this.node(pos);
      const last = n.firstLeaf + 2 ** n.height - 1;
      if (last < fromIndex || n.firstLeaf > toIndex) witness.push(n.hash);
      else if (n.left !== undefined && n.right !== undefined) {
        walk(n.left);
        walk(n.right);
      }
    };
    for (const p of this.peaksAt(size)) walk(p);
    return { size, fromIndex, toIndex, witness };
  }
}
