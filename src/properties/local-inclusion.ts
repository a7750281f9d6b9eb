/**
 * localInclusion — the record is a leaf of the producer's log at the checkpoint (contract §4;
 * log-and-receipts.md §3.3, §4.5).
 *
 *   inclusion.proof   the checkpoint and the camelCase localInclusionProof are well-formed, the
 *                     proof is for the checkpoint's mmr_size, and the leaf body is a 32-byte id
 *   inclusion.verify  the MMR inclusion of leaf_hash(capsule_id) reconstructs cllCheckpoint.root
 *   interim.inclusion each supplied interim record passes these checks under its own checkpoint
 *   interim.log       it is an earlier leaf of the same log, under the same or an earlier checkpoint
 * The leaf body is the carried capsule_id (raw 32 bytes), as the producer appended it; whether that
 * id matches the capsule's content is producerSignature's check.
 */
import { isHex64, bytesToHex, bytesEqual } from "../util/bytes.js";
import { verifyConsistency } from "../log/mmr.js";
import type { Result } from "../result.js";
import type { Checkpoint } from "../log/checkpoint.js";
import type { PropertyResult, State } from "./shared/types.js";
import { checksFor, decide, type CheckExtras } from "./shared/checks.js";
import { interimRecords } from "../evidence/interim.js";
import { interimChecks, withInterim } from "./shared/interim.js";
import type { EvidenceContext } from "../evidence/context.js";
import { consistencyLinks, inclusionEvidence, leafInclusion, linkStart, position } from "../evidence/inclusion.js";

export const CHECKS = checksFor(["inclusion.proof", "inclusion.verify", "interim.inclusion", "interim.log"]);
const { check, only } = CHECKS;

export function localInclusion(ctx: EvidenceContext): PropertyResult {
  const records = interimRecords(ctx);
  return withInterim(localInclusionOfRecord(ctx), [
    ...interimChecks(ctx, "interim.inclusion", check, localInclusion),
    ...records.map((r) => {
      const [state, detail, extras] = sameLog(ctx, r.ctx);
      return check("interim.log", state, detail, { ...extras, subject: r.label });
    }),
  ]);
}

/**
 * An interim record is an earlier leaf of the terminal record's log (docs/profile.md, v3.2
 * additions): the same log_id; a leaf index below the terminal record's; a checkpoint that is the
 * terminal record's (same size, same root: two roots at one size are a fork) or an earlier one,
 * which the terminal checkpoint provably extends through the consistency proofs the terminal and
 * the supplied interim manifests carry. Each record's own inclusion is `interim.inclusion` and `inclusion.verify`.
 */
function sameLog(terminal: EvidenceContext, interim: EvidenceContext): [State, string, CheckExtras?] {
  const t = position(terminal);
  const i = position(interim);
  if (!t || !i)
    return [
      "NOT_CHECKED",
      `not compared: ${!t ? "the terminal record's" : "its"} checkpoint or inclusion proof is malformed (reported by checkpointSignature and localInclusion)`,
    ];
  const a = i.checkpoint;
  const b = t.checkpoint;
  const values = {
    interimLogId: a.logId,
    logId: b.logId,
    interimLeaf: String(i.leafIndex),
    leaf: String(t.leafIndex),
    interimMmrSize: String(a.mmrSize),
    mmrSize: String(b.mmrSize),
  };
  if (a.logId !== b.logId)
    return [
      "FAIL",
      `it is in log ${a.logId}, not in the terminal record's log ${b.logId}: a record of another log`,
      { values },
    ];
  if (i.leafIndex >= t.leafIndex) {
    return [
      "FAIL",
      `it is at leaf ${i.leafIndex}, not before the terminal record's leaf ${t.leafIndex}: a record sealed at a pause precedes the end`,
      { values },
    ];
  }
  if (a.mmrSize > b.mmrSize)
    return [
      "FAIL",
      `its checkpoint (mmr_size ${a.mmrSize}) is later than the terminal record's (mmr_size ${b.mmrSize})`,
      { values },
    ];
  if (a.mmrSize === b.mmrSize) {
    if (bytesEqual(a.root, b.root))
      return [
        "PASS",
        `an earlier leaf (${i.leafIndex} < ${t.leafIndex}) under the terminal record's checkpoint (mmr_size ${b.mmrSize})`,
        { values },
      ];
    return [
      "FAIL",
      `its checkpoint has mmr_size ${a.mmrSize} like the terminal record's but root ${bytesToHex(a.root)}, not ${bytesToHex(b.root)}: two histories at one size`,
      { values },
    ];
  }
  return consistentHistory(terminal, a, b, values);
}

