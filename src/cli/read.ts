/**
 * Bounded input reads for the CLI: one open, fstat, and a read capped at the size limit, so a
 * huge or endless input is refused before it is buffered. Errors become one clear message.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * The bytes, or why there are none: `reason` says why ("no such file") and `message` says it of
 * the file by name ("task.json: no such file"), for a line that has not named the file already.
 */
export type ReadResult = { ok: true; bytes: Uint8Array } | { ok: false; message: string; reason: string };

function unreadable(path: string, reason: string): ReadResult {
  return { ok: false, message: `${path}: ${reason}`, reason };
}

function describeError(e: unknown, path: string): ReadResult {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOENT":
      return unreadable(path, "no such file");
    case "EISDIR":
      return unreadable(path, "is a directory");
    case "EACCES":
    case "EPERM":
      return unreadable(path, "permission denied");
    default:
      return unreadable(path, `cannot be read (${code ?? String(e)})`);
  }
}

/**
 * What reading a descriptor to its end gave: all its bytes; the bytes so far, when a
 * non-blocking descriptor has nothing for now (EAGAIN); or more than the limit.
 */
type Drained =
  | { readonly ended: true; readonly bytes: Uint8Array }
  | { readonly ended: false; readonly bytes: Uint8Array }
  | { readonly ended: "over" };

/**
 * Reads descriptor `fd` to its end, straight into one buffer of `initial` bytes that doubles as
 * it fills, capped at one byte past the limit: that byte tells an input of exactly the limit from
 * a longer one, and a short read costs only its bytes, however slowly a pipe is fed. (A fixed
 * large buffer per read cost more than the read itself: each one is a fresh mapping.) A read
 * interrupted by a signal is read again; any other error is thrown. The bytes past the input are
 * never read, but they are not left uninitialized either.
 */
function drain(fd: number, initial: number, limit: number): Drained {
  let buf = Buffer.allocUnsafeSlow(Math.min(initial, limit + 1));
  let total = 0;
  for (;;) {
    if (total === buf.length) {
      if (total > limit) return { ended: "over" };
      const bigger = Buffer.allocUnsafeSlow(Math.min(limit + 1, Math.max(2 * buf.length, 64 * 1024)));
      buf.copy(bigger, 0, 0, total);
      buf = bigger;
    }
    let n: number;
    try {
      n = readSync(fd, buf, total, buf.length - total, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EINTR") continue;
      if (code === "EAGAIN") return { ended: false, bytes: buf.subarray(0, total) };
      throw e;
    }
    if (n === 0) {
      buf.fill(0, total);
      return { ended: true, bytes: new Uint8Array(buf.buffer, buf.byteOffset, total) };
    }
    total += n;
  }
}

/**
 * Reads standard input straight from descriptor 0 with read(2): Node's stream for it would load
 * its stream and readline machinery, and after the launcher has tuned V8 those compile from
 * source. The stream continues where a non-blocking descriptor has nothing for now (EAGAIN), and
 * confirms an input that reads as empty at once from a pipe or a socket (one opened non-blocking
 * before its writer connected reads as empty until then; the stream waits for the writer).
 */
function readStdinDirect(limit: number, emptyIsFinal: boolean): Drained | ReadResult {
  let drained: Drained;
  try {
    drained = drain(0, 64 * 1024, limit);
  } catch (e) {
    return describeError(e, "stdin");
  }
  if (drained.ended === true && drained.bytes.length === 0 && !emptyIsFinal)
    return { ended: false, bytes: drained.bytes };
  return drained;
}

/** More than `limit` bytes, found while reading (a pipe, or a file that grew): said as every other reason. */
function overLimit(path: string, limit: number): ReadResult {
  return unreadable(path, `exceeds the ${limit}-byte input limit`);
}

/**
 * How descriptor 0 is read: "file" (or a directory) and "stream" (a pipe or a socket) with
 * read(2), "node" through Node's stream: a terminal or another character device, a descriptor of
 * no file type (an eventfd, say, which a blocking read would wait on for ever), anything fstat
 * cannot tell, and anything on Windows (where reading a pipe's descriptor ends in an EOF error
 * rather than a read of 0).
 */
function stdinKind(): "file" | "stream" | "node" {
  if (process.platform === "win32") return "node";
  try {
    const st = fstatSync(0);
    // A directory is read too: read(2) says what it is (EISDIR), where Node's stream reads nothing.
    if (st.isFile() || st.isDirectory()) return "file";
    return st.isFIFO() || st.isSocket() ? "stream" : "node";
  } catch {
    return "node";
  }
}

/**
 * Standard input can be read once: what the first read gave (the bytes, or why there are none)
 * is what every later read gives, as a run that reads its inputs twice expects.
 */
let stdinRead: Promise<ReadResult> | undefined;

/** Reads standard input, refusing more than `limit` bytes. */
async function readStdin(limit: number): Promise<ReadResult> {
  const first = await (stdinRead ??= readStdinOnce(limit));
  if (first.ok && first.bytes.length > limit) return overLimit("stdin", limit);
  return first;
}

async function readStdinOnce(limit: number): Promise<ReadResult> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const kind = stdinKind();
  if (kind !== "node") {
    const direct = readStdinDirect(limit, kind === "file");
    if ("ok" in direct) return direct;
    if (direct.ended === "over") return overLimit("stdin", limit);
    if (direct.ended) return { ok: true, bytes: direct.bytes };
    chunks.push(direct.bytes);
    total = direct.bytes.length;
  }
  try {
    for await (const chunk of process.stdin) {
      const b = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
      total += b.length;
      if (total > limit) return overLimit("stdin", limit);
      chunks.push(b);
    }
  } catch (e) {
    return describeError(e, "stdin");
  }
  return { ok: true, bytes: new Uint8Array(Buffer.concat(chunks, total)) };
}

