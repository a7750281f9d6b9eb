/**
 * The verification path, one stage per module:
 *
 *   bytes ─parse─► JSON ─input/─► Evidence ─properties/─► results ─level─► levels ─policy─► exit + reasons
 *
 * Pure and deterministic: no files, no clock, no network. The CLI reads files and streams them
 * through the same run (src/run.ts); a library caller gets exactly the same report
 * object. Never throws on bad input: an unusable input, trust file or observed Task is reported,
 * with exit code 2.
 */
import {
  drive,
  holdReports,
  localPasses,
  memoryStore,
  openRun,
  runSync,
  type InputItem,
  type RunRequest,
} from "./run.js";
import { combinedExitCode } from "./policy.js";
import { TOOL, errorReport, type InputReport, type PolicyReport, type Report } from "./report/model.js";
import { summarize } from "./report/summary.js";

export interface VerifyRequest extends RunRequest {
  /** The inputs; one the caller could not read is passed with `readError` and reported as exit 2. */
  readonly inputs: readonly InputItem[];
}

export type { InputData } from "./input/data.js";
export type { InputItem, RunRequest } from "./run.js";

/** The report of a run, from its policy and its inputs' reports. */
export function assembleReport(policy: Omit<PolicyReport, "exitCode">, inputs: readonly InputReport[]): Report {
  const report = {
    reportVersion: 1 as const,
    tool: TOOL,
    inputs,
    policy: { ...policy, exitCode: combinedExitCode(inputs.map((i) => i.exitCode)) },
  };
  return inputs.length > 1 ? { ...report, summary: summarize(inputs).summary() } : report;
}

/**
 * The library entry point: the same report the CLI prints. Never throws on bad input: an
 * unusable trust file or observed Task yields a report whose policy exit code is 2 and whose
 * `error` says why.
 */
export function verify(request: VerifyRequest): Report {
  const opened = openRun(request);
  if (!opened.ok) return errorReport(opened.policy, opened.error);
  const { run } = opened;
  const items = request.inputs;
  const inputs: InputReport[] = [];
  const plan = {
    count: items.length,
    own: items.map((_i, k) => k),
    // A log forked is a fact about several inputs (or the checkpoints seen before): one alone has nothing to compare.
    compare: items.length > 1 || (request.checkpoints?.length ?? 0) > 0,
  };
  // The inputs are in memory already: each is verified as it is sighted, and its report is held
  // until the comparison completes it (or, where only verifying again can, it is verified again).
  const passes = localPasses(run, (k) => items[k], holdReports(run, memoryStore()));
  runSync(drive(run, passes, plan, (_k, report) => void inputs.push(report)));
  return assembleReport(run.policy, inputs);
}
