/**
 * What the verify command's arguments name: files, '-' (stdin), directories (every *.json,
 * *.ndjson and *.sse below them, recursively, in a stable order) and @list files (one path per
 * line; blank lines and lines starting with '#' are skipped; paths relative to the current
 * directory; a list cannot name standard input). A directory or list that names no input is an
 * error for that argument: an argument that verifies nothing must not look like one that passed.
 * `--shard i/n` keeps the i-th of n disjoint parts, chosen from each path's text, so
 * n machines given the same arguments verify every input exactly once.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readInput } from "./read.js";

const INPUT_SUFFIXES = [".json", ".ndjson", ".sse"];

export interface Expanded {
  /** The inputs, in order. */
  readonly paths: readonly string[];
  /** Arguments that could not be expanded (an unreadable list or directory), with the reason. */
  readonly errors: readonly { readonly path: string; readonly message: string }[];
}

/**
 * `seen` holds every directory walked (device and inode): a symlink back into the tree (a loop,
 * or several links to one place) is not walked again, so each file is listed once and the walk
 * stays linear in the tree, not exponential in its links.
 */
function walk(dir: string, out: string[], errors: { path: string; message: string }[], seen: Set<string>): void {
  try {
    const st = statSync(dir);
    const id = `${st.dev}:${st.ino}`;
    if (seen.has(id)) return;
    seen.add(id);
  } catch {
    // Unreadable: readdirSync below says why.
  }
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (e) {
    errors.push({ path: dir, message: `${dir}: cannot be listed (${(e as NodeJS.ErrnoException).code ?? String(e)})` });
    return;
  }
  for (const name of entries) {
    const path = join(dir, name);
    let isDir = false;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      isDir = false;
    }
    if (isDir) walk(path, out, errors, seen);
    else if (INPUT_SUFFIXES.some((s) => name.endsWith(s))) out.push(path);
  }
}

export async function expandInputs(args: readonly string[]): Promise<Expanded> {
  const paths: string[] = [];
  const errors: { path: string; message: string }[] = [];
  for (const arg of args) {
    if (arg === "-") {
      paths.push(arg);
    } else if (arg.startsWith("@") && arg.length > 1) {
      const list = await readInput(arg.slice(1));
      if (!list.ok) {
        errors.push({ path: arg, message: `list ${list.message}` });
        continue;
      }
      let named = 0;
      let refused = false;
      for (const line of Buffer.from(list.bytes).toString("utf8").split(/\r?\n/)) {
        const p = line.trim();
        if (p === "" || p.startsWith("#")) continue;
        if (p === "-") {
          if (!refused)
            errors.push({
              path: arg,
              message: `list ${arg.slice(1)}: names standard input ('-'); give '-' as an argument instead`,
            });
          refused = true;
          continue;
        }
        paths.push(p);
        named++;
      }
      if (named === 0 && !refused) errors.push({ path: arg, message: `list ${arg.slice(1)}: names no input` });
    } else {
      let isDir = false;
      try {
        isDir = statSync(arg).isDirectory();
      } catch {
        isDir = false;
      }
      if (!isDir) paths.push(arg);
      else {
        const before = paths.length + errors.length;
        walk(arg, paths, errors, new Set());
        if (paths.length + errors.length === before)
          errors.push({ path: arg, message: `${arg}: holds no *.json, *.ndjson or *.sse file` });
      }
    }
  }
  return { paths, errors };
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
