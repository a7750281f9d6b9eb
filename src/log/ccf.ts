/**
 * CCF ledger inclusion proofs (vds 2, CCF_LEDGER_SHA256; draft-ietf-scitt-receipts-ccf-profile,
 * log-and-receipts.md §5.5). The leaf binds the transaction's write set, its commit evidence and
 * the claims digest; the path folds it to the root the service signed.
 */
import { fail, ok, type Result } from "../result.js";
import { sha256, sha256OfText } from "../util/bytes.js";
import type { PathFold } from "./rfc9162.js";

export interface CcfLeaf {
  readonly writeSetDigest: Uint8Array;
  /** The commit evidence string ("ce:<view>.<seqno>:<hex>"), hashed as its UTF-8 bytes. */
  readonly commitEvidence: string;
  readonly claimsDigest: Uint8Array;
}

export interface CcfPathStep {
  /** True when `hash` is the left operand at this level. */
  readonly left: boolean;
  readonly hash: Uint8Array;
}

/** What ccfRootFromInclusion computes on its way, for an explanation; changes nothing. */
export interface CcfTrace {
  readonly leaf?: (leafHash: Uint8Array) => void;
  readonly fold?: PathFold;
}

/**
 * acc = SHA-256(write_set_digest ‖ SHA-256(ce) ‖ claims_digest); then per step
 * acc = SHA-256(hash ‖ acc) when left, SHA-256(acc ‖ hash) otherwise. Total: a component or step
 * hash that is not 32 bytes is a failure, never a shorter or longer hash input.
 */
export function ccfRootFromInclusion(
  leaf: CcfLeaf,
  path: ReadonlyArray<CcfPathStep>,
  trace?: CcfTrace,
): Result<Uint8Array> {
  if (leaf.writeSetDigest.length !== 32)
    return fail("CCF_HASH_LENGTH", `write_set_digest is ${leaf.writeSetDigest.length} bytes`);
  if (leaf.claimsDigest.length !== 32)
    return fail("CCF_HASH_LENGTH", `claims_digest is ${leaf.claimsDigest.length} bytes`);
  let acc = sha256(leaf.writeSetDigest, sha256OfText(leaf.commitEvidence), leaf.claimsDigest);
  trace?.leaf?.(acc);
  for (let i = 0; i < path.length; i++) {
    const step = path[i] as CcfPathStep;
    if (step.hash.length !== 32) return fail("CCF_HASH_LENGTH", `path[${i}] hash is ${step.hash.length} bytes`);
    acc = step.left ? sha256(step.hash, acc) : sha256(acc, step.hash);
    trace?.fold?.(i, step.hash, step.left, acc);
  }
  return ok(acc);
}
