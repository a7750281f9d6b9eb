/**
 * Bounded input reads for the CLI: one open, fstat, and a read capped at the size limit, so a
 * huge or endless input is refused before it is buffered. Errors become one clear message.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

export type ReadResult = { ok: true; bytes: Uint8Array } | { ok: false; message: string };

function describeError(e: unknown, path: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOENT":
      return `${path}: no such file`;
    case "EISDIR":
      return `${path}: is a directory`;
    case "EACCES":
    case "EPERM":
      return `${path}: permission denied`;
    default:
      return `${path}: cannot be read (${code ?? String(e)})`;
  }
}

/**
 * Reads what standard input holds straight from descriptor 0 with read(2), when it is not a
 * character device (a terminal): a file or a pipe, say. Node's stream for it would load its
 * stream and readline machinery, and after the launcher has tuned V8 those compile from source.
 * Returns the bytes read and whether the input ended; a descriptor that is non-blocking and empty
 * for now (EAGAIN) leaves the rest to the stream.
 */
function readStdinDirect(limit: number, chunks: Buffer[]): { total: number; ended: boolean } | ReadResult {
  let total = 0;
  for (;;) {
    const buf = Buffer.allocUnsafeSlow(64 * 1024);
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") return { total, ended: false };
      return { ok: false, message: describeError(e, "stdin") };
    }
    if (n === 0) return { total, ended: true };
    total += n;
    if (total > limit) return { ok: false, message: `stdin exceeds the ${limit}-byte input limit` };
    chunks.push(n === buf.length ? buf : buf.subarray(0, n));
  }
}

/**
 * Whether descriptor 0 is something fstat can tell that is not a character device. (Not on
 * Windows, where reading a pipe's descriptor ends in an EOF error rather than a read of 0.)
 */
function stdinIsPlain(): boolean {
  if (process.platform === "win32") return false;
  try {
    return !fstatSync(0).isCharacterDevice();
  } catch {
    return false;
  }
}

/** Reads standard input, refusing more than `limit` bytes. */
async function readStdin(limit: number): Promise<ReadResult> {
  const chunks: Buffer[] = [];
  let total = 0;
  if (stdinIsPlain()) {
    const direct = readStdinDirect(limit, chunks);
    if ("ok" in direct) return direct;
    if (direct.ended) return { ok: true, bytes: new Uint8Array(Buffer.concat(chunks, direct.total)) };
    total = direct.total;
  }
  try {
    for await (const chunk of process.stdin) {
      const b = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
      total += b.length;
      if (total > limit) return { ok: false, message: `stdin exceeds the ${limit}-byte input limit` };
      chunks.push(b);
    }
  } catch (e) {
    return { ok: false, message: describeError(e, "stdin") };
  }
  return { ok: true, bytes: new Uint8Array(Buffer.concat(chunks)) };
}

/** Reads a file, or standard input for "-", refusing more than `limit` bytes. */
export async function readInput(path: string, limit = MAX_INPUT_BYTES): Promise<ReadResult> {
  if (path === "-") return readStdin(limit);
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    return { ok: false, message: describeError(e, path) };
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { ok: false, message: `${path}: is a directory` };
    if (st.size > limit)
      return { ok: false, message: `${path}: ${st.size} bytes exceeds the ${limit}-byte input limit` };
    // One buffer of the size fstat gives and one byte more, read straight into: the extra byte
    // tells a file that grew since fstat (or a FIFO, which reports size 0) from one that did not,
    // and it grows, still capped, only then. (A fixed large buffer per read cost more than the
    // read itself: each one is a fresh, zeroed mapping.)
    let buf = Buffer.allocUnsafeSlow(Math.min(st.size, limit) + 1);
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        // Full: the cap holds regardless of what fstat said.
        if (total > limit) return { ok: false, message: `${path}: exceeds the ${limit}-byte input limit` };
        const bigger = Buffer.allocUnsafeSlow(Math.min(limit + 1, Math.max(2 * buf.length, 64 * 1024)));
        buf.copy(bigger, 0, 0, total);
        buf = bigger;
      }
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) break;
      total += n;
    }
    if (total > limit) return { ok: false, message: `${path}: exceeds the ${limit}-byte input limit` };
    // The bytes past the input are never read, but they are not left uninitialized either.
    buf.fill(0, total);
    return { ok: true, bytes: new Uint8Array(buf.buffer, buf.byteOffset, total) };
  } catch (e) {
    return { ok: false, message: describeError(e, path) };
  } finally {
    closeSync(fd);
  }
}
