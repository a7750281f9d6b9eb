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
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: options.env ?? {},
    stdoutIsTTY: options.tty ?? false,
    ...(options.columns !== undefined ? { stdoutColumns: options.columns } : {}),
    stderrIsTTY: options.stderrTTY ?? false,
  };
  const code = await main(args, io, options.host);
  return { code, stdout, stderr };
}

export function tempFile(name: string, content: string | Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-test-"));
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
