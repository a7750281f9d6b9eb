/**
 * `a2a-evidence verify`: reads the inputs, the trust file and the caller's observation, drives the
 * run's passes over the inputs (run.ts: the same driver `verify()` and the worker threads use),
 * renders the report in the chosen format and returns the policy's exit code.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { renderGithubSummary } from "../report/github.js";
import { Option, type Command } from "commander";
import {
  errorReport,
  failedInput,
  type InputReport,
  type Report,
  type ShardReport,
  withShard,
} from "../report/model.js";
import { FORMAT_NAMES, isTextFormat, render, streamingRenderer } from "../report/index.js";
import { Tally } from "../report/summary.js";
import type { RenderOptions } from "../report/options.js";
import { makeStyle } from "../report/style.js";
import { TEXT_WIDTH } from "../report/text.js";
import { assembleReport } from "../verify.js";
import {
  drive,
  HOLD_NOTHING,
  holdReports,
  localPasses,
  runAsync,
  withoutChecks,
  type InputItem,
  type Run,
} from "../run.js";
import { expandInputs, inShard, Skips, type Expanded } from "./inputs.js";
import { Progress } from "./progress.js";
import { ReportSpool } from "./spool.js";
import type { JobPool } from "./jobs.js";
import { readItem } from "./read-item.js";
import { DEFAULT_MIN_EVIDENCE } from "../policy.js";
import { shardReport } from "./shard-run.js";
import { printable } from "../util/printable.js";
import { addContinuityOptions } from "./continuity-flags.js";
import { explanationOf } from "./inspect.js";
import {
  onlyOnce,
  overwriteMessage,
  readFileAt,
  UsageError,
  wrapHelp,
  type CliIo,
  type CommandContext,
  type CommandHost,
} from "./io.js";
import { AT_HELP } from "./at-option.js";
import { addObservationOptions, OBSERVATION_ONCE } from "./observation-options.js";
import { ErrorSummary, errorLine, nameOf } from "./error-summary.js";
import { openSink, writeOut, type Sink } from "./sink.js";
import {
  checkFlags,
  errorSource,
  forWorkers,
  given,
  MIN_LEVELS,
  readMaterial,
  type Checked,
  type Material,
  type VerifyFlags,
} from "./verify-setup.js";

async function runVerify(args: string[], flags: VerifyFlags, io: CliIo, host: CommandHost): Promise<number> {
  const checked = checkFlags(args, flags, io);
  const material = await readMaterial(flags, checked);
  if (typeof material === "string") {
    io.stderr(`a2a-evidence: ${printable(material)}\n`);
    return 2;
  }
  // Said once (contract §9.38): a text report on stdout carries every error; a one-line summary
  // goes to stderr when the report is for a tool, goes to a file or is not written.
  const sayErrors = Boolean(flags.quiet) || flags.output !== undefined || !isTextFormat(flags.format);
  const color =
    isTextFormat(flags.format) && flags.color && flags.output === undefined && io.stdoutIsTTY && !io.env.NO_COLOR;
  // The text report fits the terminal it is shown on, else 100 columns (contract §9.37).
  const width = flags.output === undefined && io.stdoutIsTTY && io.stdoutColumns ? io.stdoutColumns : TEXT_WIDTH;
  const options = { verbose: Boolean(flags.verbose), style: makeStyle(color), width };
  const { opened } = material;
  if (!opened.ok) {
    const named = errorSource(opened, checked, flags);
    if (sayErrors) io.stderr(errorLine(named, opened.error));
    return writeWhole(withShard(errorReport(opened.policy, opened.error), checked.shard), flags, io, options, named);
  }
  const plan = await planInputs(args, flags, checked, material, io);
  return verifyInputs({ flags, io, host, checked, material, run: opened.run, plan, options, sayErrors });
}

/** The inputs of a run: those it verifies and, with --shard, the others it compares them with. */
interface InputPlan {
  readonly expanded: Expanded;
  /** The inputs compared, in the whole run's order. */
  readonly compared: readonly string[];
  /** The places among them of the inputs this run verifies and reports. */
  readonly own: readonly number[];
  readonly shardMember: ShardReport | undefined;
}

