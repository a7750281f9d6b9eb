/**
 * Where a verify report goes: stdout, or the -o file, written as it grows and never held whole.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { printable } from "../util/printable.js";
import type { CliIo } from "./io.js";

export function writeOut(io: CliIo, text: string): Promise<void> {
  if (io.write) return io.write(text);
  io.stdout(text);
  return Promise.resolve();
}

/** Where the report goes: stdout, or the -o file (written as it grows, never held whole). */
export interface Sink {
  write(text: string): Promise<void>;
  /** Closes the output (once: later calls only answer); false after a write error, said on stderr. */
  close(): boolean;
}

/** The line a report file that cannot be written gets: `a2a-evidence: cannot write out.json: EACCES`. */
export function cannotWriteLine(output: string, e: unknown): string {
  return `a2a-evidence: cannot write ${printable(output)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`;
}

export function openSink(flags: { readonly quiet?: boolean; readonly output?: string }, io: CliIo): Sink | string {
  if (flags.quiet) return { write: async () => {}, close: () => true };
  if (flags.output === undefined) return { write: (t) => writeOut(io, t), close: () => true };
  let fd: number;
  try {
    fd = openSync(flags.output, "w");
  } catch (e) {
    return cannotWriteLine(flags.output, e);
  }
  let fault: { readonly error: unknown } | undefined;
  let closed = false;
  return {
    write: async (t) => {
      if (fault !== undefined || closed) return;
      try {
        writeSync(fd, t);
      } catch (e) {
        fault = { error: e };
      }
    },
    close: () => {
      if (closed) return fault === undefined;
      closed = true;
      closeSync(fd);
      if (fault !== undefined) io.stderr(cannotWriteLine(flags.output as string, fault.error));
      return fault === undefined;
    },
  };
}
