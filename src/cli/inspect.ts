/**
 * `a2a-evidence inspect`: reads one input (and the caller's trust file, observed Task and
 * cosignature lines and interim records, as verify would), calls the pure `inspect` and prints
 * the explanation. It decides no policy: exit 0 when the input was decoded and explained, 2 when
 * it (or a file given beside it) could not be read — one line on stderr saying which and why — and
 * 3, as verify, for a Task that has not ended (INPUT_EVIDENCE_PENDING), whose interim records are
 * explained all the same.
 */
import { Option, type Command } from "commander";
import { inspect, type InspectFailure, type InspectRequest } from "../inspect/index.js";
import { renderExplanationJson } from "../inspect/json.js";
import { renderExplanationText, renderPendingText } from "../inspect/text.js";
import { readInput } from "./read.js";
import { callerFileName, failureLine, nameOf, unreadableFile, type CallerFiles } from "./error-summary.js";
import { onlyOnce, UsageError, wrapHelp, type CliIo, type CommandContext } from "./io.js";
import { checkAtOption } from "./at-option.js";
import { addObservationOptions, OBSERVATION_ONCE, type ObservationFlags } from "./observation-options.js";

export const INSPECT_FORMATS = ["text", "json"] as const;
export type InspectFormat = (typeof INSPECT_FORMATS)[number];

interface InspectFlags extends ObservationFlags {
  trust?: string;
  cosignatures?: string;
  format: InspectFormat;
  bytes?: boolean;
  all?: boolean;
  at?: string;
}

/** The one line a file that cannot be used gets on stderr: verify's line for the same file. */
export function inspectFailureLine(f: InspectFailure, files: CallerFiles & { readonly input: string }): string {
  const named = f.about === "input" ? nameOf(files.input) : callerFileName(f.about, f.index, files);
  return failureLine(named, f);
}

async function runInspect(input: string, flags: InspectFlags, io: CliIo): Promise<number> {
  const trustPath = flags.trust ?? (io.env.A2A_EVIDENCE_TRUST || undefined);
  const stdins = [input, trustPath, flags.task, flags.firstTask, ...flags.interim, flags.cosignatures].filter(
    (p) => p === "-",
  ).length;
  if (stdins > 1) throw new UsageError("standard input ('-') can be given only once");
  checkAtOption(flags.at);
  if (input === "-" && io.stdinIsTTY) io.stderr("a2a-evidence: reading the input from the terminal; end with Ctrl-D\n");
  const files = {
    input,
    trust: trustPath,
    task: flags.task,
    firstTask: flags.firstTask,
    cosignatures: flags.cosignatures,
    interim: flags.interim,
  };
  /** A file's bytes; or, when it cannot be read, its line on stderr (verify's line for the file). */
  const read = async (path: string, about: InspectFailure["about"], index?: number) => {
    const r = await readInput(path);
    if (r.ok) return r.bytes;
    const detail = about === "input" ? r.reason : unreadableFile(about, r.reason, index).error.message;
    const failure = { ok: false as const, about, code: "INPUT_UNREADABLE" as const, detail };
    io.stderr(inspectFailureLine(index === undefined ? failure : { ...failure, index }, files));
    return undefined;
  };
  const data = await read(input, "input");
  if (data === undefined) return 2;
  const request: { -readonly [K in keyof InspectRequest]: InspectRequest[K] } = {
    source: nameOf(input),
    data,
    ...(flags.at !== undefined ? { at: flags.at } : {}),
  };
  for (const [path, key, about] of [
    [trustPath, "trust", "trust"],
    [flags.task, "task", "--task"],
    [flags.firstTask, "firstTask", "--first-task"],
    [flags.cosignatures, "cosignatures", "--cosignatures"],
  ] as const) {
    if (path === undefined) continue;
    const bytes = await read(path, about);
    if (bytes === undefined) return 2;
    request[key] = bytes;
  }
  if (flags.interim.length > 0) {
    const interim: Uint8Array[] = [];
    for (const [i, path] of flags.interim.entries()) {
      const bytes = await read(path, "--interim", i);
      if (bytes === undefined) return 2;
      interim.push(bytes);
    }
    request.interim = interim;
  }
  const r = inspect(request, { bytes: Boolean(flags.bytes), all: Boolean(flags.all) });
  if (!r.ok && r.pending) {
    // Not a fault: the Task has not ended. Exit 3, as verify; what it carries is explained on stdout.
    io.stdout(flags.format === "json" ? renderExplanationJson(r.pending) : renderPendingText(r.pending));
    return 3;
  }
  if (!r.ok) {
    io.stderr(inspectFailureLine(r, files));
    return 2;
  }
  io.stdout(flags.format === "json" ? renderExplanationJson(r.value) : renderExplanationText(r.value));
  return 0;
}

