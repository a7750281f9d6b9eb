/**
 * The report: one entry per input, one result per property, each with the checks that decided
 * it. There is deliberately no aggregate "trusted" field anywhere.
 *
 * This file is the report's data shape, shared by the verify stage that builds it and the
 * renderers that print it.
 */
import type { FailureCode } from "../codes/index.js";
import type { EvidenceLevelOrNone } from "../profile.js";
import type { InputShape } from "../input/classify.js";
import type { PropertyName, Properties } from "../properties/index.js";
import type { EvidenceLevelReport } from "../level.js";
import type { State } from "../properties/shared/types.js";
import type { ExitCode, InputExitCode } from "../policy.js";
import { TOOL_VERSION } from "../version.js";

export { STATES, type State, type Check, type PropertyResult } from "../properties/shared/types.js";
export { PROPERTY_NAMES, type PropertyName, type Properties } from "../properties/index.js";
export type { EvidenceLevelReport } from "../level.js";

export interface InputError {
  readonly code: FailureCode | "USAGE";
  readonly message: string;
  readonly path?: string;
  /** For a report-level error: which of the caller's files it is about. */
  readonly source?: "trust" | "--task" | "--first-task" | "--cosignatures" | "--interim" | "--resolved" | "--at";
}

export interface VerifiedInput {
  readonly source: string;
  readonly shape: InputShape;
  readonly locations: readonly string[];
  readonly recordProfile: string | null;
  readonly evidenceId: string | null;
  readonly properties: Properties;
  readonly evidenceLevel: EvidenceLevelReport;
  /** Observations about the input that decide nothing (carrier notes, enum numbers, ignored members). */
  readonly notes: readonly string[];
  /** This input's exit code under the policy (0, 1 or 3). */
  readonly exitCode: InputExitCode;
  /** Every reason the policy does not hold for this input; empty when the exit code is 0. */
  readonly reasons: readonly string[];
}

/**
 * An input that could not be verified (exit 2), or a Task that has not ended, whose evidence is
 * PENDING (`INPUT_EVIDENCE_PENDING`, exit 3: nothing failed, the policy cannot hold yet).
 */
export interface FailedInput {
  readonly source: string;
  readonly error: InputError;
  readonly exitCode: 2 | 3;
}

export type InputReport = VerifiedInput | FailedInput;

export interface PolicyReport {
  /** The properties the caller required with --require (the default two are always required too). */
  readonly require: readonly PropertyName[];
  /** The caller's --min-evidence, or null for the default: the negotiated minimum, else SIGNED_RECORD. */
  readonly minEvidence: EvidenceLevelOrNone | null;
  /** Present (true) only when the caller passed --insecure-accept-uncommitted-parts. */
  readonly acceptUncommittedParts?: true;
  readonly exitCode: ExitCode;
}

/**
 * What a report of one shard of a run (`verify --shard i/n`) says of the run it is a part of, so
 * `merge` can refuse to combine parts of different runs and put each input back in its place.
 * Only a sharded run's report carries it: the report of a whole run stays as it was.
 */
export interface ShardReport {
  readonly index: number;
  readonly count: number;
  /** How many inputs the whole run has (absent when the run could not start). */
  readonly total?: number;
  /** Where each of this report's inputs stands among the whole run's, from 0, in the report's order. */
  readonly positions?: readonly number[];
  /** What defines the run, beside the tool and the policy (absent when the run could not start). */
  readonly digests?: {
    /** The whole run's list of inputs, in order (the paths, and the arguments that could not be expanded). */
    readonly inputs: string;
    /** The trust file's bytes; null when no trust file was given. */
    readonly trust: string | null;
    /** Everything else the caller gave: --task, --first-task, --interim, --authority, --tenant, --at, --cosignatures, --checkpoints. */
    readonly context: string;
  };
}

/** For a run over several inputs: how many ended in each exit class, how many reached each state of each property. */
export interface Summary {
  readonly inputs: number;
  readonly exitCodes: Readonly<Record<"0" | "1" | "2" | "3", number>>;
  readonly properties: Readonly<Record<PropertyName, Readonly<Record<State, number>>>>;
}

export interface Report {
  readonly reportVersion: 1;
  readonly tool: { readonly name: "a2a-evidence"; readonly version: string };
  /** For a report of one shard of a run: which, and of what run. */
  readonly shard?: ShardReport;
  readonly inputs: readonly InputReport[];
  readonly policy: PolicyReport;
  /** For a run over several inputs: how many ended in each exit class, each property's states. */
  readonly summary?: Summary;
  /** Why nothing could be verified (invalid trust file, unusable --task), when that is the case. */
  readonly error?: InputError;
}

export function isFailedInput(r: InputReport): r is FailedInput {
  return "error" in r;
}

export const TOOL = { name: "a2a-evidence", version: TOOL_VERSION } as const;

/** The report entry of an input that could not be verified (exit 2), or whose evidence is pending (exit 3). */
export function failedInput(
  source: string,
  error: { code: InputError["code"]; detail: string; path?: string },
): FailedInput {
  return {
    source,
    error:
      error.path !== undefined
        ? { code: error.code, message: error.detail, path: error.path }
        : { code: error.code, message: error.detail },
    exitCode: error.code === "INPUT_EVIDENCE_PENDING" ? 3 : 2,
  };
}

/** A report in which nothing could be verified: the trust file or the observation is unusable. */
export function errorReport(policy: Omit<PolicyReport, "exitCode">, error: InputError): Report {
  return { reportVersion: 1, tool: TOOL, inputs: [], policy: { ...policy, exitCode: 2 }, error };
}

/** The report with the shard it is of, in the report's member order (after `tool`). */
export function withShard(report: Report, shard: ShardReport | undefined): Report {
  if (shard === undefined) return report;
  const { reportVersion, tool, ...rest } = report;
  return { reportVersion, tool, shard, ...rest };
}

/** The closing summary of a run over several inputs (report/summary.ts counts it). */
export interface Summary {
  readonly inputs: number;
  readonly exitCodes: Readonly<Record<"0" | "1" | "2" | "3", number>>;
  readonly properties: Readonly<Record<PropertyName, Readonly<Record<State, number>>>>;
}
