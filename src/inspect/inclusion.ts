/**
 * The record's inclusion in the producer's log (log-and-receipts.md §3.2–§3.3): the leaf hash of
 * the carried capsule_id, each fold of the witness path up to the leaf's peak (the parent's
 * position, the sibling and its side, the result), the peaks, each bagging fold, and the bagged
 * root beside the checkpoint's — all seen through the trace of the very call verify makes.
 */
import { leafPosition, parseInclusionProof, verifyInclusion, type Mountain } from "../log/mmr.js";
import { member } from "../json/value.js";
import { PROOF_PATH, rootAndSize } from "../properties/local-inclusion.js";
import type { EvidenceContext } from "../evidence/context.js";
import { manifestCheckpoint } from "../evidence/manifest-checkpoint.js";
import { hexToBytes, isHex64 } from "../util/bytes.js";
import { hex, stepFailure } from "./common.js";
import type { Absent, BagFoldStep, InclusionSection, MmrFoldStep, StepFailure } from "./model.js";

export function inclusionSection(ctx: EvidenceContext): InclusionSection | Absent {
  const cp = manifestCheckpoint(ctx)?.result;
  const proofValue = ctx.manifest ? member(ctx.manifest, "localInclusionProof") : undefined;
  const capsule = ctx.capsule;
  if (cp === undefined || proofValue === undefined || proofValue === null || !capsule) {
    const missing = [
      cp === undefined && "checkpoint",
      (proofValue === undefined || proofValue === null) && "inclusion proof",
      !capsule && "capsule",
    ].filter(Boolean);
    return { absent: `the bundle carries no ${missing.join(", no ")}` };
  }
  const committed = cp.ok ? cp.value : rootAndSize(ctx.manifest ? member(ctx.manifest, "cllCheckpoint") : undefined);
  const capsuleId = member(capsule, "capsule_id");
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
  const proof = parseInclusionProof(proofValue, PROOF_PATH);
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
        folds.push({
          position,
          sibling: hex(sibling),
          siblingSide: siblingIsLeft ? "left" : "right",
          result: hex(result),
        }),
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
