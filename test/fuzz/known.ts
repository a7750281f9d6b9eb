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

/** A mutation that leaves two equal items where there was one: an Artifact or Message repeated, or its array doubled. */
const REPEATED = /repeated|duplicated|element inserted|→ \[/;

export const KNOWN_FINDINGS: readonly KnownFinding[] = [
  { case: "text part beside the bundle", property: "taskBinding", where: /^task\.artifacts\.E\.parts\.\d+$/, ops: ["insert"] },
  { case: "content artifact under the evidence artifactId", property: "taskBinding", where: /^task\.artifacts/, mutation: /"artifactId":"task-evidence-bundle"/ },
  { case: "content artifact under the extension URI", property: "taskBinding", where: /^task\.artifacts/, mutation: /"extensions":\["https:\/\/agentactioncapsule/ },
  { case: "content artifact under the evidence media type", property: "taskBinding", where: /^task\.artifacts/, mutation: /"mediaType":"application\/vnd\.agentactioncapsule/ },
  { case: "identical copy of an observed artifact", property: "taskBinding", where: /^task\.artifacts(\.[CE]|\.\d+)?$/, ops: ["duplicate", "insert", "replace"], mutation: REPEATED },
  { case: "identical copy of a history message, adjacent", property: "taskBinding", where: /^task\.history(\.\d+)?$/, ops: ["duplicate", "insert", "replace"], mutation: REPEATED },
  { case: "status message no transcript entry covers", property: "taskBinding", where: /^task\.status\.message$/ },
  { case: "observed Task without contextId", property: "taskBinding", where: /^task\.contextId$/, mutation: /removed|→ null/ },
  { case: "payload artifact without name", property: "taskBinding", where: /^(bundle\.|semantic:)taskEvidencePayload\.nonEvidenceArtifacts\.\d+\.name$/, ops: ["remove"] },
  { case: "tampered payload behind an unsafe integer", property: "contentBinding", where: /^bundle\.(taskEvidencePayload|manifest)\./, mutation: /9007199254740993/ },
];

const tolerated = new Map<string, number>();

export function knownFinding(f: { property: PropertyName; where: string; mutation: string }, m: Mutation): boolean {
  const text = `${f.mutation} ${m.after === undefined ? "" : jsonTextAsIs(m.after)}`;
  const k = KNOWN_FINDINGS.find(
    (k) => PENDING_FIXES[k.case] !== undefined && k.property === f.property && k.where.test(f.where) && (!k.ops || k.ops.includes(m.op)) && (!k.mutation || k.mutation.test(text)),
  );
  if (!k) return false;
  tolerated.set(k.case, (tolerated.get(k.case) ?? 0) + 1);
  return true;
}

/** One SKIPPED line per tolerated finding, for the end of a fuzz block. */
export function reportTolerated(block: string): void {
  for (const [name, count] of tolerated) {
    process.stderr.write(`SKIPPED: ${block}: ${count} mutant(s) hit the known bug of adversarial case "${name}" (${PENDING_FIXES[name]})\n`);
  }
  tolerated.clear();
}