/**
 * `verify --explain`: one input's explanation as `inspect` prints it, to follow the report; ""
 * for an input that could not be read or explained — the report has already said why. `run` is
 * the verify run's request, of which the explanation takes the trust file, --task, --first-task,
 * --interim, --cosignatures and --at. A Task that has not ended is explained as pending, as inspect
 * prints it.
 */
export function explanationOf(
  item: { readonly source: string; readonly data?: InspectRequest["data"] },
  run: Pick<InspectRequest, "trust" | "task" | "firstTask" | "cosignatures" | "interim" | "at">,
): string {
  if (item.data === undefined) return "";
  const { trust, task, firstTask, cosignatures, interim, at } = run;
  const request: InspectRequest = {
    source: item.source,
    data: item.data,
    ...(trust !== undefined ? { trust } : {}),
    ...(task !== undefined ? { task } : {}),
    ...(firstTask !== undefined ? { firstTask } : {}),
    ...(cosignatures !== undefined ? { cosignatures } : {}),
    ...(interim !== undefined ? { interim } : {}),
    ...(at !== undefined ? { at } : {}),
  };
  const r = inspect(request, { bytes: false, all: false });
  if (!r.ok) return r.pending ? `\n${renderPendingText(r.pending)}` : "";
  return `\n${renderExplanationText(r.value)}`;
}

export function registerInspectCommand(program: Command, { io, setExit }: CommandContext): void {
  const command = program
    .command("inspect")
    .summary("explain every derivation step; no verdict")
    .description(
      "decode one input and print, in order, every value verify derives from it: where the bundle was found, the canonical bytes behind each digest, the COSE headers and Sig_structure, each fold of the log proofs, the checkpoint's signed digest, the receipts, the continuity chain, the trust-file entry each key matches, the commitments ('-' = stdin)",
    )
    .argument("<input>", "input file ('-' for standard input)")
    .option("--trust <file>", "trust configuration: which entry each key matches (env A2A_EVIDENCE_TRUST)");
  addObservationOptions(command)
    .option("--cosignatures <file>", "C2SP cosignature lines for the input's checkpoints")
    .addOption(
      new Option("--format <format>", "output format (json: schemas/inspect.schema.json)")
        .choices(INSPECT_FORMATS)
        .default("text"),
    )
    .option("--bytes", "print the canonical bytes too, not only their length and SHA-256")
    .option("--all", "list every entry (default: 20 of each list, then how many more)")
    .option(
      "--at <time>",
      "judge key windows against this RFC 3339 time, as verify --at does (without it only independent times judge them)",
    )
    .addHelpText(
      "after",
      wrapHelp(
        [
          "",
          "Exit codes: 0 the input was decoded and explained · 2 it could not be read (usage, unreadable or malformed input, no evidence, invalid trust file) · 3 the Task has not ended (its evidence is pending, as verify reports it); the interim records it carries are explained. inspect never decides a policy: verify does.",
          "",
          "Examples:",
          "  a2a-evidence inspect --trust trust.json task.json",
          "  a2a-evidence inspect --bytes --format json task.json",
        ].join("\n"),
      ),
    )
    .action(async (input: string, flags: InspectFlags) => {
      setExit(await runInspect(input, flags, io));
    });
  // A second --trust or --task would silently replace the first: which one was meant cannot be known.
  onlyOnce(command, ["--trust", ...OBSERVATION_ONCE, "--cosignatures", "--format", "--at"]);
}
