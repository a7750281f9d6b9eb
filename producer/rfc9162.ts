/**
 * An RFC 9162 (Certificate Transparency v2) Merkle tree, as a Transparency Service keeps its log:
 * the tree head (MTH, §2.1.1) and the audit path PATH(m, D[n]) (§2.1.3.1) a receipt carries.
 * Built from the RFC's recursive definitions over the whole leaf list — the verifier folds a path
 * iteratively, so the two sides do not share an algorithm.
 */
import { sha256 } from "../src/util/bytes.js";
import { ProducerError } from "./errors.js";

const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

export function rfc9162LeafHash(entry: Uint8Array): Uint8Array {
  return sha256(LEAF_PREFIX, entry);
}

export function rfc9162NodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(NODE_PREFIX, left, right);
}

/** The largest power of two strictly less than n (n ≥ 2): the RFC's split point k. */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

export class Rfc9162Tree {
  private readonly leafHashes: readonly Uint8Array[];

  constructor(entries: readonly Uint8Array[]) {
    this.leafHashes = entries.map(rfc9162LeafHash);
  }

  get treeSize(): number {
    return this.leafHashes.length;
  }

  /** MTH(D[n]); the hash of the empty string for an empty log. */
  root(): Uint8Array {
    return this.treeSize === 0 ? sha256(new Uint8Array(0)) : this.hashRange(0, this.treeSize);
  }

  /** PATH(m, D[n]), leaf's sibling first (bottom-up). */
  auditPath(leafIndex: number): Uint8Array[] {
    if (!Number.isSafeInteger(leafIndex) || leafIndex < 0 || leafIndex >= this.treeSize) {
      throw new ProducerError("PRODUCER_INDEX_OUT_OF_RANGE", `leaf ${leafIndex} is not in a tree of ${this.treeSize}`);
    }
    return this.pathIn(leafIndex, 0, this.treeSize);
  }

  private pathIn(m: number, start: number, n: number): Uint8Array[] {
    if (n === 1) return [];
    const k = split(n);
    return m < k
      ? [...this.pathIn(m, start, k), this.hashRange(start + k, n - k)]
      : [...this.pathIn(m - k, start + k, n - k), this.hashRange(start, k)];
  }

  private hashRange(start: number, n: number): Uint8Array {
    if (n === 1) return this.leafHashes[start] as Uint8Array;
    const k = split(n);
    return rfc9162NodeHash(this.hashRange(start, k), this.hashRange(start + k, n - k));
  }
}
