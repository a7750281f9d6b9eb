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
/** A Python 3 to hand the CLI a non-blocking pipe (Node's spawn makes a child's pipes blocking). */
const python = ["python3", "python"].find(
  (exe) => spawnSync(exe, ["-c", "import os; os.set_blocking"], { stdio: "ignore" }).status === 0,
);
if (!python) process.stderr.write("SKIPPED: non-blocking stdout test: no python3 on PATH\n");
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

  it("a standard output that cannot be written (a directory, a file opened to read): one line, exit 2", () => {
    // Node's stream for a directory drops what it is given: the report would be lost and the run
    // would exit as if it had been written.
    for (const [what, path] of [
      ["a directory", REPO_ROOT],
      ["a file opened to read", MINIMAL],
    ] as const) {
      const fd = openSync(path, "r");
      try {
        const r = cli(["verify", "--trust", TRUST, MINIMAL], fd);
        const lines = String(r.stderr).trim().split("\n");
        expect(lines, what).toHaveLength(1);
        expect(lines[0], what).toMatch(/^a2a-evidence: cannot write the report to standard output: E[A-Z]+$/);
        expect(r.status, what).toBe(2);
      } finally {
        closeSync(fd);
      }
    }
  });

  it.skipIf(!python)(
    "a non-blocking pipe whose reader is slow (EAGAIN): the whole report, as to a blocking pipe",
    () => {
      const args = ["--import", "tsx", RUNNER, "verify", "-v", "--trust", TRUST, ...MANY];
      const expected = spawnSync(process.execPath, args, { encoding: "utf8", cwd: REPO_ROOT });
      expect(expected.status).toBe(0);
      expect(expected.stdout.length).toBeGreaterThan(256 * 1024);
      // Python hands the CLI a pipe whose write end is non-blocking, and reads it only later, so
      // the first writes fill the pipe and the next one meets EAGAIN.
      const py = `
import os, subprocess, sys, time, json
r, w = os.pipe()
os.set_blocking(w, False)
p = subprocess.Popen(json.loads(sys.argv[1]), stdout=w, stderr=subprocess.PIPE, cwd=sys.argv[2])
os.close(w)
time.sleep(1.0)
out = b""
while True:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    out += chunk
err = p.stderr.read()
sys.stdout.write(json.dumps({"status": p.wait(), "stderr": err.decode(), "stdout": out.decode()}))
`;
      const r = spawnSync(python as string, ["-c", py, JSON.stringify([process.execPath, ...args]), REPO_ROOT], {
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(r.status, r.stderr).toBe(0);
      const got = JSON.parse(r.stdout) as { status: number; stderr: string; stdout: string };
      expect(got.stderr).toBe("");
      expect(got.status).toBe(0);
      expect(got.stdout).toBe(expected.stdout);
    },
    300_000,
  );

  it.skipIf(!existsSync("/dev/full"))(
    "stdout and stderr both on a full disk (> log 2>&1): exit 2, not the crash that reads as a FAIL",
    () => {
      const fd = openSync("/dev/full", "w");
      try {
        const r = spawnSync(process.execPath, ["--import", "tsx", RUNNER, "verify", "--trust", TRUST, MINIMAL], {
          stdio: ["ignore", fd, fd],
        });
        expect(r.status).toBe(2);
      } finally {
        closeSync(fd);
      }
    },
  );

  it.skipIf(!existsSync("/dev/full"))("a usage error whose stderr cannot be written: still exit 2", () => {
    const fd = openSync("/dev/full", "w");
    try {
      const r = spawnSync(process.execPath, ["--import", "tsx", RUNNER, "verify", "--no-such-flag", MINIMAL], {
        stdio: ["ignore", "ignore", fd],
      });
      expect(r.status).toBe(2);
    } finally {
      closeSync(fd);
    }
  });

  it("a stderr whose reader stopped (2>&1 | head): an unreadable input still exits 2", () => {
    const cmd = `"${process.execPath}" --import tsx "${RUNNER}" verify "${join(REPO_ROOT, "no-such-input.json")}" 2>&1 | (exec 0<&-; sleep 1); exit \${PIPESTATUS[0]}`;
    const r = spawnSync("bash", ["-c", cmd], { encoding: "utf8", cwd: REPO_ROOT });
    expect(r.status).toBe(2);
  });

  it.skipIf(!existsSync("/dev/full"))("-o to a full disk: one line on stderr, exit 2", () => {
    const r = cli(["verify", "--trust", TRUST, "-o", "/dev/full", MINIMAL], "pipe");
    expect(String(r.stderr).trim().split("\n")).toEqual(["a2a-evidence: cannot write /dev/full: ENOSPC"]);
    expect(r.status).toBe(2);
  });
});
