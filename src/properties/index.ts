/**
 * The property registry: every property the report carries, in contract order (§4). The verify
 * stage loops over it; the report's property list, the report schema's list (held to this one by
 * a test) and `--require`'s accepted names all come from here.
 *
 * Adding a property is one file under properties/ plus one row here.
 *
 * A row's `needsProfile` names the check that reports NOT_CHECKED when the bundle's extension
 * version or record profile is not one this verifier implements (contract §9.6): the guard runs
 * once, here, for every property whose rules come from the profile. `false` for a property that
 * is judged whatever the profile (it compares copies and negotiation, not profile rules).
 */
import type { EvidenceContext } from "./shared/context.js";
import type { CheckBuilders } from "./shared/checks.js";
import type { PropertyResult } from "./shared/types.js";
import type { LevelProperty } from "../level.js";
import { contentBinding, CHECKS as CONTENT_BINDING } from "./content-binding.js";
import { producerSignature, CHECKS as PRODUCER_SIGNATURE } from "./producer-signature.js";
import { taskBinding, CHECKS as TASK_BINDING } from "./task-binding.js";
import { localInclusion, CHECKS as LOCAL_INCLUSION } from "./local-inclusion.js";
import { checkpointSignature, CHECKS as CHECKPOINT_SIGNATURE } from "./checkpoint-signature.js";
import { externalRegistration, CHECKS as EXTERNAL_REGISTRATION } from "./external-registration.js";
import { continuity, CHECKS as CONTINUITY } from "./continuity.js";
import { identityAuthorityBinding, CHECKS as IDENTITY_AUTHORITY_BINDING } from "./identity-authority-binding.js";
import { captureCoverage, CHECKS as CAPTURE_COVERAGE } from "./capture-coverage.js";
import { outcomeCorroboration, CHECKS as OUTCOME_CORROBORATION } from "./outcome-corroboration.js";
import { referenceConsistency, CHECKS as REFERENCE_CONSISTENCY } from "./reference-consistency.js";
import { negotiation, CHECKS as NEGOTIATION } from "./negotiation.js";
import { peacReceipts, CHECKS as PEAC_RECEIPTS } from "./peac-receipts.js";

/** The results of the properties before this one, for a property that judges claims about them. */
export type EarlierResults = Readonly<Partial<Record<string, PropertyResult>>>;

export interface PropertySpec<Name extends string = string, Id extends string = string> {
  readonly name: Name;
  readonly checks: readonly Id[];
  readonly needsProfile: Id | false;
  readonly run: (ctx: EvidenceContext, earlier: EarlierResults) => PropertyResult;
}

function property<const Name extends string, Id extends string>(
  name: Name,
  checks: CheckBuilders<Id>,
  needsProfile: NoInfer<Id> | false,
  run: (ctx: EvidenceContext, earlier: EarlierResults) => PropertyResult,
): PropertySpec<Name, Id> {
  return { name, checks: checks.ids, needsProfile, run };
}

export const PROPERTIES = [
  property("contentBinding", CONTENT_BINDING, "evidenceId.recompute", contentBinding),
  property("producerSignature", PRODUCER_SIGNATURE, "envelope.claim", producerSignature),
  property("taskBinding", TASK_BINDING, "task.observed", taskBinding),
  property("localInclusion", LOCAL_INCLUSION, "inclusion.proof", localInclusion),
  property("checkpointSignature", CHECKPOINT_SIGNATURE, "checkpoint.shape", checkpointSignature),
  property("externalRegistration", EXTERNAL_REGISTRATION, "registration.verified", externalRegistration),
  property("continuity", CONTINUITY, "witness.assertion", continuity),
  property("identityAuthorityBinding", IDENTITY_AUTHORITY_BINDING, "authority.keyAuthorized", identityAuthorityBinding),
  property("captureCoverage", CAPTURE_COVERAGE, "capturePolicy.coverage", captureCoverage),
  property("outcomeCorroboration", OUTCOME_CORROBORATION, "corroboration.present", outcomeCorroboration),
  property("referenceConsistency", REFERENCE_CONSISTENCY, false, referenceConsistency),
  property("negotiation", NEGOTIATION, false, negotiation),
  property("peacReceipts", PEAC_RECEIPTS, false, peacReceipts),
] as const;

export type PropertyName = (typeof PROPERTIES)[number]["name"];
export type Properties = Readonly<Record<PropertyName, PropertyResult>>;

// Every property a level needs is a property of the registry (a typo here fails to compile).
const LEVEL_PROPERTIES_ARE_PROPERTIES: LevelProperty extends PropertyName ? true : never = true;
void LEVEL_PROPERTIES_ARE_PROPERTIES;

export { levelReport, type EvidenceLevelReport } from "./level.js";

export const PROPERTY_NAMES: readonly PropertyName[] = PROPERTIES.map((p) => p.name);

export function isPropertyName(name: string): name is PropertyName {
  return (PROPERTY_NAMES as readonly string[]).includes(name);
}

/** Runs every property over one input's evidence, in registry order. */
export function runProperties(ctx: EvidenceContext): Properties {
  const done: Partial<Record<PropertyName, PropertyResult>> = {};
  const unsupported = ctx.unsupportedReason;
  for (const p of PROPERTIES) {
    done[p.name] =
      unsupported !== undefined && p.needsProfile !== false
        ? {
            state: "NOT_CHECKED",
            detail: unsupported,
            checks: [{ id: p.needsProfile, state: "NOT_CHECKED", detail: unsupported }],
          }
        : p.run(ctx, done);
  }
  return done as Properties;
}
