/**
 * CLL MMR proof verification (log-and-receipts §3.3–§3.5): inclusion, consistency and range.
 *
 * Each verifier is a total function over hashes and sizes, in the manner of Go's sumdb/tlog: it
 * returns a Result and never throws. The order is always the same — sizes and indexes first (they
 * are attacker-controlled and decide every position), then the proof's shape against the tree's
 * shape, and only then hashing. So a malformed proof (`MMR_WITNESS_LENGTH_MISMATCH`, …) is told
 * apart from a well-formed one that does not reconstruct the root (`MMR_ROOT_MISMATCH`).
 */
import { fail, ok, type Failure, type Result } from "../result.js";
import { bytesEqual, bytesToHex } from "../util/bytes.js";
import { bagPeaks, interiorHash, leafHash, type BagStep } from "./mmr-hash.js";
import { POW2, mountainIndexOfLeaf, mountains, type Mountain } from "./mmr-position.js";

/** §3.3, after parsing (`v == 1` and `kind == "inclusion"` are checked by the parser). */
export interface InclusionProof {
  readonly size: number;
  readonly leafIndex: number;
  /** Siblings bottom-up, from the leaf to the peak of its own mountain. */
  readonly witness: readonly Uint8Array[];
  /** Peaks left of the leaf's mountain, left to right. */
  readonly peaksLeft: readonly Uint8Array[];
  /** Peaks right of the leaf's mountain, left to right. */
  readonly peaksRight: readonly Uint8Array[];
}

/** §3.4, after parsing. */
export interface ConsistencyProof {
  readonly sizeA: number;
  readonly sizeB: number;
  /** Peak hashes of MMR(size_a), left to right. */
  readonly oldPeaks: readonly Uint8Array[];
  /** One path per old peak: its siblings up to the new peak that contains it. */
  readonly witness: readonly (readonly Uint8Array[])[];
  /** Peak hashes of MMR(size_b), left to right. */
  readonly newPeaks: readonly Uint8Array[];
}

/** §3.5, after parsing. */
export interface RangeProof {
  readonly size: number;
  readonly fromIndex: number;
  readonly toIndex: number;
  /** Hashes of the maximal subtrees outside the range, in depth-first left-to-right order. */
  readonly witness: readonly Uint8Array[];
}

/**
 * One fold of a climb, for an explanation (`inspect`): the parent at `position` hashes the node
 * below with its sibling, which sits on the left when the node below is the right child.
 */
export type MmrFold = (position: number, sibling: Uint8Array, siblingIsLeft: boolean, result: Uint8Array) => void;

/**
 * What `verifyInclusion` computes on its way, for an explanation. Every callback is optional and
 * none changes a result; without a trace nothing extra is computed or allocated.
 */
export interface InclusionTrace {
  /** Once sizes and shapes are checked: the leaf's mountain among the tree's, and the climb's length. */
  readonly shape?: (mountain: number, mountains: readonly Mountain[], pathLength: number) => void;
  readonly leaf?: (leafHash: Uint8Array) => void;
  readonly fold?: MmrFold;
  /** The peaks bagged, left to right; `index` is the one the leaf climbed to. */
  readonly peaks?: (peaks: readonly Uint8Array[], index: number) => void;
  readonly bag?: BagStep;
  readonly root?: (computed: Uint8Array) => void;
}

/** What `verifyConsistency` computes on its way, for an explanation; as InclusionTrace. */
export interface ConsistencyTrace {
  /** The bag of the old (then the new) peaks, before it is compared with root_a (root_b). */
  readonly bagged?: (which: "old" | "new", root: Uint8Array) => void;
  /** Old peak `oldIndex` starts its climb to new peak `newIndex`; its folds follow. */
  readonly climb?: (oldIndex: number, newIndex: number) => void;
  readonly fold?: MmrFold;
  readonly top?: (oldIndex: number, top: Uint8Array) => void;
}

/** One climbing step: is the node below the right child, and where its parent sits. */
interface Step {
  readonly isRight: boolean;
  readonly parent: number;
}

/**
 * The steps from the node of `height` that holds leaf `leaf` up to the peak of mountain `m`,
 * bottom-up. Found top-down: the left child of the node at `pos` (height h) is `pos − 2^h`, the
 * right child `pos − 1`.
 */