async function planInputs(
  args: readonly string[],
  flags: VerifyFlags,
  checked: Checked,
  material: Material,
  io: CliIo,
): Promise<InputPlan> {
  const { shard, configuration } = checked;
  const expanded = await expandInputs([...args], [...configuration, flags.output]);
  const clobbered =
    flags.output === undefined ? undefined : readFileAt(flags.output, [...expanded.paths, ...configuration]);
  if (clobbered !== undefined && flags.output !== undefined)
    throw new UsageError(overwriteMessage("-o", flags.output, clobbered));
  // Where each of this shard's inputs stands among all of them.
  const positions: number[] = [];
  expanded.paths.forEach((p, j) => {
    if (!shard || inShard(p, shard)) positions.push(j);
  });
  const shardMember = shard && shardReport(shard, expanded, positions, given(material));
  if (shard && positions.length === 0 && expanded.errors.length === 0 && !flags.quiet) {
    io.stderr(
      `a2a-evidence: shard ${shard.index}/${shard.count} holds none of the ${expanded.paths.length} inputs; nothing verified\n`,
    );
  }
  // The other shards' inputs are not verified here, but their checkpoints are compared with this
  // shard's, in the whole run's order: a log forked between two inputs is found whichever shards
  // they fall in, and each input's report is what the whole run says of it.
  if (shard && positions.length > 0) return { expanded, compared: expanded.paths, own: positions, shardMember };
  const compared = positions.map((j) => expanded.paths[j] as string);
  return { expanded, compared, own: compared.map((_p, k) => k), shardMember };
}

interface Verifying {
  readonly flags: VerifyFlags;
  readonly io: CliIo;
  readonly host: CommandHost;
  readonly checked: Checked;
  readonly material: Material;
  readonly run: Run;
  readonly plan: InputPlan;
  readonly options: RenderOptions;
  readonly sayErrors: boolean;
}

/**
 * Drives the run's passes over the inputs. A log forked is a fact about every input together:
 * with several, each input is verified as its checkpoints are looked at and its report waits in
 * the spool (in worker threads, in each worker's), the checkpoints are compared, then each report
 * is completed with what was found and written; an input is read and verified again only where
 * its report cannot be completed (a fork) or was not kept (--explain explains the bytes it reports).
 */
async function verifyInputs(v: Verifying): Promise<number> {
  const { flags, io, host, run, plan } = v;
  const { compared, own } = plan;
  const paths = own.map((k) => compared[k] as string);
  const compare = compared.length > 1 || v.material.request.checkpoints !== undefined;
  const named = compared.map((path) => ({ path, source: nameOf(path) }));
  // Worker threads read files themselves: standard input stays with the main thread.
  // The text report without -v shows no check: the reports that wait for the comparison need none.
  const showsChecks = !isTextFormat(flags.format) || Boolean(flags.verbose);
  const workerEntry =
    v.checked.jobs > 1 && paths.length > 1 && !compared.includes("-") && !flags.explain ? host.workerEntry : undefined;
  if (workerEntry !== undefined || compared.length > SUSTAINED_INPUTS) host.sustained?.();
  if (workerEntry === undefined && compared.length > SUSTAINED_INPUTS) host.manyInputs?.();
  const pool: JobPool | undefined =
    workerEntry !== undefined
      ? new (await import("./jobs.js")).JobPool(workerEntry, v.checked.jobs, forWorkers(v.material), named, showsChecks)
      : undefined;
  const progress = new Progress(io, paths.length + plan.expanded.errors.length, Boolean(flags.quiet));
  let spool: ReportSpool | undefined;
  let sink: Sink | undefined;
  // Whatever ends the run (an output that cannot be opened, a writer that throws), the spool's
  // file is closed and the worker threads are stopped: a live worker keeps the process running.
  try {
    const streaming = streamingRenderer(flags.format, v.options);
    const out = streaming ? openSink(flags, io) : undefined;
    if (typeof out === "string") {
      io.stderr(out);
      return 2;
    }
    sink = out;
    spool = compare && !pool && !flags.explain ? ReportSpool.open() : undefined;
    const passes =
      pool?.passes() ??
      localPasses(
        run,
        (k) => readSustaining(named[k]?.path ?? "", named[k]?.source ?? "", host),
        spool ? holdReports(run, spool, showsChecks ? undefined : withoutChecks) : HOLD_NOTHING,
      );
    const output = new RunOutput(v, paths, progress, out);
    const looked = pool || spool ? "verifying" : "comparing checkpoints";
    const steps = drive(
      run,
      passes,
      {
        count: compared.length,
        own,
        compare,
        onSighted: () => progress.tick(looked),
        beforeReports: () => output.start(),
      },
      (_k, report, item) => output.emit(report, item),
    );
    await runAsync(steps);
    await pool?.close();
    return await output.finish();
  } finally {
    spool?.close();
    // An -o file is closed however the run ends (a writer that throws included), not left open.
    sink?.close();
    await pool?.close();
  }
}

