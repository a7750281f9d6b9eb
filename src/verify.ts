/**
 * The verification path: parsed input → located evidence → twelve independent properties →
 * evidence level → policy. Pure and deterministic: no files, no clock, no network. The CLI reads
 * files and calls this; a library caller gets exactly the same report object.
 */
import { parseStrictJson, DEFAULT_JSON_LIMITS, type JsonLimits } from "./json/strict-json.js";
import type { JsonValue } from "./json/value.js";
import type { Result } from "./result.js";
import { loadInput, loadTaskInput, DEFAULT_LOAD_LIMITS, type LoadedInput, type Observation } from "./input/load.js";
import { loadTrustConfig, type TrustConfig } from "./trust/config.js";
import { EVIDENCE_STATUS_PREFIX, levelRank, type EvidenceLevelOrNone } from "./profile.js";
import { isJsonObject, member } from "./json/value.js";
import {
  PROPERTY_NAMES,
  type EvidenceLevelReport,
  type FailedInput,
  type InputError,
  type InputReport,
  type PropertyName,
  type PropertyResult,
  type Properties,
  type Report,
  type VerifiedInput,
} from "./report/model.js";
import { EvidenceContext, type VerifyOptions } from "./properties/context.js";
import { contentBinding } from "./properties/content-binding.js";
import { producerSignature } from "./properties/producer-signature.js";
import { taskBinding } from "./properties/task-binding.js";
import { localInclusion } from "./properties/local-inclusion.js";
import { checkpointSignature } from "./properties/checkpoint-signature.js";
import { externalRegistration } from "./properties/external-registration.js";
import { continuity } from "./properties/continuity.js";
import { identityAuthorityBinding } from "./properties/identity-authority-binding.js";
import { captureCoverage } from "./properties/capture-coverage.js";
import { outcomeCorroboration } from "./properties/outcome-corroboration.js";
import { referenceConsistency, LEVEL_NEEDS } from "./properties/reference-consistency.js";
import { negotiation, requirementOf } from "./properties/negotiation.js";
import { TOOL_VERSION } from "./version.js";

/** Anything the verifier accepts as one input: raw bytes, text, or an already parsed value. */
export type InputData = Uint8Array | string | JsonValue;

export interface Policy {
  /** Properties that must be PASS. */
  readonly require?: readonly PropertyName[];
  /** The least evidence level that exits 0; default SIGNED_RECORD (nothing passes vacuously). */
  readonly minEvidence?: EvidenceLevelOrNone;
}

export interface VerifyRequest extends VerifyOptions, Policy {
  /** The inputs; one the caller could not read is passed with `readError` and reported as exit 2. */
  readonly inputs: readonly { readonly source: string; readonly data?: InputData; readonly readError?: string }[];
  /** The trust configuration: already loaded, or the trust file's bytes/value. */
  readonly trust?: TrustConfig | InputData;
  /** The Task the caller observed, for bare bundles (`--task`). */
  readonly task?: InputData;
  /** The first Task returned by SendMessage (`--first-task`). */
  readonly firstTask?: InputData;
}

export const DEFAULT_MIN_EVIDENCE: EvidenceLevelOrNone = "SIGNED_RECORD";

function toValue(data: InputData, limits: JsonLimits = DEFAULT_JSON_LIMITS): Result<JsonValue> {
  if (typeof data === "string" || data instanceof Uint8Array) {
    const r = parseStrictJson(data, limits);
    return r.ok ? r : { ok: false, code: r.code, detail: r.detail, path: r.path };
  }
  return { ok: true, value: data };
}

function isTrustConfig(t: unknown): t is TrustConfig {
  return typeof t === "object" && t !== null && (t as TrustConfig).producers instanceof Map;
}

function inputError(r: { code: InputError["code"]; detail: string; path?: string }): InputError {
  return r.path !== undefined ? { code: r.code, message: r.detail, path: r.path } : { code: r.code, message: r.detail };
}

