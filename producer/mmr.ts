/**
 * The producer side of the CLL Merkle Mountain Range (log-and-receipts.md §3): an append-only
 * node array with position-committed interior hashes, the bagged root, and the inclusion and
 * consistency proofs the A2A manifest carries.
 *
 * Written apart from the verifier on purpose, and in different terms: the verifier climbs from a
 * position using size arithmetic; this file builds the array leaf by leaf, splits the log into
 * mountains by the binary digits of the leaf count, and walks each mountain down from its peak.
 * Two formulations that agree on every vector are far less likely to share a mistake.
 */
import { be64, sha256 } from "../src/util/bytes.js";
import { ProducerError } from "./errors.js";

const LEAF_PREFIX = Uint8Array.of(0x00);

/** leaf_hash(body) = SHA-256(0x00 ‖ body_digest32). */
export function mmrLeafHash(bodyDigest: Uint8Array): Uint8Array {
  return sha256(LEAF_PREFIX, bodyDigest);
}

/** interior_hash(L, R, pos) = SHA-256(be64(pos + 1) ‖ L ‖ R), pos the new parent's 0-based position. */
export function mmrInteriorHash(left: Uint8Array, right: Uint8Array, parentPosition: number): Uint8Array {
  return sha256(be64(parentPosition + 1), left, right);
}

/** Bagging (§3.2): fold from the right, SHA-256(RIGHT ‖ LEFT), no prefix; no peaks → 32 zero bytes. */
export function bagPeaks(peaks: readonly Uint8Array[]): Uint8Array {
  if (peaks.length === 0) return new Uint8Array(32);
  const stack = [...peaks];
  while (stack.length > 1) {
    const right = stack.pop() as Uint8Array;
    const left = stack.pop() as Uint8Array;
    stack.push(sha256(right, left));
  }
  return stack[0] as Uint8Array;
}

/** One perfect subtree of the MMR: 2^height leaves laid out in post-order from `offset`. */
export interface Mountain {
  readonly height: number;
  readonly firstLeaf: number;
  readonly offset: number;
  readonly peak: number;
}

/** The mountains of an MMR with `leafCount` leaves, tallest (left-most) first. */
export function mountains(leafCount: number): Mountain[] {
  const out: Mountain[] = [];
  let offset = 0;
  let firstLeaf = 0;
  for (let height = Math.floor(Math.log2(Math.max(leafCount, 1))); height >= 0; height--) {
    const leaves = 2 ** height;
    if ((Math.floor(leafCount / leaves) & 1) === 0) continue;
    const nodes = 2 * leaves - 1;
    out.push({ height, firstLeaf, offset, peak: offset + nodes - 1 });
    offset += nodes;
    firstLeaf += leaves;
  }
  return out;
}

/** MMR size (node count) for a leaf count: the sum of the mountains' node counts. */
export function mmrSizeForLeaves(leafCount: number): number {
  return mountains(leafCount).reduce((size, m) => size + 2 ** (m.height + 1) - 1, 0);
}

/** Siblings on the way from `target` up to the mountain's peak, bottom-up (the proof order). */
function siblingsUpTo(mountain: Mountain, target: number): number[] {
  const topDown: number[] = [];
  let root = mountain.peak;
  let first = mountain.offset;
  for (let h = mountain.height; root !== target; h--) {
    // Post-order: the left subtree fills [first, first + 2^h − 2], the right one ends at root − 1.
    const leftRoot = first + 2 ** h - 2;
    const rightRoot = root - 1;
    if (target <= leftRoot) {
      topDown.push(rightRoot);
      root = leftRoot;
    } else {
      topDown.push(leftRoot);
      first = leftRoot + 1;
      root = rightRoot;
    }
  }
  return topDown.reverse();
}

export interface InclusionProof {
  readonly size: number;
  readonly leafIndex: number;
  readonly witness: Uint8Array[];
  readonly peaksLeft: Uint8Array[];
  readonly peaksRight: Uint8Array[];
}

export interface ConsistencyProof {
  readonly sizeA: number;
  readonly sizeB: number;
  readonly oldPeaks: Uint8Array[];
  readonly witness: Uint8Array[][];
  readonly newPeaks: Uint8Array[];
}

export class MmrBuilder {
  private readonly nodes: Uint8Array[] = [];
  private readonly leafPositions: number[] = [];

