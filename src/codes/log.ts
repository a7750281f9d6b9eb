/** Failure codes of the log proofs: MMR, CLL checkpoint, RFC 9162, CCF and COSE receipts. */
export const LOG_CODES = [
  // CLL MMR (src/log/mmr*.ts), peak-list commitment, checkpoint and checkpoint chain (src/log/checkpoint*.ts).
  "MMR_SIZE_INVALID", // not an MMR node count (2, 5, 6, 9, …), negative, not an integer, or >= 2^50
  "MMR_LEAF_INDEX_OUT_OF_RANGE", // a leaf index outside 0 <= i < leaf_count(size)
  "MMR_RANGE_INVALID", // a range proof with from_index > to_index
  "MMR_RANGE_BODY_COUNT_MISMATCH", // a range proof given other than to_index - from_index + 1 body digests
  "MMR_CONSISTENCY_SIZE_DECREASING", // a consistency proof from a larger size_a to a smaller size_b
  "MMR_HASH_MALFORMED", // a root, body digest or proof hash that is not 64 lowercase hex (32 bytes)
  "MMR_PROOF_MALFORMED", // a proof that is not an object, lacks a member, has an unknown or ill-typed one, or mixes key spellings
  "MMR_PROOF_VERSION_UNSUPPORTED", // a proof whose v is not 1
  "MMR_PROOF_KIND_MISMATCH", // a proof whose kind is not the one being verified (inclusion, consistency, range)
  "MMR_PROOF_SIZE_MISMATCH", // the proof's size (size_a, size_b) differs from the checkpoint size it is verified against
  "MMR_PROOF_INDEX_MISMATCH", // the proof's leaf_index (from_index, to_index) differs from the one being verified
  "MMR_WITNESS_LENGTH_MISMATCH", // more or fewer witness hashes than the tree shape dictates
  "MMR_PEAKS_LENGTH_MISMATCH", // peaks_left/peaks_right or old_peaks/new_peaks of the wrong length for the size
  "MMR_ROOT_MISMATCH", // a well-formed proof that does not reconstruct the committed root
  "MMR_PEAK_MISMATCH", // a consistency proof whose old peak does not climb to the new peak containing it
  "COMMITMENT_MALFORMED", // a peak-list commitment that is not a CBOR array, is truncated, or uses a reserved header
  "COMMITMENT_INDEFINITE_LENGTH", // a peak-list commitment with an indefinite-length array (0x9f)
  "COMMITMENT_NOT_CANONICAL", // a peak-list commitment whose array length is not minimally encoded
  "COMMITMENT_PEAK_MALFORMED", // a peak that is not a 32-byte bstr with the head 58 20
  "COMMITMENT_TOO_MANY_PEAKS", // more than 255 peaks: no MMR below 2^50 has that many
  "COMMITMENT_TRAILING_BYTES", // bytes after the peak-list array
  "COMMITMENT_PEAK_COUNT_MISMATCH", // a peak list whose length is not the number of peaks of the stated size
  "CHECKPOINT_MALFORMED", // a checkpoint that is not an object or has a member of the wrong type or form
  "CHECKPOINT_MEMBER_MISSING", // a checkpoint without one of the nine signed members or the signature
  "CHECKPOINT_MEMBER_UNKNOWN", // a checkpoint member outside the signed nine, signature, witnesses, consistency_proof
  "CHECKPOINT_VERSION_UNSUPPORTED", // a checkpoint whose v is not 1
  "CHECKPOINT_KIND_INVALID", // a checkpoint whose kind is not "mmr_checkpoint"
  "CHECKPOINT_SIGNATURE_INVALID", // the Ed25519 signature under key_id does not verify over the ASCII digest hex
  "CHAIN_PRIOR_MISSING", // prev_size > 0 but no prior checkpoint is given
  "CHAIN_FIRST_PREV_ROOT_NOT_EMPTY", // a first checkpoint (prev_size 0) whose prev_root is not ""
  "CHAIN_CONSISTENCY_UNEXPECTED", // a consistency proof given for a first checkpoint
  "CHAIN_PRIOR_UNEXPECTED", // a prior checkpoint given for a first checkpoint (prev_size 0)
  "CHAIN_PRIOR_SIGNATURE_INVALID", // the prior checkpoint's signature does not verify
  "CHAIN_LOG_ID_MISMATCH", // prior and current checkpoints name different logs
  "CHAIN_PREV_SIZE_MISMATCH", // current.prev_size != prior.mmr_size
  "CHAIN_PREV_ROOT_MISMATCH", // current.prev_root != prior.root
  "CHAIN_SIZE_NOT_INCREASING", // current.mmr_size <= current.prev_size
  "CHAIN_CONSISTENCY_MISSING", // a prior checkpoint is given without a consistency proof
  // SCITT receipts (src/log/receipt.ts), RFC 9162 (src/log/rfc9162.ts) and CCF (src/log/ccf.ts) proofs.
  "RECEIPT_VDS_MISSING", // the protected header has no vds (label 395); an unprotected vds is never used
  "RECEIPT_VDS_UNSUPPORTED", // vds is not 1 (RFC9162_SHA256) or 2 (CCF_LEDGER_SHA256)
  "RECEIPT_PAYLOAD_ATTACHED", // a receipt must carry its payload (the root) detached
  "RECEIPT_PROOFS_MISSING", // no unprotected 396 (vdp) map, or no inclusion proofs (-1) in it
  "RECEIPT_PROOFS_MALFORMED", // 396 is not a map, or -1 is not a non-empty array of at most 16 bstr
  "RECEIPT_PROOF_MALFORMED", // the RFC 9162 proof is not cbor [tree_size, leaf_index, [bstr, …]]
  "RECEIPT_PATH_TOO_LONG", // an inclusion path longer than 64 steps
  "RFC9162_HASH_LENGTH", // a leaf hash or path element is not 32 bytes
  "RFC9162_INDEX_INVALID", // leaf_index/tree_size not integers with 0 <= leaf_index < tree_size
  "RFC9162_PATH_LENGTH", // the path length differs from the depth the tree shape dictates
  "CCF_PROOF_MALFORMED", // the CCF proof is not {1: [bstr, tstr, bstr], 2: [[bool, bstr], …]}
  "CCF_HASH_LENGTH", // a CCF leaf component or path hash is not 32 bytes
  "CCF_CLAIMS_DIGEST_MISMATCH", // the CCF leaf's claims_digest is not the expected leaf entry
] as const;
export type LogCode = (typeof LOG_CODES)[number];