/** Loads the trust configuration given in a request: already loaded, or bytes / a parsed value. */
export function resolveTrust(trust: VerifyRequest["trust"]): Result<TrustConfig | undefined> {
  if (trust === undefined) return { ok: true, value: undefined };
  if (isTrustConfig(trust)) return { ok: true, value: trust };
  const v = toValue(trust);
  if (!v.ok) return { ok: false, code: "TRUST_NOT_JSON", detail: `${v.detail} (${v.code})`, ...(v.path ? { path: v.path } : {}) };
  return loadTrustConfig(v.value);
}

function resolveObservation(req: VerifyRequest): Result<Observation> {
  let observation: Observation = {};
  if (req.task !== undefined) {
    const v = toValue(req.task);
    if (!v.ok) return v;
    const r = loadTaskInput(v.value, "task");
    if (!r.ok) return r;
    observation = r.value;
  }
  if (req.firstTask !== undefined) {
    const v = toValue(req.firstTask);
    if (!v.ok) return v;
    const r = loadTaskInput(v.value, "first-task");
    if (!r.ok) return r;
    // --first-task replaces whatever first response --task's capture carried.
    const { task } = observation;
    observation = { ...(task ? { task } : {}), ...r.value };
  }
  return { ok: true, value: observation };
}

/** Runs the twelve properties over one located input. */
export function verifyLoaded(
  source: string,
  loaded: LoadedInput,
  trust: TrustConfig | undefined,
  observation: Observation,
  options: VerifyOptions & Policy = {},
): VerifiedInput | FailedInput {
  if (loaded.observedTask && observation.task) {
    return {
      source,
      error: { code: "INPUT_CONFLICTING_TASK", message: "the input already carries the observed Task; --task is for bare bundles and captures without one" },
      exitCode: 2,
    };
  }
  const observedTask = loaded.observedTask ?? observation.task;
  // The input's own first response wins over --task's capture; both are the same exchange's.
  const first = loaded.firstTask || loaded.firstMessage ? loaded : observation;
  const ctx = new EvidenceContext(loaded.bundles, observedTask, first.firstTask, first.firstMessage, trust, options);
  const partial: Partial<Record<PropertyName, PropertyResult>> = {
    contentBinding: contentBinding(ctx),
    producerSignature: producerSignature(ctx),
    taskBinding: taskBinding(ctx),
    localInclusion: localInclusion(ctx),
    checkpointSignature: checkpointSignature(ctx),
    externalRegistration: externalRegistration(ctx),
    continuity: continuity(ctx),
    identityAuthorityBinding: identityAuthorityBinding(ctx),
    captureCoverage: captureCoverage(ctx),
    outcomeCorroboration: outcomeCorroboration(ctx),
  };
  // referenceConsistency compares the claimed level with what the properties above established.
  partial.referenceConsistency = referenceConsistency(ctx, partial);
  partial.negotiation = negotiation(ctx);
  const properties = Object.fromEntries(PROPERTY_NAMES.map((p) => [p, partial[p] as PropertyResult])) as Properties;
  const evidenceLevel = levelReport(ctx, properties);
  const evidenceId = member(ctx.bundle, "evidenceId");
  const profile = member(ctx.bundle, "recordProfile");
  return {
    source,
    shape: loaded.shape,
    locations: loaded.bundles.map((b) => b.location),
    recordProfile: typeof profile === "string" ? profile : null,
    evidenceId: typeof evidenceId === "string" ? evidenceId : null,
    properties,
    evidenceLevel,
    notes: [...loaded.notes, ...carrierNotes(loaded)],
    exitCode: inputExitCode(properties, evidenceLevel.achieved, options),
  };
}

function carrierNotes(loaded: LoadedInput): string[] {
  const primary = loaded.bundles[0];
  if (primary && (primary.carrier === "data" || primary.carrier === "inline")) {
    return [`${primary.location}: bundle reconstructed from a structured carrier (${primary.carrier}); numeric lexemes may not be the producer's`];
  }
  return [];
}

/** The achieved level (contract §6), with the claimed and negotiated levels beside it. */
export function achievedLevel(properties: Properties): EvidenceLevelOrNone {
  const pass = (names: readonly PropertyName[]) => names.every((p) => properties[p].state === "PASS");
  if (pass(LEVEL_NEEDS.CONTINUITY_WITNESSED)) return "CONTINUITY_WITNESSED";
  if (pass(LEVEL_NEEDS.EXTERNALLY_REGISTERED)) return "EXTERNALLY_REGISTERED";
  if (pass(LEVEL_NEEDS.SIGNED_RECORD)) return "SIGNED_RECORD";
  return "NONE";
}