  get leafCount(): number {
    return this.leafPositions.length;
  }

  get size(): number {
    return this.nodes.length;
  }

  /** Appends a record whose body digest is `bodyDigest` (for A2A: the raw capsule_id). */
  appendBody(bodyDigest: Uint8Array): number {
    if (bodyDigest.length !== 32) throw new ProducerError("PRODUCER_INVALID_OPTION", "an MMR body digest is 32 bytes");
    return this.appendLeafNode(mmrLeafHash(bodyDigest));
  }

  /** Appends an already hashed leaf node (KAT39 style) and the parents it completes. */
  appendLeafNode(leafHash: Uint8Array): number {
    const leafIndex = this.leafPositions.length;
    this.leafPositions.push(this.nodes.length);
    this.nodes.push(leafHash);
    // Leaf count i+1 ends in as many binary zeros as mountains this leaf completes.
    for (let h = 0, n = leafIndex + 1; n % 2 === 0; h++, n /= 2) {
      const parent = this.nodes.length;
      const right = this.nodes[parent - 1] as Uint8Array;
      const left = this.nodes[parent - 2 ** (h + 1)] as Uint8Array;
      this.nodes.push(mmrInteriorHash(left, right, parent));
    }
    return leafIndex;
  }

  node(position: number): Uint8Array {
    const n = this.nodes[position];
    if (n === undefined) throw new ProducerError("PRODUCER_INDEX_OUT_OF_RANGE", `no MMR node at position ${position}`);
    return n;
  }

  peakHashes(leafCount = this.leafCount): Uint8Array[] {
    this.requireLeafCount(leafCount);
    return mountains(leafCount).map((m) => this.node(m.peak));
  }

  root(leafCount = this.leafCount): Uint8Array {
    return bagPeaks(this.peakHashes(leafCount));
  }

  inclusionProof(leafIndex: number, leafCount = this.leafCount): InclusionProof {
    this.requireLeafCount(leafCount);
    if (!Number.isSafeInteger(leafIndex) || leafIndex < 0 || leafIndex >= leafCount) {
      throw new ProducerError("PRODUCER_INDEX_OUT_OF_RANGE", `leaf ${leafIndex} is not among ${leafCount} leaves`);
    }
    const all = mountains(leafCount);
    const k = all.findIndex((m) => leafIndex < m.firstLeaf + 2 ** m.height);
    const home = all[k] as Mountain;
    return {
      size: mmrSizeForLeaves(leafCount),
      leafIndex,
      witness: siblingsUpTo(home, this.leafPositions[leafIndex] as number).map((p) => this.node(p)),
      peaksLeft: all.slice(0, k).map((m) => this.node(m.peak)),
      peaksRight: all.slice(k + 1).map((m) => this.node(m.peak)),
    };
  }

  /** Proof that the log at `leafCountA` leaves is a prefix of the log at `leafCountB` (§3.4). */
  consistencyProof(leafCountA: number, leafCountB = this.leafCount): ConsistencyProof {
    this.requireLeafCount(leafCountB);
    if (!Number.isSafeInteger(leafCountA) || leafCountA < 0 || leafCountA > leafCountB) {
      throw new ProducerError("PRODUCER_INDEX_OUT_OF_RANGE", `${leafCountA} leaves is not a prefix of ${leafCountB}`);
    }
    const newer = mountains(leafCountB);
    const older = mountains(leafCountA);
    return {
      sizeA: mmrSizeForLeaves(leafCountA),
      sizeB: mmrSizeForLeaves(leafCountB),
      oldPeaks: older.map((m) => this.node(m.peak)),
      witness: older.map((old) => {
        // Every old peak lies inside exactly one newer mountain, because the array only grows.
        const home = newer.find((m) => m.offset <= old.peak && old.peak <= m.peak) as Mountain;
        return siblingsUpTo(home, old.peak).map((p) => this.node(p));
      }),
      newPeaks: newer.map((m) => this.node(m.peak)),
    };
  }

  private requireLeafCount(leafCount: number): void {
    if (!Number.isSafeInteger(leafCount) || leafCount < 0 || leafCount > this.leafCount) {
      throw new ProducerError(
        "PRODUCER_INDEX_OUT_OF_RANGE",
        `the log holds ${this.leafCount} leaves, not ${leafCount}`,
      );
    }
  }
}
