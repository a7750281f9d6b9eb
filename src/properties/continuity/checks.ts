/** continuity's check ids, declared once, and what its parts share of the bundle's reading. */
import type { JsonValue } from "../../json/value.js";
import { checksFor } from "../shared/checks.js";
import { FORM_A_IDS } from "./form-a.js";

export const CHECKS = checksFor([
  "prior.checkpoint",
  "chain.link",
  "chain.key",
  "key.window",
  "cosignature.evidence",
  "cosignature.type",
  ...FORM_A_IDS,
  "witness.assertion",
  "equivocation.crossInput",
] as const);
export const { check, only } = CHECKS;

export { EVIDENCE_PATH } from "../../evidence/cosignatures.js";

export function present(v: JsonValue | undefined): v is JsonValue {
  return v !== undefined && v !== null;
}
