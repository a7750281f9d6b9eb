/**
 * The levels an input's evidence shows (contract §6): the level its property results achieve (the
 * rules are the leaf module src/level.ts), the level the producer claims and the level the caller
 * negotiated.
 */
import { memberAt } from "../json/value.js";
import { EVIDENCE_STATUS_PREFIX } from "../profile.js";
import { achievedLevel, type EvidenceLevelReport, type LevelProperty } from "../level.js";
import type { EvidenceContext } from "../evidence/context.js";
import { findFirstMessage, requirementOf, strongestMinimum } from "./shared/requirement.js";
import type { PropertyResult } from "./shared/types.js";

export type { EvidenceLevelReport } from "../level.js";

export function levelReport(
  ctx: EvidenceContext,
  properties: Readonly<Record<LevelProperty, PropertyResult>>,
): EvidenceLevelReport {
  const status = memberAt(ctx.bundle, "taskEvidenceReference", "evidenceStatus");
  const first = findFirstMessage(ctx);
  const minimum = strongestMinimum(first) ?? memberAt(requirementOf(first?.message), "minimumEvidence");
  return {
    achieved: achievedLevel(properties),
    claimed: typeof status === "string" ? status.replace(EVIDENCE_STATUS_PREFIX, "") : null,
    negotiated: typeof minimum === "string" ? minimum : null,
  };
}
