/**
 * `a2a-evidence verify`: reads the inputs, the trust file and the caller's observation, calls the
 * pure `verify`, renders the report in the chosen format and returns the policy's exit code.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { renderGithubSummary } from "../report/github.js";
import { Option, type Command } from "commander";
import { PROPERTY_NAMES, isPropertyName, type PropertyName } from "../properties/index.js";
import { errorReport, type InputError, type Report } from "../report/model.js";
import { FORMAT_NAMES, isTextFormat, render, type FormatName } from "../report/index.js";
import { makeStyle } from "../report/style.js";
import { verify, type VerifyRequest, type InputData } from "../verify.js";
import { DEFAULT_MIN_EVIDENCE } from "../policy.js";
import { EVIDENCE_LEVELS, type EvidenceLevelOrNone } from "../profile.js";
import { readInput } from "./read.js";
import { printable } from "../util/printable.js";
import { RFC3339_OFFSET_DATETIME } from "../peac/extensions.js";
import { addContinuityOptions, readContinuityFlags } from "./continuity-flags.js";
import { UsageError, wrapHelp, type CliIo, type CommandContext } from "./io.js";

interface VerifyFlags {
  trust?: string;
  task?: string;
  firstTask?: string;
  authority?: string;
  tenant?: string;
  at?: string;
  cosignatures?: string;
  checkpoints?: string;
  require?: string;
  minEvidence?: string;
  format: FormatName;
  output?: string;
  quiet?: boolean;
  verbose?: boolean;
  color: boolean;
}

const MIN_LEVELS: readonly EvidenceLevelOrNone[] = ["NONE", ...EVIDENCE_LEVELS];

function parseRequire(list: string | undefined): PropertyName[] {
  if (list === undefined) return [];
  const names = list.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const n of names) {
    if (!isPropertyName(n)) throw new UsageError(`--require: unknown property "${n}" (known: ${PROPERTY_NAMES.join(", ")})`);
  }
  return names as PropertyName[];
}

class InputFileError extends Error {}

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
  const file = error.source === "trust" ? trustPath : error.source === "--task" ? flags.task : error.source === "--first-task" ? flags.firstTask : undefined;
  if (file === undefined) return undefined;
  return `${error.source === "trust" ? "trust file" : error.source} ${nameOf(file)}`;
}

function errorLine(source: string | undefined, e: InputError): string {
  return `a2a-evidence: ${source ? `${printable(source)}: ` : ""}${e.code}: ${printable(e.message)}${e.path ? ` (at ${printable(e.path)})` : ""}\n`;
}

async function runVerify(inputs: string[], flags: VerifyFlags, io: CliIo): Promise<number> {
  const minEvidence = flags.minEvidence as EvidenceLevelOrNone | undefined;
  if (minEvidence !== undefined && !MIN_LEVELS.includes(minEvidence)) {
    throw new UsageError(`--min-evidence: unknown level "${flags.minEvidence}" (known: ${MIN_LEVELS.join(", ")})`);
  }
  const policy = { require: parseRequire(flags.require), ...(minEvidence !== undefined ? { minEvidence } : {}) };
  const fromStdin = [...inputs, flags.trust, flags.task, flags.firstTask, flags.cosignatures, flags.checkpoints].filter((i) => i === "-").length;
  if (fromStdin > 1) throw new UsageError("standard input ('-') can be given only once");
  if (flags.at !== undefined && !RFC3339_OFFSET_DATETIME.test(flags.at)) {
    throw new UsageError(`--at: "${printable(flags.at)}" is not an RFC 3339 date-time with an offset (e.g. 2026-10-01T09:30:00Z)`);
  }
  const trustPath = flags.trust ?? (io.env.A2A_EVIDENCE_TRUST || undefined);
  if (fromStdin > 0 && io.stdinIsTTY) io.stderr("a2a-evidence: reading the input from the terminal; end with Ctrl-D\n");

  const continuity = await readContinuityFlags(flags);
  if (!continuity.ok) {
    io.stderr(`a2a-evidence: ${printable(continuity.message)}\n`);
    return 2;
  }
  let report: Report;
  try {
    const request: VerifyRequest = {
      ...policy,
      inputs: [],
      ...(flags.authority !== undefined ? { authority: flags.authority } : {}),
      ...(flags.tenant !== undefined ? { tenant: flags.tenant } : {}),
      ...(flags.at !== undefined ? { at: flags.at } : {}),
      ...continuity.value,
      ...(trustPath !== undefined ? { trust: await readOrFail(trustPath, "trust file") } : {}),
      ...(flags.task !== undefined ? { task: await readOrFail(flags.task, "--task") } : {}),
      ...(flags.firstTask !== undefined ? { firstTask: await readOrFail(flags.firstTask, "--first-task") } : {}),
    };
    const entries: { source: string; data?: InputData; readError?: string }[] = [];
    for (const path of inputs) {
      const r = await readInput(path);
      const source = nameOf(path);
      entries.push(r.ok ? { source, data: r.bytes } : { source, readError: r.message });
    }
    report = verify({ ...request, inputs: entries });
  } catch (e) {
    if (!(e instanceof InputFileError)) throw e;
    report = errorReport({ require: policy.require, minEvidence: minEvidence ?? null }, { code: "INPUT_UNREADABLE", message: e.message });
  }

  // Said once: the report carries every error; a one-line summary goes to stderr only when the
  // report is not on the terminal in front of the user (piped, -o, -q).
  if (!io.stdoutIsTTY || flags.quiet || flags.output !== undefined) {
    if (report.error) io.stderr(errorLine(errorSource(report.error, trustPath, flags), report.error));
    for (const input of report.inputs) if ("error" in input) io.stderr(errorLine(input.source, input.error));
  }

  if (!flags.quiet) {
    const color = isTextFormat(flags.format) && flags.color && flags.output === undefined && io.stdoutIsTTY && !io.env.NO_COLOR;
    const text = render(flags.format, report, { verbose: Boolean(flags.verbose), style: makeStyle(color) });
    if (flags.output !== undefined) {
      try {
        writeFileSync(flags.output, text);
      } catch (e) {
        io.stderr(`a2a-evidence: cannot write ${flags.output}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`);
        return 2;
      }
    } else {
      io.stdout(text);
    }
    // GitHub Actions shows this file as the job summary; other steps write to it too, so append.
    const summary = io.env.GITHUB_STEP_SUMMARY;
    if (flags.format === "github" && summary) {
      try {
        appendFileSync(summary, renderGithubSummary(report));
      } catch (e) {
        io.stderr(`a2a-evidence: cannot write the job summary ${printable(summary)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`);
        return 2;
      }
    }
  }
  return report.policy.exitCode;
}

export function registerVerifyCommand(program: Command, { io, setExit }: CommandContext): void {
  const command = program
    .command("verify")
    .summary("verify evidence offline, property by property")
    .description("verify one or more inputs: a JSON-RPC GetTask response, an A2A Task, a capture, or a bare bundle ('-' = stdin)")
    .argument("<input...>", "input files ('-' for standard input)")
    .option("--trust <file>", "trust configuration (env A2A_EVIDENCE_TRUST)")
    .option("--task <file>", "the Task the caller observed (GetTask result), for a bare bundle")
    .option("--first-task <file>", "the first Task returned by SendMessage, for the negotiation checks")
    .option("--authority <name>", "the authority the caller expects the producer to be")
    .option("--tenant <id>", "the tenant the caller addressed")
    .option("--at <time>", "judge time rules (receipt and cosignature times) against this RFC 3339 time; without it they are NOT_CHECKED");
  addContinuityOptions(command)
    .option("--require <properties>", "comma-separated properties that must be PASS")
    .addOption(
      new Option(
        "--min-evidence <level>",
        `least evidence level that exits 0 (default: the negotiated minimum, else ${DEFAULT_MIN_EVIDENCE}; NONE also drops the default identityAuthorityBinding and taskBinding requirements)`,
      ).choices(MIN_LEVELS as string[]),
    )
    .addOption(new Option("--format <format>", "report format").choices(FORMAT_NAMES).default("text"))
    .option("-o, --output <file>", "write the report to a file instead of stdout")
    .option("-q, --quiet", "no report, exit code only (errors still go to stderr)")
    .option("-v, --verbose", "list every check with the values it compared")
    .option("--no-color", "no colour (also: NO_COLOR, non-TTY stdout, --format json)")
    .addHelpText(
      "after",
      wrapHelp(
        [
          "",
          "Exit codes: 0 the policy holds · 1 some property FAILs · 2 could not run (usage, unreadable input, no evidence, invalid trust file) · 3 nothing FAILs, but the policy does not hold (the level is too low, or identityAuthorityBinding, taskBinding or a --require'd property is not PASS).",
          "",
          "Examples:",
          "  a2a-evidence verify --trust trust.json task.json",
          "  a2a-evidence verify --trust trust.json --task observed-task.json bundle.json",
        ].join("\n"),
      ),
    )
    .action(async (inputs: string[], flags: VerifyFlags) => {
      setExit(await runVerify(inputs, flags, io));
    });
}
