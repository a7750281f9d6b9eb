/**
 * --jobs: a worker thread that stops before its inputs are verified — by an error, or by exiting
 * without one — ends the run with exit 2 and one line on stderr. Never a run that just ends: with
 * nothing left to wait for, the process would exit 0 with no report, whatever the inputs say.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

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

  it("by an error: exit 2, one line on stderr", async () => {
    const r = await runWithWorker(WORKER('throw new Error("worker died");'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("a2a-evidence: internal error: worker died\n");
  });
});
