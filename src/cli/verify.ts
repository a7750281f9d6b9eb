/**
 * `a2a-evidence verify`: reads the inputs, the trust file and the caller's observation, calls the
 * pure `verify`, renders the report in the chosen format and returns the policy's exit code.
 */
import { appendFileSync, closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import { renderGithubSummary } from "../report/github.js";
import { Option, type Command } from "commander";
import { PROPERTY_NAMES, isPropertyName, type PropertyName } from "../properties/index.js";
import {
  errorReport,
  failedInput,
  type InputError,
  type InputReport,
  type Report,
  withShard,
} from "../report/model.js";
import { FORMAT_NAMES, isTextFormat, render, streamingRenderer, type FormatName } from "../report/index.js";
import { Tally } from "../report/summary.js";
import type { RenderOptions } from "../report/options.js";
import { makeStyle } from "../report/style.js";
import { TEXT_WIDTH } from "../report/text.js";
import { assembleReport } from "../verify.js";
import { openRun, type InputItem, type Opened, type RunRequest, type Run } from "../run.js";
import { expandInputs, inShard, parseShard, Skips } from "./inputs.js";
import { Progress } from "./progress.js";
import { ReportSpool } from "./spool.js";
import type { JobPool } from "./jobs.js";
import type { InputCheckpoints } from "../witness/equivocation.js";
import { DEFAULT_MIN_EVIDENCE } from "../policy.js";
import { EVIDENCE_LEVELS, type EvidenceLevelOrNone } from "../profile.js";
import { readInput } from "./read.js";
import { shardReport, type RunGiven } from "./shard-run.js";
import { printable } from "../util/printable.js";
import { RFC3339_OFFSET_DATETIME } from "../peac/extensions.js";
import { addContinuityOptions, readContinuityFlags } from "./continuity-flags.js";
import { explanationOf } from "./inspect.js";
import { resolvedContentOf, type ResolvedContent } from "../evidence/parts.js";
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
import { ErrorSummary, errorLine } from "./error-summary.js";

interface VerifyFlags {
  trust?: string;
  task?: string;
  firstTask?: string;
  interim: string[];
  authority?: string;
  tenant?: string;
  at?: string;
  cosignatures?: string;
  checkpoints?: readonly string[];
  shard?: string;
  jobs?: string;
  require?: string;
  minEvidence?: string;
  resolved: string[];
  insecureAcceptUncommittedParts?: boolean;
  format: FormatName;
  output?: string;
  quiet?: boolean;
  verbose?: boolean;
  explain?: boolean;
  skipUnknown?: boolean;
  color: boolean;
}

const MIN_LEVELS: readonly EvidenceLevelOrNone[] = ["NONE", ...EVIDENCE_LEVELS];

function parseRequire(list: string | undefined): PropertyName[] {
  if (list === undefined) return [];
  const names = list
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const n of names) {
    if (!isPropertyName(n))
      throw new UsageError(`--require: unknown property "${n}" (known: ${PROPERTY_NAMES.join(", ")})`);
  }
  // A property named twice (two --require lists that overlap) is required once.
  return [...new Set(names)] as PropertyName[];
}

class InputFileError extends Error {}

/**
 * `--resolved URL=FILE`, split at the last "=" (a URL may hold "=", a file name rarely does): by
 * URL, the file the caller resolved it to. A URL given twice is a usage error, as any option
 * that would otherwise keep one value silently.
 */
function parseResolved(list: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const item of list) {
    const at = item.lastIndexOf("=");
    const url = at > 0 ? item.slice(0, at) : "";
    const file = at > 0 ? item.slice(at + 1) : "";
    if (url === "" || file === "")
      throw new UsageError(`--resolved: "${printable(item)}" is not URL=FILE (split at the last "=")`);
    if (files.has(url)) throw new UsageError(`--resolved: the URL "${printable(url)}" is given twice`);
    files.set(url, file);
  }
  return files;
}

/** The SHA-256 and length of each --resolved file, by URL: the verifier compares them, never fetches. */
async function readResolved(files: ReadonlyMap<string, string>): Promise<Map<string, ResolvedContent>> {
  const resolved = new Map<string, ResolvedContent>();
  for (const [url, file] of files) resolved.set(url, resolvedContentOf(await readOrFail(file, "--resolved")));
  return resolved;
}

