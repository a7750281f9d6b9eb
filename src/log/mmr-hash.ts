/**
 * CLL MMR node hashes (log-and-receipts §3.2, "MMRIVER-compatible, position-committed").
 *
 * Domain separation is by preimage length and prefix: a leaf hashes 33 bytes (`0x00 ‖ body`), an
 * interior node 72 (`be64(pos + 1) ‖ L ‖ R`), so no leaf preimage can pose as an interior one.
 * These functions hash what they are given; the verifiers check the 32-byte lengths first.
 */
import { be64, sha256 } from "../util/bytes.js";

const LEAF_PREFIX = new Uint8Array([0x00]);
const EMPTY_ROOT = new Uint8Array(32);

/** `SHA-256(0x00 ‖ body_digest)`; in the A2A profile the body is the raw 32 bytes of `capsule_id`. */
export function leafHash(bodyDigest: Uint8Array): Uint8Array {
  return sha256(LEAF_PREFIX, bodyDigest);
}

/** `SHA-256(be64(pos + 1) ‖ left ‖ right)`, `pos` being the 0-based position of the new parent. */
export function interiorHash(left: Uint8Array, right: Uint8Array, pos: number): Uint8Array {
  return sha256(be64(pos + 1), left, right);
}

/** One bagging step, for an explanation: `result = SHA-256(right ‖ left)`, `left` being peak `index`. */
export type BagStep = (index: number, right: Uint8Array, left: Uint8Array, result: Uint8Array) => void;

/**
 * The CLL root of a peak list (left to right, tallest first): fold from the right, hashing
 * `SHA-256(RIGHT ‖ LEFT)` with no prefix. One peak is the root itself; no peaks give 32 zero bytes.
 * `onStep`, when given, sees every fold (`inspect`); it never changes the result.
 */
export function bagPeaks(peakHashes: readonly Uint8Array[], onStep?: BagStep): Uint8Array {
  const last = peakHashes[peakHashes.length - 1];
  if (last === undefined) return EMPTY_ROOT.slice();
  let acc = last;
  for (let i = peakHashes.length - 2; i >= 0; i--) {
    const left = peakHashes[i] as Uint8Array;
    const next = sha256(acc, left);
    if (onStep !== undefined) onStep(i, acc, left, next);
    acc = next;
  }
  return acc;
}
