/**
 * Runs one command registered by its own `register…Command` on a fresh program, in-process, with
 * captured streams — the way main() runs the built-in ones (usage errors exit 2).
 */
import { Command, CommanderError } from "commander";
import type { CommandContext } from "../../src/cli/io.js";
import { capturedIo, type CliRun } from "./cli.js";

export type Register = (program: Command, ctx: CommandContext) => unknown;

export async function runCommand(register: Register, args: string[]): Promise<CliRun> {
  const { io, out } = capturedIo();
  let code = 0;
  const program = new Command()
    .name("a2a-evidence")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  register(program, {
    io,
    setExit: (c) => {
      code = c;
    },
  });
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    code = e.exitCode === 0 ? 0 : 2;
  }
  return { code, ...out };
}
