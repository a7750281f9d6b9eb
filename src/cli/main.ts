/**
 * The command line. Only this layer touches files, standard streams, the environment and the exit
 * code; everything it calls is pure. One file per command; usage errors exit 2 (commander's
 * default of 1 would read as "evidence FAILed" to a CI gate).
 */
import { Command, CommanderError } from "commander";
import { TOOL_VERSION } from "../version.js";
import { printable } from "../util/printable.js";
import {
  guardStdout,
  outputExitCode,
  processIo,
  UsageError,
  type CliIo,
  type CommandContext,
  type CommandHost,
} from "./io.js";

export type { CliIo } from "./io.js";

/**
 * commander's error text made printable. Its own line breaks are the last one and the one before
 * a "(Did you mean …?)" suggestion; any other came in with what was typed, and is escaped.
 */
function printableLines(text: string): string {
  const last = text.endsWith("\n") ? "\n" : "";
  const body = last ? text.slice(0, -1) : text;
  return `${body
    .split(/\n(?=\(Did you mean )/)
    .map(printable)
    .join("\n")}${last}`;
}

type Register = (program: Command, ctx: CommandContext) => void;

/**
 * The commands, each loaded only when it runs: `verify` never loads the network client or the JWS
 * library, and start-up stays close to bare Node. Help and unknown commands load them all.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  verify: async () => (await import("./verify.js")).registerVerifyCommand,
  inspect: async () => (await import("./inspect.js")).registerInspectCommand,
  fetch: async () => (await import("./fetch.js")).registerFetchCommand,
  "verify-card": async () => (await import("./verify-card.js")).registerVerifyCardCommand,
  vectors: async () => (await import("./vectors.js")).registerVectorsCommand,
  merge: async () => (await import("./merge.js")).registerMergeCommand,
};

async function buildProgram(ctx: CommandContext, argv: readonly string[]): Promise<Command> {
  const program = new Command();
  program
    .name("a2a-evidence")
    .description(
      "Offline verifier for A2A Task Evidence bundles. Reports every property separately; never an aggregate verdict; never touches the network (except the fetch command).",
    )
    .version(TOOL_VERSION, "-V, --version")
    .exitOverride()
    .configureHelp({ helpWidth: 80 })
    // commander's error lines repeat what was typed (an unknown option, a bad value): made printable.
    .configureOutput({
      writeOut: ctx.io.stdout,
      writeErr: ctx.io.stderr,
      outputError: (t, write) => write(printableLines(t)),
    })
    .showHelpAfterError("(run a2a-evidence --help for usage)");
  const first = argv[0];
  const names = first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
  for (const name of names) (await (COMMANDS[name] as () => Promise<Register>)())(program, ctx);
  // A usage error points at the help of the command that was run; a misspelt command, at the list.
  for (const command of program.commands)
    command.showHelpAfterError(`(run a2a-evidence ${command.name()} --help for usage)`);
  return program;
}

/** Runs the CLI with the given arguments (without the node and script paths); returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo, host: CommandHost = {}): Promise<number> {
  if (io === processIo) {
    guardStdout();
    return outputExitCode(await run(argv, io, host));
  }
  return run(argv, io, host);
}

/** Serves `--jobs` inputs in a worker thread (loaded only there). */
export async function runJobWorker(): Promise<void> {
  (await import("./jobs.js")).runJobWorker();
}

async function run(argv: readonly string[], io: CliIo, host: CommandHost): Promise<number> {
  let exitCode = 0;
  const program = await buildProgram(
    {
      io,
      host,
      setExit: (c) => {
        exitCode = c;
      },
    },
    argv,
  );
  if (argv.length === 0) {
    io.stderr(program.helpInformation());
    return 2;
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version exit 0; every usage error exits 2.
      return e.exitCode === 0 ? 0 : 2;
    }
    if (e instanceof UsageError) {
      io.stderr(`a2a-evidence: ${printable(e.message)}\n`);
      return 2;
    }
    io.stderr(`a2a-evidence: internal error: ${printable(e instanceof Error ? e.message : String(e))}\n`);
    return 2;
  }
}
