/**
 * Failure codes of continuity witnessing: C2SP signed notes and cosignatures, the CLL note, the
 * quorum of pinned witnesses, and checkpoints compared across inputs.
 */
export const WITNESS_CODES = [
  // The carriers: continuityEvidence in the bundle, a --cosignatures file, a --checkpoints file.
  "COSIGNATURE_EVIDENCE_MALFORMED", // continuityEvidence or a --cosignatures file is not the documented shape, or exceeds a cap
  "CHECKPOINTS_FILE_MALFORMED", // a --checkpoints file is not an array of signed CLL checkpoints
  // C2SP signed-note lines and verifier keys (c2sp.org/signed-note).
  "NOTE_LINE_MALFORMED", // not "— <name> <base64>", a name with a space or "+", non-strict base64, or fewer than 5 bytes
  "NOTE_KEY_NAME_INVALID", // a key name that is empty, has Unicode whitespace or "+", or a control character
  "VKEY_MALFORMED", // a verifier key that is not <name>+<8 lowercase hex>+<base64>
  "VKEY_KEY_ID_MISMATCH", // the vkey's key ID is not SHA-256(name ‖ LF ‖ type ‖ key)[:4]
  "VKEY_TYPE_UNSUPPORTED", // a signature type other than Ed25519 (0x01) or cosignature/v1 (0x04)
  // cosignature/v1 (c2sp.org/tlog-cosignature) under a pinned witness key.
  "COSIGNATURE_MALFORMED", // the signature after the key ID is not u64 timestamp ‖ 64-byte Ed25519 signature
  "COSIGNATURE_TIMESTAMP_INVALID", // timestamp 0 or at least 2^63
  "COSIGNATURE_INVALID", // the Ed25519 signature does not verify over "cosignature/v1\ntime T\n" ‖ note
  "COSIGNATURE_TIMESTAMP_FUTURE", // with --at: the witness claims a time beyond maxFutureSkewSeconds after it
  "TIME_INVALID", // --at is not an RFC 3339 date-time
  // The CLL note (profile cll-mmr/v1) a witness cosigns.
  "LOG_ID_NOT_REPRESENTABLE", // log_id outside ^[A-Za-z0-9._~:/-]{1,200}$: no note origin can carry it
  "NOTE_SIZE_NOT_ELIGIBLE", // mmr_size 0 (an empty log) or not an MMR size
  // Counting witnesses (continuityPolicy).
  "WITNESS_PRODUCER_OPERATED", // producer-operated by the trust file or by key reuse: never counted
  "WITNESS_NO_STATEMENT", // the trust file does not bind cll-mmr-consistency/v1 to the witness key
  "WITNESS_CHECKPOINT_NOT_COSIGNED", // the witness did not cosign a checkpoint the policy needs (the current one; the prior with requirePriorCosigned)
  "WITNESS_INCONSISTENT", // one witness cosigned the prior after the current checkpoint
  "WITNESS_EQUIVOCATION", // one pinned witness key cosigned two roots for one size of one origin, wherever the lines came from: never counted in the run
  "WITNESS_BELOW_QUORUM", // fewer distinct independent operators than the quorum
  "CONTINUITY_GENESIS", // a first checkpoint: no stated prior, nothing to be continuous with
  "CONTINUITY_PRIOR_NOT_CARRIED", // prev_size > 0 and no prior checkpoint in the bundle
  "CONTINUITY_KEY_ROTATION", // prior and current checkpoints under different keys: not provable offline
  // Across inputs.
  "EQUIVOCATION_FORK", // two checkpoints the same producer signed give one log two roots at one size
  "REGISTRATION_FORK", // stamps of one Transparency Service in two inputs fold to two roots for one tree size
] as const;
export type WitnessCode = (typeof WITNESS_CODES)[number];
