/**
 * The content digests, each from the canonical bytes it is computed over (content-binding.md
 * §4.2, §5, §6, §7): evidenceId and coreManifestDigest (pyjson), capsule_id (JCS without
 * capsule_id, signature, key_id for format "4"; the vintage JCS-N rule for format "2"), and the
 * capsule's agent_input_digest and agent_output_digest.
 *
 * The values are recomputed over what verify recomputes them over — the presented bundle — and,
 * for a structured carrier whose digest does not match, under the same narrowing search of
 * widened numbers verify runs (contract §9.17).
 */
import { computeCapsuleId, type CapsuleFormatVersion } from "../aac/capsule-id.js";
import { jcs } from "../canon/jcs.js";
import { pyjson } from "../canon/pyjson.js";
import { showValue, valueText } from "../json/diff.js";
import { isJsonObject, member, memberAt, newJsonObject, type JsonObject, type JsonValue } from "../json/value.js";
import { capsuleIdReading, recomputedCapsuleId } from "../evidence/capsule-id.js";
import type { EvidenceContext } from "../evidence/context.js";
import { findNarrowing } from "../evidence/widening.js";
import { isHex64, sha256HexOfText } from "../util/bytes.js";
import { listed, malformed, stepFailure, text } from "./common.js";
import type {
  Absent,
  AgentDigestsSection,
  Bytes,
  CapsuleIdSection,
  DigestSection,
  InspectOptions,
  Narrowed,
  StepFailure,
} from "./model.js";

function present(v: JsonValue | undefined): v is JsonValue {
  return v !== undefined && v !== null;
}

/** A narrowing of widened numbers under which `preimageOf` gives `target`, as verify searches for it. */
export function narrowing(
  value: JsonValue,
  target: string,
  preimageOf: (v: JsonValue) => string | undefined,
  o: InspectOptions,
): Narrowed {
  const n = findNarrowing(value, (candidate) => {
    const p = preimageOf(candidate);
    return p !== undefined && sha256HexOfText(p) === target;
  });
  if (n.kind === "tooMany") return { kind: "tooMany", numbers: 0, reason: n.reason };
  if (n.kind === "none") return { kind: "none", numbers: 0 };
  const p = preimageOf(n.value) as string;
  return { kind: "match", numbers: n.narrowed, preimage: text(p, o), recomputed: sha256HexOfText(p) };
}

export function pyjsonText(v: JsonValue): string | undefined {
  const r = pyjson(v);
  return r.ok ? r.value.text : undefined;
}

function digestSection(
  ctx: EvidenceContext,
  of: string,
  value: JsonValue,
  claimedAt: string,
  o: InspectOptions,
): DigestSection {
  const claimedValue = member(ctx.bundle, claimedAt);
  const claimed = present(claimedValue) ? valueText(claimedValue) : null;
  const rule = `SHA-256(pyjson(${of}))`;
  const base = { of, rule, claimedAt, claimed };
  const stopped = (failure: StepFailure): DigestSection => ({
    ...base,
    preimage: null,
    numberFlags: { items: [], omitted: 0 },
    recomputed: null,
    equal: false,
    failure,
  });
  if (!isJsonObject(value)) return stopped(malformed(`${of} is not a JSON object`, of));
  const r = pyjson(value);
  if (!r.ok) return stopped(stepFailure(r));
  const recomputed = sha256HexOfText(r.value.text);
  const equal = recomputed === claimed;
  const searched =
    !equal && ctx.structuredCarrier && isHex64(claimedValue)
      ? narrowing(value, claimedValue, pyjsonText, o)
      : undefined;
  return {
    ...base,
    preimage: text(r.value.text, o),
    numberFlags: listed(r.value.numberFlags, o, (f) => f),
    recomputed,
    equal,
    ...(searched ? { narrowed: searched } : {}),
  };
}

export function evidenceIdSection(ctx: EvidenceContext, o: InspectOptions): DigestSection | Absent {
  const payload = member(ctx.bundle, "taskEvidencePayload");
  if (!present(payload)) return { absent: "the bundle carries no taskEvidencePayload" };
  return digestSection(ctx, "taskEvidencePayload", payload, "evidenceId", o);
}

export function manifestDigestSection(ctx: EvidenceContext, o: InspectOptions): DigestSection | Absent {
  const manifest = member(ctx.bundle, "manifest");
  if (!present(manifest)) {
    return {
      absent: present(member(ctx.bundle, "coreManifestDigest"))
        ? "coreManifestDigest is claimed but the bundle carries no manifest"
        : "the bundle carries no manifest",
    };
  }
  return digestSection(ctx, "manifest", manifest, "coreManifestDigest", o);
}

