/**
 * One verification run, input by input: what `verify()` does for a list of inputs held in memory,
 * and what the CLI does for a stream of files it reads, verifies, prints and releases one at a time
 * (so a run over thousands of inputs keeps its memory flat). The run's own material — trust file,
 * the caller's observation, cosignatures — is loaded once, when the run opens. Pure: no files,
 * clock or network; every input's data is handed in.
 *
 * Whether a log forked is a fact about all inputs together, so a run over several inputs first
 * takes a sighting of each (its checkpoints), compares them, and then verifies each with what the
 * comparison found for it.
 */
import { fail, type Failure, type Result } from "./result.js";
import { toJsonValue, type InputData } from "./input/data.js";
import { toInputValue } from "./input/decode.js";
import {
  loadCallerObservation,
  loadEvidence,
  type Evidence,
  type Observation,
  type ObservationSource,
} from "./input/load.js";
import { resolveTrust, type TrustConfig } from "./trust/config.js";
import type { Checkpoint } from "./log/checkpoint.js";
import { crossInputFindings, sightingOf, withCrossInput } from "./properties/continuity/cross-input.js";
import type { VerifyOptions } from "./evidence/context.js";
import { parseCosignatureFile, type CosignatureFile } from "./witness/evidence.js";
import { StatementPool, fileStatements, pinnedWitnessKeys, type WitnessStatement } from "./witness/pool.js";
import type { CrossInputFindings, InputCheckpoints, RegistrationFork } from "./witness/equivocation.js";
import { withRegistrationForks } from "./properties/external-registration.js";
import type { PropertyResult } from "./properties/shared/types.js";
import type { Policy } from "./policy.js";
import { failedInput, isFailedInput, type InputError, type InputReport, type PolicyReport } from "./report/model.js";
import { verifyEvidence } from "./verify-input.js";

/** Everything a run takes besides its inputs. */
export interface RunRequest extends VerifyOptions, Policy {
  /** The trust configuration: already loaded, or the trust file's bytes/value. */
  readonly trust?: TrustConfig | InputData;
  /** The Task the caller observed, for bare bundles (`--task`). */
  readonly task?: InputData;
  /** The first Task returned by SendMessage (`--first-task`). */
  readonly firstTask?: InputData;
  /** CLL checkpoints seen before (`--checkpoints`), compared with the inputs' to find a forked log. */
  readonly checkpoints?: readonly Checkpoint[];
  /** Interim records sealed at the Task's pauses, or the paused Tasks that carry them (`--interim`). */
  readonly interim?: readonly InputData[];
}

/** One input as a caller hands it in: its data, or why it could not be read. */
export interface InputItem {
  readonly source: string;
  readonly data?: InputData;
  readonly readError?: string;
}

export interface Run {
  readonly policy: Omit<PolicyReport, "exitCode">;
  /** Loads an input: its Evidence, or the report of an input that cannot be verified. */
  load(item: InputItem): Evidence | InputReport;
  /** What the input shows of its logs, for the comparison across inputs. */
  sighting(source: string, loaded: Evidence | InputReport): InputCheckpoints | undefined;
  /** Every input's findings, in order; undefined when there is nothing to compare. */
  compare(
    sightings: readonly (InputCheckpoints | undefined)[],
  ): readonly (CrossInputFindings | undefined)[] | undefined;
  /** The input's report, with its findings from the comparison. Never throws. */
  verify(source: string, loaded: Evidence | InputReport, findings?: CrossInputFindings): InputReport;
  /**
   * A report `verify` gave without findings, completed with the input's findings: the very report
   * `verify` gives with them, or undefined when only verifying again gives it. The comparison
   * adds one check to continuity; only a fork changes the property's state, and with it what the
   * properties after it, the level and the policy say.
   */
  settle(report: InputReport, findings?: CrossInputFindings): InputReport | undefined;
}

export type Opened =
  | { readonly ok: true; readonly run: Run }
  | { readonly ok: false; readonly policy: Run["policy"]; readonly error: InputError };

/** What an unexpected exception becomes: a typed error, never a throw (contract §9.21). */
function internalError(e: unknown): Failure {
  return fail(
    "VERIFY_INTERNAL_ERROR",
    `the verifier failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`,
  );
}

function guarded<T>(f: () => T, source: string): T | InputReport {
  try {
    return f();
  } catch (e) {
    return failedInput(source, internalError(e));
  }
}

function guardedResult<T>(f: () => Result<T>): Result<T> {
  try {
    return f();
  } catch (e) {
    return internalError(e);
  }
}

function isEvidence(e: Evidence | InputReport): e is Evidence {
  return "bundles" in e;
}

/** A --cosignatures file is read once for the run: unusable, nothing is verified (exit 2). */
function parseCosignatures(data: InputData): Result<CosignatureFile> {
  const v = toJsonValue(data);
  return v.ok ? parseCosignatureFile(v.value) : v;
}

