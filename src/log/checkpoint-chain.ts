/**
 * The checkpoint chain rule (log-and-receipts §4.4): `prev_size` / `prev_root` link a checkpoint
 * to the one before it, and a consistency proof shows the later MMR extends the earlier one.
 *
 * What a pass means: history is intact (append-only) between the two checkpoints — anti-rewrite
 * only, never "no fork": a producer can still sign two diverging successors of one checkpoint.
 *
 * The prior checkpoint's signature is verified here, because nothing else looks at it and a chain
 * to an unsigned predecessor proves nothing. The current checkpoint's own signature is not: it is
 * the separate checkpointSignature property, and the caller verifies it there.
 */
import { fail, ok, type Result } from "../result.js";
import { bytesEqual, bytesToHex } from "../util/bytes.js";
import { verifyCheckpointSignature, type Checkpoint } from "./checkpoint.js";
import { verifyConsistency, type ConsistencyProof, type ConsistencyTrace } from "./mmr-proofs.js";

/** What was compared, for the report. */
export type CheckpointChainReport =
  | {
      /** No prior checkpoint: this is the first checkpoint of its log. */
      readonly link: "first";
      readonly mmrSize: number;
      readonly root: string;
    }
  | {
      /** Linked to a prior checkpoint and proven consistent with it. */
      readonly link: "chained";
      readonly logId: string;
      readonly priorSize: number;
      readonly priorRoot: string;
      readonly mmrSize: number;
      readonly root: string;
    };

function hexOrEmpty(root: Uint8Array | null): string {
  return root === null ? '""' : bytesToHex(root);
}

/** §4.4 rule 4: without a prior, only a first checkpoint (prev_size 0, prev_root "", no proof) stands. */
function verifyFirst(current: Checkpoint, consistencyProof: ConsistencyProof | null): Result<CheckpointChainReport> {
  if (current.prevSize !== 0) {
    return fail(
      "CHAIN_PRIOR_MISSING",
      `prev_size is ${current.prevSize} but no prior checkpoint is given`,
      current.path,
    );
  }
  if (current.prevRoot !== null) {
    return fail(
      "CHAIN_FIRST_PREV_ROOT_NOT_EMPTY",
      `prev_size is 0 but prev_root is ${hexOrEmpty(current.prevRoot)}, not ""`,
      current.path,
    );
  }
  if (consistencyProof !== null) {
    return fail("CHAIN_CONSISTENCY_UNEXPECTED", "a consistency proof is given for a first checkpoint", current.path);
  }
  return ok({ link: "first", mmrSize: current.mmrSize, root: bytesToHex(current.root) });
}

/**
 * §4.4 rules 3–4: `prior` is `manifest.priorCheckpoint` (null when absent) and `consistencyProof`
 * is `manifest.consistencyProof`, parsed (null when absent). `trace` sees the consistency proof's
 * steps, for an explanation.
 */
export function verifyCheckpointChain(
  prior: Checkpoint | null,
  current: Checkpoint,
  consistencyProof: ConsistencyProof | null,
  trace?: ConsistencyTrace,
): Result<CheckpointChainReport> {
  if (prior === null) return verifyFirst(current, consistencyProof);

  // §4.4 rule 4: a prior and prev_size 0 never go together. A prior of the empty log (mmr_size 0,
  // which every MMR extends) would otherwise dress a log's first checkpoint up as a successor.
  if (current.prevSize === 0) {
    return fail(
      "CHAIN_PRIOR_UNEXPECTED",
      `prev_size is 0 (a first checkpoint), but a prior checkpoint at mmr_size ${prior.mmrSize} is given`,
      current.path,
    );
  }
  const priorSignature = verifyCheckpointSignature(prior);
  if (!priorSignature.ok) return fail("CHAIN_PRIOR_SIGNATURE_INVALID", priorSignature.detail, priorSignature.path);
  // A predecessor from another log would chain two unrelated histories (scitt-cose's chain check).
  if (prior.logId !== current.logId) {
    return fail("CHAIN_LOG_ID_MISMATCH", `prior log_id "${prior.logId}", current "${current.logId}"`, current.path);
  }
  if (current.prevSize !== prior.mmrSize) {
    return fail(
      "CHAIN_PREV_SIZE_MISMATCH",
      `prev_size ${current.prevSize}, prior mmr_size ${prior.mmrSize}`,
      current.path,
    );
  }
  if (current.prevRoot === null || !bytesEqual(current.prevRoot, prior.root)) {
    return fail(
      "CHAIN_PREV_ROOT_MISMATCH",
      `prev_root ${hexOrEmpty(current.prevRoot)}, prior root ${bytesToHex(prior.root)}`,
      current.path,
    );
  }
  // Re-signing the same size (or a smaller one) is not a successor: the producer requires growth.
  if (current.mmrSize <= current.prevSize) {
    return fail(
      "CHAIN_SIZE_NOT_INCREASING",
      `mmr_size ${current.mmrSize} is not above prev_size ${current.prevSize}`,
      current.path,
    );
  }
  if (consistencyProof === null) {
    return fail(
      "CHAIN_CONSISTENCY_MISSING",
      `no consistency proof from size ${prior.mmrSize} to ${current.mmrSize}`,
      current.path,
    );
  }
  const consistent = verifyConsistency(
    prior.root,
    prior.mmrSize,
    current.root,
    current.mmrSize,
    consistencyProof,
    trace,
  );
  if (!consistent.ok) {
    return fail(
      consistent.code,
      `consistency ${prior.mmrSize} → ${current.mmrSize}: ${consistent.detail}`,
      current.path,
    );
  }
  return ok({
    link: "chained",
    logId: current.logId,
    priorSize: prior.mmrSize,
    priorRoot: bytesToHex(prior.root),
    mmrSize: current.mmrSize,
    root: bytesToHex(current.root),
  });
}
