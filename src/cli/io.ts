/** The CLI's only contact with the process: standard streams, the environment, the TTY. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  /** Writes to stdout and waits while the reader is behind, so a long report is never buffered whole. */
  readonly write?: (text: string) => Promise<void>;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdoutIsTTY: boolean;
  /** Standard input is a terminal: reading '-' then waits for the user to type. */
  readonly stdinIsTTY?: boolean;
  /** Standard error is a terminal: a progress bar may be shown there. */
  readonly stderrIsTTY?: boolean;
}

/** Set once standard output has failed: nothing more is written to it. */
let stdoutFault: "EPIPE" | "OTHER" | undefined;

export const processIo: CliIo = {
  stdout: (t) => {
    if (stdoutFault === undefined) process.stdout.write(t);
  },
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  write: (t) =>
    new Promise((resolve) => {
      if (stdoutFault !== undefined || process.stdout.write(t)) return resolve();
      // The reader is behind: wait for it, or for the write error the output guard reports.
      const done = () => {
        process.stdout.off("drain", done);
        process.stdout.off("error", done);
        process.stdout.off("close", done);
        resolve();
      };
      process.stdout.once("drain", done).once("error", done).once("close", done);
    }),
  // Asked only when they matter: opening standard input as a stream (to ask) loads a good part of
  // Node's stream and file-handle modules, a noticeable share of a one-input run's start-up.
  get stdinIsTTY() {
    return Boolean(process.stdin.isTTY);
  },
  get stderrIsTTY() {
    return Boolean(process.stderr.isTTY);
  },
};

/**
 * The CLI never dies of its own output (contract §9.21). A reader that stopped (`| head`, EPIPE)
 * ends the run quietly with the exit code already decided; any other write error (ENOSPC, EIO) is
 * one line on stderr and exit 2. Write errors arrive after the write, so the exit code is set
 * here as well as returned by `outputExitCode`.
 */
export function guardStdout(): void {
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (stdoutFault !== undefined) return;
    stdoutFault = e.code === "EPIPE" ? "EPIPE" : "OTHER";
    if (stdoutFault === "EPIPE") return;
    process.stderr.write(`a2a-evidence: cannot write the report to standard output: ${e.code ?? e.message}\n`);
    process.exitCode = 2;
  });
}

/** The exit code once output is accounted for: 2 after a write error other than EPIPE. */
export function outputExitCode(code: number): number {
  return stdoutFault === "OTHER" ? 2 : code;
}

/** A usage error: reported on one line, exit 2 (commander's default of 1 would read as FAIL). */
export class UsageError extends Error {}

/** What the launcher tells the CLI about the process it runs in. */
export interface CommandHost {
  /** A file a worker thread can start to serve `--jobs` (the launcher itself); without it, one thread. */
  readonly workerEntry?: string;
}

/** What a command registers with: the streams, the host, and where it sets the exit code. */
export interface CommandContext {
  readonly io: CliIo;
  readonly setExit: (code: number) => void;
  readonly host?: CommandHost;
}

/** Help text wrapped at 80 columns, paragraphs kept; lines that start with spaces (examples) are left as they are. */
export function wrapHelp(text: string, width = 80): string {
  return text
    .split("\n")
    .map((line) => {
      if (line.length <= width || /^\s/.test(line)) return line;
      const out: string[] = [];
      let current = "";
      for (const word of line.split(" ")) {
        if (current !== "" && current.length + 1 + word.length > width) {
          out.push(current);
          current = word;
        } else current = current === "" ? word : `${current} ${word}`;
      }
      if (current !== "") out.push(current);
      return out.join("\n");
    })
    .join("\n");
}
