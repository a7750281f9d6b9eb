/**
 * The times pinned, independent witnesses vouch for (contract §5.1): each verified cosignature/v1
 * line's timestamp, per checkpoint, from the lines as the evidence reads them
 * (src/evidence/witness-lines.ts) — the very lines and verifications continuity counts.
 */
import type { EvidenceContext } from "../evidence/context.js";
import { labelOf } from "../evidence/cosignatures.js";
import { otherRoleKeys, producerOperatedWitnesses } from "../evidence/operator.js";
import { runEquivocations, witnessLines } from "../evidence/witness-lines.js";
import { judgeOwnClaim, strictest, type TimeSource } from "./judge.js";
import { keyWindows } from "./pinned.js";

/**
 * Verified timestamps of independent witnesses whose key is within its window, per checkpoint;
 * the input's checkpoint parses. A witness key that equivocated in the run counts nowhere in it
 * (contract §9.40), not as a proof of time either.
 */
export function witnessTimes(
  ctx: EvidenceContext,
  at: TimeSource | undefined,
): { current: TimeSource[]; prior: TimeSource[] } {
  const out = { current: [] as TimeSource[], prior: [] as TimeSource[] };
  const witnesses = ctx.trust?.witnesses ?? [];
  if (witnesses.length === 0) return out;
  const lines = witnessLines(ctx);
  const producer = producerOperatedWitnesses(witnesses, otherRoleKeys(ctx));
  const found: { role: "current" | "prior"; key: string; time: TimeSource }[] = [];
  for (const { carried, pinned } of lines.read) {
    const cp = carried.role === "current" ? lines.current : lines.prior;
    if (!cp || !pinned?.verified || !pinned.signed.ok) continue;
    if (pinned.witness.operator !== "independent" || producer.has(pinned.witness)) continue;
    const signed = pinned.signed.value;
    const claimed = { seconds: signed.timestamp, source: "its own timestamp" };
    const judged = strictest(keyWindows(ctx.trust, pinned.key.publicKeyHex, pinned.key), (w) =>
      judgeOwnClaim(w, claimed, at),
    );
    if (judged !== undefined && judged.j.state !== "PASS") continue;
    found.push({
      role: carried.role,
      key: pinned.key.publicKeyHex,
      time: {
        seconds: signed.timestamp,
        source: `cosignature of independent witness ${labelOf(pinned.witness)} over the ${carried.role} checkpoint (mmr_size ${cp.mmrSize})`,
      },
    });
  }
  // Only a time found needs the run's equivocations (the --cosignatures file's pool among them).
  const equivocating = found.length > 0 ? runEquivocations(ctx) : new Map<string, unknown>();
  for (const f of found) if (!equivocating.has(f.key)) out[f.role].push(f.time);
  return out;
}
