/**
 * contentBinding — the presented payload is exactly what the evidence ID, the manifest digest and
 * the signed record commit to (contract §4; content-binding.md §4.2, §5, §6, §12 items 1, 3, 4, 7).
 *
 * Checks, in order:
 *   evidenceId.recompute         SHA-256(pyjson(taskEvidencePayload)) == evidenceId
 *   payload.copiesAgree          manifest.taskEvidencePayload == taskEvidencePayload (the reference never checks this)
 *   coreManifestDigest.recompute SHA-256(pyjson(manifest)) == coreManifestDigest
 *   capsule.agentInputDigest     capsule agent_input_digest == the recomputed evidenceId (the payload ↔ signed record link)
 *   capsule.agentOutputDigest    agent_output_digest == effect.response_digest == JCS digest of {"terminalState": …}
 *   interim.content              each supplied interim record (docs/profile.md) passes these same checks
 * The copies of these digests in TaskEvidenceReference objects are referenceConsistency's.
 */
import { member, memberAt, isJsonObject, newJsonObject, type JsonObject, type JsonValue } from "../json/value.js";
import { firstDifference, showValue, valueText, type Difference } from "../json/diff.js";
import { jsonEquals } from "../json/value.js";
import { jcs } from "../canon/jcs.js";
import { isHex64, sha256HexOfText } from "../util/bytes.js";
import type { Check, PropertyResult } from "./shared/types.js";
import { checksFor, type IdOf, decide } from "./shared/checks.js";
import type { Digest, EvidenceContext } from "../evidence/context.js";
import { findNarrowing, widenedReason } from "../evidence/widening.js";
import { interimChecks, withInterim } from "./shared/interim.js";

export const CHECKS = checksFor([
  "evidenceId.recompute",
  "payload.copiesAgree",
  "coreManifestDigest.recompute",
  "capsule.agentInputDigest",
  "capsule.agentOutputDigest",
  "interim.content",
]);
const { check, only } = CHECKS;
type CheckId = IdOf<typeof CHECKS>;

export function contentBinding(ctx: EvidenceContext): PropertyResult {
  return withInterim(contentBindingOfRecord(ctx), interimChecks(ctx, "interim.content", check, contentBinding));
}

function contentBindingOfRecord(ctx: EvidenceContext): PropertyResult {
  const payload = member(ctx.bundle, "taskEvidencePayload");
  const claimed = member(ctx.bundle, "evidenceId");
  if (payload === undefined || payload === null || claimed === undefined || claimed === null) {
    return only("evidenceId.recompute", "NOT_PRESENT", "the bundle carries no taskEvidencePayload or no evidenceId");
  }
  const checks: Check[] = [evidenceIdCheck(ctx, claimed), payloadCopiesCheck(ctx), manifestDigestCheck(ctx)];
  checks.push(...capsuleChecks(ctx));
  return decide(checks, () => `recomputed evidenceId matches: ${claimed as string}`);
}

/** Compares a recomputed digest with a claimed one, allowing for number widening in structured carriers. */
function digestCheck(
  ctx: EvidenceContext,
  id: CheckId,
  what: string,
  value: JsonValue,
  claimed: JsonValue,
  recomputed: () => ReturnType<EvidenceContext["pyjsonDigest"]>,
): Check {
  if (!isHex64(claimed)) {
    return check(id, "FAIL", `claimed ${what} is not 64 lowercase hex characters: ${showValue(claimed)}`);
  }
  const r = recomputed();
  if (!r.ok) return check(id, "FAIL", `${what} cannot be recomputed: ${r.detail}`, { code: r.code });
  const values = { claimed, recomputed: r.value.hex };
  const flagged = flagsNote(r.value);
  if (r.value.hex === claimed) return check(id, "PASS", `recomputed ${what} matches: ${claimed}${flagged}`, { values });
  const widened = wideningExplains(ctx, what, value, claimed);
  if (widened) {
    return check(id, "INCONCLUSIVE", `recomputed ${what} ${widened.reason}`, {
      values: widened.narrowedHex ? { ...values, recomputedNarrowed: widened.narrowedHex } : values,
    });
  }
  const persists = ctx.structuredCarrier ? ", and under every narrowing of widened numbers" : "";
  return check(id, "FAIL", `recomputed ${what} ${r.value.hex} != claimed ${claimed}${flagged}${persists}`, { values });
}

