/** The CLI's only contact with the process: standard streams, the environment, the TTY. */
import { fstatSync, statSync, writeSync } from "node:fs";
import { InvalidArgumentError, type Command } from "commander";
import { printable } from "../util/printable.js";

export interface CliIo {
  readonly stdout: (text: string) => void;
  /** Writes to stdout and waits while the reader is behind, so a long report is never buffered whole. */
  readonly write?: (text: string) => Promise<void>;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdoutIsTTY: boolean;
  /** The terminal's width in columns, when standard output is a terminal. */
  readonly stdoutColumns?: number | undefined;
  /** Standard input is a terminal: reading '-' then waits for the user to type. */
  readonly stdinIsTTY?: boolean;
  /** Standard error is a terminal: a progress bar may be shown there. */
  readonly stderrIsTTY?: boolean;
}

/** Set once standard output has failed: nothing more is written to it. */
let stdoutFault: "EPIPE" | "OTHER" | undefined;
/** main() has taken charge of write errors (see guardStdout). */
let guarded = false;

/**
 * How standard output is written. A file, a pipe, a socket or a memory device (/dev/null) is
 * written straight with write(2), blocking as a pipe's reader falls behind: Node's stream for it
 * would load Node's whole stream machinery, a noticeable share of a one-input run's start-up. So
 * is anything else fstat can tell that is not a character device: a directory, say, for which
 * Node's stream would silently drop the report, where write(2) fails and the failure is reported.
 * A terminal or another character device, anything fstat cannot tell, and a descriptor that
 * turns out to be non-blocking (EAGAIN) go through `process.stdout`, which handles them. Decided
 * once, on first use.
 */
let stdoutRoute: "direct" | "stream" | undefined;

/**
 * The descriptor is not a character device (a file, a pipe, a socket, a directory…) or is one of
 * Linux's memory devices (/dev/null, /dev/zero, /dev/full: major 1): never a terminal. False when
 * fstat cannot tell.
 */
function plainDescriptor(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    return !st.isCharacterDevice() || (process.platform === "linux" && ((st.rdev >> 8) & 0xfff) === 1);
  } catch {
    return false;
  }
}

function route(): "direct" | "stream" {
  stdoutRoute ??= plainDescriptor(1) ? "direct" : "stream";
  return stdoutRoute;
}

const listened = new WeakSet<NodeJS.WriteStream>();
/** The stream, with `onError` listening to it once main() guards the output. */
function guardedStream(s: NodeJS.WriteStream, onError: (e: NodeJS.ErrnoException) => void): NodeJS.WriteStream {
  if (guarded && !listened.has(s)) {
    listened.add(s);
    s.on("error", onError);
  }
  return s;
}

const stdoutStream = (): NodeJS.WriteStream => guardedStream(process.stdout, fault);

/**
 * Standard error, which can fail too (a full disk under `> log 2>&1`, a reader of `2>&1 | head`
 * that stopped): nothing is left to tell that to, and dying of it unhandled exits 1, which reads
 * as a FAIL. Under main()'s guard its write errors are dropped and the exit code stands.
 */
const stderrStream = (): NodeJS.WriteStream => guardedStream(process.stderr, () => {});

function fault(e: NodeJS.ErrnoException): void {
  if (stdoutFault !== undefined) return;
  stdoutFault = e.code === "EPIPE" ? "EPIPE" : "OTHER";
  if (stdoutFault === "EPIPE") return;
  process.exitCode = 2;
  stderrStream().write(`a2a-evidence: cannot write the report to standard output: ${e.code ?? e.message}\n`);
}

/**
 * Writes `t` to descriptor 1 with write(2), whole. Returns the bytes still to write when the
 * descriptor is non-blocking and full (EAGAIN): from then on the stream writes. Other errors are
 * faults, as the stream would report them; without main()'s guard they are thrown, as the
 * stream's unhandled 'error' would be.
 */
function writeDirect(t: string): Uint8Array | undefined {
  const bytes = Buffer.from(t, "utf8");
  let done = 0;
  while (done < bytes.length) {
    try {
      const n = writeSync(1, bytes, done, bytes.length - done);
      // write(2) of a positive length returns at least 1 or fails; should it ever not, the
      // stream takes the rest rather than this loop spinning.
      if (n === 0) {
        stdoutRoute = "stream";
        return bytes.subarray(done);
      }
      done += n;
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === "EAGAIN") {
        stdoutRoute = "stream";
        return bytes.subarray(done);
      }
      if (!guarded) throw err;
      fault(err);
      return undefined;
    }
  }
  return undefined;
}