async function readOrFail(path: string, what: string): Promise<Uint8Array> {
  const r = await readInput(path);
  if (!r.ok) throw new InputFileError(`${what}: ${r.message}`);
  return r.bytes;
}

/** How a path is named in reports and messages: standard input is `stdin` everywhere. */
function nameOf(path: string): string {
  return path === "-" ? "stdin" : path;
}

/** The caller's file a report-level error is about, named as the user gave it. */
function errorSource(error: InputError, trustPath: string | undefined, flags: VerifyFlags): string | undefined {
  // An --interim error names its position (`--interim[i]: …`): the i-th file given.
  const interimIndex = error.source === "--interim" ? Number(/^--interim\[(\d+)\]/.exec(error.message)?.[1]) : NaN;
  const file =
    error.source === "trust"
      ? trustPath
      : error.source === "--task"
        ? flags.task
        : error.source === "--first-task"
          ? flags.firstTask
          : error.source === "--interim"
            ? flags.interim[interimIndex]
            : undefined;
  if (file === undefined) return undefined;
  return `${error.source === "trust" ? "trust file" : error.source} ${nameOf(file)}`;
}

function writeOut(io: CliIo, text: string): Promise<void> {
  if (io.write) return io.write(text);
  io.stdout(text);
  return Promise.resolve();
}

/** Where the report goes: stdout, or the -o file (written as it grows, never held whole). */
interface Sink {
  write(text: string): Promise<void>;
  /** Closes the output (once: later calls only answer); false after a write error, said on stderr. */
  close(): boolean;
}

function openSink(flags: VerifyFlags, io: CliIo): Sink | string {
  if (flags.quiet) return { write: async () => {}, close: () => true };
  if (flags.output === undefined) return { write: (t) => writeOut(io, t), close: () => true };
  let fd: number;
  try {
    fd = openSync(flags.output, "w");
  } catch (e) {
    return `a2a-evidence: cannot write ${printable(flags.output)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`;
  }
  let fault: string | undefined;
  let closed = false;
  return {
    write: async (t) => {
      if (fault !== undefined || closed) return;
      try {
        writeSync(fd, t);
      } catch (e) {
        fault = (e as NodeJS.ErrnoException).code ?? String(e);
      }
    },
    close: () => {
      if (closed) return fault === undefined;
      closed = true;
      closeSync(fd);
      if (fault !== undefined) io.stderr(`a2a-evidence: cannot write ${printable(flags.output as string)}: ${fault}\n`);
      return fault === undefined;
    },
  };
}

/** An input as the run reads it (standard input, read again, gives what it gave the first time). */
async function readItem(path: string): Promise<InputItem> {
  const r = await readInput(path);
  return r.ok ? { source: nameOf(path), data: r.bytes } : { source: nameOf(path), readError: r.message };
}

/**
 * The request as worker threads receive it: structured-cloneable. A --cosignatures file is passed
 * as the bytes the main thread read and verified (a parsed value's number lexemes would not
 * survive the copy; read again, a pipe gives nothing and a file may have changed); the comparison
 * across inputs stays with the main thread, so workers need no --checkpoints list.
 */
function forWorkers(request: RunRequest, cosignatures: Uint8Array | undefined): RunRequest {
  const { checkpoints: _checkpoints, cosignatures: _cosignatures, ...rest } = request;
  return cosignatures === undefined ? rest : { ...rest, cosignatures };
}

/** What the run was given beside its inputs, for a shard's report (the files as the bytes read). */
function given(request: RunRequest): Omit<RunGiven, "continuity"> {
  const bytes = (d: unknown) => (d instanceof Uint8Array ? d : undefined);
  return {
    trust: bytes(request.trust),
    task: bytes(request.task),
    firstTask: bytes(request.firstTask),
    interim: request.interim?.filter((d) => d instanceof Uint8Array),
    authority: request.authority,
    tenant: request.tenant,
    at: request.at,
  };
}

