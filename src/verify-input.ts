/**
 * One input's verification: the properties over its Evidence, then the level and the policy.
 * Pure and deterministic.
 */
import type { Evidence } from "./input/load.js";
import type { TrustConfig } from "./trust/config.js";
import { runProperties } from "./properties/index.js";
import { levelReport } from "./properties/level.js";
import { EvidenceContext, type VerifyOptions } from "./evidence/context.js";
import { memberAt } from "./json/value.js";
import { decidePolicy, type Policy } from "./policy.js";
import type { VerifiedInput } from "./report/model.js";

export /** Runs the properties, the level and the policy over one input's evidence. */
function verifyEvidence(
  source: string,
  evidence: Evidence,
  trust: TrustConfig | undefined,
  options: VerifyOptions & Policy,
  shared?: EvidenceContext,
): VerifiedInput {
  // A context the caller made for this very evidence, trust and options (its readings are kept).
  const ctx =
    shared !== undefined && shared.evidence === evidence && shared.trust === trust && shared.options === options
      ? shared
      : new EvidenceContext(evidence, trust, options);
  const properties = runProperties(ctx);
  const evidenceLevel = levelReport(ctx, properties);
  const decision = decidePolicy(properties, evidenceLevel, options, {
    producersPinned: (trust?.producers.size ?? 0) > 0,
    trustGiven: trust !== undefined,
    observedTask: evidence.observedTask !== undefined,
  });
  const evidenceId = memberAt(ctx.bundle, "evidenceId");
  const profile = memberAt(ctx.bundle, "recordProfile");
  return {
    source,
    shape: evidence.shape,
    locations: evidence.bundles.map((b) => b.location),
    recordProfile: typeof profile === "string" ? profile : null,
    evidenceId: typeof evidenceId === "string" ? evidenceId : null,
    properties,
    evidenceLevel,
    notes: [...evidence.notes, ...carrierNotes(evidence), ...decision.accepted],
    exitCode: decision.exitCode,
    reasons: decision.reasons,
  };
}

function carrierNotes(evidence: Evidence): string[] {
  const primary = evidence.bundles[0];
  if (primary && (primary.carrier === "data" || primary.carrier === "inline")) {
    return [
      `${primary.location}: bundle reconstructed from a structured carrier (${primary.carrier}); numeric lexemes may not be the producer's`,
    ];
  }
  return [];
}
