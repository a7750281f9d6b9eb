/** The CLI's only contact with the process: standard streams, the environment, the TTY. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdoutIsTTY: boolean;
}

export const processIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  stdoutIsTTY: Boolean(process.stdout.isTTY),
};

/** A usage error: reported on one line, exit 2 (commander's default of 1 would read as FAIL). */
export class UsageError extends Error {}

/** What a command registers with: the streams, and where it sets the exit code. */
export interface CommandContext {
  readonly io: CliIo;
  readonly setExit: (code: number) => void;
}
