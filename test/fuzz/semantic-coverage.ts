/**
 * The semantic coverage map: after a change at the source and every digest, signature and proof
 * derived again, which property must no longer PASS. The record's own integrity properties
 * (contentBinding, producerSignature, checkpointSignature, …) rightly stay PASS — the record is
 * genuinely signed — so what is listed here is what compares the record with the world: the
 * observed Task (taskBinding), the trust file (identityAuthorityBinding, externalRegistration),
 * the log (localInclusion), the reference copies, the negotiation.
 *
 * Names are `<target>.<path>`: `taskEvidencePayload.…`, `manifest.…`, `capsule.…`,
 * `taskEvidenceReference.…` (every copy changed alike), `keys.producer|checkpoint`.
 */
import { JsonNumber, isJsonObject, jsonEquals, type JsonValue } from "../../src/json/value.js";
import type { PropertyName, VerifiedInput } from "../../src/index.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { valueAt } from "./corpus.js";
import { applyRules, compile, insertName, type RuleOf } from "./coverage.js";
import type { SemanticMutant } from "./mutate-semantic.js";
import type { Exchange } from "../../producer/exchange.js";

export interface SemanticContext {
  readonly mutant: SemanticMutant;
  readonly base: Exchange;
  readonly original: VerifiedInput;
  readonly name: readonly string[];
}

type Rule = RuleOf<SemanticContext>;

const LEVELS = ["SIGNED_RECORD", "EXTERNALLY_REGISTERED", "CONTINUITY_WITNESSED"];
const STATUSES = [
  "EVIDENCE_STATUS_SIGNED_RECORD",
  "EVIDENCE_STATUS_EXTERNALLY_REGISTERED",
  "EVIDENCE_STATUS_CONTINUITY_WITNESSED",
];

const after = (c: SemanticContext): JsonValue | undefined => c.mutant.mutation.after;
const negotiated = (c: SemanticContext): string =>
  String(valueAt(c.base.finalTask, ["history", 0, "metadata", EXTENSION_URI, "minimumEvidence"]));
const levelOf = (v: JsonValue | undefined): number => (typeof v === "string" ? STATUSES.indexOf(v) : -1);
/** What the honest record supports: the level it achieved. */
const achieved = (c: SemanticContext): number => LEVELS.indexOf(c.original.evidenceLevel.achieved);

/** A status claim above what the record supports, or not a level at all (PENDING, FAILED without reason, unknown). */
const overclaims = (c: SemanticContext): boolean => levelOf(after(c)) < 0 || levelOf(after(c)) > achieved(c);
/** A status below the negotiated minimum (negotiation: a silent downgrade), when the negotiation was observed. */
const downgrades = (c: SemanticContext): boolean =>
  levelOf(after(c)) >= 0 && levelOf(after(c)) < LEVELS.indexOf(negotiated(c));

/** The record's references say EVIDENCE_STATUS_FAILED: that form may state no evidence at all (a2a-wire.md §6.7). */
const failedReference = (c: SemanticContext): boolean =>
  valueAt(c.base.bundle, ["taskEvidenceReference", "evidenceStatus"]) === "EVIDENCE_STATUS_FAILED";

/** The witness record changed is the only one that verified. */
const soleVerifiedStamp = (c: SemanticContext): boolean => {
  const i = c.name[3];
  const verified = c.original.properties.externalRegistration.checks.filter(
    (k) => k.id === "witness.signature" && k.state === "PASS",
  );
  return verified.length === 1 && (verified[0]?.subject ?? "").includes(`witnesses[${i}]`);
};

const STRUCTURAL: readonly PropertyName[] = ["taskBinding", "localInclusion", "continuity"];

/** An integer written as an integral double (0 → 0.0): in a structured carrier it is read back as the integer (§9.1). */
const widenedInStructuredCarrier = (c: SemanticContext): boolean => {
  const m = c.mutant.mutation;
  const artifacts = Array.isArray(c.base.finalTask.artifacts) ? c.base.finalTask.artifacts : [];
  const structured = !artifacts.some(
    (a) =>
      isJsonObject(a) && Array.isArray(a.parts) && a.parts.some((p) => isJsonObject(p) && typeof p.raw === "string"),
  );
  return (
    structured &&
    m.before instanceof JsonNumber &&
    m.after instanceof JsonNumber &&
    m.before.isIntegerLexeme &&
    m.before.toNumber() === m.after.toNumber()
  );
};