function writeStdout(t: string): void {
  if (stdoutFault !== undefined) return;
  if (route() === "direct") {
    const rest = writeDirect(t);
    if (rest === undefined) return;
    stdoutStream().write(rest);
    return;
  }
  stdoutStream().write(t);
}

export const processIo: CliIo = {
  stdout: writeStdout,
  stderr: (t) => stderrStream().write(t),
  env: process.env,
  // Asked only when they matter: opening a standard stream as a Node stream (to ask) loads a good
  // part of Node's stream and file-handle modules, a noticeable share of a one-input run's start-up.
  get stdoutIsTTY() {
    return route() === "stream" && Boolean(process.stdout.isTTY);
  },
  get stdoutColumns() {
    return route() === "stream" && process.stdout.isTTY ? process.stdout.columns : undefined;
  },
  write: (t) =>
    new Promise((resolve) => {
      if (stdoutFault !== undefined) return resolve();
      let rest: string | Uint8Array = t;
      if (route() === "direct") {
        const left = writeDirect(t);
        if (left === undefined) return resolve();
        rest = left;
      }
      const s = stdoutStream();
      if (s.write(rest)) return resolve();
      // The reader is behind: wait for it, or for the write error the output guard reports.
      const done = () => {
        s.off("drain", done);
        s.off("error", done);
        s.off("close", done);
        resolve();
      };
      s.once("drain", done).once("error", done).once("close", done);
    }),
  get stdinIsTTY() {
    return !plainDescriptor(0) && Boolean(process.stdin.isTTY);
  },
  get stderrIsTTY() {
    return !plainDescriptor(2) && Boolean(process.stderr.isTTY);
  },
};

/**
 * The CLI never dies of its own output (contract §9.21). A reader that stopped (`| head`, EPIPE)
 * ends the run quietly with the exit code already decided; any other write error (ENOSPC, EIO) is
 * one line on stderr and exit 2. A direct write reports its error at once, the stream after the
 * write, so the exit code is set here as well as returned by `outputExitCode`.
 */
export function guardStdout(): void {
  guarded = true;
  if (stdoutRoute === "stream") stdoutStream();
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
  /**
   * Called, perhaps more than once, when the run has much to verify: many inputs, a large one, or
   * worker threads to start (before they start). The launcher keeps V8's baseline compiler off
   * until then, since a run over a few bundles of usual size is quicker without it. It changes
   * no result.
   */
  readonly sustained?: () => void;
  /**
   * Called once, before a run over many inputs in this thread (not one that starts worker
   * threads): most of what V8's old generation then holds is garbage each input left, and the
   * launcher has V8 collect it sooner, so peak memory stays near what the run keeps. A run over a
   * few inputs, or over one large one, never calls it. It changes no result.
   */
  readonly manyInputs?: () => void;
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

/**
 * Makes the command's named single-valued options refuse a second value. commander keeps a
 * repeated option's last value, so a second --trust (or --task, --min-evidence…), appended by a
 * script, would silently replace what the first asked for; which one was meant cannot be known.
 */
export function onlyOnce(command: Command, longs: readonly string[]): void {
  for (const option of command.options) {
    if (!longs.includes(option.long ?? "")) continue;
    const parse = option.parseArg;
    // A default (`--format text`) is the value before the first one given, not a first value:
    // what counts is whether the option was given already, in this parse.
    let given = false;
    option.argParser((value: string) => {
      if (given) throw new InvalidArgumentError("given twice: which one is meant cannot be known");
      given = true;
      return parse ? parse(value, undefined) : value;
    });
  }
}

/**
 * The file among `reads` that `output` names (the same file, by device and inode, whatever the
 * spelling or links), if any: opening the output there would empty an input before it is read.
 */
export function readFileAt(output: string, reads: readonly (string | undefined)[]): string | undefined {
  let target: { dev: number; ino: number };
  try {
    target = statSync(output);
  } catch {
    return undefined;
  }
  for (const path of reads) {
    if (path === undefined || path === "-" || path === "") continue;
    try {
      const st = statSync(path);
      if (st.dev === target.dev && st.ino === target.ino) return path;
    } catch {
      // Unreadable: reading it will say so.
    }
  }
  return undefined;
}

/** Why `output` (given as `flag`) is refused when it is `input`, a file the run reads; `what` is what would be written. */
export function overwriteMessage(flag: string, output: string, input: string, what = "the report"): string {
  return `${flag}: ${printable(output)} is ${printable(input)}, which this run reads: ${what} would overwrite it`;
}
