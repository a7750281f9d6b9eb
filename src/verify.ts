/**
 * The verification path, one stage per module:
 *
 *   bytes ─parse─► JSON ─input/─► Evidence ─properties/─► results ─level─► levels ─policy─► exit + reasons
 *
 * Pure and deterministic: no files, no clock, no network. The CLI reads files and calls
 * `verify`; a library caller gets exactly the same report object. Never throws on bad input: an
 * unusable input, trust file or observed Task is reported, with exit code 2.
 */
import { fail, type Failure, type Result } from "./result.js";
import { toJsonValue, type InputData } from "./input/data.js";
import { toInputValue } from "./input/stream.js";
import { loadCallerObservation, loadEvidence, type Evidence, type ObservationSource } from "./input/load.js";
import { resolveTrust, type TrustConfig } from "./trust/config.js";
import { runProperties } from "./properties/index.js";
import { levelReport } from "./properties/level.js";
import { EvidenceContext, type VerifyOptions } from "./properties/shared/context.js";
import { memberAt } from "./json/value.js";
import type { Checkpoint } from "./log/checkpoint.js";
import { crossInputFindings } from "./properties/continuity.js";
import { parseCosignatureFile } from "./witness/evidence.js";
import { combinedExitCode, decidePolicy, type Policy } from "./policy.js";
import { TOOL, errorReport, failedInput, type InputReport, type Report, type VerifiedInput } from "./report/model.js";

export interface VerifyRequest extends VerifyOptions, Policy {
  /** The inputs; one the caller could not read is passed with `readError` and reported as exit 2. */
  readonly inputs: readonly { readonly source: string; readonly data?: InputData; readonly readError?: string }[];
  /** The trust configuration: already loaded, or the trust file's bytes/value. */
  readonly trust?: TrustConfig | InputData;
  /** The Task the caller observed, for bare bundles (`--task`). */
  readonly task?: InputData;
  /** The first Task returned by SendMessage (`--first-task`). */
  readonly firstTask?: InputData;
  /** CLL checkpoints seen before (`--checkpoints`), compared with the inputs' to find a forked log. */
  readonly checkpoints?: readonly Checkpoint[];
}

export type { InputData } from "./input/data.js";

/** Runs the properties, the level and the policy over one input's evidence. */
export function verifyEvidence(source: string, evidence: Evidence, trust: TrustConfig | undefined, options: VerifyOptions & Policy): VerifiedInput {
  const ctx = new EvidenceContext(evidence, trust, options);
  const properties = runProperties(ctx);
  const evidenceLevel = levelReport(ctx, properties);
  const decision = decidePolicy(properties, evidenceLevel, options, {
    producersPinned: (trust?.producers.size ?? 0) > 0,
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
    notes: [...evidence.notes, ...carrierNotes(evidence)],
    exitCode: decision.exitCode,
    reasons: decision.reasons,
  };
}

function carrierNotes(evidence: Evidence): string[] {
  const primary = evidence.bundles[0];
  if (primary && (primary.carrier === "data" || primary.carrier === "inline")) {
    return [`${primary.location}: bundle reconstructed from a structured carrier (${primary.carrier}); numeric lexemes may not be the producer's`];
  }
  return [];
}

/** What an unexpected exception becomes: a typed error, never a throw (contract §9.21). */
function internalError(e: unknown): Failure {
  return fail("VERIFY_INTERNAL_ERROR", `the verifier failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`);
}

function guarded<T>(f: () => Result<T>): Result<T> {
  try {
    return f();
  } catch (e) {
    return internalError(e);
  }
}

/** A --cosignatures file is read once for the run: unusable, nothing is verified (exit 2). */
function parseCosignatures(data: InputData): Result<unknown> {
  const v = toJsonValue(data);
  if (!v.ok) return v;
  return parseCosignatureFile(v.value);
}

function containedLoad(source: string, f: () => Evidence | InputReport): Evidence | InputReport {
  try {
    return f();
  } catch (e) {
    return failedInput(source, internalError(e));
  }
}

function isEvidence(e: Evidence | InputReport): e is Evidence {
  return "bundles" in e;
}

/** One input's report, whatever happens: one bad input never hides the others' reports. */
function contained(source: string, f: () => InputReport): InputReport {
  try {
    return f();
  } catch (e) {
    return failedInput(source, internalError(e));
  }
}

/**
 * The library entry point: the same report the CLI prints. Never throws on bad input: an
 * unusable trust file or observed Task yields a report whose policy exit code is 2 and whose
 * `error` says why.
 */
export function verify(request: VerifyRequest): Report {
  const policy = { require: [...(request.require ?? [])], minEvidence: request.minEvidence ?? null };
  const trust = guarded(() => resolveTrust(request.trust));
  if (!trust.ok) return errorReport(policy, { ...failedInput("", trust).error, source: "trust" });
  const caller = guarded(() => loadCallerObservation(request.task, request.firstTask));
  if (!caller.ok) {
    const source = (caller as { readonly source?: ObservationSource }).source;
    return errorReport(policy, { ...failedInput("", caller).error, ...(source ? { source } : {}) });
  }
  const options = {
    require: policy.require,
    ...(request.minEvidence !== undefined ? { minEvidence: request.minEvidence } : {}),
    ...(request.authority !== undefined ? { authority: request.authority } : {}),
    ...(request.tenant !== undefined ? { tenant: request.tenant } : {}),
    ...(request.cosignatures !== undefined ? { cosignatures: request.cosignatures } : {}),
    ...(request.at !== undefined ? { at: request.at } : {}),
  };
  const cosignatures = request.cosignatures === undefined ? undefined : guarded(() => parseCosignatures(request.cosignatures as InputData));
  if (cosignatures && !cosignatures.ok) return errorReport(policy, { ...failedInput("", cosignatures).error, source: "--cosignatures" });
  // Load every input first: whether a log forked is a fact about all of them together.
  const loaded = request.inputs.map((i): Evidence | InputReport => {
    if (i.data === undefined) return failedInput(i.source, { code: "INPUT_UNREADABLE", detail: i.readError ?? "no input data" });
    const data = i.data;
    return containedLoad(i.source, () => {
      const value = toInputValue(data);
      if (!value.ok) return failedInput(i.source, value);
      const evidence = loadEvidence(value.value, caller.value);
      return evidence.ok ? evidence.value : failedInput(i.source, evidence);
    });
  });
  const crossInput = crossInputFindings(request.inputs.map((i) => i.source), loaded, request.checkpoints ?? [], trust.value);
  const inputs = loaded.map((e, k): InputReport => {
    const source = request.inputs[k]?.source ?? "";
    if (!isEvidence(e)) return e;
    const findings = crossInput?.[k];
    return contained(source, () => verifyEvidence(source, e, trust.value, findings ? { ...options, crossInput: findings } : options));
  });
  return { reportVersion: 1, tool: TOOL, inputs, policy: { ...policy, exitCode: combinedExitCode(inputs.map((i) => i.exitCode)) } };
}