/** Runs over more inputs than this, or an input of this many bytes, are sustained (CommandHost.sustained). */
const SUSTAINED_INPUTS = 32;
const SUSTAINED_BYTES = 1 << 20;

/** Reads an input; a large one tells the host the run is sustained. */
async function readSustaining(path: string, source: string, host: CommandHost): Promise<InputItem> {
  const item = await readItem(path, source);
  if (item.data instanceof Uint8Array && item.data.length >= SUSTAINED_BYTES) host.sustained?.();
  return item;
}

/** The report as the run writes it: streamed input by input, or held for a format written whole. */
class RunOutput {
  private readonly streaming;
  private readonly tally = new Tally();
  private readonly errors = new ErrorSummary();
  private readonly held: InputReport[] = [];
  private readonly explained: string[] = [];
  private readonly skips: Skips;

  constructor(
    private readonly v: Verifying,
    paths: readonly string[],
    private readonly progress: Progress,
    private readonly out: Sink | undefined,
  ) {
    this.streaming = streamingRenderer(v.flags.format, v.options);
    this.skips = new Skips(v.plan.expanded, paths, Boolean(v.flags.skipUnknown));
  }

  /** Before the first report: the head, then the arguments that could not be expanded. */
  async start(): Promise<void> {
    this.progress.restart();
    if (this.streaming && this.out) await this.out.write(this.streaming.head(this.v.plan.shardMember));
    for (const e of this.v.plan.expanded.errors)
      await this.emit(failedInput(e.path, { code: "INPUT_UNREADABLE", detail: e.message }));
  }

  async emit(input: InputReport, item?: Parameters<typeof explanationOf>[0]): Promise<void> {
    if (!this.skips.skips(input)) {
      this.errors.add(input);
      if (this.streaming && this.out) await this.out.write(this.streaming.input(input, this.tally.inputs));
      else this.held.push(input);
      this.tally.add(input);
    }
    this.progress.tick("verifying");
    // --explain: each input's explanation, as inspect prints it, of the very bytes just
    // verified (read once: a file that changes cannot make the two disagree); after the report.
    if (this.v.flags.explain && item) this.explained.push(explanationOf(item, this.v.material.request));
  }

  async finish(): Promise<number> {
    const { flags, io, run } = this.v;
    for (const e of this.skips.emptied())
      await this.emit(failedInput(e.path, { code: "INPUT_UNREADABLE", detail: e.message }));
    this.progress.done();
    // Said once the report is out, so it closes what the user sees.
    const sayAfter = (code: number) => {
      const summary = this.v.sayErrors ? this.errors.line() : undefined;
      if (summary !== undefined) io.stderr(summary);
      const skipped = this.skips.line();
      if (skipped !== undefined && !flags.quiet) io.stderr(`a2a-evidence: ${skipped}\n`);
      return code;
    };
    if (!this.streaming || !this.out)
      return sayAfter(await writeWhole(assembleReport(run.policy, this.held), flags, io, this.v.options));
    await this.out.write(this.streaming.tail(this.tally, { ...run.policy, exitCode: this.tally.worst() }));
    if (this.explained.length > 0) await this.out.write(this.explained.join(""));
    return sayAfter(this.out.close() ? this.tally.worst() : 2);
  }
}

/** A format written once every input is in (junit, github, html), or a report of a run that could not start. */
export async function writeWhole(
  report: Report,
  flags: Pick<VerifyFlags, "quiet" | "format" | "output">,
  io: CliIo,
  options: RenderOptions,
  subject?: string,
): Promise<number> {
  if (flags.quiet) return report.policy.exitCode;
  const rendered = render(flags.format, report, options);
  // A run that could not start: the text report names the file, as a stderr line would.
  const text =
    subject !== undefined && isTextFormat(flags.format) && rendered.startsWith("error: ")
      ? `error: ${printable(subject)}: ${rendered.slice("error: ".length)}`
      : rendered;
  if (flags.output !== undefined) {
    try {
      writeFileSync(flags.output, text);
    } catch (e) {
      io.stderr(
        `a2a-evidence: cannot write ${printable(flags.output)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`,
      );
      return 2;
    }
  } else {
    await writeOut(io, text);
  }
  // GitHub Actions shows this file as the job summary; other steps write to it too, so append.
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (flags.format === "github" && summary) {
    try {
      appendFileSync(summary, renderGithubSummary(report));
    } catch (e) {
      io.stderr(
        `a2a-evidence: cannot write the job summary ${printable(summary)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`,
      );
      return 2;
    }
  }
  return report.policy.exitCode;
}

