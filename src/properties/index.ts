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
import type { EvidenceContext } from "../evidence/context.js";
import type { CheckBuilders } from "./shared/checks.js";
import type { EarlierResults, PropertyResult } from "./shared/types.js";
import type { LevelProperty } from "../level.js";
import type { CrossInputFindings, InputCheckpoints } from "../witness/equivocation.js";
import {
  CONTINUITY_CROSS_INPUT,
  REGISTRATION_CROSS_INPUT,
  type CrossInputComparison,
  type CrossInputStep,
} from "./cross-input-steps.js";
import { contentBinding, CHECKS as CONTENT_BINDING } from "./content-binding.js";
import { producerSignature, CHECKS as PRODUCER_SIGNATURE } from "./producer-signature.js";
import { taskBinding, CHECKS as TASK_BINDING } from "./task-binding/index.js";
import { localInclusion, CHECKS as LOCAL_INCLUSION } from "./local-inclusion.js";
import { checkpointSignature, CHECKS as CHECKPOINT_SIGNATURE } from "./checkpoint-signature.js";
import { externalRegistration, CHECKS as EXTERNAL_REGISTRATION } from "./external-registration.js";
import { continuity, CHECKS as CONTINUITY } from "./continuity/index.js";
import { identityAuthorityBinding, CHECKS as IDENTITY_AUTHORITY_BINDING } from "./identity-authority-binding.js";
import { captureCoverage, CHECKS as CAPTURE_COVERAGE } from "./capture-coverage.js";
import { outcomeCorroboration, CHECKS as OUTCOME_CORROBORATION } from "./outcome-corroboration.js";
import { referenceConsistency, CHECKS as REFERENCE_CONSISTENCY } from "./reference-consistency.js";
import { negotiation, CHECKS as NEGOTIATION } from "./negotiation.js";
import { peacReceipts, CHECKS as PEAC_RECEIPTS } from "./peac-receipts.js";

export type { EarlierResults } from "./shared/types.js";

export interface PropertySpec<Name extends string = string, Id extends string = string> {
  readonly name: Name;
  readonly checks: readonly Id[];
  readonly needsProfile: Id | false;
  readonly run: (ctx: EvidenceContext, earlier: EarlierResults) => PropertyResult;
  /** The property's part in the comparison across a run's inputs, when it has one (properties/cross-input-steps.ts). */
  readonly crossInput?: CrossInputStep;
}

function property<const Name extends string, Id extends string>(
  name: Name,
  checks: CheckBuilders<Id>,
  needsProfile: NoInfer<Id> | false,
  run: (ctx: EvidenceContext, earlier: EarlierResults) => PropertyResult,
  crossInput?: CrossInputStep,
): PropertySpec<Name, Id> {
  return { name, checks: checks.ids, needsProfile, run, ...(crossInput ? { crossInput } : {}) };
}

export const PROPERTIES = [
  property("contentBinding", CONTENT_BINDING, "evidenceId.recompute", contentBinding),
  property("producerSignature", PRODUCER_SIGNATURE, "envelope.claim", producerSignature),
  property("taskBinding", TASK_BINDING, "task.observed", taskBinding),
  property("localInclusion", LOCAL_INCLUSION, "inclusion.proof", localInclusion),
  property("checkpointSignature", CHECKPOINT_SIGNATURE, "checkpoint.shape", checkpointSignature),
  property(
    "externalRegistration",
    EXTERNAL_REGISTRATION,
    "registration.verified",
    externalRegistration,
    REGISTRATION_CROSS_INPUT,
  ),
  property("continuity", CONTINUITY, "witness.assertion", continuity, CONTINUITY_CROSS_INPUT),
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

/** The comparison across inputs: the one a row declares (a second would be a registry error). */
const COMPARISON: CrossInputComparison = (() => {
  const declared = PROPERTIES.flatMap((p): CrossInputComparison[] =>
    "crossInput" in p && p.crossInput?.comparison ? [p.crossInput.comparison] : [],
  );
  if (declared.length !== 1) throw new Error(`the registry declares ${declared.length} cross-input comparisons`);
  return declared[0] as CrossInputComparison;
})();

/** What one input shows for the comparison across inputs. */
export function crossInputSighting(source: string, ctx: EvidenceContext): InputCheckpoints | undefined {
  return COMPARISON.sighting(source, ctx);
}

/** Every input's findings, in order; undefined when there is nothing to compare. */
export const compareAcrossInputs: CrossInputComparison["compare"] = (sightings, seen, trust, fileLines) =>
  COMPARISON.compare(sightings, seen, trust, fileLines);

/**
 * An input's property results without findings, completed with its findings by each row's
 * cross-input step: the very results verifying with the findings gives, or undefined when only
 * verifying again gives them.
 */
export function settleAcrossInputs(properties: Properties, findings: CrossInputFindings): Properties | undefined {
  const settled: Partial<Record<PropertyName, PropertyResult>> = {};
  for (const p of PROPERTIES) {
    if (!("crossInput" in p) || p.crossInput === undefined) continue;
    const after = p.crossInput.settle(properties[p.name], findings);
    if (after === undefined) return undefined;
    settled[p.name] = after;
  }
  return { ...properties, ...settled };
}

export type { VerifyOptions } from "../evidence/context.js";