function levelReport(ctx: EvidenceContext, properties: Properties): EvidenceLevelReport {
  const ref = member(ctx.bundle, "taskEvidenceReference");
  const status = isJsonObject(ref) ? member(ref, "evidenceStatus") : undefined;
  const first = ctx.firstTask?.history?.[0] ?? ctx.observedTask?.history?.[0];
  const requirement = requirementOf(first);
  const minimum = isJsonObject(requirement) ? member(requirement, "minimumEvidence") : undefined;
  return {
    achieved: achievedLevel(properties),
    claimed: typeof status === "string" ? status.replace(EVIDENCE_STATUS_PREFIX, "") : null,
    negotiated: typeof minimum === "string" ? minimum : null,
  };
}

/** 1 when anything FAILs; 3 when a required property is not PASS or the level is too low; else 0. */
export function inputExitCode(properties: Properties, achieved: EvidenceLevelOrNone, policy: Policy): 0 | 1 | 3 {
  if (PROPERTY_NAMES.some((p) => properties[p].state === "FAIL")) return 1;
  if ((policy.require ?? []).some((p) => properties[p].state !== "PASS")) return 3;
  if (levelRank(achieved) < levelRank(policy.minEvidence ?? DEFAULT_MIN_EVIDENCE)) return 3;
  return 0;
}

/** Several inputs: 2 when any could not be read; otherwise the worst of 1 > 3 > 0. */
export function combinedExitCode(codes: readonly (0 | 1 | 2 | 3)[]): 0 | 1 | 2 | 3 {
  if (codes.includes(2)) return 2;
  if (codes.includes(1)) return 1;
  if (codes.includes(3)) return 3;
  return 0;
}

/** Verifies one input's data (bytes, text or parsed value). */
export function verifyInput(
  source: string,
  data: InputData,
  trust: TrustConfig | undefined,
  observation: Observation,
  options: VerifyOptions & Policy = {},
): InputReport {
  const v = toValue(data);
  if (!v.ok) return { source, error: inputError(v), exitCode: 2 };
  const loaded = loadInput(v.value, DEFAULT_LOAD_LIMITS);
  if (!loaded.ok) return { source, error: inputError(loaded), exitCode: 2 };
  return verifyLoaded(source, loaded.value, trust, observation, options);
}

/**
 * The library entry point: the same report the CLI prints. Never throws on bad input: an
 * unusable trust file or observed Task yields a report whose policy exit code is 2 and whose
 * `error` says why.
 */
export function verify(request: VerifyRequest): Report {
  const policy = {
    require: [...(request.require ?? [])],
    minEvidence: request.minEvidence ?? DEFAULT_MIN_EVIDENCE,
  };
  const tool = { name: "a2a-evidence" as const, version: TOOL_VERSION };
  const trust = resolveTrust(request.trust);
  if (!trust.ok) {
    return { reportVersion: 1, tool, inputs: [], policy: { ...policy, exitCode: 2 }, error: inputError(trust) };
  }
  const observation = resolveObservation(request);
  if (!observation.ok) {
    return { reportVersion: 1, tool, inputs: [], policy: { ...policy, exitCode: 2 }, error: inputError(observation) };
  }
  const options = { ...policy, ...(request.authority !== undefined ? { authority: request.authority } : {}), ...(request.tenant !== undefined ? { tenant: request.tenant } : {}) };
  const inputs = request.inputs.map((i): InputReport =>
    i.data === undefined
      ? { source: i.source, error: { code: "INPUT_UNREADABLE", message: i.readError ?? "no input data" }, exitCode: 2 }
      : verifyInput(i.source, i.data, trust.value, observation.value, options),
  );
  return { reportVersion: 1, tool, inputs, policy: { ...policy, exitCode: combinedExitCode(inputs.map((i) => i.exitCode)) } };
}

