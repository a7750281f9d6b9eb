/**
 * Evidence levels (contract §6): which properties each level needs, cumulatively, and the level a
 * set of property states achieves. The claimed-level check (referenceConsistency), the level the
 * report states and the policy all read this one table. A leaf: it imports nothing but the
 * profile's level names, so the property registry and any property can read it without a circle.
 */
import type { EvidenceLevel, EvidenceLevelOrNone } from "./profile.js";

/** The properties the levels are made of (each a name in the property registry, held there by its type). */
export type LevelProperty =
  | "contentBinding"
  | "producerSignature"
  | "localInclusion"
  | "checkpointSignature"
  | "externalRegistration"
  | "continuity";

export const LEVEL_NEEDS: Readonly<Record<EvidenceLevel, readonly LevelProperty[]>> = {
  SIGNED_RECORD: ["contentBinding", "producerSignature"],
  EXTERNALLY_REGISTERED: [
    "contentBinding",
    "producerSignature",
    "localInclusion",
    "checkpointSignature",
    "externalRegistration",
  ],
  CONTINUITY_WITNESSED: [
    "contentBinding",
    "producerSignature",
    "localInclusion",
    "checkpointSignature",
    "externalRegistration",
    "continuity",
  ],
};

/** The highest level whose every needed property is PASS; NONE when not even SIGNED_RECORD. */
export function achievedLevel(
  states: Readonly<Record<LevelProperty, { readonly state: string }>>,
): EvidenceLevelOrNone {
  const pass = (names: readonly LevelProperty[]) => names.every((p) => states[p].state === "PASS");
  if (pass(LEVEL_NEEDS.CONTINUITY_WITNESSED)) return "CONTINUITY_WITNESSED";
  if (pass(LEVEL_NEEDS.EXTERNALLY_REGISTERED)) return "EXTERNALLY_REGISTERED";
  if (pass(LEVEL_NEEDS.SIGNED_RECORD)) return "SIGNED_RECORD";
  return "NONE";
}

/** The achieved level, with the level the producer claimed and the level the caller negotiated. */
export interface EvidenceLevelReport {
  readonly achieved: EvidenceLevelOrNone;
  /** The producer's `evidenceStatus` (prefix removed), or null when none is carried. */
  readonly claimed: string | null;
  /**
   * The caller's negotiated `minimumEvidence`, or null when no requirement is visible: the
   * strongest level the request or any copy of the first Message shows (contract §9.8).
   */
  readonly negotiated: string | null;
}
