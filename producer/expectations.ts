/**
 * What the verifier should report for a vector (contract.md §4, §6): the state of each of the
 * twelve properties, the achieved evidence level, and the exit code under the default policy
 * (`verify --trust trust.json input.json`, nothing `--require`d): the level must reach the
 * negotiated minimumEvidence (SIGNED_RECORD when none is visible), and identityAuthorityBinding
 * and taskBinding must PASS.
 */
import type { EvidenceLevel } from "./constants.js";

export const PROPERTIES = [
  "contentBinding",
  "producerSignature",
  "taskBinding",
  "localInclusion",
  "checkpointSignature",
  "externalRegistration",
  "continuity",
  "identityAuthorityBinding",
  "captureCoverage",
  "outcomeCorroboration",
  "referenceConsistency",
  "negotiation",
  "peacReceipts",
] as const;
export type Property = (typeof PROPERTIES)[number];
export type PropertyState = "PASS" | "FAIL" | "NOT_PRESENT" | "NOT_CHECKED" | "INCONCLUSIVE";
export type PropertyStates = Record<Property, PropertyState>;

export interface Expectation {
  readonly exitCode: 0 | 1 | 2 | 3;
  readonly properties: PropertyStates;
  readonly evidenceLevel: EvidenceLevel | "NONE";
}

/** A Task that has not ended: no terminal record to verify yet (INPUT_EVIDENCE_PENDING, exit 3). */
export interface PendingExpectation {
  readonly exitCode: 3;
  readonly properties: null;
  readonly evidenceLevel: null;
}

export const PENDING: PendingExpectation = { exitCode: 3, properties: null, evidenceLevel: null };

/**
 * States of an honest, fully observed exchange, changed by `overrides`. Three properties never
 * PASS from one v1 record: continuity is NOT_PRESENT because the profile carries no continuity
 * witness assertion, captureCoverage is INCONCLUSIVE whenever a capture policy is declared (every
 * payload declares one), and outcomeCorroboration is NOT_PRESENT because nothing corroborates the
 * outcome.
 */
export function states(overrides: Partial<PropertyStates> = {}): PropertyStates {
  const out = {} as PropertyStates;
  for (const p of PROPERTIES) out[p] = "PASS";
  out.continuity = "NOT_PRESENT";
  out.captureCoverage = "INCONCLUSIVE";
  out.outcomeCorroboration = "NOT_PRESENT";
  out.peacReceipts = "NOT_PRESENT";
  return { ...out, ...overrides };
}

/**
 * Contract §6, level by level: SIGNED_RECORD needs contentBinding and producerSignature;
 * EXTERNALLY_REGISTERED needs those "and also" three log properties; CONTINUITY_WITNESSED needs
 * all of that and continuity.
 */
const LADDER: ReadonlyArray<readonly [EvidenceLevel, readonly Property[]]> = [
  ["SIGNED_RECORD", ["contentBinding", "producerSignature"]],
  ["EXTERNALLY_REGISTERED", ["localInclusion", "checkpointSignature", "externalRegistration"]],
  ["CONTINUITY_WITNESSED", ["continuity"]],
];

/** The achieved level: the last rung whose properties, and every lower rung's, all PASS; else NONE. */
export function achievedLevel(s: PropertyStates): EvidenceLevel | "NONE" {
  let achieved: EvidenceLevel | "NONE" = "NONE";
  for (const [level, needs] of LADDER) {
    if (!needs.every((p) => s[p] === "PASS")) break;
    achieved = level;
  }
  return achieved;
}

const RANK: Record<EvidenceLevel | "NONE", number> = {
  NONE: 0,
  SIGNED_RECORD: 1,
  EXTERNALLY_REGISTERED: 2,
  CONTINUITY_WITNESSED: 3,
};

/**
 * Exit code under the default policy: 1 if anything FAILs; 3 when the level is below the
 * negotiated minimum, or identityAuthorityBinding or taskBinding is not PASS; else 0.
 */
export function defaultExitCode(s: PropertyStates, negotiated: EvidenceLevel = "SIGNED_RECORD"): 0 | 1 | 3 {
  if (Object.values(s).includes("FAIL")) return 1;
  if (s.identityAuthorityBinding !== "PASS" || s.taskBinding !== "PASS") return 3;
  return RANK[achievedLevel(s)] < RANK[negotiated] ? 3 : 0;
}

/** The expectation for a vector whose request asked for `negotiated` (the producer's default level). */
export function expectation(
  overrides: Partial<PropertyStates> = {},
  negotiated: EvidenceLevel = "EXTERNALLY_REGISTERED",
): Expectation {
  const properties = states(overrides);
  return { exitCode: defaultExitCode(properties, negotiated), properties, evidenceLevel: achievedLevel(properties) };
}
