/**
 * RFC 9162 §2.1.1 MTH and §2.1.3.1 PATH, transcribed literally as recursion over the leaf list:
 * an oracle that shares nothing with src/log/rfc9162.ts (which folds a path iteratively).
 */
import { createHash } from "node:crypto";

function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

/** The largest power of two smaller than n (n > 1). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]) over leaf entries (not leaf hashes). */
export function merkleTreeHash(entries: Uint8Array[]): Uint8Array {
  if (entries.length === 1) return sha256(new Uint8Array([0]), entries[0] as Uint8Array);
  const k = split(entries.length);
  return sha256(new Uint8Array([1]), merkleTreeHash(entries.slice(0, k)), merkleTreeHash(entries.slice(k)));
}

/** PATH(m, D[n]), bottom-up. */
export function auditPath(m: number, entries: Uint8Array[]): Uint8Array[] {
  if (entries.length === 1) return [];
  const k = split(entries.length);
  return m < k
    ? [...auditPath(m, entries.slice(0, k)), merkleTreeHash(entries.slice(k))]
    : [...auditPath(m - k, entries.slice(k)), merkleTreeHash(entries.slice(0, k))];
}

/** The length of PATH(m, D[n]), without building the tree (for sizes far beyond memory). */
export function auditPathLength(m: number, n: number): number {
  if (n === 1) return 0;
  const k = split(n);
  return 1 + (m < k ? auditPathLength(m, k) : auditPathLength(m - k, n - k));
}
