/**
 * The times pinned, independent witnesses vouch for (contract §5.1): each verified cosignature/v1
 * line's timestamp, per checkpoint. Pure: the caller gathers the lines and the keys held in other
 * roles (which make a witness producer-operated, contract §9.19), as continuity does.
 */
import type { Checkpoint } from "../log/checkpoint.js";
import type { TrustedWitness } from "../trust/config.js";
import { renderCllNote } from "../witness/cll-note.js";
import { parseTimestampedSignature, verifyCosignature } from "../witness/cosignature.js";
import type { CarriedLine } from "../witness/evidence.js";
import type { WitnessStatement } from "../witness/pool.js";
import { parseSignatureLine } from "../witness/note.js";
import { labelOf } from "../evidence/cosignatures.js";
import { producerOperatedWitnesses } from "../properties/continuity/form-a.js";
import { judgeOwnClaim, type TimeSource } from "./judge.js";

export interface WitnessTimeInput {
  readonly witnesses: readonly TrustedWitness[];
  readonly current: Checkpoint;
  readonly prior: Checkpoint | null;
  readonly lines: readonly CarriedLine[];
  readonly otherRoles: ReadonlyMap<string, string>;
  readonly at: TimeSource | undefined;
  /**
   * The witness keys (public key hex) that equivocated in the run, given this input's verified
   * statements: such a key counts nowhere in the run (contract §9.40), not as a proof of time either.
   */
  readonly equivocating: (own: readonly WitnessStatement[]) => ReadonlySet<string>;
}

/** Verified timestamps of independent witnesses whose key is within its window, per checkpoint. */
export function witnessTimes(input: WitnessTimeInput): { current: TimeSource[]; prior: TimeSource[] } {
  const out = { current: [] as TimeSource[], prior: [] as TimeSource[] };
  if (input.witnesses.length === 0) return out;
  const producer = producerOperatedWitnesses(input.witnesses, input.otherRoles);
  const pinned = new Map(
    input.witnesses.flatMap((witness) =>
      witness.keys.map((key) => [`${witness.name}\n${key.keyIdHex}`, { witness, key }] as const),
    ),
  );
  const found: { role: "current" | "prior"; key: string; time: TimeSource }[] = [];
  const statements: WitnessStatement[] = [];
  for (const carried of input.lines) {
    const cp = carried.role === "current" ? input.current : input.prior;
    const note = cp ? renderCllNote(cp) : undefined;
    const line = parseSignatureLine(carried.line);
    if (!cp || !note?.ok || !line.ok) continue;
    const hit = pinned.get(`${line.value.name}\n${line.value.keyIdHex}`);
    if (hit === undefined || hit.witness.operator !== "independent" || producer.has(hit.witness)) continue;
    const signed = parseTimestampedSignature(line.value.signature);
    if (!signed.ok || !verifyCosignature(note.value.text, signed.value, hit.key.key)) continue;
    const claimed = { seconds: signed.value.timestamp, source: "its own timestamp" };
    if (hit.key.window && judgeOwnClaim(hit.key.window, claimed, input.at).state !== "PASS") continue;
    const key = hit.key.publicKeyHex;
    statements.push({
      key,
      origin: note.value.origin,
      size: String(note.value.leafCount),
      root: note.value.rootBase64,
      where: carried.path,
    });
    found.push({
      role: carried.role,
      key,
      time: {
        seconds: signed.value.timestamp,
        source: `cosignature of independent witness ${labelOf(hit.witness)} over the ${carried.role} checkpoint (mmr_size ${cp.mmrSize})`,
      },
    });
  }
  const equivocating = found.length > 0 ? input.equivocating(statements) : new Set<string>();
  for (const f of found) if (!equivocating.has(f.key)) out[f.role].push(f.time);
  return out;
}