function climb(m: Mountain, leaf: number, height: number): Step[] {
  const steps: Step[] = [];
  let pos = m.peak;
  let start = m.firstLeaf;
  for (let h = m.height; h > height; h--) {
    const half = POW2[h - 1] as number;
    const isRight = leaf >= start + half;
    steps.push({ isRight, parent: pos });
    if (isRight) {
      pos -= 1;
      start += half;
    } else {
      pos -= POW2[h] as number;
    }
  }
  return steps.reverse();
}

function fold(start: Uint8Array, steps: readonly Step[], witness: readonly Uint8Array[], onFold?: MmrFold): Uint8Array {
  let acc = start;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as Step;
    const w = witness[i] as Uint8Array;
    acc = step.isRight ? interiorHash(w, acc, step.parent) : interiorHash(acc, w, step.parent);
    if (onFold !== undefined) onFold(step.parent, w, step.isRight, acc);
  }
  return acc;
}

/** The first hash that is not 32 bytes, as a failure naming it. */
function malformedHash(what: string, hashes: readonly Uint8Array[]): Failure | undefined {
  const i = hashes.findIndex((h) => h.length !== 32);
  return i < 0
    ? undefined
    : fail("MMR_HASH_MALFORMED", `${what}[${i}] is ${(hashes[i] as Uint8Array).length} bytes, not 32`);
}

function leafRangeFailure(what: string, index: number, count: number): Failure | undefined {
  // Indexes come from the proof or the bundle; one outside the tree would name a position in
  // another mountain, or past the end, and must never reach the position math.
  if (Number.isSafeInteger(index) && index >= 0 && index < count) return undefined;
  return fail("MMR_LEAF_INDEX_OUT_OF_RANGE", `${what} ${String(index)} is not in [0, ${count})`);
}

function totalLeaves(ms: readonly Mountain[]): number {
  return ms.reduce((n, m) => n + m.leafCount, 0);
}

function rootMismatch(what: string, computed: Uint8Array, expected: Uint8Array): Failure {
  return fail("MMR_ROOT_MISMATCH", `${what}: reconstructed ${bytesToHex(computed)}, committed ${bytesToHex(expected)}`);
}

/**
 * §3.3: is the leaf with body `bodyDigest` at `leafIndex` in the MMR of `size` nodes whose bagged
 * root is `root`? The proof must be for exactly this size and index. `trace` sees each step.
 */
export function verifyInclusion(
  root: Uint8Array,
  size: number,
  leafIndex: number,
  bodyDigest: Uint8Array,
  proof: InclusionProof,
  trace?: InclusionTrace,
): Result<true> {
  const badInput = malformedHash("root", [root]) ?? malformedHash("body digest", [bodyDigest]);
  if (badInput) return badInput;
  if (proof.size !== size)
    return fail("MMR_PROOF_SIZE_MISMATCH", `proof is for size ${proof.size}, checkpoint has ${size}`);
  if (proof.leafIndex !== leafIndex) {
    return fail("MMR_PROOF_INDEX_MISMATCH", `proof is for leaf ${proof.leafIndex}, not ${leafIndex}`);
  }
  const ms = mountains(size);
  if (!ms.ok) return ms;
  const outside = leafRangeFailure("leaf index", leafIndex, totalLeaves(ms.value));
  if (outside) return outside;

  const k = mountainIndexOfLeaf(ms.value, leafIndex);
  const path = climb(ms.value[k] as Mountain, leafIndex, 0);
  if (proof.witness.length !== path.length) {
    return fail(
      "MMR_WITNESS_LENGTH_MISMATCH",
      `witness has ${proof.witness.length} hashes, the path to the peak has ${path.length} steps`,
    );
  }
  const rightCount = ms.value.length - k - 1;
  if (proof.peaksLeft.length !== k || proof.peaksRight.length !== rightCount) {
    return fail(
      "MMR_PEAKS_LENGTH_MISMATCH",
      `peaks left/right ${proof.peaksLeft.length}/${proof.peaksRight.length}, the leaf's mountain has ${k}/${rightCount}`,
    );
  }
  const badProof =
    malformedHash("witness", proof.witness) ??
    malformedHash("peaks_left", proof.peaksLeft) ??
    malformedHash("peaks_right", proof.peaksRight);
  if (badProof) return badProof;

  trace?.shape?.(k, ms.value, path.length);
  const leaf = leafHash(bodyDigest);
  trace?.leaf?.(leaf);
  const peak = fold(leaf, path, proof.witness, trace?.fold);
  const peakList = [...proof.peaksLeft, peak, ...proof.peaksRight];
  trace?.peaks?.(peakList, k);
  const computed = bagPeaks(peakList, trace?.bag);
  trace?.root?.(computed);
  return bytesEqual(computed, root) ? ok(true) : rootMismatch("inclusion", computed, root);
}

