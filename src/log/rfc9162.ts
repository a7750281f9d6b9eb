/**
 * RFC 9162 Merkle tree hashing and inclusion-proof verification (vds 1, RFC9162_SHA256;
 * log-and-receipts.md §5.4): leaf = SHA-256(0x00 ‖ entry), node = SHA-256(0x01 ‖ left ‖ right),
 * audit path ordered bottom-up (the leaf's sibling first).
 */
import { fail, ok, type Result } from "../result.js";
import { sha256 } from "../util/bytes.js";

const LEAF_PREFIX = new Uint8Array([0x00]);
const NODE_PREFIX = new Uint8Array([0x01]);

export function rfc9162LeafHash(entry: Uint8Array): Uint8Array {
  return sha256(LEAF_PREFIX, entry);
}

export function rfc9162NodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(NODE_PREFIX, left, right);
}

/**
 * One fold of an audit path, for an explanation (`inspect`): `path[index]` is hashed with the
 * node below, on the left or on the right of it, giving `result`.
 */
export type PathFold = (index: number, sibling: Uint8Array, siblingIsLeft: boolean, result: Uint8Array) => void;

/**
 * The root an inclusion proof commits to, or a failure; never throws. `onFold`, when given, sees
 * each fold and changes nothing.
 *
 * leafIndex and treeSize come from an attacker-controlled receipt, so they are checked before any
 * hashing: safe integers (which also keeps tree_size under the 2^62 bound scitt-cose applies) with
 * 0 <= leafIndex < treeSize, and the path must have exactly the length the tree shape dictates,
 * so no surplus or missing element can be absorbed silently.
 */
export function rfc9162RootFromInclusion(
  leafHash: Uint8Array,
  leafIndex: number,
  treeSize: number,
  path: ReadonlyArray<Uint8Array>,
  onFold?: PathFold,
): Result<Uint8Array> {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || leafIndex < 0 || leafIndex >= treeSize) {
    return fail("RFC9162_INDEX_INVALID", `need integers 0 <= leaf_index < tree_size, got ${leafIndex} and ${treeSize}`);
  }
  const siblingIsRight = subtreeSides(leafIndex, treeSize);
  if (path.length !== siblingIsRight.length) {
    return fail(
      "RFC9162_PATH_LENGTH",
      `leaf ${leafIndex} of ${treeSize} needs a path of ${siblingIsRight.length}, got ${path.length}`,
    );
  }
  if (leafHash.length !== 32) return fail("RFC9162_HASH_LENGTH", `leaf hash is ${leafHash.length} bytes`);
  let root = leafHash;
  for (let i = 0; i < path.length; i++) {
    const sibling = path[i] as Uint8Array;
    if (sibling.length !== 32) return fail("RFC9162_HASH_LENGTH", `path[${i}] is ${sibling.length} bytes`);
    // path[0] is the lowest level, the last split of the top-down descent.
    const onRight = siblingIsRight[siblingIsRight.length - 1 - i] as boolean;
    root = onRight ? rfc9162NodeHash(root, sibling) : rfc9162NodeHash(sibling, root);
    if (onFold !== undefined) onFold(i, sibling, !onRight, root);
  }
  return ok(root);
}

/**
 * The RFC 9162 §2.1.3.1 descent from the root to the leaf: at each split of a subtree of n leaves
 * at k (the largest power of two below n), whether the leaf lies in the left part (so its sibling
 * subtree is on the right). Arithmetic, not bit shifts: shifts truncate to 32 bits.
 */
function subtreeSides(leafIndex: number, treeSize: number): boolean[] {
  const sides: boolean[] = [];
  let m = leafIndex;
  let n = treeSize;
  while (n > 1) {
    let k = 1;
    while (k * 2 < n) k *= 2;
    if (m < k) {
      sides.push(true);
      n = k;
    } else {
      sides.push(false);
      m -= k;
      n -= k;
    }
  }
  return sides;
}
