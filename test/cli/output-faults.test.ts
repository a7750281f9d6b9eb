/**
 * The CLI never dies of its own output (contract §9.21): a reader that stops (`| head`) ends the
 * run quietly with the exit code already decided; a full disk is one stderr line and exit 2;
 * neither ever prints a stack trace.
 */
import { spawnSync } from "node:child_process";
import { openSync, closeSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

const RUNNER = join(REPO_ROOT, "test", "helpers", "run-cli.ts");
const vector = (name: string, file: string) => join(REPO_ROOT, "vectors", name, file);
const MINIMAL = vector("valid-minimal", "input.json");
const TRUST = vector("valid-minimal", "trust.json");
/** Enough inputs that the verbose report is far larger than a pipe buffer. */
const MANY = Array.from({ length: 60 }, () => MINIMAL);

function cli(args: string[], stdout: "pipe" | number): ReturnType<typeof spawnSync> {
  return spawnSync(process.execPath, ["--import", "tsx", RUNNER, ...args], {
    stdio: ["ignore", stdout, "pipe"],
    encoding: "utf8",
  });
}

describe("output faults", () => {
  it("a reader that stops early (EPIPE): quiet, with the decided exit code", () => {
    // `sh -c … | head -c 100` closes the pipe after 100 bytes; the shell reports the CLI's own status.
    const cmd = `"${process.execPath}" --import tsx "${RUNNER}" verify -v --trust "${TRUST}" ${MANY.map((m) => `"${m}"`).join(" ")} | head -c 100 >/dev/null; exit \${PIPESTATUS[0]}`;
    const r = spawnSync("bash", ["-c", cmd], { encoding: "utf8", cwd: REPO_ROOT });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const failing = cmd.replace(`"${TRUST}"`, `"${TRUST}" "${vector("neg-taskBinding-task-id", "input.json")}"`);
    const f = spawnSync("bash", ["-c", failing], { encoding: "utf8", cwd: REPO_ROOT });
    expect(f.stderr).toBe("");
    expect(f.status).toBe(1);
  });

  it.skipIf(!existsSync("/dev/full"))(
    "a full disk (ENOSPC on stdout): one line on stderr, exit 2, no stack trace",
    () => {
      const fd = openSync("/dev/full", "w");
      try {
        const r = cli(["verify", "-v", "--trust", TRUST, ...MANY], fd);
        const lines = String(r.stderr).trim().split("\n");
        expect(lines).toEqual(["a2a-evidence: cannot write the report to standard output: ENOSPC"]);
        expect(r.status).toBe(2);
      } finally {
        closeSync(fd);
      }
    },
  );

  it.skipIf(!existsSync("/dev/full"))("-o to a full disk: one line on stderr, exit 2", () => {
    const r = cli(["verify", "--trust", TRUST, "-o", "/dev/full", MINIMAL], "pipe");
    expect(String(r.stderr).trim().split("\n")).toEqual(["a2a-evidence: cannot write /dev/full: ENOSPC"]);
    expect(r.status).toBe(2);
  });
});