/**
 * §3.4: is MMR(sizeB) with root `rootB` an append-only extension of MMR(sizeA) with root `rootA`?
 * Proves anti-rewrite between the two states only, never absence of a fork.
 */
export function verifyConsistency(
  rootA: Uint8Array,
  sizeA: number,
  rootB: Uint8Array,
  sizeB: number,
  proof: ConsistencyProof,
  trace?: ConsistencyTrace,
): Result<true> {
  const badInput = malformedHash("root_a", [rootA]) ?? malformedHash("root_b", [rootB]);
  if (badInput) return badInput;
  if (proof.sizeA !== sizeA || proof.sizeB !== sizeB) {
    return fail(
      "MMR_PROOF_SIZE_MISMATCH",
      `proof is for sizes ${proof.sizeA} → ${proof.sizeB}, not ${sizeA} → ${sizeB}`,
    );
  }
  const msA = mountains(sizeA);
  if (!msA.ok) return msA;
  const msB = mountains(sizeB);
  if (!msB.ok) return msB;
  if (sizeA > sizeB) return fail("MMR_CONSISTENCY_SIZE_DECREASING", `size_a ${sizeA} is larger than size_b ${sizeB}`);
  const olds = msA.value;
  const news = msB.value;
  if (proof.oldPeaks.length !== olds.length || proof.newPeaks.length !== news.length) {
    return fail(
      "MMR_PEAKS_LENGTH_MISMATCH",
      `old/new peaks ${proof.oldPeaks.length}/${proof.newPeaks.length}, the sizes have ${olds.length}/${news.length}`,
    );
  }
  if (proof.witness.length !== olds.length) {
    return fail("MMR_WITNESS_LENGTH_MISMATCH", `${proof.witness.length} witness paths for ${olds.length} old peaks`);
  }
  // MMR(size_a) is a prefix of MMR(size_b), so every old peak lies under exactly one new peak.
  const climbs = olds.map((m) => {
    const j = mountainIndexOfLeaf(news, m.firstLeaf);
    return { j, path: climb(news[j] as Mountain, m.firstLeaf, m.height) };
  });
  for (const [i, c] of climbs.entries()) {
    const got = (proof.witness[i] as readonly Uint8Array[]).length;
    if (got !== c.path.length) {
      return fail(
        "MMR_WITNESS_LENGTH_MISMATCH",
        `witness[${i}] has ${got} hashes, old peak ${i} is ${c.path.length} steps below its new peak`,
      );
    }
  }
  const badProof =
    malformedHash("old_peaks", proof.oldPeaks) ??
    malformedHash("new_peaks", proof.newPeaks) ??
    proof.witness.reduce<Failure | undefined>((f, w, i) => f ?? malformedHash(`witness[${i}]`, w), undefined);
  if (badProof) return badProof;

  const bagA = bagPeaks(proof.oldPeaks);
  trace?.bagged?.("old", bagA);
  if (!bytesEqual(bagA, rootA)) return rootMismatch("old peaks vs root_a", bagA, rootA);
  const bagB = bagPeaks(proof.newPeaks);
  trace?.bagged?.("new", bagB);
  if (!bytesEqual(bagB, rootB)) return rootMismatch("new peaks vs root_b", bagB, rootB);
  for (const [i, c] of climbs.entries()) {
    trace?.climb?.(i, c.j);
    const top = fold(proof.oldPeaks[i] as Uint8Array, c.path, proof.witness[i] as readonly Uint8Array[], trace?.fold);
    trace?.top?.(i, top);
    if (!bytesEqual(top, proof.newPeaks[c.j] as Uint8Array)) {
      return fail("MMR_PEAK_MISMATCH", `old peak ${i} does not climb to new peak ${c.j}: got ${bytesToHex(top)}`);
    }
  }
  return ok(true);
}

