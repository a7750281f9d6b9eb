/**
 * The properties' part in the comparison across a run's inputs. Whether a log forked is a fact
 * about every input together, so a run first takes each input's sighting (what it shows of its
 * logs), compares them all, and hands each input its findings: continuity adds the
 * `equivocation.crossInput` check, externalRegistration a `registration.consistent` check per
 * Transparency Service fork. A row of the registry declares its step; the run drives them.
 *
 * A run over several inputs verifies each input once, before the comparison, and completes its
 * report with the findings afterwards (`settle`): each step says whether its property's result
 * without findings, completed, is exactly the result verifying with them gives, or (undefined)
 * that only verifying again gives it.
 */
import type { Checkpoint } from "../log/checkpoint.js";
import type { EvidenceContext } from "../evidence/context.js";
import type { TrustConfig } from "../trust/config.js";
import type { WitnessStatement } from "../witness/pool.js";
import type { CrossInputFindings, InputCheckpoints } from "../witness/equivocation.js";
import { crossInputFindings, sightingOf, withCrossInput } from "./continuity/cross-input.js";
import { withRegistrationForks } from "./external-registration.js";
import type { PropertyResult } from "./shared/types.js";

/** The sighting and comparison of the inputs' logs: declared by the one property that compares. */
export interface CrossInputComparison {
  /** What one input shows of its logs, for the comparison, read from its verification's context. */
  readonly sighting: (source: string, ctx: EvidenceContext) => InputCheckpoints | undefined;
  /** Every input's findings, in order; undefined when there is nothing to compare. */
  readonly compare: (
    sightings: readonly (InputCheckpoints | undefined)[],
    seen: readonly Checkpoint[],
    trust: TrustConfig | undefined,
    fileLines: readonly WitnessStatement[],
  ) => readonly (CrossInputFindings | undefined)[] | undefined;
}

/** A property's cross-input step. */
export interface CrossInputStep {
  readonly comparison?: CrossInputComparison;
  /**
   * The property's result without findings completed with the input's findings: the very result
   * verifying with them gives, or undefined when only verifying again gives it.
   */
  readonly settle: (before: PropertyResult, findings: CrossInputFindings) => PropertyResult | undefined;
}

/**
 * continuity: the comparison adds one check; only a fork changes the property's state, and with
 * it what the properties after it, the level and the policy say, so only a result whose state and
 * detail the check leaves alone is settled.
 */
export const CONTINUITY_CROSS_INPUT: CrossInputStep = {
  comparison: { sighting: sightingOf, compare: crossInputFindings },
  settle(before, findings) {
    // Continuity takes findings only when it is judged: under an extension version or record
    // profile this verifier does not implement, the registry reports it NOT_CHECKED with its
    // one stand-in check and no finding. Its own rules never give that shape, so an input that
    // shows it is verified again rather than trusted to be either.
    if (before.state === "NOT_CHECKED" && before.checks.every((c) => c.id === "witness.assertion")) return undefined;
    const after = withCrossInput(before, findings);
    return after.state === before.state && after.detail === before.detail ? after : undefined;
  },
};

/**
 * externalRegistration: a service's forks across inputs FAIL the property, so only a result that
 * FAILs already keeps its state, its detail, and with them the level and the policy.
 */
export const REGISTRATION_CROSS_INPUT: CrossInputStep = {
  settle(before, findings) {
    const forks = findings.registration;
    if (forks === undefined) return before;
    if (before.state !== "FAIL") return undefined;
    const after = withRegistrationForks(before, forks);
    return after.detail === before.detail ? after : undefined;
  },
};
