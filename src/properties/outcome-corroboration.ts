/**
 * outcomeCorroboration — an independent corroboration of the Task's outcome verified. The
 * aac-cll-scitt/v1 profile defines no corroboration format, so there is nothing that could pass:
 * NOT_PRESENT when none is carried; INCONCLUSIVE, never PASS, when the bundle carries something
 * under an `outcomeCorroboration` member (an unknown format is reported, not trusted).
 */
import { member } from "../json/value.js";
import type { PropertyResult } from "./shared/types.js";
import { checksFor } from "./shared/checks.js";
import type { EvidenceContext } from "../evidence/context.js";

export const CHECKS = checksFor(["corroboration.present"]);
const { only } = CHECKS;

export function outcomeCorroboration(ctx: EvidenceContext): PropertyResult {
  const carried =
    member(ctx.bundle, "outcomeCorroboration") ??
    (ctx.manifest ? member(ctx.manifest, "outcomeCorroboration") : undefined);
  if (carried === undefined || carried === null) {
    return only("corroboration.present", "NOT_PRESENT", "no independent outcome corroboration is carried");
  }
  return only(
    "corroboration.present",
    "INCONCLUSIVE",
    "an outcomeCorroboration member is carried, but the record profile defines no corroboration format this verifier can check",
  );
}
