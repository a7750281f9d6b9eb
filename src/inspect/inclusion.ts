/**
 * The record's inclusion in the producer's log (log-and-receipts.md §3.2–§3.3): the leaf hash of
 * the carried capsule_id, each fold of the witness path up to the leaf's peak (the parent's
 * position, the sibling and its side, the result), the peaks, each bagging fold, and the bagged
 * root beside the checkpoint's — all seen through the trace of the very call verify makes.
 */
import { leafPosition, verifyInclusion, type Mountain } from "../log/mmr.js";
import type { EvidenceContext } from "../evidence/context.js";
import { inclusionEvidence, PROOF_PATH } from "../evidence/inclusion.js";
import { hexToBytes, isHex64 } from "../util/bytes.js";
import { foldStep, hex, stepFailure } from "./common.js";
import type { Absent, BagFoldStep, InclusionSection, MmrFoldStep, StepFailure } from "./model.js";

export function inclusionSection(ctx: EvidenceContext): InclusionSection | Absent {
  const read = inclusionEvidence(ctx);
  if ("absent" in read) return { absent: read.absent };
  const { checkpoint: cp, committed, proof, capsuleId } = read;
  const empty: InclusionSection = {
    at: PROOF_PATH,
    mmrSize: committed?.mmrSize ?? null,
    leafIndex: null,
    leafPosition: null,
    mountain: null,
    leafBody: isHex64(capsuleId) ? capsuleId : null,
    leafHash: null,
    folds: [],
    peaks: [],
    peakIndex: null,
    bagging: [],
    root: null,
    checkpointRoot: committed ? hex(committed.root) : null,
    equal: false,
  };
  const stop = (failure: StepFailure): InclusionSection => ({ ...empty, failure });
  if (!committed) return stop(cp.ok ? { detail: "the checkpoint's root or mmr_size is malformed" } : stepFailure(cp));
  if (!proof.ok) return stop(stepFailure(proof));
  if (!isHex64(capsuleId))
    return stop({
      detail: "capsule.capsule_id is not 64 lowercase hex: no leaf body to prove",
      path: "capsule.capsule_id",
    });

  let mountain: InclusionSection["mountain"] = null;
  let leafHash: string | null = null;
  const folds: MmrFoldStep[] = [];
  let peaks: string[] = [];
  let peakIndex: number | null = null;
  const bagging: BagFoldStep[] = [];
  let root: string | null = null;
  const r = verifyInclusion(
    committed.root,
    committed.mmrSize,
    proof.value.leafIndex,
    hexToBytes(capsuleId) as Uint8Array,
    proof.value,
    {
      shape: (index: number, ms: readonly Mountain[]) => {
        const m = ms[index] as Mountain;
        mountain = { index, of: ms.length, height: m.height, peak: m.peak };
      },
      leaf: (h) => (leafHash = hex(h)),
      fold: (position, sibling, siblingIsLeft, result) =>
        folds.push(foldStep(position, sibling, siblingIsLeft, result)),
      peaks: (list, index) => {
        peaks = list.map(hex);
        peakIndex = index;
      },
      bag: (index, right, left, result) =>
        bagging.push({ index, right: hex(right), left: hex(left), result: hex(result) }),
      root: (computed) => (root = hex(computed)),
    },
  );
  const explained: InclusionSection = {
    ...empty,
    leafIndex: proof.value.leafIndex,
    leafPosition: leafPosition(proof.value.leafIndex) ?? null,
    mountain,
    leafHash,
    folds,
    peaks,
    peakIndex,
    bagging,
    root,
    equal: r.ok,
  };
  return r.ok ? explained : { ...explained, failure: stepFailure(r) };
}
