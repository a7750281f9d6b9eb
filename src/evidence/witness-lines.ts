/**
 * The cosignature lines an input carries, each read against the trust file's witness keys and its
 * signature checked over the note of the checkpoint it cosigns — once per input (C2SP
 * cosignature/v1; continuity-witness.md §4.2). continuity's form A judges each line from this
 * reading, the trusted time (src/keys/) takes the independent witnesses' timestamps from it, and
 * the run's witness equivocations (contract §9.40) are those its verified lines add to the pool.
 */
import type { Checkpoint } from "../log/checkpoint.js";
import type { Result } from "../result.js";
import type { TrustedWitness, TrustedWitnessKey } from "../trust/config.js";
import { renderCllNote, type CllNote } from "../witness/cll-note.js";
import { parseTimestampedSignature, verifyCosignature, type TimestampedSignature } from "../witness/cosignature.js";
import type { CarriedLine, CheckpointRole } from "../witness/evidence.js";
import { parseSignatureLine, type SignatureLine } from "../witness/note.js";
import {
  StatementPool,
  fileStatements,
  pinnedWitnessKeys,
  type WitnessEquivocation,
  type WitnessStatement,
} from "../witness/pool.js";
import type { EvidenceContext } from "./context.js";
import { carriedOf, cosignatureFile } from "./cosignatures.js";
import { manifestCheckpoint, priorCheckpoint } from "./manifest-checkpoint.js";

/** A line naming a pinned witness key, and what its signature shows. */
export interface PinnedLine {
  readonly witness: TrustedWitness;
  readonly key: TrustedWitnessKey;
  /** The cosignature/v1 signature (timestamp and Ed25519 signature), parsed. */
  readonly signed: Result<TimestampedSignature>;
  /** Whether it verifies over the note of its checkpoint under the pinned key. */
  readonly verified: boolean;
}

export interface LineReading {
  readonly carried: CarriedLine;
  /** The line as a C2SP signature line. */
  readonly line: Result<SignatureLine>;
  /** When the line parses and its (name, key ID) is pinned in the trust file. */
  readonly pinned?: PinnedLine;
}

export interface WitnessLines {
  /** The checkpoints the lines cosign. */
  readonly current: Checkpoint | undefined;
  readonly prior: Checkpoint | null;
  /** Every line as carried, both checkpoints'. */
  readonly carried: readonly CarriedLine[];
  /** The note of each checkpoint some line cosigns; absent where that checkpoint is not carried. */
  readonly notes: Partial<Record<CheckpointRole, Result<CllNote>>>;
  /** The current checkpoint's lines, then the prior's, where its note renders; an exact duplicate once. */
  readonly read: readonly LineReading[];
  /** Exact duplicates of a line, read once (contract §9.22). */
  readonly duplicates: number;
  /** What the verified lines state: this key cosigned (origin, size, root). */
  readonly statements: readonly WitnessStatement[];
}

export interface WitnessLinesInput {
  readonly current: Checkpoint | undefined;
  readonly prior: Checkpoint | null;
  readonly lines: readonly CarriedLine[];
  /** undefined: no trust file. */
  readonly witnesses: readonly TrustedWitness[] | undefined;
}

/** Each line read against the pinned witness keys and checked over its checkpoint's note. */
export function readWitnessLines(input: WitnessLinesInput): WitnessLines {
  const pinned = new Map<string, { witness: TrustedWitness; key: TrustedWitnessKey }>();
  for (const witness of input.witnesses ?? [])
    for (const key of witness.keys) pinned.set(`${witness.name}\n${key.keyIdHex}`, { witness, key });
  const notes: Partial<Record<CheckpointRole, Result<CllNote>>> = {};
  const read: LineReading[] = [];
  const statements: WitnessStatement[] = [];
  let duplicates = 0;
  for (const role of ["current", "prior"] as const) {
    const lines = input.lines.filter((l) => l.role === role);
    const cp = role === "current" ? input.current : input.prior;
    if (lines.length === 0 || !cp) continue;
    const note = renderCllNote(cp);
    notes[role] = note;
    if (!note.ok) continue;
    const seen = new Set<string>();
    for (const carried of lines) {
      if (seen.has(carried.line)) {
        duplicates++;
        continue;
      }
      seen.add(carried.line);
      const reading = readLine(carried, note.value, pinned);
      read.push(reading);
      if (reading.pinned?.verified)
        statements.push({
          key: reading.pinned.key.publicKeyHex,
          origin: note.value.origin,
          size: String(note.value.leafCount),
          root: note.value.rootBase64,
          where: carried.path,
        });
    }
  }
  return { current: input.current, prior: input.prior, carried: input.lines, notes, read, duplicates, statements };
}

function readLine(
  carried: CarriedLine,
  note: CllNote,
  pinned: ReadonlyMap<string, { witness: TrustedWitness; key: TrustedWitnessKey }>,
): LineReading {
  const line = parseSignatureLine(carried.line);
  const hit = line.ok ? pinned.get(`${line.value.name}\n${line.value.keyIdHex}`) : undefined;
  if (!line.ok || hit === undefined) return { carried, line };
  const signed = parseTimestampedSignature(line.value.signature);
  const verified = signed.ok && verifyCosignature(note.text, signed.value, hit.key.key);
  return { carried, line, pinned: { ...hit, signed, verified } };
}

/** This input's lines (src/evidence/cosignatures.ts), read once against its checkpoints and trust. */
export function witnessLines(ctx: EvidenceContext): WitnessLines {
  return ctx.once("witness lines", () => {
    const cp = manifestCheckpoint(ctx)?.result;
    return readWitnessLines({
      current: cp?.ok ? cp.value : undefined,
      prior: cp?.ok ? (priorCheckpoint(ctx) ?? null) : null,
      lines: carriedOf(ctx).lines,
      witnesses: ctx.trust?.witnesses,
    });
  });
}

/**
 * The witness keys that equivocated in the run (contract §9.40), by key: within the --cosignatures
 * file, between it and this input's verified lines, and across inputs as the comparison found.
 * Computed once per input, whoever asks first (continuity, or the trusted time).
 */
export function runEquivocations(ctx: EvidenceContext): ReadonlyMap<string, WitnessEquivocation> {
  return ctx.once("witness equivocations", () => {
    const pool =
      ctx.options.cosignaturePool?.() ??
      ctx.once("cosignaturePool", () => {
        const file = cosignatureFile(ctx);
        const pinned = pinnedWitnessKeys(ctx.trust?.witnesses);
        return new StatementPool().add(file?.ok ? fileStatements(file.value, pinned) : []);
      });
    const found = pool.with(witnessLines(ctx).statements);
    for (const e of ctx.options.crossInput?.witnesses ?? []) if (!found.has(e.key)) found.set(e.key, e);
    return found;
  });
}
