/**
 * The launcher's two V8 code caches fit the flags they are used under: the CLI's main thread
 * compiles the bundle before it tunes V8's flags, --jobs worker threads after, in worker threads
 * of that process, started once the run has turned the baseline compiler back on (where setting
 * up a worker's heap has changed one of the flags again). A cache
 * V8 rejects costs the whole compile at every start, silently, so each pairing is checked where it
 * happens, and the crossed pairings are shown to be rejected (the check can fail). The launcher's
 * own --jobs run is checked too: its worker threads must start only once it has set those flags.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));
if (!BUILT) process.stderr.write("SKIPPED: code cache test: dist/ is not built (npm run build)\n");

/** Whether V8 rejects `cache` for the bundle, in a fresh process, after tuning or not. */
function rejected(cache: string, tuned: boolean): boolean {
  const script = `
    const { compileBundle, tuneV8 } = require("./bin/a2a-evidence.cjs");
    if (${tuned}) tuneV8();
    const s = compileBundle("dist/a2a-evidence.cjs", ${JSON.stringify(cache)});
    process.stdout.write(String(s.cachedDataRejected));`;
  const r = spawnSync(process.execPath, ["-e", script], { cwd: REPO_ROOT, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  expect(["true", "false"]).toContain(r.stdout);
  return r.stdout === "true";
}

/**
 * Whether V8 rejects each cache in a worker thread started as --jobs starts them: after the main
 * thread has compiled the bundle with its cache and, when `tuned`, tuned V8. One worker per cache:
 * a second compile in one isolate finds the first and never reads its cache.
 */
function rejectedInWorkers(caches: string[], flags: "default" | "tuned" | "sustained"): boolean[] {
  const at = (...p: string[]) => JSON.stringify(join(REPO_ROOT, ...p));
  const script = `
    const { loadBundle, tuneV8, sustainV8 } = require(${at("bin", "a2a-evidence.cjs")});
    loadBundle(${at("dist", "a2a-evidence.cjs")}, ${at("dist", "a2a-evidence.cache")});
    if (${flags !== "default"}) tuneV8();
    if (${flags === "sustained"}) sustainV8();
    const { Worker } = require("node:worker_threads");
    const inWorker = (cache) => new Promise((resolve, reject) =>
      new Worker(
        \`const { compileBundle } = require(\${JSON.stringify(${at("bin", "a2a-evidence.cjs")})});
         const { parentPort, workerData } = require("node:worker_threads");
         const s = compileBundle(\${JSON.stringify(${at("dist", "a2a-evidence.cjs")})}, workerData);
         parentPort.postMessage(s.cachedDataRejected);\`,
        { eval: true, workerData: cache },
      ).once("message", resolve).once("error", reject));
    (async () => {
      const out = [];
      for (const cache of ${JSON.stringify(caches.map((c) => join(REPO_ROOT, c)))}) out.push(await inWorker(cache));
      process.stdout.write(JSON.stringify(out));
    })();`;
  const r = spawnSync(process.execPath, ["-e", script], { cwd: REPO_ROOT, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as boolean[];
}

describe.skipIf(!BUILT)("the launcher's code caches", () => {
  it("the main thread's cache is accepted before tuning, and would be rejected after", () => {
    expect(rejected("dist/a2a-evidence.cache", false)).toBe(false);
    expect(rejected("dist/a2a-evidence.cache", true)).toBe(true);
  });

  it("the worker threads' cache is accepted in a worker started as --jobs starts them, and only then", () => {
    const caches = ["dist/a2a-evidence.worker.cache", "dist/a2a-evidence.cache"];
    // --jobs starts its workers after tuning and turning the baseline compiler back on.
    expect(rejectedInWorkers(caches, "sustained")).toEqual([false, true]);
    // Started before it is back on, neither cache would do; started untuned, only the main one.
    expect(rejectedInWorkers(caches, "tuned")).toEqual([true, true]);
    expect(rejectedInWorkers(caches, "default")).toEqual([true, false]);
  });

  it("the launcher's own --jobs run compiles each worker thread's bundle with its cache accepted", () => {
    // A hook, required in the main thread and in every worker thread, notes whether V8 took the
    // cache each compile of the bundle was given: the launcher's wiring, not a copy of its steps.
    const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-code-cache-"));
    try {
      const hook = join(dir, "hook.cjs");
      const report = join(dir, "compiles.ndjson");
      writeFileSync(
        hook,
        `const vm = require("node:vm");
         const { appendFileSync } = require("node:fs");
         const { isMainThread } = require("node:worker_threads");
         const Script = vm.Script;
         vm.Script = class extends Script {
           constructor(text, options) {
             super(text, options);
             if (options && options.cachedData !== undefined)
               appendFileSync(process.env.COMPILES, JSON.stringify([isMainThread, this.cachedDataRejected]) + "\\n");
           }
         };`,
      );
      const vector = (file: string) => join(REPO_ROOT, "vectors", "valid-capture", file);
      const launcher = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
      const args = [
        "verify",
        "--jobs",
        "2",
        "--trust",
        vector("trust.json"),
        vector("input.json"),
        vector("input.json"),
      ];
      const r = spawnSync(process.execPath, ["--require", hook, launcher, ...args], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", COMPILES: report },
      });
      expect(r.status, r.stderr).toBe(0);
      const compiles = readFileSync(report, "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as [boolean, boolean]);
      // [main thread?, rejected?]: the main thread's, then one per worker thread, none rejected.
      expect(compiles).toEqual([
        [true, false],
        [false, false],
        [false, false],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
