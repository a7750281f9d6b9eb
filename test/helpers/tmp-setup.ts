/**
 * Each test file gets its own temporary folder as TMPDIR (os.tmpdir() reads it on every call, and
 * child processes inherit it), removed when the file's tests end: a test run leaves nothing behind.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const previous = process.env.TMPDIR;
const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-tests-"));
process.env.TMPDIR = dir;

afterAll(() => {
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  rmSync(dir, { recursive: true, force: true });
});
