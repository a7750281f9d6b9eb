/** Runs the CLI in-process with captured streams. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main, type CliIo } from "../../src/cli/main.js";
import type { CommandHost } from "../../src/cli/io.js";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A CliIo that keeps what is written to stdout and stderr (in `out`); `more` sets its other members. */
export function capturedIo(more: Partial<Omit<CliIo, "stdout" | "stderr">> = {}): {
  io: CliIo;
  out: { stdout: string; stderr: string };
} {
  const out = { stdout: "", stderr: "" };
  const io: CliIo = {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    env: {},
    stdoutIsTTY: false,
    ...more,
  };
  return { io, out };
}

export async function runCli(
  args: string[],
  options: {
    env?: Record<string, string>;
    tty?: boolean;
    stderrTTY?: boolean;
    host?: CommandHost;
    /** The terminal's width, when stdout is a TTY. */
    columns?: number;
  } = {},
): Promise<CliRun> {
  const { io, out } = capturedIo({
    env: options.env ?? {},
    stdoutIsTTY: options.tty ?? false,
    ...(options.columns !== undefined ? { stdoutColumns: options.columns } : {}),
    stderrIsTTY: options.stderrTTY ?? false,
  });
  const code = await main(args, io, options.host);
  return { code, ...out };
}

export function tempFile(name: string, content: string | Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-test-"));
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
