/**
 * Witnesses that equivocate (contract §9.40). An honest tlog-witness keeps one (size, root) per
 * origin and refuses to cosign another root at a size it holds; a pinned witness key with valid
 * cosignatures over two roots for one size of one origin has vouched for both branches of a fork,
 * and vouches for nothing. Where a line travels does not matter: every line of the run — a
 * bundle's continuityEvidence, the --cosignatures file, another input's bundle — is one pool.
 *
 * A statement is what a verified line says: this key cosigned (origin, size, root). Only lines
 * that verify under a pinned witness key are statements; the cosigned message names no signer, so
 * the witness is its raw key, not the name on the line. Grouped by (key, origin, size) in a map:
 * linear in the number of lines, whatever their number.
 */
import { joinPath } from "../json/path.js";
import { parseTimestampedSignature, verifyCosignature } from "./cosignature.js";
import type { CosignatureFile } from "./evidence.js";
import type { WitnessKey } from "./keys.js";
import { parseSignatureLine } from "./note.js";

export interface WitnessStatement {
  /** The witness key (raw Ed25519, hex). */
  readonly key: string;
  readonly origin: string;
  /** The note's size line, as written. */
  readonly size: string;
  /** The note's root line (base64), as written. */
  readonly root: string;
  /** Where the line is: `continuityEvidence[0].lines[1]`, `--cosignatures[2].lines[0]`, or another input's. */
  readonly where: string;
}

/** One key's two cosignatures of one origin and size over two roots. */
export interface WitnessEquivocation {
  readonly key: string;
  readonly origin: string;
  readonly size: string;
  readonly root: string;
  readonly where: string;
  readonly otherRoot: string;
  readonly otherWhere: string;
}

export interface NoteHead {
  readonly origin: string;
  readonly size: string;
  readonly root: string;
}

/** A note's first three lines (origin, size, root): what a witness checks and keeps per origin. */
export function noteHead(text: string): NoteHead | undefined {
  const [origin, size, root, ...rest] = text.split("\n");
  if (rest.length === 0 || !origin || !root || size === undefined || !/^(0|[1-9][0-9]*)$/.test(size)) return undefined;
  return { origin, size, root };
}

/** The run's pinned witness keys, by (name, key ID) as a line names them. */
export function pinnedWitnessKeys(
  witnesses: readonly { readonly name: string; readonly keys: readonly WitnessKey[] }[] | undefined,
): Map<string, WitnessKey> {
  const pinned = new Map<string, WitnessKey>();
  for (const w of witnesses ?? []) for (const k of w.keys) pinned.set(`${w.name}\n${k.keyIdHex}`, k);
  return pinned;
}

/** The statements of `lines` over `note` that verify under a pinned key; any other line states nothing. */
export function statementsOf(
  note: string,
  lines: readonly { readonly line: string; readonly where: string }[],
  pinned: ReadonlyMap<string, WitnessKey>,
): WitnessStatement[] {
  const head = noteHead(note);
  if (head === undefined || pinned.size === 0) return [];
  const out: WitnessStatement[] = [];
  for (const { line, where } of lines) {
    const parsed = parseSignatureLine(line);
    if (!parsed.ok) continue;
    const key = pinned.get(`${parsed.value.name}\n${parsed.value.keyIdHex}`);
    if (key === undefined) continue;
    const signed = parseTimestampedSignature(parsed.value.signature);
    if (signed.ok && verifyCosignature(note, signed.value, key.key))
      out.push({ key: key.publicKeyHex, ...head, where });
  }
  return out;
}

/** Every statement of a --cosignatures file, whatever note its entries cosign. */
export function fileStatements(file: CosignatureFile, pinned: ReadonlyMap<string, WitnessKey>): WitnessStatement[] {
  return file.entries.flatMap((e) =>
    statementsOf(
      e.note,
      e.lines.map((line, j) => ({ line, where: joinPath(e.path, "lines", j) })),
      pinned,
    ),
  );
}

const headKey = (s: WitnessStatement) => `${s.key}\n${s.origin}\n${s.size}`;

const equivocation = (s: WitnessStatement, other: WitnessStatement): WitnessEquivocation => ({
  key: s.key,
  origin: s.origin,
  size: s.size,
  root: s.root,
  where: s.where,
  otherRoot: other.root,
  otherWhere: other.where,
});

/** Statements gathered once (a file, every input of a run), and the equivocations among them. */
export class StatementPool {
  private readonly heads = new Map<string, WitnessStatement>();
  private readonly found = new Map<string, WitnessEquivocation>();

  add(statements: readonly WitnessStatement[]): this {
    for (const s of statements) {
      const k = headKey(s);
      const first = this.heads.get(k);
      if (first === undefined) this.heads.set(k, s);
      else if (first.root !== s.root && !this.found.has(s.key)) this.found.set(s.key, equivocation(s, first));
    }
    return this;
  }

  /** The first equivocation found of each key. */
  equivocations(): WitnessEquivocation[] {
    return [...this.found.values()];
  }

  /** The pool's equivocations with those `own` statements add, by key; the pool is left as it was. */
  with(own: readonly WitnessStatement[]): Map<string, WitnessEquivocation> {
    const out = new Map(this.found);
    const local = new Map<string, WitnessStatement>();
    for (const s of own) {
      const k = headKey(s);
      const first = local.get(k) ?? this.heads.get(k);
      if (first === undefined) local.set(k, s);
      else if (first.root !== s.root && !out.has(s.key)) out.set(s.key, equivocation(s, first));
    }
    return out;
  }
}
