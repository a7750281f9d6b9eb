/**
 * The command line. Only this layer touches files, standard streams, the environment and the exit
 * code; everything it calls is pure. One file per command; usage errors exit 2 (commander's
 * default of 1 would read as "evidence FAILed" to a CI gate).
 */
import { Command, CommanderError } from "commander";
import { TOOL_VERSION } from "../version.js";
import { guardStdout, outputExitCode, processIo, UsageError, type CliIo, type CommandContext } from "./io.js";
import { registerVerifyCommand } from "./verify.js";
import { registerFetchCommand } from "./fetch.js";
import { registerVerifyCardCommand } from "./verify-card.js";
import { registerVectorsCommand } from "./vectors.js";

export type { CliIo } from "./io.js";

const COMMANDS: readonly ((program: Command, ctx: CommandContext) => void)[] = [registerVerifyCommand, registerFetchCommand, registerVerifyCardCommand, registerVectorsCommand];

function buildProgram(ctx: CommandContext): Command {
  const program = new Command();
  program
    .name("a2a-evidence")
    .description("Offline verifier for A2A Task Evidence bundles. Reports every property separately; never an aggregate verdict; never touches the network (except the fetch command).")
    .version(TOOL_VERSION, "-V, --version")
    .exitOverride()
    .configureHelp({ helpWidth: 80 })
    .configureOutput({ writeOut: ctx.io.stdout, writeErr: ctx.io.stderr })
    .showHelpAfterError("(run a2a-evidence verify --help for usage)");
  for (const register of COMMANDS) register(program, ctx);
  return program;
}

/** Runs the CLI with the given arguments (without the node and script paths); returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  if (io === processIo) {
    guardStdout();
    return outputExitCode(await run(argv, io));
  }
  return run(argv, io);
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = buildProgram({
    io,
    setExit: (c) => {
      exitCode = c;
    },
  });
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
      io.stderr(`a2a-evidence: ${e.message}\n`);
      return 2;
    }
    io.stderr(`a2a-evidence: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}
