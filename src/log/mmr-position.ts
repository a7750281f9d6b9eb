/**
 * CLL Merkle Mountain Range position math (log-and-receipts §3.1).
 *
 * Positions are 0-based indexes into the post-order node array (a parent right after its right
 * child); every size is a node count, never a leaf count. All values stay below 2^50, so plain
 * numbers are exact — but JavaScript's bitwise operators truncate to 32 bits, so bit arithmetic
 * here is done with multiplication and division only.
 */
import { fail, ok, type Result } from "../result.js";

/** Sizes at or above 2^50 are refused (`MAX_MMR_SIZE` of the reference implementations). */
export const MAX_MMR_SIZE = 2 ** 50;

/**
 * `POW2[k]` is 2^k, for every k the position math uses (heights below 52, plus one): read from
 * a table, since `2 ** k` is a call into the C library's `pow` each time it is computed.
 */
export const POW2: readonly number[] = Array.from({ length: 54 }, (_, k) => 2 ** k);

/** One perfect binary tree of an MMR: where its peak sits, how tall it is, which leaves it holds. */
export interface Mountain {
  /** Position of the peak (the mountain's last node). */
  readonly peak: number;
  /** Height of the peak; a lone leaf has height 0. */
  readonly height: number;
  /** Leaf index of the mountain's leftmost leaf. */
  readonly firstLeaf: number;
  /** 2^height. */
  readonly leafCount: number;
}

function popcount(n: number): number {
  let count = 0;
  for (let x = n; x > 0; x = Math.floor(x / 2)) count += x % 2;
  return count;
}

function bitLength(n: number): number {
  let bits = 0;
  for (let x = n; x > 0; x = Math.floor(x / 2)) bits++;
  return bits;
}

function isBelow(n: number, bound: number): boolean {
  return Number.isSafeInteger(n) && n >= 0 && n < bound;
}

/** `2·n − popcount(n)`: the size of the MMR holding `leafCount` leaves; undefined outside the domain. */
export function nodeCount(leafCount: number): number | undefined {
  if (!isBelow(leafCount, MAX_MMR_SIZE)) return undefined;
  const size = 2 * leafCount - popcount(leafCount);
  return size < MAX_MMR_SIZE ? size : undefined;
}

/** `2·i − popcount(i)`: the position of leaf `leafIndex`; undefined outside the domain. */
export function leafPosition(leafIndex: number): number | undefined {
  if (!isBelow(leafIndex, MAX_MMR_SIZE)) return undefined;
  const pos = 2 * leafIndex - popcount(leafIndex);
  return pos < MAX_MMR_SIZE ? pos : undefined;
}

/**
 * Height of the node at `pos` (leaves are 0): strip the left mountains off `pos + 1` until it is
 * `2^k − 1`, the last node of a perfect tree of height `k − 1`. Undefined outside the domain.
 */
export function heightOf(pos: number): number | undefined {
  if (!isBelow(pos, MAX_MMR_SIZE)) return undefined;
  let p = pos + 1;
  while (bitLength(p + 1) === bitLength(p)) p -= (POW2[bitLength(p) - 1] as number) - 1;
  return bitLength(p) - 1;
}

/**
 * The mountains of an MMR of `size` nodes, tallest (leftmost) first. A size is valid only when it
 * splits into perfect trees of strictly decreasing height; any other number (2, 5, 6, 9, …) names
 * no MMR, and an attacker-chosen size must be refused here before any position is derived from it.
 */
export function mountains(size: number): Result<readonly Mountain[]> {
  // Attacker-chosen size: a fraction, a negative or a huge value must not reach the position math.
  if (!isBelow(size, MAX_MMR_SIZE)) {
    return fail("MMR_SIZE_INVALID", `size ${String(size)} is not an integer in [0, 2^50)`);
  }
  const out: Mountain[] = [];
  let offset = 0;
  let firstLeaf = 0;
  // Taking each height at most once, largest first, is the greedy split with the repeat check:
  // a repeated height leaves a rest larger than all smaller mountains together.
  for (let height = bitLength(size); height >= 0; height--) {
    const nodes = (POW2[height + 1] as number) - 1;
    if (nodes > size - offset) continue;
    const leafCount = POW2[height] as number;
    out.push({ peak: offset + nodes - 1, height, firstLeaf, leafCount });
    offset += nodes;
    firstLeaf += leafCount;
  }
  if (offset !== size) {
    return fail(
      "MMR_SIZE_INVALID",
      `size ${size} is not the node count of any MMR (its mountains would repeat a height)`,
    );
  }
  return ok(out);
}

/** Peak positions of MMR(size), left to right (tallest first); size 0 has none. */
export function peaks(size: number): Result<number[]> {
  const ms = mountains(size);
  return ms.ok ? ok(ms.value.map((m) => m.peak)) : ms;
}

/** Number of leaves in MMR(size): the sum of `2^height` over its peaks. */
export function leafCount(size: number): Result<number> {
  const ms = mountains(size);
  return ms.ok ? ok(ms.value.reduce((n, m) => n + m.leafCount, 0)) : ms;
}

/** Index of the mountain holding leaf `leaf` (the last one when `leaf` is beyond every mountain). */
export function mountainIndexOfLeaf(ms: readonly Mountain[], leaf: number): number {
  let i = 0;
  while (i + 1 < ms.length && leaf >= (ms[i + 1] as Mountain).firstLeaf) i++;
  return i;
}