/**
 * What reading a path that is not a regular file gave (a pipe such as `<(…)`, /dev/stdin, a
 * device), by path: like standard input it can be read once, and a run reads an input again (after
 * comparing checkpoints across inputs, or in a worker thread's second pass), so a second read
 * gives what the first gave rather than an empty input.
 */
const onceRead = new Map<string, ReadResult>();

/** Reads a file, or standard input for "-", refusing more than `limit` bytes. */
export async function readInput(path: string, limit = MAX_INPUT_BYTES): Promise<ReadResult> {
  if (path === "-") return readStdin(limit);
  const kept = onceRead.get(path);
  if (kept !== undefined) {
    if (kept.ok && kept.bytes.length > limit) return overLimit(path, limit);
    return kept;
  }
  const { result, once } = readPath(path, limit);
  if (once) onceRead.set(path, result);
  return result;
}

function readPath(path: string, limit: number): { readonly result: ReadResult; readonly once: boolean } {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    return { result: describeError(e, path), once: false };
  }
  let once = false;
  const done = (result: ReadResult) => ({ result, once });
  try {
    const st = fstatSync(fd);
    once = !st.isFile() && !st.isDirectory();
    if (st.isDirectory()) return done(unreadable(path, "is a directory"));
    if (st.size > limit) return done(unreadable(path, `${st.size} bytes exceeds the ${limit}-byte input limit`));
    // One buffer of the size fstat gives and one byte more, read straight into: the extra byte
    // tells a file that grew since fstat (or a FIFO, which reports size 0) from one that did not,
    // and it grows, still capped, only then.
    const drained = drain(fd, Math.min(st.size, limit) + 1, limit);
    if (drained.ended === "over") return done(overLimit(path, limit));
    // A file never has nothing for now; a FIFO or device opened without blocking might.
    if (!drained.ended) return done(unreadable(path, "cannot be read (EAGAIN)"));
    return done({ ok: true, bytes: drained.bytes });
  } catch (e) {
    return done(describeError(e, path));
  } finally {
    closeSync(fd);
  }
}
