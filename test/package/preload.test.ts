/**
 * V8 checks Node's own compiled code for each of its modules against the flags it was made
 * under, as it checks ours: a Node module first loaded after the launcher tunes V8's flags is
 * parsed and compiled from source, silently (node:crypto alone was about a sixth of a one-input
 * run's CPU above bare Node). So every Node module a verification loads must already be loaded
 * when the launcher tunes V8. The real launcher runs under a hook that notes the modules loaded
 * until then; the check is also shown to fail without the launcher's preload.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));
if (!BUILT) process.stderr.write("SKIPPED: preload test: dist/ is not built (npm run build)\n");

const LAUNCHER = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
const vector = (name: string, file = "input.json") => join(REPO_ROOT, "vectors", name, file);
const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-preload-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Notes the modules loaded when V8's flags are first set, and writes those loaded after, at exit. */
const HOOK = join(dir, "hook.cjs");
writeFileSync(
  HOOK,
  `const v8 = require("node:v8");
   const set = v8.setFlagsFromString;
   let at;
   v8.setFlagsFromString = (flags) => { at ??= process.moduleLoadList.length; return set(flags); };
   process.on("exit", () => {
     const after = at === undefined ? null : process.moduleLoadList.slice(at).filter((m) => m.startsWith("NativeModule "));
     require("node:fs").writeFileSync(process.env.PRELOAD_REPORT, JSON.stringify(after));
   });`,
);

/** The Node modules first loaded after the launcher tuned V8, in a run of `args`. */
function loadedAfterTuning(args: string[], expectStatus: number, stdin?: string | number): string[] {
  const report = join(dir, "after.json");
  rmSync(report, { force: true });
  const r = spawnSync(process.execPath, ["--require", HOOK, LAUNCHER, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, PRELOAD_REPORT: report, NO_COLOR: "1" },
    ...(typeof stdin === "number" ? { stdio: [stdin, "pipe", "pipe"] } : stdin !== undefined ? { input: stdin } : {}),
  });
  expect(r.status, r.stderr).toBe(expectStatus);
  const after = JSON.parse(readFileSync(report, "utf8")) as string[] | null;
  expect(after, "the launcher never tuned V8").not.toBeNull();
  return after as string[];
}

describe.skipIf(!BUILT)("Node modules a verification needs are loaded before V8 is tuned", () => {
  const trust = vector("valid-rich", "trust.json");
  it.each([
    ["one input, text report", ["verify", "--trust", trust, vector("valid-rich")], 0],
    [
      "two inputs, JSON report",
      ["verify", "--format", "json", "--trust", trust, vector("valid-rich"), vector("valid-rich")],
      0,
    ],
    ["a report to a file (-o)", ["verify", "-o", join(dir, "report.txt"), "--trust", trust, vector("valid-rich")], 0],
    [
      "a failing input",
      ["verify", "-v", "--trust", vector("neg-taskBinding-task-id", "trust.json"), vector("neg-taskBinding-task-id")],
      1,
    ],
    [
      "a stream capture",
      [
        "verify",
        "--trust",
        vector("valid-stream-sse-jsonrpc", "trust.json"),
        vector("valid-stream-sse-jsonrpc", "input.sse"),
      ],
      0,
    ],
    ["inspect", ["inspect", vector("valid-rich")], 0],
  ] as const)("%s", (_, args, status) => {
    expect(loadedAfterTuning([...args], status)).toEqual([]);
  });

  it("standard input, a pipe or a file: read from its descriptor, without Node's stream", () => {
    const args = ["verify", "--trust", trust, "-"];
    expect(loadedAfterTuning(args, 0, readFileSync(vector("valid-rich"), "utf8"))).toEqual([]);
    const fd = openSync(vector("valid-rich"), "r");
    try {
      expect(loadedAfterTuning(args, 0, fd)).toEqual([]);
    } finally {
      closeSync(fd);
    }
  });

  it("the check sees a module loaded late: without the launcher's preload, node:crypto's are", () => {
    // The launcher's own steps, minus the preload.
    const script = join(dir, "no-preload.cjs");
    writeFileSync(
      script,
      `const L = require(${JSON.stringify(LAUNCHER)});
       const { exports: cli } = L.loadBundle(${JSON.stringify(join(REPO_ROOT, "dist", "a2a-evidence.cjs"))}, ${JSON.stringify(join(REPO_ROOT, "dist", "a2a-evidence.cache"))});
       L.tuneV8();
       cli.main(process.argv.slice(2)).then((code) => { process.exitCode = code; });`,
    );
    const report = join(dir, "after.json");
    const r = spawnSync(
      process.execPath,
      ["--require", HOOK, script, "verify", "--trust", trust, vector("valid-rich")],
      {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, PRELOAD_REPORT: report, NO_COLOR: "1" },
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const after = JSON.parse(readFileSync(report, "utf8")) as string[];
    expect(after).toContain("NativeModule crypto");
    expect(after).toContain("NativeModule internal/crypto/sig");
  });
});