export const SEMANTIC_RULES: readonly Rule[] = [
  // The payload against the observed Task (taskBinding) and the trust file (identityAuthorityBinding).
  ...["taskId", "contextId", "terminalState"].map((m): Rule => ({
    at: `taskEvidencePayload.${m}`,
    covers: ["taskBinding"],
    ops: ["replace", "remove"],
  })),
  { at: "taskEvidencePayload.nonEvidenceArtifacts", covers: ["taskBinding"], ops: ["replace", "remove"] },
  { at: "taskEvidencePayload.nonEvidenceArtifacts.+", covers: ["taskBinding"], ops: ["insert"] },
  {
    at: "taskEvidencePayload.nonEvidenceArtifacts.#",
    covers: ["taskBinding"],
    ops: ["replace", "remove", "duplicate"],
  },
  ...["artifactId", "name", "contentCommitment"].map((m): Rule => ({
    at: `taskEvidencePayload.nonEvidenceArtifacts.#.${m}`,
    covers: ["taskBinding"],
    ops: ["replace", "remove"],
  })),
  {
    at: "taskEvidencePayload.nonEvidenceArtifacts.**",
    benign:
      "payload artifacts are matched by artifactId (their order is not committed); a member the shape does not define is compared with nothing",
  },
  { at: "taskEvidencePayload.transcript", covers: ["taskBinding"], ops: ["replace", "remove"] },
  { at: "taskEvidencePayload.transcript.+", covers: ["taskBinding"], ops: ["insert"] },
  { at: "taskEvidencePayload.transcript.#", covers: ["taskBinding"], ops: ["replace", "remove", "duplicate", "swap"] },
  ...["messageId", "role", "partCommitment", "sequence"].map((m): Rule => ({
    at: `taskEvidencePayload.transcript.#.${m}`,
    covers: ["taskBinding"],
    ops: ["replace", "remove"],
  })),
  {
    at: "taskEvidencePayload.transcript.**",
    benign: "a transcript entry member the shape does not define is compared with nothing",
  },
  { at: "taskEvidencePayload.authority", covers: ["identityAuthorityBinding"], ops: ["replace", "remove"] },
  { at: "taskEvidencePayload.capturePolicyId", covers: ["captureCoverage"] },
  { at: "taskEvidencePayload.sealTime", benign: "timestamps are reported, never trusted as proof of time (§4)" },
  {
    at: "taskEvidencePayload.tenantId",
    benign: "the tenant is not observable in A2A; it is compared only with --tenant (§9.5)",
  },
  {
    at: "taskEvidencePayload.**",
    benign: "a payload member the profile does not define is sealed but describes nothing observed",
  },

  // The manifest: the log against the record (localInclusion), the chain (continuity), the stamps (externalRegistration).
  { at: "manifest.cllCheckpoint.mmr_size", covers: ["localInclusion"], ops: ["replace", "remove"] },
  { at: "manifest.cllCheckpoint.root", covers: ["localInclusion"], ops: ["replace", "remove"] },
  ...["log_id", "prev_size", "prev_root"].map((m): Rule => ({
    at: `manifest.cllCheckpoint.${m}`,
    covers: ["continuity"],
  })),
  ...["kind", "v"].map((m): Rule => ({
    at: `manifest.cllCheckpoint.${m}`,
    covers: ["checkpointSignature"],
    ops: ["replace", "remove"],
  })),
  { at: "manifest.cllCheckpoint.timestamp", benign: "timestamps are reported, never trusted as proof of time (§4)" },
  {
    at: "manifest.cllCheckpoint.key_id",
    benign: "signing again sets key_id to the signer's (the signer is varied under keys.checkpoint)",
  },
  { at: "manifest.cllCheckpoint.signature", benign: "signing again replaces the signature" },
  {
    at: "manifest.cllCheckpoint.witnesses.#",
    covers: ["externalRegistration"],
    ops: ["replace", "remove"],
    when: soleVerifiedStamp,
  },
  { at: "manifest.cllCheckpoint.witnesses.#.ts_url", covers: ["externalRegistration"], when: soleVerifiedStamp },
  {
    at: "manifest.cllCheckpoint.witnesses",
    covers: ["externalRegistration"],
    ops: ["replace", "remove"],
    when: (c) =>
      !(
        Array.isArray(after(c)) &&
        (c.mutant.mutation.before as JsonValue[]).every((x) => (after(c) as JsonValue[]).some((y) => jsonEquals(x, y)))
      ),
  },
  {
    at: "manifest.cllCheckpoint.witnesses.**",
    benign:
      "stamps are registered again: one at another position of the service's log is a genuine stamp; repeats, additions and stubs change no verified stamp (§9.7)",
  },
  { at: "manifest.localInclusionProof", covers: ["localInclusion"], ops: ["replace", "remove"] },
  { at: "manifest.localInclusionProof.*", covers: ["localInclusion"], ops: ["replace", "remove"] },
  {
    at: "manifest.localInclusionProof.*.#",
    covers: ["localInclusion"],
    ops: ["replace", "remove", "duplicate", "swap"],
  },
  { at: "manifest.localInclusionProof.*.+", covers: ["localInclusion"], ops: ["insert"] },
  {
    at: "manifest.localInclusionProof.*",
    benign: "a proof member the shape does not define takes no part in the inclusion",
    ops: ["insert"],
  },
  { at: "manifest.priorCheckpoint.**", covers: ["continuity"] },
  { at: "manifest.consistencyProof.**", covers: ["continuity"] },
  { at: "manifest.capturePolicyId", covers: ["captureCoverage"] },
  ...["capsuleId", "keyId", "signature"].map((m): Rule => ({
    at: `manifest.producerEnvelope.${m}`,
    covers: ["producerSignature"],
    ops: ["replace", "remove"],
  })),
  { at: "manifest.producerEnvelope", covers: ["producerSignature"], ops: ["replace", "remove"] },
  {
    at: "manifest.producerEnvelope.*",
    benign: "a producerEnvelope member the shape does not define is compared with nothing",
    ops: ["insert"],
  },
  { at: "manifest.taskEvidencePayload", covers: ["contentBinding"] },
  { at: "manifest.taskEvidencePayload.**", covers: ["contentBinding"] },
  { at: "manifest.**", benign: "a manifest member the profile does not define is digested but compared with nothing" },

  // The capsule, sealed again: its descriptive members are signed and compared with nothing.
  { at: "capsule.model_attestation", covers: ["contentBinding"], ops: ["replace", "remove"] },
  { at: "capsule.model_attestation.compute_attestation", covers: ["contentBinding"], ops: ["replace", "remove"] },
  {
    at: "capsule.model_attestation.compute_attestation.agent_input_digest",
    covers: ["contentBinding"],
    ops: ["replace", "remove"],
  },
  {
    at: "capsule.model_attestation.compute_attestation.agent_output_digest",
    covers: ["contentBinding"],
    ops: ["replace"],
  },
  { at: "capsule.effect.response_digest", covers: ["contentBinding"], ops: ["replace"] },
  { at: "capsule.format_version", covers: ["producerSignature"], ops: ["replace", "remove"] },
  { at: "capsule.canonicalization_id", covers: ["producerSignature"], ops: ["replace", "remove"] },
  {
    at: "capsule.**",
    benign:
      "the capsule's descriptive members (operator, developer, timestamp, action, assurance, disposition, effect status) are signed, so producerSignature vouches the key sealed them, but no property compares them with an observation",
  },

  // Every reference copy changed alike: what they say against the bundle, the Task and the negotiation.
  ...["evidenceId", "coreManifestDigest", "recordProfile", "extensionVersion"].map((m): Rule => ({
    at: `taskEvidenceReference.${m}`,
    covers: ["referenceConsistency"],
    ops: ["replace", "remove"],
  })),
  ...["terminalState", "coverageScope", "deliveryMode"].map((m): Rule => ({
    at: `taskEvidenceReference.${m}`,
    covers: ["referenceConsistency"],
    ops: ["replace"],
  })),
  // A success reference states them (a2a-wire.md §6.7); a FAILED one may state no evidence at all.
  ...["terminalState", "coverageScope", "deliveryMode"].map((m): Rule => ({
    at: `taskEvidenceReference.${m}`,
    covers: ["referenceConsistency"],
    ops: ["remove"],
    when: (c) => !failedReference(c),
  })),
  { at: "taskEvidenceReference.evidenceStatus", covers: ["referenceConsistency"], ops: ["remove"] },
  { at: "taskEvidenceReference.evidenceStatus", covers: ["referenceConsistency"], ops: ["replace"], when: overclaims },
  { at: "taskEvidenceReference.evidenceStatus", covers: ["negotiation"], ops: ["replace"], when: downgrades },
  {
    at: "taskEvidenceReference.evidenceStatus",
    benign: "a claim no higher than the record supports and no lower than negotiated is an honest claim",
  },
  {
    at: "taskEvidenceReference.**",
    benign: "every copy agrees; an optional member all copies omit, or one none defines, states nothing to contradict",
  },

  // The signing keys.
  { at: "keys.producer", covers: ["identityAuthorityBinding"] },
  { at: "keys.checkpoint", covers: ["checkpointSignature"] },
];

const compiled = compile(SEMANTIC_RULES);

export function semanticName(m: SemanticMutant): string[] {
  const path = m.mutation.site.path.map((s) => (s === EXTENSION_URI ? "EXT" : String(s)));
  return [m.target, ...insertName(path, m.mutation.op, m.mutation.site.path)];
}

export function classifySemantic(c: Omit<SemanticContext, "name">): { covers: Set<PropertyName>; benign?: string } {
  const name = semanticName(c.mutant);
  const ctx: SemanticContext = { ...c, name };
  const { covers, benign } = applyRules(compiled, name, c.mutant.mutation.op, ctx);
  if (!widenedInStructuredCarrier(ctx)) return benign !== undefined ? { covers, benign } : { covers };
  for (const p of STRUCTURAL) covers.delete(p);
  return covers.size > 0
    ? { covers }
    : { covers, benign: benign ?? "a structured carrier reads an integral double as the integer (§9.1)" };
}
