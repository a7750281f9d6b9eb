/**
 * localInclusion — the record is a leaf of the producer's log at the checkpoint (contract §4;
 * log-and-receipts.md §3.3, §4.5).
 *
 *   inclusion.proof   the checkpoint and the camelCase localInclusionProof are well-formed, the
 *                     proof is for the checkpoint's mmr_size, and the leaf body is a 32-byte id
 *   inclusion.verify  the MMR inclusion of leaf_hash(capsule_id) reconstructs cllCheckpoint.root
 * The leaf body is the carried capsule_id (raw 32 bytes), as the producer appended it; whether that
 * id matches the capsule's content is producerSignature's check.
 */
import { asSafeInteger, isJsonObject, member, type JsonValue } from "../json/value.js";
import { hexToBytes, isHex64, bytesToHex } from "../util/bytes.js";
import { parseInclusionProof, verifyInclusion } from "../log/mmr.js";
import type { PropertyResult } from "./shared/types.js";
import { checksFor, decide } from "./shared/checks.js";
import type { EvidenceContext } from "./shared/context.js";
import { manifestCheckpoint } from "./shared/manifest-checkpoint.js";

export const CHECKS = checksFor(["inclusion.proof", "inclusion.verify"]);
const { check, only } = CHECKS;

const PROOF_PATH = "manifest.localInclusionProof";

function rootAndSize(cp: JsonValue | undefined): { root: Uint8Array; mmrSize: number } | undefined {
  if (!isJsonObject(cp)) return undefined;
  const root = member(cp, "root");
  const mmrSize = asSafeInteger(member(cp, "mmr_size"));
  if (!isHex64(root) || mmrSize === undefined || mmrSize < 0) return undefined;
  return { root: hexToBytes(root) as Uint8Array, mmrSize };
}

export function localInclusion(ctx: EvidenceContext): PropertyResult {
  const cp = manifestCheckpoint(ctx)?.result;
  const proofValue = ctx.manifest ? member(ctx.manifest, "localInclusionProof") : undefined;
  const capsule = ctx.capsule;
  if (cp === undefined || proofValue === undefined || proofValue === null || !capsule) {
    const missing = [cp === undefined && "checkpoint", (proofValue === undefined || proofValue === null) && "inclusion proof", !capsule && "capsule"].filter(Boolean);
    return only("inclusion.proof", "NOT_PRESENT", `the bundle carries no ${missing.join(", no ")}`);
  }
  // Inclusion needs only the checkpoint's root and size; a defect elsewhere in the checkpoint (its
  // version, kind or signature) is checkpointSignature's to report.
  const committed = cp.ok ? cp.value : rootAndSize(ctx.manifest ? member(ctx.manifest, "cllCheckpoint") : undefined);
  if (!committed) return only("inclusion.proof", "FAIL", `the checkpoint's root or mmr_size is malformed${cp.ok ? "" : `: ${cp.detail}`}`, cp.ok ? {} : { code: cp.code });
  const proof = parseInclusionProof(proofValue, PROOF_PATH);
  if (!proof.ok) return only("inclusion.proof", "FAIL", `the inclusion proof is malformed: ${proof.detail}${proof.path ? ` at ${proof.path}` : ""}`, { code: proof.code });
  const capsuleId = member(capsule, "capsule_id");
  if (!isHex64(capsuleId)) return only("inclusion.proof", "FAIL", "capsule.capsule_id is not 64 lowercase hex: no leaf body to prove");
  const checkpoint = committed;
  const values = {
    root: bytesToHex(checkpoint.root),
    mmrSize: String(checkpoint.mmrSize),
    leafIndex: String(proof.value.leafIndex),
    leafBody: capsuleId,
  };
  const shape = check("inclusion.proof", "PASS", `inclusion proof for leaf ${proof.value.leafIndex} in an MMR of ${proof.value.size} nodes`);
  const r = verifyInclusion(checkpoint.root, checkpoint.mmrSize, proof.value.leafIndex, hexToBytes(capsuleId) as Uint8Array, proof.value);
  const verdict = r.ok
    ? check("inclusion.verify", "PASS", `leaf_index=${proof.value.leafIndex} against checkpoint root at mmr_size=${checkpoint.mmrSize}`, { values })
    : check("inclusion.verify", "FAIL", `capsule_id ${capsuleId} is not proven at leaf ${proof.value.leafIndex}: ${r.detail}`, { code: r.code, values });
  return decide([shape, verdict], () => verdict.detail);
}
