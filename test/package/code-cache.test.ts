/**
 * The launcher's two V8 code caches fit the flags they are used under: the CLI's main thread
 * compiles the bundle before it tunes V8's flags, --jobs worker threads after. A cache V8
 * rejects costs the whole compile at every start, silently, so each pairing is checked, and the
 * crossed pairings are shown to be rejected (the check can fail).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));
if (!BUILT) process.stderr.write("SKIPPED: code cache test: dist/ is not built (npm run build; npm ci builds it)\n");

/** Whether V8 rejects `cache` for the bundle, in a fresh process, after tuning or not. */
function rejected(cache: string, tuned: boolean): boolean {
  const script = `
    const { compileBundle, tuneV8 } = require("./bin/a2a-evidence.cjs");
    if (${tuned}) tuneV8();
    const s = compileBundle("dist/a2a-evidence.cjs", require("node:fs").readFileSync(${JSON.stringify(cache)}));
    process.stdout.write(String(s.cachedDataRejected));`;
  const r = spawnSync(process.execPath, ["-e", script], { cwd: REPO_ROOT, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  expect(["true", "false"]).toContain(r.stdout);
  return r.stdout === "true";
}

describe.skipIf(!BUILT)("the launcher's code caches", () => {
  it("the main thread's cache is accepted before tuning, and would be rejected after", () => {
    expect(rejected("dist/a2a-evidence.cache", false)).toBe(false);
    expect(rejected("dist/a2a-evidence.cache", true)).toBe(true);
  });

  it("the worker threads' cache is accepted after tuning, and would be rejected before", () => {
    expect(rejected("dist/a2a-evidence.worker.cache", true)).toBe(false);
    expect(rejected("dist/a2a-evidence.worker.cache", false)).toBe(true);
  });
});
