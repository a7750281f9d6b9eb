/**
 * Test oracles for the proofs the producer emits, written straight from the spec's verification
 * steps (log-and-receipts.md §3.1, §3.3, §3.4, §5.4) — climbing by position arithmetic and folding
 * the RFC 9162 path iteratively — so they do not share a formulation with `producer/mmr.ts` or
 * `producer/rfc9162.ts`, which build trees top-down.
 */
import { be64, bytesEqual, concatBytes, sha256 } from "../../src/util/bytes.js";

const bitLength = (n: number): number => n.toString(2).length;

function heightOf(pos: number): number {
  let p = pos + 1;
  while ((p & (p + 1)) !== 0) p -= 2 ** (bitLength(p) - 1) - 1;
  return bitLength(p) - 1;
}

/** Peak positions of a valid MMR size, or undefined for an invalid size. */
export function peakPositions(size: number): number[] | undefined {
  const out: number[] = [];
  let start = 0;
  let remaining = size;
  for (let h = bitLength(size + 1); h >= 0 && remaining > 0; h--) {
    const mountain = 2 ** (h + 1) - 1;
    if (mountain <= remaining) {
      out.push(start + mountain - 1);
      start += mountain;
      remaining -= mountain;
    }
  }
  return remaining === 0 ? out : undefined;
}

const popcount = (n: number): number => n.toString(2).replace(/0/g, "").length;
const leafPosition = (i: number): number => 2 * i - popcount(i);

function interior(left: Uint8Array, right: Uint8Array, parent: number): Uint8Array {
  return sha256(be64(parent + 1), left, right);
}

/** Folds `path` from node `from` (hash `acc`) up to `to`; undefined when the path has the wrong length. */
function climb(from: number, to: number, acc: Uint8Array, path: readonly Uint8Array[]): Uint8Array | undefined {
  let x = from;
  let h = heightOf(from);
  let i = 0;
  let hash = acc;
  while (x < to) {
    const w = path[i++];
    if (w === undefined) return undefined;
    if (heightOf(x + 1) > h) {
      hash = interior(w, hash, x + 1);
      x = x + 1;
    } else {
      hash = interior(hash, w, x + 2 ** (h + 1));
      x = x + 2 ** (h + 1);
    }
    h++;
  }
  return x === to && i === path.length ? hash : undefined;
}

export function bag(peaks: readonly Uint8Array[]): Uint8Array {
  if (peaks.length === 0) return new Uint8Array(32);
  let acc = peaks[peaks.length - 1] as Uint8Array;
  for (let i = peaks.length - 2; i >= 0; i--) acc = sha256(acc, peaks[i] as Uint8Array);
  return acc;
}

/** The peak (position and index) whose mountain covers `pos`. */
function coveringPeak(peaks: readonly number[], pos: number): number {
  return peaks.findIndex((p) => pos <= p && pos >= p - 2 ** (heightOf(p) + 1) + 2);
}

export interface MmrInclusion {
  readonly leafIndex: number;
  readonly witness: readonly Uint8Array[];
  readonly peaksLeft: readonly Uint8Array[];
  readonly peaksRight: readonly Uint8Array[];
}

export function mmrInclusionHolds(root: Uint8Array, size: number, body: Uint8Array, proof: MmrInclusion): boolean {
  const peaks = peakPositions(size);
  if (peaks === undefined) return false;
  const lp = leafPosition(proof.leafIndex);
  const k = coveringPeak(peaks, lp);
  if (k < 0 || proof.peaksLeft.length !== k || proof.peaksRight.length !== peaks.length - k - 1) return false;
  const acc = climb(lp, peaks[k] as number, sha256(Uint8Array.of(0), body), proof.witness);
  return acc !== undefined && bytesEqual(bag([...proof.peaksLeft, acc, ...proof.peaksRight]), root);
}

export interface MmrConsistency {
  readonly sizeA: number;
  readonly sizeB: number;
  readonly oldPeaks: readonly Uint8Array[];
  readonly witness: ReadonlyArray<readonly Uint8Array[]>;
  readonly newPeaks: readonly Uint8Array[];
}

export function mmrConsistencyHolds(rootA: Uint8Array, rootB: Uint8Array, proof: MmrConsistency): boolean {
  const older = peakPositions(proof.sizeA);
  const newer = peakPositions(proof.sizeB);
  if (older === undefined || newer === undefined || proof.sizeA > proof.sizeB) return false;
  if (
    older.length !== proof.oldPeaks.length ||
    newer.length !== proof.newPeaks.length ||
    older.length !== proof.witness.length
  )
    return false;
  if (!bytesEqual(bag(proof.oldPeaks), rootA) || !bytesEqual(bag(proof.newPeaks), rootB)) return false;
  return older.every((p, i) => {
    const q = coveringPeak(newer, p);
    const acc =
      q < 0
        ? undefined
        : climb(p, newer[q] as number, proof.oldPeaks[i] as Uint8Array, proof.witness[i] as Uint8Array[]);
    return acc !== undefined && bytesEqual(acc, proof.newPeaks[q] as Uint8Array);
  });
}

/** RFC 9162 §2.1.3.2: the root an audit path reconstructs, or undefined when it does not fit the tree. */
export function rfc9162RootFromPath(
  entry: Uint8Array,
  leafIndex: number,
  treeSize: number,
  path: readonly Uint8Array[],
): Uint8Array | undefined {
  if (leafIndex >= treeSize) return undefined;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = sha256(Uint8Array.of(0), entry);
  for (const p of path) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = sha256(concatBytes(Uint8Array.of(1), p, r));
      while (fn % 2 === 0 && fn !== 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      r = sha256(concatBytes(Uint8Array.of(1), r, p));
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 ? r : undefined;
}