/**
 * verify's single-valued options that say what is trusted, observed or required: given twice,
 * a usage error (see onlyOnce).
 */
const ONCE = [
  "--trust",
  ...OBSERVATION_ONCE,
  "--authority",
  "--tenant",
  "--at",
  "--min-evidence",
  "--format",
  "--output",
];

export function registerVerifyCommand(program: Command, { io, setExit, host }: CommandContext): void {
  const command = program
    .command("verify")
    .summary("verify evidence offline, property by property")
    .description(
      "verify one or more inputs: a JSON-RPC GetTask response, an A2A Task, a capture, or a bare bundle ('-' = stdin)",
    )
    .argument(
      "<input...>",
      "input files, directories (their *.json, *.ndjson, *.sse, *.binpb, *.grpc), @list files; '-' for stdin",
    )
    .option("--trust <file>", "trust configuration (env A2A_EVIDENCE_TRUST)");
  addObservationOptions(command)
    .option("--authority <name>", "the authority the caller expects the producer to be")
    .option("--tenant <id>", "the tenant the caller addressed")
    .option("--at <time>", AT_HELP);
  addPolicyOptions(addContinuityOptions(command));
  addOutputOptions(command).action(async (inputs: string[], flags: VerifyFlags) => {
    setExit(await runVerify(inputs, flags, io, host ?? {}));
  });
  onlyOnce(command, ONCE);
}

/** What the run requires: --require, --min-evidence, the --resolved contents, the insecure opt-in. */
function addPolicyOptions(command: Command): Command {
  return (
    command
      // Repeatable: each list adds to the earlier ones, so an appended --require never drops one.
      .option(
        "--require <properties>",
        "comma-separated properties that must be PASS (repeatable)",
        (list: string, previous: string | undefined) => {
          // `--require "$PROPS"` with an empty variable must not read as a requirement that holds.
          if (list.split(",").every((s) => s.trim() === ""))
            throw new UsageError(`--require: "${printable(list)}" names no property`);
          return previous === undefined ? list : `${previous},${list}`;
        },
      )
      .addOption(
        new Option(
          "--min-evidence <level>",
          `least evidence level that exits 0 (default: the negotiated minimum, else ${DEFAULT_MIN_EVIDENCE}; NONE also drops the default identityAuthorityBinding and taskBinding requirements)`,
        ).choices(MIN_LEVELS as string[]),
      )
      .option(
        "--resolved <url=file>",
        "the content a url Part was resolved to, compared with its RESOLVED commitment (repeatable)",
        (item: string, previous: string[]) => [...previous, item],
        [] as string[],
      )
      .option(
        "--insecure-accept-uncommitted-parts",
        "accept a taskBinding that is INCONCLUSIVE only because a v1 record leaves data, raw or url Parts uncommitted (named in every report)",
      )
  );
}

/** How the run goes and what it writes: --format, --shard, --jobs, -o, -q, -v, --explain, … */
function addOutputOptions(command: Command): Command {
  return command
    .addOption(new Option("--format <format>", "report format").choices(FORMAT_NAMES).default("text"))
    .option("--shard <i/n>", "verify only the i-th of n disjoint parts of the inputs (chosen by path)")
    .option("--jobs <n>", "verify with n worker threads (same output, in the same order)")
    .option("-o, --output <file>", "write the report to a file instead of stdout")
    .option("-q, --quiet", "no report, exit code only (errors still go to stderr)")
    .option("-v, --verbose", "list every check with the values it compared")
    .option("--explain", "after the report, every derivation step of each input (as inspect)")
    .option(
      "--skip-unknown",
      "in a directory, skip (and list) the files that are not A2A inputs instead of reporting each as an error",
    )
    .option("--no-color", "no colour (also: NO_COLOR, non-TTY stdout, --format json)")
    .addHelpText(
      "after",
      wrapHelp(
        [
          "",
          "Exit codes: 0 the policy holds · 1 some property FAILs · 2 could not run (usage, unreadable input, no evidence, invalid trust file) · 3 nothing FAILs, but the policy does not hold (the level is too low, or identityAuthorityBinding, taskBinding or a --require'd property is not PASS), or the Task has not ended and its evidence is PENDING.",
          "",
          "Examples:",
          "  a2a-evidence verify --trust trust.json task.json",
          "  a2a-evidence verify --trust trust.json --task observed-task.json bundle.json",
        ].join("\n"),
      ),
    );
}