async function runVerify(args: string[], flags: VerifyFlags, io: CliIo, host: CommandHost): Promise<number> {
  const minEvidence = flags.minEvidence as EvidenceLevelOrNone | undefined;
  if (minEvidence !== undefined && !MIN_LEVELS.includes(minEvidence)) {
    throw new UsageError(`--min-evidence: unknown level "${flags.minEvidence}" (known: ${MIN_LEVELS.join(", ")})`);
  }
  const jobs = flags.jobs === undefined ? 1 : Number(flags.jobs);
  if (!Number.isSafeInteger(jobs) || jobs < 1 || jobs > 64)
    throw new UsageError(`--jobs: "${printable(flags.jobs ?? "")}" is not a number of threads from 1 to 64`);
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (flags.shard !== undefined && !shard)
    throw new UsageError(`--shard: "${printable(flags.shard)}" is not i/n with 1 ≤ i ≤ n (e.g. 2/4)`);
  const policy = {
    require: parseRequire(flags.require),
    ...(minEvidence !== undefined ? { minEvidence } : {}),
    ...(flags.insecureAcceptUncommittedParts ? { acceptUncommittedParts: true } : {}),
  };
  const resolvedFiles = parseResolved(flags.resolved);
  const fromStdin = [
    ...args,
    flags.trust,
    flags.task,
    flags.firstTask,
    ...flags.interim,
    flags.cosignatures,
    ...(flags.checkpoints ?? []),
    ...resolvedFiles.values(),
  ].filter((i) => i === "-" || i === "@-").length;
  if (fromStdin > 1) throw new UsageError("standard input ('-') can be given only once");
  if (flags.at !== undefined && !RFC3339_OFFSET_DATETIME.test(flags.at)) {
    throw new UsageError(
      `--at: "${printable(flags.at)}" is not an RFC 3339 date-time with an offset (e.g. 2026-10-01T09:30:00Z)`,
    );
  }
  if (flags.explain && (flags.quiet || flags.format !== "text"))
    throw new UsageError(
      "--explain follows the text report: it takes neither -q nor --format other than text (inspect --format json explains for tools)",
    );
  const trustPath = flags.trust ?? (io.env.A2A_EVIDENCE_TRUST || undefined);
  if (fromStdin > 0 && io.stdinIsTTY) io.stderr("a2a-evidence: reading the input from the terminal; end with Ctrl-D\n");

  let cosignatureBytes: Uint8Array | undefined;
  const continuityBytes: Uint8Array[] = [];
  const continuity = await readContinuityFlags(flags, async (path) => {
    const r = await readInput(path);
    if (r.ok) continuityBytes.push(r.bytes);
    if (r.ok && path === flags.cosignatures) cosignatureBytes = r.bytes;
    return r;
  });
  if (!continuity.ok) {
    io.stderr(`a2a-evidence: ${printable(continuity.message)}\n`);
    return 2;
  }
  const reportPolicy = {
    require: policy.require,
    minEvidence: minEvidence ?? null,
    ...(flags.insecureAcceptUncommittedParts ? { acceptUncommittedParts: true as const } : {}),
  };
  // Said once (contract §9.38): a text report on stdout carries every error; a one-line summary
  // goes to stderr when the report is for a tool, goes to a file or is not written.
  const sayErrors = Boolean(flags.quiet) || flags.output !== undefined || !isTextFormat(flags.format);
  const color =
    isTextFormat(flags.format) && flags.color && flags.output === undefined && io.stdoutIsTTY && !io.env.NO_COLOR;
  // The text report fits the terminal it is shown on, else 100 columns (contract §9.37).
  const width = flags.output === undefined && io.stdoutIsTTY && io.stdoutColumns ? io.stdoutColumns : TEXT_WIDTH;
  const options = { verbose: Boolean(flags.verbose), style: makeStyle(color), width };

  let opened: Opened;
  let request: RunRequest = {};
  try {
    request = {
      ...policy,
      ...(flags.authority !== undefined ? { authority: flags.authority } : {}),
      ...(flags.tenant !== undefined ? { tenant: flags.tenant } : {}),
      ...(flags.at !== undefined ? { at: flags.at } : {}),
      ...continuity.value,
      ...(trustPath !== undefined ? { trust: await readOrFail(trustPath, "trust file") } : {}),
      ...(flags.task !== undefined ? { task: await readOrFail(flags.task, "--task") } : {}),
      ...(flags.firstTask !== undefined ? { firstTask: await readOrFail(flags.firstTask, "--first-task") } : {}),
      ...(flags.interim.length > 0
        ? { interim: await Promise.all(flags.interim.map((f) => readOrFail(f, "--interim"))) }
        : {}),
      ...(resolvedFiles.size > 0 ? { resolved: await readResolved(resolvedFiles) } : {}),
    };
    opened = openRun(request);
  } catch (e) {
    if (!(e instanceof InputFileError)) throw e;
    opened = { ok: false, policy: reportPolicy, error: { code: "INPUT_UNREADABLE", message: e.message } };
  }
  if (!opened.ok) {
    const named = errorSource(opened.error, trustPath, flags);
    if (sayErrors) io.stderr(errorLine(named, opened.error));
    return writeWhole(withShard(errorReport(opened.policy, opened.error), shard), flags, io, options, named);
  }
  const run = opened.run;

  // The files the run reads besides its inputs: a directory walk skips them (contract §9.35).
  const configuration = [
    ...args.filter((a) => a.startsWith("@") && a !== "@-").map((a) => a.slice(1)),
    trustPath,
    flags.task,
    flags.firstTask,
    ...flags.interim,
    flags.cosignatures,
    ...(flags.checkpoints ?? []),
    ...resolvedFiles.values(),
  ];
  const expanded = await expandInputs(args, [...configuration, flags.output]);
  const clobbered =
    flags.output === undefined ? undefined : readFileAt(flags.output, [...expanded.paths, ...configuration]);
  if (clobbered !== undefined && flags.output !== undefined)
    throw new UsageError(overwriteMessage("-o", flags.output, clobbered));
  // Where each of this shard's inputs stands among all of them.
  const positions: number[] = [];
  expanded.paths.forEach((p, j) => {
    if (!shard || inShard(p, shard)) positions.push(j);
  });
  const paths = positions.map((j) => expanded.paths[j] as string);
  const shardMember =
    shard && shardReport(shard, expanded, positions, { ...given(request), continuity: continuityBytes });
  // The other shards' inputs are not verified here, but their checkpoints are compared with this
  // shard's, in the whole run's order: a log forked between two inputs is found whichever shards
  // they fall in, and each input's report is what the whole run says of it.
  const compared = shard && paths.length > 0 ? expanded.paths : paths;
  if (shard && paths.length === 0 && expanded.errors.length === 0 && !flags.quiet) {
    io.stderr(
      `a2a-evidence: shard ${shard.index}/${shard.count} holds none of the ${expanded.paths.length} inputs; nothing verified\n`,
    );
  }
  // Worker threads read files themselves: standard input stays with the main thread.
  const pool: JobPool | undefined =
    jobs > 1 && host.workerEntry && paths.length > 1 && !compared.includes("-") && !flags.explain
      ? new (await import("./jobs.js")).JobPool(host.workerEntry, jobs, forWorkers(request, cosignatureBytes))
      : undefined;
  const named = paths.map((path) => ({ path, source: nameOf(path) }));
  const skips = new Skips(expanded, paths, Boolean(flags.skipUnknown));
  const progress = new Progress(io, paths.length + expanded.errors.length, Boolean(flags.quiet));

  // A log forked is a fact about every input together: with several, look at each one's
  // checkpoints first, compare, then report each with what was found. Read once: each input is
  // verified as it is looked at and its report waits in the spool (or, where it cannot, the input
  // is read and verified again after the comparison); worker threads look first and verify after.
  let findings: ReturnType<Run["compare"]>;
  let spool: ReportSpool | undefined;
  let sink: Sink | undefined;
  // Whatever ends the run (an output that cannot be opened, a writer that throws), the spool's
  // file is closed and the worker threads are stopped: a live worker keeps the process running.
  try {
    if (compared.length > 1 || continuity.value.checkpoints !== undefined) {
      const sightings: (InputCheckpoints | undefined)[] = new Array(compared.length).fill(undefined);
      const mine = new Set(positions);
      if (pool) {
        const everyone = compared === paths ? named : compared.map((path) => ({ path, source: nameOf(path) }));
        await pool.run(everyone, "sighting", undefined, async (j, d) => {
          sightings[j] = d.sighting;
          if (compared === paths || mine.has(j)) progress.tick("comparing checkpoints");
        });
      } else {
        spool = flags.explain ? undefined : ReportSpool.open();
        for (const [k, path] of paths.entries()) {
          const item = await readItem(path);
          const loaded = run.load(item);
          sightings[compared === paths ? k : (positions[k] as number)] = run.sighting(item.source, loaded);
          spool?.put(k, run.verify(item.source, loaded));
          progress.tick(spool ? "verifying" : "comparing checkpoints");
        }
        if (compared !== paths) {
          for (const [j, path] of compared.entries()) {
            if (mine.has(j)) continue;
            const item = await readItem(path);
            sightings[j] = run.sighting(item.source, run.load(item));
          }
        }
      }
      const all = run.compare(sightings);
      findings = all && compared !== paths ? positions.map((j) => all[j]) : all;
      progress.restart();
    }

    const streaming = streamingRenderer(flags.format, options);
    const out = streaming ? openSink(flags, io) : undefined;
    if (typeof out === "string") {
      io.stderr(out);
      return 2;
    }
    sink = out;
    const tally = new Tally();
    const errors = new ErrorSummary();
    const held: InputReport[] = [];
    const emit = async (input: InputReport) => {
      if (skips.skips(input)) return progress.tick("verifying");
      errors.add(input);
      if (streaming && out) await out.write(streaming.input(input, tally.inputs));
      else held.push(input);
      tally.add(input);
      progress.tick("verifying");
    };
    const explained: string[] = [];
    if (streaming && out) await out.write(streaming.head(shardMember));
    for (const e of expanded.errors) await emit(failedInput(e.path, { code: "INPUT_UNREADABLE", detail: e.message }));
    if (pool) {
      // Each input to the worker that took its sighting, which holds the bytes of a pipe.
      const slotted = compared === paths ? named : named.map((n, k) => ({ ...n, slot: positions[k] as number }));
      await pool.run(slotted, "verify", findings, (_k, d) => emit(d.report as InputReport));
      await pool.close();
    } else {
      for (const [k, path] of paths.entries()) {
        const kept = spool?.take(k);
        const settled = kept === undefined ? undefined : run.settle(kept, findings?.[k]);
        if (settled !== undefined) {
          await emit(settled);
          continue;
        }
        const item = await readItem(path);
        await emit(run.verify(item.source, run.load(item), findings?.[k]));
        // --explain: each input's explanation, as inspect prints it, of the very bytes just
        // verified (read once: a file that changes cannot make the two disagree); after the report.
        if (flags.explain) explained.push(explanationOf(item, request));
      }
    }
    for (const e of skips.emptied()) await emit(failedInput(e.path, { code: "INPUT_UNREADABLE", detail: e.message }));
    progress.done();
    // Said once the report is out, so it closes what the user sees.
    const sayAfter = (code: number) => {
      const summary = sayErrors ? errors.line() : undefined;
      if (summary !== undefined) io.stderr(summary);
      const skipped = skips.line();
      if (skipped !== undefined && !flags.quiet) io.stderr(`a2a-evidence: ${skipped}\n`);
      return code;
    };
    const report = assembleReport(run.policy, held);
    if (!streaming || !out) return sayAfter(await writeWhole(report, flags, io, options));
    await out.write(streaming.tail(tally, { ...run.policy, exitCode: tally.worst() }));
    if (explained.length > 0) await out.write(explained.join(""));
    return sayAfter(out.close() ? tally.worst() : 2);
  } finally {
    spool?.close();
    // An -o file is closed however the run ends (a writer that throws included), not left open.
    sink?.close();
    await pool?.close();
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
  "--task",
  "--first-task",
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
    .option("--trust <file>", "trust configuration (env A2A_EVIDENCE_TRUST)")
    .option("--task <file>", "the Task the caller observed (GetTask result), for a bare bundle")
    .option("--first-task <file>", "the first Task returned by SendMessage, for the negotiation checks")
    .option(
      "--interim <file>",
      "an interim record sealed at a pause, or the paused Task that carries it (repeatable)",
      (file: string, previous: string[]) => [...previous, file],
      [] as string[],
    )
    .option("--authority <name>", "the authority the caller expects the producer to be")
    .option("--tenant <id>", "the tenant the caller addressed")
    .option(
      "--at <time>",
      "judge time rules (receipt and cosignature times) against this RFC 3339 time; without it they are NOT_CHECKED",
    );
  addContinuityOptions(command)
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
    )
    .action(async (inputs: string[], flags: VerifyFlags) => {
      setExit(await runVerify(inputs, flags, io, host ?? {}));
    });
  onlyOnce(command, ONCE);
}