/** Loads the run's material; a trust file, observation or cosignatures file that cannot be used stops the run. */
export function openRun(request: RunRequest): Opened {
  const policy = {
    require: [...(request.require ?? [])],
    minEvidence: request.minEvidence ?? null,
    ...(request.acceptUncommittedParts === true ? { acceptUncommittedParts: true as const } : {}),
  };
  const trust = guardedResult(() => resolveTrust(request.trust));
  if (!trust.ok) return { ok: false, policy, error: { ...failedInput("", trust).error, source: "trust" } };
  const caller = guardedResult(() => loadCallerObservation(request.task, request.firstTask, request.interim));
  if (!caller.ok) {
    const source = (caller as { readonly source?: ObservationSource }).source;
    return { ok: false, policy, error: { ...failedInput("", caller).error, ...(source ? { source } : {}) } };
  }
  let file: CosignatureFile | undefined;
  if (request.cosignatures !== undefined) {
    const cosignatures = guardedResult(() => parseCosignatures(request.cosignatures as InputData));
    if (!cosignatures.ok)
      return { ok: false, policy, error: { ...failedInput("", cosignatures).error, source: "--cosignatures" } };
    file = cosignatures.value;
  }
  const options: VerifyOptions & Policy = {
    require: policy.require,
    ...(request.minEvidence !== undefined ? { minEvidence: request.minEvidence } : {}),
    ...(request.authority !== undefined ? { authority: request.authority } : {}),
    ...(request.tenant !== undefined ? { tenant: request.tenant } : {}),
    ...(request.cosignatures !== undefined ? { cosignatures: request.cosignatures } : {}),
    ...(request.at !== undefined ? { at: request.at } : {}),
    ...(request.resolved !== undefined ? { resolved: request.resolved } : {}),
    ...(request.acceptUncommittedParts === true ? { acceptUncommittedParts: true } : {}),
  };
  return { ok: true, run: runOf(policy, trust.value, caller.value, options, request.checkpoints ?? [], file) };
}

/**
 * externalRegistration completed with a service's forks across inputs, or undefined when only
 * verifying again gives it: a fork FAILs the property, so only one that FAILs already keeps its
 * state, its detail, and with them the level and the policy.
 */
function settledRegistration(
  before: PropertyResult,
  forks: readonly RegistrationFork[] | undefined,
): PropertyResult | undefined {
  if (forks === undefined) return before;
  if (before.state !== "FAIL") return undefined;
  const after = withRegistrationForks(before, forks);
  return after.detail === before.detail ? after : undefined;
}

/** The --cosignatures file's verified lines, verified once for the run and only when asked for. */
function fileWitnessLines(file: CosignatureFile | undefined, trust: TrustConfig | undefined) {
  let lines: WitnessStatement[] | undefined;
  let pool: StatementPool | undefined;
  const statements = () => (lines ??= file ? fileStatements(file, pinnedWitnessKeys(trust?.witnesses)) : []);
  return { statements, pool: () => (pool ??= new StatementPool().add(statements())) };
}

function runOf(
  policy: Run["policy"],
  trust: TrustConfig | undefined,
  observation: Observation,
  given: VerifyOptions & Policy,
  seen: readonly Checkpoint[],
  file?: CosignatureFile,
): Run {
  const witnessLines = fileWitnessLines(file, trust);
  const options = { ...given, cosignaturePool: witnessLines.pool };
  return {
    policy,
    load(item) {
      const { source, data } = item;
      if (data === undefined)
        return failedInput(source, { code: "INPUT_UNREADABLE", detail: item.readError ?? "no input data" });
      return guarded(() => {
        const value = toInputValue(data);
        if (!value.ok) return failedInput(source, value);
        const evidence = loadEvidence(value.value, observation);
        return evidence.ok ? evidence.value : failedInput(source, evidence);
      }, source);
    },
    sighting(source, loaded) {
      if (!isEvidence(loaded)) return undefined;
      const s = guarded(() => sightingOf(source, loaded, trust), source);
      return s !== undefined && "source" in s && "error" in s ? undefined : (s as InputCheckpoints | undefined);
    },
    compare: (sightings) => crossInputFindings(sightings, seen, trust, witnessLines.statements()),
    verify(source, loaded, findings) {
      if (!isEvidence(loaded)) return loaded;
      return guarded(
        () => verifyEvidence(source, loaded, trust, findings ? { ...options, crossInput: findings } : options),
        source,
      );
    },
    settle(report, findings) {
      if (findings === undefined) return report;
      // Only an input that loaded has findings; one whose verification failed is tried again.
      if (isFailedInput(report)) return undefined;
      // A witness that equivocated elsewhere no longer counts here: only verifying again says where.
      if (findings.witnesses !== undefined) return undefined;
      const before = report.properties.continuity;
      // Continuity takes findings only when it is judged: under an extension version or record
      // profile this verifier does not implement, the registry reports it NOT_CHECKED with its
      // one stand-in check and no finding. Its own rules never give that shape, so an input that
      // shows it is verified again rather than trusted to be either.
      if (before.state === "NOT_CHECKED" && before.checks.every((c) => c.id === "witness.assertion")) return undefined;
      const continuity = guarded(() => withCrossInput(before, findings), report.source);
      if (!("checks" in continuity) || continuity.state !== before.state || continuity.detail !== before.detail)
        return undefined;
      const registration = settledRegistration(report.properties.externalRegistration, findings.registration);
      if (registration === undefined) return undefined;
      return { ...report, properties: { ...report.properties, continuity, externalRegistration: registration } };
    },
  };
}
