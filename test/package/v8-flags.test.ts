/**
 * The V8 flags the launcher sets, run by run, as the launcher itself sets them (a hook required
 * in its process records every call of node:v8's setFlagsFromString): its tuning as it starts,
 * the baseline compiler and eager feedback once a run is sustained, and the old generation's
 * slower growth only before a run over many inputs in one thread, never for one large input or a
 * --jobs run. That the flags change no report is the launcher's output test's.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));
if (!BUILT) process.stderr.write("SKIPPED: V8 flags test: dist/ is not built (npm run build)\n");

const LAUNCHER = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
const TRUST = join(REPO_ROOT, "vectors", "valid-capture", "trust.json");
const INPUT = join(REPO_ROOT, "vectors", "valid-capture", "input.json");
const TUNED = "--interrupt-budget=1000000 --semi-space-growth-factor=1 --no-parallel-scavenge --no-sparkplug";
const SUSTAINED = "--sparkplug --no-lazy-feedback-allocation";
const MANY_INPUTS = "--heap-growing-percent=20";

const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-v8-flags-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hook = join(dir, "hook.cjs");
writeFileSync(
  hook,
  `const v8 = require("node:v8");
   const { appendFileSync } = require("node:fs");
   const set = v8.setFlagsFromString;
   v8.setFlagsFromString = (flags) => {
     appendFileSync(process.env.FLAGS_SET, JSON.stringify(flags) + "\\n");
     return set(flags);
   };`,
);

let runs = 0;
/** The flags the launcher set, call by call, in a run of `args`. */
function flagsSet(args: string[]): string[] {
  const report = join(dir, `flags-${runs++}.ndjson`);
  writeFileSync(report, "");
  const r = spawnSync(process.execPath, ["--require", hook, LAUNCHER, "verify", "--trust", TRUST, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", FLAGS_SET: report },
  });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(report, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as string);
}

/** `n` copies of the valid-capture input, each its own file. */
function copies(n: number): string[] {
  return Array.from({ length: n }, (_, k) => {
    const path = join(dir, `c${n}-${k}.json`);
    copyFileSync(INPUT, path);
    return path;
  });
}

describe.skipIf(!BUILT)("the V8 flags the launcher sets", () => {
  it("one input: its tuning only", () => {
    expect(flagsSet([INPUT])).toEqual([TUNED]);
  });

  it("33 inputs in one thread: sustained, then many inputs; 32: its tuning only", () => {
    expect(flagsSet(copies(32))).toEqual([TUNED]);
    expect(flagsSet(copies(33))).toEqual([TUNED, SUSTAINED, MANY_INPUTS]);
  });

  it("33 inputs with --jobs: sustained only (worker threads hold their own heaps)", () => {
    expect(flagsSet(["--jobs", "2", ...copies(33)])).toEqual([TUNED, SUSTAINED]);
  });

  it("one input of 1 MiB: sustained only; beside 32 more, each flag set once though the run says so twice", () => {
    const text = readFileSync(INPUT, "utf8").trimEnd();
    const large = join(dir, "large.json");
    writeFileSync(large, text + " ".repeat((1 << 20) - Buffer.byteLength(text)));
    expect(flagsSet([large])).toEqual([TUNED, SUSTAINED]);
    expect(flagsSet([large, ...copies(32)])).toEqual([TUNED, SUSTAINED, MANY_INPUTS]);
  });
});