/**
 * Whether number widening in a structured carrier explains why `value` does not hash to `target`
 * (contract §9.17): some narrowing of its widened numbers hashes to it, or there are too many to
 * try. undefined for exact carriers, and when the mismatch persists under every narrowing — then
 * it is a FAIL like any other.
 */
function wideningExplains(
  ctx: EvidenceContext,
  what: string,
  value: JsonValue,
  target: string,
): { reason: string; narrowedHex?: string } | undefined {
  if (!ctx.structuredCarrier) return undefined;
  // The payload is searched for two targets that are usually one (evidenceId, agent_input_digest).
  return ctx.once(`widening ${what} ${target}`, () => searchNarrowing(ctx, value, target));
}

function searchNarrowing(
  ctx: EvidenceContext,
  value: JsonValue,
  target: string,
): { reason: string; narrowedHex?: string } | undefined {
  const carrier = ctx.located.carrier;
  const n = findNarrowing(value, (candidate) => {
    const d = ctx.pyjsonDigest(candidate);
    return d.ok && d.value.hex === target;
  });
  if (n.kind === "match") return { reason: widenedReason(carrier, n.narrowed), narrowedHex: target };
  if (n.kind === "tooMany")
    return {
      reason: `does not match ${target}, and ${n.reason} stop the search: the ${carrier} carrier passed numbers through doubles`,
    };
  return undefined;
}

function flagsNote(d: Digest): string {
  return d.numberFlags.length > 0
    ? ` (numbers hashed as written, not as Python prints integers: ${d.numberFlags.join(", ")})`
    : "";
}

function evidenceIdCheck(ctx: EvidenceContext, claimed: JsonValue): Check {
  const payload = member(ctx.bundle, "taskEvidencePayload") as JsonValue;
  if (!isJsonObject(payload)) return check("evidenceId.recompute", "FAIL", "taskEvidencePayload is not a JSON object");
  const c = digestCheck(ctx, "evidenceId.recompute", "evidenceId", payload, claimed, () => ctx.recomputedEvidenceId);
  if (c.state !== "FAIL" || !isHex64(claimed) || !c.values) return c;
  return { ...c, detail: `${c.detail}: the presented payload does not derive the referenced evidence ID` };
}

function payloadCopiesCheck(ctx: EvidenceContext): Check {
  const id = "payload.copiesAgree";
  const manifest = member(ctx.bundle, "manifest");
  if (!isJsonObject(manifest)) return check(id, "NOT_PRESENT", "the bundle carries no manifest");
  const top = member(ctx.bundle, "taskEvidencePayload");
  const inManifest = member(manifest, "taskEvidencePayload");
  if (inManifest === undefined) return check(id, "FAIL", "the manifest carries no taskEvidencePayload");
  if (jsonEquals(top, inManifest)) return check(id, "PASS", "manifest.taskEvidencePayload equals taskEvidencePayload");
  const d = firstDifference(top, inManifest, "taskEvidencePayload") as Difference;
  return check(
    id,
    "FAIL",
    `manifest.taskEvidencePayload differs from taskEvidencePayload at ${d.path}: ${showValue(d.right)} in the manifest, ${showValue(d.left)} at top level`,
  );
}

function manifestDigestCheck(ctx: EvidenceContext): Check {
  const id = "coreManifestDigest.recompute";
  const manifest = member(ctx.bundle, "manifest");
  const claimed = member(ctx.bundle, "coreManifestDigest");
  const hasManifest = manifest !== undefined && manifest !== null;
  const hasClaim = claimed !== undefined && claimed !== null;
  if (!hasManifest && !hasClaim)
    return check(id, "NOT_PRESENT", "the bundle carries no manifest and no coreManifestDigest");
  if (!hasClaim) return check(id, "FAIL", "the bundle carries a manifest but no coreManifestDigest committing to it");
  if (!hasManifest) return check(id, "FAIL", "coreManifestDigest is claimed but the bundle carries no manifest");
  if (!isJsonObject(manifest)) return check(id, "FAIL", "manifest is not a JSON object");
  return digestCheck(ctx, id, "coreManifestDigest", manifest, claimed as JsonValue, () =>
    ctx.once("coreManifestDigest", () => ctx.pyjsonDigest(manifest)),
  );
}

