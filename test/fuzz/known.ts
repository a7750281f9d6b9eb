/**
 * Fuzz findings that are known verifier bugs: each is tied to the adversarial case (pending.ts)
 * that records its minimal counterexample. While that case is pending the finding is tolerated
 * and counted (and said so on stderr); once its name leaves PENDING_FIXES the finding fails the
 * fuzz suite again. Nothing here weakens an invariant for a behaviour the contract allows.
 */
import type { PropertyName } from "../../src/index.js";
import { PENDING_FIXES } from "../adversarial/pending.js";
import { jsonTextAsIs } from "./corpus.js";
import type { Mutation } from "./mutate-raw.js";

export interface KnownFinding {
  /** The adversarial case that records the minimal counterexample. */
  readonly case: string;
  readonly property: PropertyName;
  /** The normalized place (a prefix of it) where a change is not noticed. */
  readonly where: RegExp;
  readonly ops?: readonly Mutation["op"][];
  readonly mutation?: RegExp;
}

export const KNOWN_FINDINGS: readonly KnownFinding[] = [];

const tolerated = new Map<string, number>();

export function knownFinding(f: { property: PropertyName; where: string; mutation: string }, m: Mutation): boolean {
  const text = `${f.mutation} ${m.after === undefined ? "" : jsonTextAsIs(m.after)}`;
  const k = KNOWN_FINDINGS.find(
    (k) =>
      PENDING_FIXES[k.case] !== undefined &&
      k.property === f.property &&
      k.where.test(f.where) &&
      (!k.ops || k.ops.includes(m.op)) &&
      (!k.mutation || k.mutation.test(text)),
  );
  if (!k) return false;
  tolerated.set(k.case, (tolerated.get(k.case) ?? 0) + 1);
  return true;
}

/** One SKIPPED line per tolerated finding, for the end of a fuzz block. */
export function reportTolerated(block: string): void {
  for (const [name, count] of tolerated) {
    process.stderr.write(
      `SKIPPED: ${block}: ${count} mutant(s) hit the known bug of adversarial case "${name}" (${PENDING_FIXES[name]})\n`,
    );
  }
  tolerated.clear();
}