/**
 * The interim checkpoint `a` is an earlier state of the terminal checkpoint `b`'s log when a chain
 * of consistency proofs leads from one to the other: each record's manifest proves its checkpoint
 * extends its prior checkpoint, so the terminal record and the supplied interim records together
 * can bridge several pauses. Each step is verified; one that does not verify is a FAIL.
 */
function consistentHistory(
  terminal: EvidenceContext,
  a: Checkpoint,
  b: Checkpoint,
  values: Record<string, string>,
): [State, string, CheckExtras?] {
  const links = consistencyLinks(terminal);
  let at = a;
  const steps: string[] = [];
  while (at.mmrSize < b.mmrSize) {
    const from = at;
    const next = (links.get(linkStart(from)) ?? [])
      .filter((l) => l.to.mmrSize > from.mmrSize && l.to.mmrSize <= b.mmrSize)
      .sort((x, y) => y.to.mmrSize - x.to.mmrSize)[0];
    if (!next) {
      return [
        "INCONCLUSIVE",
        `its checkpoint (mmr_size ${a.mmrSize}) is earlier than the terminal record's (${b.mmrSize}), and no consistency proof carried by these records leads from mmr_size ${from.mmrSize} towards it: the two cannot be shown to be one history`,
        { values },
      ];
    }
    const r = verifyConsistency(next.from.root, next.from.mmrSize, next.to.root, next.to.mmrSize, next.proof);
    if (!r.ok)
      return [
        "FAIL",
        `the consistency proof from mmr_size ${next.from.mmrSize} to ${next.to.mmrSize} does not verify: ${r.detail}`,
        { code: r.code, values },
      ];
    steps.push(String(next.to.mmrSize));
    at = next.to;
  }
  if (!bytesEqual(at.root, b.root)) {
    return [
      "FAIL",
      `the consistency proofs lead to a checkpoint of mmr_size ${at.mmrSize} with root ${bytesToHex(at.root)}, not the terminal record's ${bytesToHex(b.root)}: two histories at one size`,
      { values },
    ];
  }
  return [
    "PASS",
    `an earlier leaf under an earlier checkpoint (mmr_size ${a.mmrSize}) that the terminal checkpoint provably extends (consistency ${[String(a.mmrSize), ...steps].join(" → ")})`,
    { values },
  ];
}

function localInclusionOfRecord(ctx: EvidenceContext): PropertyResult {
  const read = inclusionEvidence(ctx);
  if ("absent" in read) return only("inclusion.proof", "NOT_PRESENT", read.absent);
  const { checkpoint: cp, committed, proof, capsuleId } = read;
  if (!committed)
    return only(
      "inclusion.proof",
      "FAIL",
      `the checkpoint's root or mmr_size is malformed${cp.ok ? "" : `: ${cp.detail}`}`,
      cp.ok ? {} : { code: cp.code },
    );
  if (!proof.ok)
    return only(
      "inclusion.proof",
      "FAIL",
      `the inclusion proof is malformed: ${proof.detail}${proof.path ? ` at ${proof.path}` : ""}`,
      { code: proof.code },
    );
  if (!isHex64(capsuleId))
    return only("inclusion.proof", "FAIL", "capsule.capsule_id is not 64 lowercase hex: no leaf body to prove");
  const checkpoint = committed;
  const values = {
    root: bytesToHex(checkpoint.root),
    mmrSize: String(checkpoint.mmrSize),
    leafIndex: String(proof.value.leafIndex),
    leafBody: capsuleId,
  };
  const shape = check(
    "inclusion.proof",
    "PASS",
    `inclusion proof for leaf ${proof.value.leafIndex} in an MMR of ${proof.value.size} nodes`,
  );
  // The inputs were checked above, so the evidence verified the leaf (src/evidence/inclusion.ts).
  const r = leafInclusion(ctx) as Result<true>;
  const verdict = r.ok
    ? check(
        "inclusion.verify",
        "PASS",
        `leaf_index=${proof.value.leafIndex} against checkpoint root at mmr_size=${checkpoint.mmrSize}`,
        { values },
      )
    : check(
        "inclusion.verify",
        "FAIL",
        `capsule_id ${capsuleId} is not proven at leaf ${proof.value.leafIndex}: ${r.detail}`,
        { code: r.code, values },
      );
  return decide([shape, verdict], () => verdict.detail);
}
