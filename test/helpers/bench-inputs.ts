/** The bench's generated inputs, for tests that count what verifying them costs (never timing it). */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "./external.js";

/** Writes `distinct` bench bundles, their trust file and the floor's plan into `dir`. */
export function makeBenchInputs(dir: string, distinct: number): void {
  const spec = { dir, listing: "inputs.json", distinct, transcript: [], leaves: [], artifactBytes: [] };
  const made = spawnSync(
    process.execPath,
    ["--import", "tsx", join(REPO_ROOT, "bench", "inputs.ts"), JSON.stringify(spec)],
    {
      cwd: REPO_ROOT,
      encoding: "utf8",
    },
  );
  if (made.status !== 0) throw new Error(`bench inputs: ${made.stderr}`);
}

/** Runs an ES module script with the repository root and `dir` as its arguments; its stdout, parsed as JSON. */
export function runCounter<T>(script: string, dir: string): T {
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script, REPO_ROOT, dir], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`counter: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
