/**
 * Evidence levels (contract §6): which properties each level needs, cumulatively, and the level a
 * set of property results achieves. The claimed-level check (referenceConsistency) and the level
 * the report states both read this one table.
 */
import { memberAt } from "../json/value.js";
import { EVIDENCE_STATUS_PREFIX, type EvidenceLevel, type EvidenceLevelOrNone } from "../profile.js";
import type { EvidenceContext } from "../evidence/context.js";
import { findFirstMessage, requirementOf, strongestMinimum } from "./shared/requirement.js";
import type { PropertyName, Properties } from "./index.js";

export const LEVEL_NEEDS: Readonly<Record<EvidenceLevel, readonly PropertyName[]>> = {
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
export function achievedLevel(properties: Properties): EvidenceLevelOrNone {
  const pass = (names: readonly PropertyName[]) => names.every((p) => properties[p].state === "PASS");
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

export function levelReport(ctx: EvidenceContext, properties: Properties): EvidenceLevelReport {
  const status = memberAt(ctx.bundle, "taskEvidenceReference", "evidenceStatus");
  const first = findFirstMessage(ctx);
  const minimum = strongestMinimum(first) ?? memberAt(requirementOf(first?.message), "minimumEvidence");
  return {
    achieved: achievedLevel(properties),
    claimed: typeof status === "string" ? status.replace(EVIDENCE_STATUS_PREFIX, "") : null,
    negotiated: typeof minimum === "string" ? minimum : null,
  };
}
