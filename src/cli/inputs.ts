/**
 * What the verify command's arguments name: files, '-' (stdin), directories (every *.json,
 * *.ndjson and *.sse below them, and the gRPC forms *.binpb and *.grpc, recursively, in a stable
 * order) and @list files (one path per line; blank lines and lines starting with '#' are skipped;
 * paths relative to the current directory; a list cannot name standard input). A directory or list that names no input is an
 * error for that argument: an argument that verifies nothing must not look like one that passed.
 * A directory walk skips the files the run itself reads as its configuration (the trust file,
 * `--cosignatures`, `--checkpoints`, an @list file, the output, the caller's observation), known
 * by device and inode whatever their spelling; a file named on the command line is never skipped.
 * `--shard i/n` keeps the i-th of n disjoint parts, chosen from each path's text, so
 * n machines given the same arguments verify every input exactly once.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readInput } from "./read.js";
import { isFailedInput, type InputError, type InputReport } from "../report/model.js";
import { MAX_LISTED } from "../json/diff.js";
import { printable } from "../util/printable.js";

/** The file names a directory walk takes as inputs: JSON, NDJSON, SSE, and gRPC (contract §3.1). */
const INPUT_SUFFIXES = [".json", ".ndjson", ".sse", ".binpb", ".grpc"] as const;

/** `*.json, *.ndjson, *.sse, *.binpb or *.grpc`, for messages. */
const INPUT_KINDS = `${INPUT_SUFFIXES.slice(0, -1)
  .map((s) => `*${s}`)
  .join(", ")} or *${INPUT_SUFFIXES.at(-1)}`;

export interface Expanded {
  /** The inputs, in order. */
  readonly paths: readonly string[];
  /** Arguments that could not be expanded (an unreadable list or directory), with the reason. */
  readonly errors: readonly { readonly path: string; readonly message: string }[];
  /** Files a directory walk met that the run reads as its configuration: not verified. */
  readonly skipped: readonly string[];
  /** The inputs a directory walk found, each with the directory argument it came from. */
  readonly walked: ReadonlyMap<string, string>;
}

interface Walk {
  readonly out: string[];
  readonly errors: { path: string; message: string }[];
  readonly seen: Set<string>;
  /** Device and inode of every file the run reads as its configuration. */
  readonly config: ReadonlySet<string>;
  readonly skipped: string[];
}

/** Device and inode of each file that exists: how a walk knows a file whatever its spelling. */
export function fileIds(paths: readonly (string | undefined)[]): Set<string> {
  const ids = new Set<string>();
  for (const p of paths) {
    if (p === undefined || p === "" || p === "-") continue;
    try {
      const st = statSync(p);
      if (st.isFile()) ids.add(`${st.dev}:${st.ino}`);
    } catch {
      // Not there: reading it will say so.
    }
  }
  return ids;
}

/**
 * `seen` holds every directory walked (device and inode): a symlink back into the tree (a loop,
 * or several links to one place) is not walked again, so each file is listed once and the walk
 * stays linear in the tree, not exponential in its links.
 */