function capsuleChecks(ctx: EvidenceContext): Check[] {
  const capsule = ctx.capsule;
  if (!capsule) {
    return [
      check("capsule.agentInputDigest", "NOT_PRESENT", "the bundle carries no capsule"),
      check("capsule.agentOutputDigest", "NOT_PRESENT", "the bundle carries no capsule"),
    ];
  }
  return [agentInputCheck(ctx, capsule), agentOutputCheck(ctx, capsule)];
}

function agentInputCheck(ctx: EvidenceContext, capsule: JsonObject): Check {
  const id = "capsule.agentInputDigest";
  const input = memberAt(capsule, "model_attestation", "compute_attestation", "agent_input_digest");
  if (input === undefined) {
    return check(
      id,
      "FAIL",
      "the capsule does not commit to the payload: model_attestation.compute_attestation.agent_input_digest is absent",
    );
  }
  const recomputed = ctx.recomputedEvidenceId;
  if (!recomputed.ok) return check(id, "NOT_CHECKED", "evidenceId could not be recomputed");
  const values = { agentInputDigest: valueText(input), evidenceId: recomputed.value.hex };
  if (input === recomputed.value.hex) {
    return check(id, "PASS", `capsule agent_input_digest equals the recomputed evidenceId ${recomputed.value.hex}`, {
      values,
    });
  }
  const widened =
    typeof input === "string"
      ? wideningExplains(ctx, "evidenceId", member(ctx.bundle, "taskEvidencePayload") as JsonValue, input)
      : undefined;
  if (widened)
    return check(
      id,
      "INCONCLUSIVE",
      `the payload digest ${widened.reason}; the capsule's agent_input_digest is ${input}`,
      { values },
    );
  return check(
    id,
    "FAIL",
    `capsule agent_input_digest ${showValue(input)} != recomputed evidenceId ${recomputed.value.hex}: the signed record commits to a different payload`,
    { values },
  );
}

function agentOutputCheck(ctx: EvidenceContext, capsule: JsonObject): Check {
  const id = "capsule.agentOutputDigest";
  const output = memberAt(capsule, "model_attestation", "compute_attestation", "agent_output_digest");
  const response = memberAt(capsule, "effect", "response_digest");
  if (output === undefined && response === undefined) {
    return check(id, "NOT_PRESENT", "the capsule carries no agent_output_digest or effect.response_digest");
  }
  const terminalState = ctx.payload ? member(ctx.payload, "terminalState") : undefined;
  if (typeof terminalState !== "string") return check(id, "FAIL", "taskEvidencePayload.terminalState is not a string");
  const agentOutput = newJsonObject();
  agentOutput.terminalState = terminalState;
  const canonical = jcs(agentOutput);
  if (!canonical.ok)
    return check(id, "FAIL", `agent output cannot be canonicalized: ${canonical.detail}`, { code: canonical.code });
  const expected = sha256HexOfText(canonical.value);
  const values: Record<string, string> = { expected };
  if (output !== undefined) values.agentOutputDigest = valueText(output);
  if (response !== undefined) values.responseDigest = valueText(response);
  for (const [name, v] of [
    ["agent_output_digest", output],
    ["effect.response_digest", response],
  ] as const) {
    if (v !== undefined && v !== expected) {
      return check(
        id,
        "FAIL",
        `capsule ${name} ${showValue(v)} != digest of {"terminalState":"${terminalState}"} ${expected}`,
        { values },
      );
    }
  }
  return check(id, "PASS", `capsule commits to terminalState ${terminalState} (${expected})`, { values });
}
