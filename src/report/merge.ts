/**
 * Combining the JSON reports of one run's shards (`verify --shard i/n`) into the report of the
 * whole run: each input back in its place in the whole run's order, the summary and the exit code
 * of the whole run. Reports of different runs are refused: another tool version, policy, shard
 * count, list of inputs, trust file or observation (the `shard` member's digests). One report of
 * a whole run (no `shard` member) can be merged alone: it is written again, in another format.
 *
 * The exit code of the combined run is the worst of its inputs' and of a shard that could not
 * start (2): 1 > 2 > 3 > 0, so a FAIL is never hidden behind "could not run".
 */
import type { ExitCode } from "../policy.js";
import type { InputError, InputReport, Report, ShardReport } from "./model.js";
import { summarize } from "./summary.js";

export interface GivenReport {
  /** The file it was read from, as the caller named it. */
  readonly file: string;
  readonly report: Report;
}

export type Merged =
  | { readonly ok: true; readonly report: Report; readonly missing: readonly number[] }
  | { readonly ok: false; readonly message: string };

/** The worst exit code: 1 > 2 > 3 > 0. */
export function worstExit(codes: Iterable<ExitCode>): ExitCode {
  let worst: ExitCode = 0;
  const rank = (c: ExitCode) => [0, 3, 2, 1].indexOf(c);
  for (const c of codes) if (rank(c) > rank(worst)) worst = c;
  return worst;
}

const show = (v: unknown) => (v === undefined ? "none" : JSON.stringify(v));

/** What makes `b` a report of another run than `a`, if anything. */
function difference(a: Report, b: Report): string | undefined {
  const sa = a.shard as ShardReport;
  const sb = b.shard as ShardReport;
  const pairs: [string, unknown, unknown][] = [
    ["the tool version", a.tool.version, b.tool.version],
    ["the required properties (--require)", a.policy.require, b.policy.require],
    ["the minimum evidence level (--min-evidence)", a.policy.minEvidence, b.policy.minEvidence],
    ["the shard count", sa.count, sb.count],
  ];
  if (sa.digests && sb.digests) {
    pairs.push(
      ["the number of inputs", sa.total, sb.total],
      ["the list of inputs", sa.digests.inputs, sb.digests.inputs],
      ["the trust file", sa.digests.trust, sb.digests.trust],
      [
        "what the run was given (--task, --first-task, --interim, --authority, --tenant, --at, --cosignatures, --checkpoints)",
        sa.digests.context,
        sb.digests.context,
      ],
    );
  }
  for (const [what, x, y] of pairs) {
    if (JSON.stringify(x) !== JSON.stringify(y)) return `${what} differs (${show(y)} here, ${show(x)} there)`;
  }
  return undefined;
}

/** The reports by shard index, once each, all of one run; or why not. */
function byShard(given: readonly GivenReport[]): Map<number, GivenReport> | string {
  const whole = given.find((g) => g.report.shard === undefined);
  if (whole && given.length > 1)
    return `${whole.file} is the report of a whole run (verify without --shard): it can only be merged alone`;
  const slots = new Map<number, GivenReport>();
  if (whole) return slots.set(1, whole);
  // Compared with a report that has the digests (a shard that could not start has none), so two
  // reports of different runs are never let through by one beside them that cannot tell.
  const first = given.find((g) => g.report.shard?.digests !== undefined) ?? (given[0] as GivenReport);
  for (const g of given) {
    const why = g === first ? undefined : difference(first.report, g.report);
    if (why !== undefined) return `${g.file} is not of the same run as ${first.file}: ${why}`;
    const { index, count } = g.report.shard as ShardReport;
    const twice = slots.get(index);
    if (twice) return `shard ${index}/${count} is given twice: ${twice.file} and ${g.file}`;
    slots.set(index, g);
  }
  return slots;
}

/** Each input at its place in the whole run; an input two shards both report must be the same. */
function place(shards: readonly GivenReport[]): InputReport[] | string {
  const at = new Map<number, { input: InputReport; file: string; text: string }>();
  for (const g of shards) {
    const positions = g.report.shard?.positions ?? [];
    for (const [k, input] of g.report.inputs.entries()) {
      // A whole run's report (merged alone) has no positions: its inputs are in the run's order.
      const p = positions[k] ?? k;
      const text = JSON.stringify(input);
      const seen = at.get(p);
      if (seen && seen.text !== text)
        return `${seen.file} and ${g.file} disagree about input ${p + 1} of the run (${seen.input.source}, at shard.positions[${k}])`;
      if (!seen) at.set(p, { input, file: g.file, text });
    }
  }
  return [...at.keys()].sort((x, y) => x - y).map((p) => (at.get(p) as { input: InputReport }).input);
}

/** With every shard given and run, each of the run's inputs is in some shard's report. */
function uncovered(shards: readonly GivenReport[], inputs: number): string | undefined {
  const shard = shards[0]?.report.shard;
  if (shard?.total === undefined || shards.some((g) => g.report.shard?.positions === undefined)) return undefined;
  if (shards.length === shard.count && inputs !== shard.total)
    return `the shards' reports hold ${inputs} of the run's ${shard.total} inputs (shard.positions)`;
  return undefined;
}

/** The report of the whole run; shards not given are an error unless `allowMissing`. */
export function mergeReports(given: readonly GivenReport[], allowMissing: boolean): Merged {
  if (given.length === 0) return { ok: false, message: "no report to merge" };
  const slots = byShard(given);
  if (typeof slots === "string") return { ok: false, message: slots };
  const first = (given[0] as GivenReport).report;
  const count = first.shard?.count ?? 1;
  const missing = Array.from({ length: count }, (_v, k) => k + 1).filter((i) => first.shard && !slots.has(i));
  if (missing.length > 0 && !allowMissing)
    return {
      ok: false,
      message: `the report of shard ${missing.map((i) => `${i}/${count}`).join(", ")} is missing: give every shard's report (or --allow-missing to combine those given)`,
    };
  const ordered = first.shard ? [...slots.keys()].sort((x, y) => x - y).map((i) => slots.get(i) as GivenReport) : given;
  const inputs = place(ordered);
  if (typeof inputs === "string") return { ok: false, message: inputs };
  const gap = uncovered(ordered, inputs.length);
  if (gap !== undefined) return { ok: false, message: gap };
  const error: InputError | undefined = ordered.find((g) => g.report.error !== undefined)?.report.error;
  const exitCode = worstExit([...inputs.map((i) => i.exitCode), ...(error ? [2 as const] : [])]);
  const report: Report = {
    reportVersion: 1,
    tool: first.tool,
    inputs,
    policy: { require: first.policy.require, minEvidence: first.policy.minEvidence, exitCode },
    ...(inputs.length > 1 ? { summary: summarize(inputs).summary() } : {}),
    ...(error ? { error } : {}),
  };
  return { ok: true, report, missing };
}