function walk(dir: string, w: Walk): void {
  try {
    const st = statSync(dir);
    const id = `${st.dev}:${st.ino}`;
    if (w.seen.has(id)) return;
    w.seen.add(id);
  } catch {
    // Unreadable: readdirSync below says why.
  }
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (e) {
    w.errors.push({
      path: dir,
      message: `cannot be listed (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
    });
    return;
  }
  for (const name of entries) {
    const path = join(dir, name);
    let id: string | undefined;
    let isDir = false;
    try {
      const st = statSync(path);
      isDir = st.isDirectory();
      id = `${st.dev}:${st.ino}`;
    } catch {
      isDir = false;
    }
    if (isDir) walk(path, w);
    else if (!INPUT_SUFFIXES.some((s) => name.endsWith(s))) continue;
    else if (id !== undefined && w.config.has(id)) w.skipped.push(path);
    else w.out.push(path);
  }
}

/** `config`: the files the run reads as its configuration, skipped where a directory walk meets them. */
export async function expandInputs(
  args: readonly string[],
  config: readonly (string | undefined)[] = [],
): Promise<Expanded> {
  const paths: string[] = [];
  const errors: { path: string; message: string }[] = [];
  const skipped: string[] = [];
  const walked = new Map<string, string>();
  const ids = fileIds(config);
  const named = new Set<string>();
  for (const arg of args) {
    if (arg === "-") {
      paths.push(arg);
    } else if (arg.startsWith("@") && arg.length > 1) {
      const list = await readInput(arg.slice(1));
      if (!list.ok) {
        errors.push({ path: arg, message: list.reason });
        continue;
      }
      let count = 0;
      let refused = false;
      for (const line of Buffer.from(list.bytes).toString("utf8").split(/\r?\n/)) {
        const p = line.trim();
        if (p === "" || p.startsWith("#")) continue;
        if (p === "-") {
          if (!refused)
            errors.push({
              path: arg,
              message: "names standard input ('-'); give '-' as an argument instead",
            });
          refused = true;
          continue;
        }
        paths.push(p);
        named.add(p);
        count++;
      }
      if (count === 0 && !refused) errors.push({ path: arg, message: "names no input" });
    } else {
      let isDir = false;
      try {
        isDir = statSync(arg).isDirectory();
      } catch {
        isDir = false;
      }
      if (!isDir) {
        paths.push(arg);
        named.add(arg);
      } else walkArgument(arg, { out: paths, errors, seen: new Set(), config: ids, skipped }, walked);
    }
  }
  // A file named on the command line or in a list is never skipped, even where a walk meets it too.
  for (const p of named) walked.delete(p);
  return { paths, errors, skipped, walked };
}

/** One directory argument: its inputs, or an error for it when it holds none. */
function walkArgument(arg: string, w: Walk, walked: Map<string, string>): void {
  const before = w.out.length;
  const errors = w.errors.length;
  const skipped = w.skipped.length;
  walk(arg, w);
  for (const p of w.out.slice(before)) walked.set(p, arg);
  if (w.out.length + w.errors.length > before + errors) return;
  w.errors.push({
    path: arg,
    message:
      w.skipped.length > skipped
        ? `holds no ${INPUT_KINDS} file besides the files this run reads as its configuration`
        : `holds no ${INPUT_KINDS} file`,
  });
}

/** `i/n` with 1 ≤ i ≤ n; undefined when it is not that. */
export function parseShard(text: string): { index: number; count: number } | undefined {
  const m = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(text);
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return index <= count ? { index, count } : undefined;
}

/** FNV-1a over the path's UTF-16 code units: stable across machines and Node versions. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function inShard(path: string, shard: { index: number; count: number }): boolean {
  return hash(path) % shard.count === shard.index - 1;
}

/**
 * An input error that says a file is not an A2A input at all — a JSON value of no A2A shape, or
 * an array that is not a stream of events — rather than an A2A input that is broken.
 */
export function isNotAnInput(e: InputError): boolean {
  if (e.code === "INPUT_UNKNOWN_SHAPE") return e.path === "$" && !e.message.startsWith("a capture");
  return e.code === "INPUT_STREAM_MALFORMED" && e.path === "event[1]" && e.message === "event 1 is not a JSON object";
}

/**
 * What a run leaves out of its directory walks: the files it reads as its configuration and,
 * with `--skip-unknown`, the walked files that are not A2A inputs; said in one line at the end.
 * A directory every input of which was skipped is an error for that directory.
 */
export class Skips {
  private readonly unknown: string[] = [];
  private unknownCount = 0;
  /** Per directory argument: how many of its inputs this run verifies, and how many were skipped. */
  private readonly perDir = new Map<string, { inputs: number; skipped: number }>();

  constructor(
    private readonly expanded: Expanded,
    paths: readonly string[],
    private readonly skipUnknown: boolean,
  ) {
    for (const p of paths) {
      const dir = expanded.walked.get(p);
      if (dir === undefined) continue;
      const d = this.perDir.get(dir) ?? { inputs: 0, skipped: 0 };
      d.inputs++;
      this.perDir.set(dir, d);
    }
  }

  /** Whether this report is of a walked file that is not an A2A input, skipped under --skip-unknown. */
  skips(input: InputReport): boolean {
    if (!this.skipUnknown || !isFailedInput(input) || !isNotAnInput(input.error)) return false;
    const dir = this.expanded.walked.get(input.source);
    if (dir === undefined) return false;
    if (this.unknown.length <= MAX_LISTED) this.unknown.push(input.source);
    this.unknownCount++;
    const d = this.perDir.get(dir);
    if (d) d.skipped++;
    return true;
  }

  /** The directory arguments whose every input was skipped: an error each, as a directory holding none. */
  emptied(): { path: string; message: string }[] {
    return [...this.perDir]
      .filter(([, d]) => d.inputs > 0 && d.skipped === d.inputs)
      .map(([path, d]) => ({
        path,
        message: `holds no A2A input (its ${d.skipped} ${INPUT_KINDS} file(s) are not inputs)`,
      }));
  }

  /** The one line that says what was skipped, or undefined when nothing was. */
  line(): string | undefined {
    const parts: string[] = [];
    const { skipped } = this.expanded;
    if (skipped.length > 0)
      parts.push(`${skipped.length} file(s) this run reads as its configuration (${listed(skipped, skipped.length)})`);
    if (this.unknownCount > 0)
      parts.push(
        `${this.unknownCount} file(s) that are not A2A inputs (--skip-unknown: ${listed(this.unknown, this.unknownCount)})`,
      );
    return parts.length > 0 ? `skipped in the folders given: ${parts.join("; ")}` : undefined;
  }
}

function listed(paths: readonly string[], total: number): string {
  const shown = paths.slice(0, MAX_LISTED).map((p) => printable(p));
  return `${shown.join(", ")}${total > shown.length ? ` and ${total - shown.length} more` : ""}`;
}
