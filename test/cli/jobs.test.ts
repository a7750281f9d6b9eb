/**
 * --jobs N: worker threads verify the inputs, and the output is byte for byte what one thread
 * writes, in every streaming format, exit code included. Runs the built launcher (workers start
 * from it), so it needs dist/ (npm run build).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

const BIN = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));
if (!BUILT) process.stderr.write("SKIPPED: --jobs test: dist/ is not built (npm run build)\n");
const VECTORS = join(REPO_ROOT, "vectors");

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-jobs-"));
  const names = [
    "valid-capture",
    "neg-taskBinding-task-id",
    "valid-rich",
    "inconclusive-unpinned-ts",
    "neg-continuity-prior-root",
    "valid-data-part",
  ];
  for (let i = 0; i < 18; i++) {
    const name = names[i % names.length] as string;
    copyFileSync(join(VECTORS, name, "input.json"), join(dir, `${String(i).padStart(2, "0")}-${name}.json`));
  }
  copyFileSync(join(VECTORS, "valid-stream-ndjson", "input.ndjson"), join(dir, "stream.ndjson"));
  return dir;
}

describe.skipIf(!BUILT)("--jobs", () => {
  it.each(["json", "text", "ndjson", "junit"])(
    "--format %s with 3 worker threads is byte for byte the single-thread report",
    (format) => {
      const dir = folder();
      const args = [BIN, "verify", "--format", format, "--trust", join(VECTORS, "valid-capture", "trust.json"), dir];
      const one = spawnSync(process.execPath, args, { encoding: "utf8" });
      const three = spawnSync(process.execPath, [...args, "--jobs", "3"], { encoding: "utf8" });
      expect(three.stdout).toBe(one.stdout);
      expect(three.status).toBe(one.status);
      expect(three.stderr).toBe(one.stderr);
      expect(one.stdout.length).toBeGreaterThan(1000);
    },
  );

  it("--cosignatures from standard input reaches the worker threads: the same report as from a file", () => {
    // Each worker is handed the file's bytes, read again: standard input gives what it gave first.
    const dir = folder();
    // Beside the folder, not in it: a folder walk skips the run's own configuration files.
    const cosignatures = join(mkdtempSync(join(tmpdir(), "a2a-evidence-cosignatures-")), "cosignatures.json");
    writeFileSync(cosignatures, "[]");
    const args = [BIN, "verify", "--format", "json", "--trust", join(VECTORS, "valid-capture", "trust.json")];
    const fromFile = spawnSync(process.execPath, [...args, "--cosignatures", cosignatures, dir], { encoding: "utf8" });
    const fromStdin = spawnSync(process.execPath, [...args, "--jobs", "2", "--cosignatures", "-", dir], {
      encoding: "utf8",
      input: "[]",
    });
    expect(fromStdin.stderr).toBe(fromFile.stderr);
    expect(fromStdin.status).toBe(fromFile.status);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    expect(fromFile.stdout.length).toBeGreaterThan(1000);
  });

  it("--cosignatures from a pipe that can be read once (process substitution): the same report as one thread", () => {
    // The workers are handed the bytes the main thread read: the pipe, read again, gives nothing.
    const dir = folder();
    const trust = join(VECTORS, "valid-capture", "trust.json");
    const run = (jobs: string) =>
      spawnSync(
        "bash",
        [
          "-c",
          `exec "$0" "$1" verify --format json --jobs ${jobs} --trust "$2" --cosignatures <(printf '[]') "$3"`,
          process.execPath,
          BIN,
          trust,
          dir,
        ],
        { encoding: "utf8" },
      );
    const one = run("1");
    const two = run("2");
    expect(one.status).toBe(1);
    expect(two.stderr).toBe(one.stderr);
    expect(two.status).toBe(one.status);
    expect(two.stdout).toBe(one.stdout);
  });

  it("inputs that are pipes (process substitution), which can be read once: the same report as one thread", () => {
    const run = (jobs: string) =>
      spawnSync(
        "bash",
        [
          "-c",
          `exec "$0" "$1" verify --format json --jobs ${jobs} --trust "$2" <(cat "$3") <(cat "$4") <(cat "$3")`,
          process.execPath,
          BIN,
          join(VECTORS, "valid-capture", "trust.json"),
          join(VECTORS, "valid-capture", "input.json"),
          join(VECTORS, "neg-taskBinding-task-id", "input.json"),
        ],
        { encoding: "utf8" },
      );
    const one = run("1");
    const two = run("2");
    expect(one.status).toBe(1);
    expect(JSON.parse(one.stdout).inputs.map((i: { shape?: string }) => i.shape)).toEqual([
      "capture",
      "capture",
      "capture",
    ]);
    expect(two.stderr).toBe(one.stderr);
    expect(two.status).toBe(one.status);
    expect(two.stdout).toBe(one.stdout);
  });

  it("pipes under --shard: each input is verified by the worker that read it for the checkpoint comparison", () => {
    // The comparison pass takes every input, in the whole run's order; the verification pass only
    // the shard's. A pipe is read once, by one worker: the second pass must hand it to that one.
    const run = (jobs: string, shard: string) =>
      spawnSync(
        "bash",
        [
          "-c",
          `exec "$0" "$1" verify --format json --jobs ${jobs} --shard ${shard} --trust "$2" ${'<(cat "$3") '.repeat(6)}`,
          process.execPath,
          BIN,
          join(VECTORS, "valid-capture", "trust.json"),
          join(VECTORS, "valid-capture", "input.json"),
        ],
        { encoding: "utf8" },
      );
    for (const shard of ["1/2", "2/2"]) {
      const one = run("1", shard);
      const two = run("2", shard);
      expect(one.stderr).toBe("");
      expect(one.status).toBe(0);
      expect(JSON.parse(one.stdout).inputs.length).toBeGreaterThan(1);
      expect(two.stderr).toBe(one.stderr);
      expect(two.status).toBe(one.status);
      expect(two.stdout).toBe(one.stdout);
    }
  });

  it("an unusable --jobs is a usage error", () => {
    const r = spawnSync(process.execPath, [BIN, "verify", "--jobs", "0", "x.json"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--jobs: "0" is not a number of threads from 1 to 64/);
  });
});
