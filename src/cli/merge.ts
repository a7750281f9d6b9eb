/**
 * `a2a-evidence merge`: reads the JSON reports (`verify --format json`) of one run's shards, refuses
 * reports of different runs, and writes the report of the whole run in any format, with its
 * summary and its exit code. A report that cannot be read, or is not such a report, exits 2
 * naming the file and the JSON path at fault.
 */
import { Option, type Command } from "commander";
import { FORMAT_NAMES, isTextFormat, type FormatName } from "../report/index.js";
import { makeStyle } from "../report/style.js";
import { mergeReports, type GivenReport } from "../report/merge.js";
import { readReport } from "../report/read-report.js";
import { parseStrictJson } from "../json/strict-json.js";
import { printable } from "../util/printable.js";
import { readInput } from "./read.js";
import { failureLine, nameOf, unreadableLine } from "./error-summary.js";
import { writeWhole } from "./verify.js";
import { onlyOnce, overwriteMessage, readFileAt, UsageError, wrapHelp, type CliIo, type CommandContext } from "./io.js";

interface MergeFlags {
  format?: FormatName;
  output?: string;
  quiet?: boolean;
  verbose?: boolean;
  color: boolean;
  allowMissing?: boolean;
}

/** A report holds every input of its shard: larger than one input may be (16 MiB), still bounded. */
export const MAX_REPORT_BYTES = 256 * 1024 * 1024;

/**
 * The report a file holds, or the line that says why it is not one, naming the file once as
 * verify names an input: `a2a-evidence: shard-1.json: INPUT_UNREADABLE: no such file`.
 */
async function load(path: string): Promise<GivenReport | string> {
  const file = nameOf(path);
  const read = await readInput(path, MAX_REPORT_BYTES);
  if (!read.ok) return unreadableLine(file, read.reason);
  const json = parseStrictJson(read.bytes, { maxBytes: MAX_REPORT_BYTES, maxDepth: 64 });
  if (!json.ok) return failureLine(file, json);
  const r = readReport(json.value);
  if (!r.ok) {
    const detail = `not a JSON report of a2a-evidence: ${r.detail}`;
    return failureLine(file, { code: "INPUT_UNKNOWN_SHAPE", detail, path: r.path });
  }
  return { file, report: r.report };
}

async function runMerge(paths: string[], flags: MergeFlags, io: CliIo): Promise<number> {
  if (paths.filter((p) => p === "-").length > 1) throw new UsageError("standard input ('-') can be given only once");
  const clobbered = flags.output === undefined ? undefined : readFileAt(flags.output, paths);
  if (clobbered !== undefined) throw new UsageError(overwriteMessage("-o", flags.output as string, clobbered));
  const given: GivenReport[] = [];
  for (const path of paths) {
    const loaded = await load(path);
    if (typeof loaded === "string") {
      io.stderr(loaded);
      return 2;
    }
    given.push(loaded);
  }
  const merged = mergeReports(given, Boolean(flags.allowMissing));
  if (!merged.ok) {
    io.stderr(`a2a-evidence: merge: ${printable(merged.message)}\n`);
    return 2;
  }
  const count = given[0]?.report.shard?.count;
  for (const i of merged.missing)
    io.stderr(`a2a-evidence: merge: shard ${i}/${count} is missing: its inputs are not in the combined report\n`);
  const format = flags.format ?? "text";
  const color = isTextFormat(format) && flags.color && flags.output === undefined && io.stdoutIsTTY && !io.env.NO_COLOR;
  return writeWhole(merged.report, { ...flags, format }, io, {
    verbose: Boolean(flags.verbose),
    style: makeStyle(color),
  });
}

export function registerMergeCommand(program: Command, { io, setExit }: CommandContext): void {
  const command = program
    .command("merge")
    .summary("combine the JSON reports of a run's shards")
    .description(
      "combine the JSON reports (verify --shard i/n --format json) of one run's shards into the report of the whole run, in any format, with its summary and exit code; reports of different runs are refused",
    )
    .argument(
      "<report...>",
      "JSON reports of the run's shards ('-' for stdin); or one whole run's report, to write it again",
    )
    // No commander default: a default would read as a first --format, and a second one is refused.
    .addOption(new Option("--format <format>", "report format (default: text)").choices(FORMAT_NAMES))
    .option("-o, --output <file>", "write the report to a file instead of stdout")
    .option("--allow-missing", "combine the shards given when some are missing (their inputs are left out)")
    .option("-q, --quiet", "no report, exit code only (errors still go to stderr)")
    .option("-v, --verbose", "list every check with the values it compared")
    .option("--no-color", "no colour (also: NO_COLOR, non-TTY stdout)")
    .addHelpText(
      "after",
      wrapHelp(
        [
          "",
          "Exit codes: the whole run's, the worst of its inputs' (1 > 2 > 3 > 0); 2 when a report cannot be read, is not a report, or is of another run, or a shard is missing or given twice.",
          "",
          "Example:",
          "  a2a-evidence merge --format junit -o evidence.xml shard-*.json",
        ].join("\n"),
      ),
    )
    .action(async (reports: string[], flags: MergeFlags) => {
      setExit(await runMerge(reports, flags, io));
    });
  onlyOnce(command, ["--format", "--output"]);
}
