/**
 * --jobs: a worker thread that stops before its inputs are verified — by an error, or by exiting
 * without one — ends the run with exit 2 and one line on stderr. Never a run that just ends: with
 * nothing left to wait for, the process would exit 0 with no report, whatever the inputs say.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { JobPool } from "../../src/cli/jobs.js";
import { runAsync } from "../../src/run.js";
import type { Worker } from "node:worker_threads";

const vector = (name: string, file: string) => join(REPO_ROOT, "vectors", name, file);

function runWithWorker(source: string) {
  const args = [
    "verify",
    "--jobs",
    "2",
    "--trust",
    vector("valid-capture", "trust.json"),
    vector("neg-taskBinding-task-id", "input.json"),
    vector("valid-capture", "input.json"),
    vector("valid-rich", "input.json"),
  ];
  return runCli(args, { host: { workerEntry: tempFile("worker.mjs", source) } });
}

const WORKER = (onJob: string) =>
  `import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => { ${onJob} });\n`;

describe("--jobs: a worker thread that stops", () => {
  it("by exiting without an error: exit 2, one line on stderr", async () => {
    const r = await runWithWorker(WORKER("process.exit(0);"));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "a2a-evidence: internal error: a worker thread stopped (exit code 0) before its inputs were verified\n",
    );
  });

  it("between two passes: the next pass fails at once instead of waiting for it", async () => {
    // The worker answers its one checkpoint look, then exits while no pass is running.
    const entry = tempFile(
      "worker.mjs",
      'import { parentPort } from "node:worker_threads";\n' +
        'parentPort.on("message", (job) => { parentPort.postMessage({ k: job.k, at: job.at }); setTimeout(() => process.exit(0), 100); });\n',
    );
    const pool = new JobPool(entry, 1, {} as never, [{ path: "a.json", source: "a.json" }]);
    const worker = (pool as unknown as { workers: Worker[] }).workers[0] as Worker;
    const passes = pool.passes();
    await runAsync(
      passes.sight(
        1,
        () => true,
        () => {},
      ),
    );
    // After the pass (which sets its own listeners), before the worker's exit 100 ms on.
    await new Promise((resolve) => worker.once("exit", resolve));
    await expect(
      runAsync(
        passes.report(
          [0],
          () => undefined,
          () => {},
        ),
      ),
    ).rejects.toThrow("a worker thread stopped (exit code 0) before its inputs were verified");
    await pool.close();
  });

  it("by an error: exit 2, one line on stderr", async () => {
    const r = await runWithWorker(WORKER('throw new Error("worker died");'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("a2a-evidence: internal error: worker died\n");
  });
});