const RULES: Readonly<Record<CapsuleFormatVersion, { rule: string; excluded: readonly string[] }>> = {
  "4": {
    rule: "SHA-256(JCS (RFC 8785) of the capsule without the excluded members)",
    excluded: ["capsule_id", "signature", "key_id"],
  },
  "2": {
    rule: "SHA-256(JCS-N of the capsule without the excluded members): the vintage rule",
    excluded: ["capsule_id", "chain", "signature", "key_id"],
  },
};

function capsulePreimage(v: JsonValue): string | undefined {
  const r = computeCapsuleId(v);
  return r.ok ? r.value.preImage : undefined;
}

export function capsuleIdSection(ctx: EvidenceContext, o: InspectOptions): CapsuleIdSection | Absent {
  const capsule = member(ctx.bundle, "capsule");
  if (!present(capsule)) return { absent: "the bundle carries no capsule" };
  if (!isJsonObject(capsule)) {
    return {
      formatVersion: null,
      rule: "",
      excluded: [],
      preimage: null,
      recomputed: null,
      carried: null,
      equal: false,
      signedId: null,
      failure: malformed("capsule is not a JSON object", "capsule"),
    };
  }
  const version = member(capsule, "format_version");
  const formatVersion = version === undefined ? null : showValue(version);
  const carriedValue = member(capsule, "capsule_id");
  const carried = present(carriedValue) ? valueText(carriedValue) : null;
  // The id the envelope is checked against is verify's own (producerSignature): the recomputed
  // id, a narrowing's when only one explains it, else the carried one when well-formed.
  const signedId = recomputedCapsuleId(capsuleIdReading(ctx)) ?? (isHex64(carriedValue) ? carriedValue : null);
  const r = computeCapsuleId(capsule);
  if (!r.ok) {
    const known = version === "4" || version === "2" ? RULES[version] : undefined;
    return {
      formatVersion,
      rule: known?.rule ?? 'none: only format_version "4" and the vintage "2" have a rule',
      excluded: known?.excluded ?? [],
      preimage: null,
      recomputed: null,
      carried,
      equal: false,
      signedId,
      failure: { ...stepFailure(r), ...(r.path !== undefined ? { path: `capsule.${r.path}` } : {}) },
    };
  }
  const rule = RULES[r.value.formatVersion];
  const equal = r.value.capsuleId === carried;
  const searched =
    !equal && ctx.structuredCarrier && isHex64(carriedValue)
      ? narrowing(capsule, carriedValue, capsulePreimage, o)
      : undefined;
  return {
    formatVersion,
    rule: rule.rule,
    excluded: rule.excluded,
    preimage: text(r.value.preImage, o),
    recomputed: r.value.capsuleId,
    carried,
    equal,
    ...(searched ? { narrowed: searched } : {}),
    signedId,
  };
}

export function agentDigestsSection(ctx: EvidenceContext, o: InspectOptions): AgentDigestsSection | Absent {
  const capsule = ctx.capsule;
  if (!capsule) return { absent: "the bundle carries no capsule" };
  const at = (...names: string[]): string | null => {
    const v = memberAt(capsule, ...names);
    return v === undefined ? null : valueText(v);
  };
  const evidence = ctx.recomputedEvidenceId;
  const agentInputDigest = at("model_attestation", "compute_attestation", "agent_input_digest");
  const evidenceId = evidence.ok ? evidence.value.hex : null;
  const terminalState = ctx.payload ? member(ctx.payload, "terminalState") : undefined;
  const base = {
    agentInputDigest,
    evidenceId,
    inputEqual: agentInputDigest !== null && agentInputDigest === evidenceId,
    terminalState: typeof terminalState === "string" ? terminalState : null,
    agentOutputDigest: at("model_attestation", "compute_attestation", "agent_output_digest"),
    responseDigest: at("effect", "response_digest"),
  };
  if (typeof terminalState !== "string") {
    return {
      ...base,
      outputPreimage: null,
      outputRecomputed: null,
      failure: malformed("taskEvidencePayload.terminalState is not a string", "taskEvidencePayload.terminalState"),
    };
  }
  const output: JsonObject = newJsonObject();
  output.terminalState = terminalState;
  const canonical = jcs(output);
  if (!canonical.ok) return { ...base, outputPreimage: null, outputRecomputed: null, failure: stepFailure(canonical) };
  const preimage: Bytes = text(canonical.value, o, true);
  return { ...base, outputPreimage: preimage, outputRecomputed: preimage.sha256 };
}