/** A post-order plan of a range proof: take a witness hash, hash a range leaf, or join two nodes. */
type RangeStep =
  | { readonly take: "witness" }
  | { readonly take: "leaf"; readonly leaf: number }
  | { readonly take: "node"; readonly pos: number };

function planRange(pos: number, height: number, firstLeaf: number, lo: number, hi: number, out: RangeStep[]): void {
  const lastLeaf = firstLeaf + (POW2[height] as number) - 1;
  if (lastLeaf < lo || firstLeaf > hi) {
    out.push({ take: "witness" });
  } else if (height === 0) {
    out.push({ take: "leaf", leaf: firstLeaf });
  } else {
    planRange(pos - (POW2[height] as number), height - 1, firstLeaf, lo, hi, out);
    planRange(pos - 1, height - 1, firstLeaf + (POW2[height - 1] as number), lo, hi, out);
    out.push({ take: "node", pos });
  }
}

/**
 * §3.5: are `bodyDigests` exactly the leaves `fromIndex..toIndex` (inclusive) of the MMR of
 * `size` nodes whose bagged root is `root`? Every leaf of the range is bound, not only its ends.
 */
export function verifyRange(
  root: Uint8Array,
  size: number,
  fromIndex: number,
  toIndex: number,
  bodyDigests: readonly Uint8Array[],
  proof: RangeProof,
): Result<true> {
  const badInput = malformedHash("root", [root]) ?? malformedHash("body digests", bodyDigests);
  if (badInput) return badInput;
  if (proof.size !== size) return fail("MMR_PROOF_SIZE_MISMATCH", `proof is for size ${proof.size}, not ${size}`);
  if (proof.fromIndex !== fromIndex || proof.toIndex !== toIndex) {
    return fail(
      "MMR_PROOF_INDEX_MISMATCH",
      `proof is for leaves ${proof.fromIndex}..${proof.toIndex}, not ${fromIndex}..${toIndex}`,
    );
  }
  const ms = mountains(size);
  if (!ms.ok) return ms;
  const count = totalLeaves(ms.value);
  const outside = leafRangeFailure("from_index", fromIndex, count) ?? leafRangeFailure("to_index", toIndex, count);
  if (outside) return outside;
  if (fromIndex > toIndex) return fail("MMR_RANGE_INVALID", `from_index ${fromIndex} is after to_index ${toIndex}`);
  // The plan below grows with the range, which the proof names: bind it to the bodies actually given.
  if (bodyDigests.length !== toIndex - fromIndex + 1) {
    return fail(
      "MMR_RANGE_BODY_COUNT_MISMATCH",
      `${bodyDigests.length} body digests for leaves ${fromIndex}..${toIndex}`,
    );
  }

  const plan: RangeStep[] = [];
  for (const m of ms.value) planRange(m.peak, m.height, m.firstLeaf, fromIndex, toIndex, plan);
  const needed = plan.filter((s) => s.take === "witness").length;
  if (proof.witness.length !== needed) {
    return fail("MMR_WITNESS_LENGTH_MISMATCH", `witness has ${proof.witness.length} hashes, the range needs ${needed}`);
  }
  const badProof = malformedHash("witness", proof.witness);
  if (badProof) return badProof;

  // Each mountain's plan leaves exactly one hash, its peak, on the stack.
  const stack: Uint8Array[] = [];
  let nextWitness = 0;
  for (const s of plan) {
    if (s.take === "witness") stack.push(proof.witness[nextWitness++] as Uint8Array);
    else if (s.take === "leaf") stack.push(leafHash(bodyDigests[s.leaf - fromIndex] as Uint8Array));
    else {
      const right = stack.pop() as Uint8Array;
      const left = stack.pop() as Uint8Array;
      stack.push(interiorHash(left, right, s.pos));
    }
  }
  const computed = bagPeaks(stack);
  return bytesEqual(computed, root) ? ok(true) : rootMismatch("range", computed, root);
}
