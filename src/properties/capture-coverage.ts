/**
 * captureCoverage — whether every eligible interaction under the producer's capture policy was
 * captured. One record can never establish that (contract §4), so this property is never PASS:
 * INCONCLUSIVE when a capture policy is declared, NOT_PRESENT when none is.
 *
 *   capturePolicy.copiesAgree  the payload's and the manifest's capturePolicyId agree (a FAIL path:
 *                              the evidence contradicts itself about which policy applied)
 *   capturePolicy.coverage     INCONCLUSIVE with the declared policy, or NOT_PRESENT
 */
import { showValue } from "../json/diff.js";
import { member } from "../json/value.js";
import type { Check, PropertyResult } from "./shared/types.js";
import { checksFor, decide } from "./shared/checks.js";
import type { EvidenceContext } from "../evidence/context.js";

export const CHECKS = checksFor(["capturePolicy.copiesAgree", "capturePolicy.coverage"]);
const { check } = CHECKS;

export function captureCoverage(ctx: EvidenceContext): PropertyResult {
  const declared = ctx.payload ? member(ctx.payload, "capturePolicyId") : undefined;
  const inManifest = ctx.manifest ? member(ctx.manifest, "capturePolicyId") : undefined;
  const checks: Check[] = [];
  if (declared !== undefined && inManifest !== undefined) {
    checks.push(
      declared === inManifest
        ? check(
            "capturePolicy.copiesAgree",
            "PASS",
            `payload and manifest declare the same capture policy ${showValue(declared)}`,
          )
        : check(
            "capturePolicy.copiesAgree",
            "FAIL",
            `payload capturePolicyId ${showValue(declared)} != manifest capturePolicyId ${showValue(inManifest)}`,
          ),
    );
  }
  const policy = declared ?? inManifest;
  if (policy === undefined || policy === null) {
    checks.push(check("capturePolicy.coverage", "NOT_PRESENT", "no capture policy is declared"));
  } else {
    checks.push(
      check(
        "capturePolicy.coverage",
        "INCONCLUSIVE",
        `payload declares capturePolicyId=${typeof policy === "string" ? policy : showValue(policy)}; a single record cannot establish that every eligible interaction under that policy was captured`,
      ),
    );
  }
  return decide(checks, "");
}
