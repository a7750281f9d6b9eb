// Runs one command and returns what it cost: user + system CPU in microseconds and peak RSS, of
// that process alone. Two ways, the first that works:
//   wait4  — bench/wait4.py spawns the command and reads the kernel's rusage of that child
//            (getrusage(RUSAGE_CHILDREN) per child, microseconds, the teardown included);
//   exit   — without python3: the command runs under `node --require bench/rusage-at-exit.cjs`,
//            which writes the process's own rusage from its 'exit' handler (microseconds; only
//            the last teardown is missed). Every measured command is a Node process.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The environment every measured command gets: the caller's, without what would change the run
 * (and without the variables named in `unset`).
 */
export function benchEnv(unset = []) {
  const env = { ...process.env };
  for (const k of unset) delete env[k];
  for (const k of ["A2A_EVIDENCE_TRUST", "GITHUB_STEP_SUMMARY", "NODE_OPTIONS", "FORCE_COLOR", "NODE_V8_COVERAGE"])
    delete env[k];
  env.NO_COLOR = "1";
  return env;
}

function python() {
  for (const exe of ["python3", "python"]) {
    const r = spawnSync(
      exe,
      [
        "-c",
        "import os,sys; sys.exit(0 if hasattr(os,'wait4') and hasattr(os,'posix_spawn') and hasattr(os,'waitstatus_to_exitcode') else 1)",
      ],
      { stdio: "ignore" },
    );
    if (r.status === 0) return exe;
  }
  return undefined;
}

class Wait4Runner {
  name = "wait4";
  describe = "kernel rusage of each child via wait4(2) (µs CPU, peak RSS)";
  constructor(exe) {
    this.child = spawn(exe, [join(here, "wait4.py")], { stdio: ["pipe", "pipe", "inherit"] });
    this.pending = [];
    createInterface({ input: this.child.stdout }).on("line", (line) => this.pending.shift()?.(JSON.parse(line)));
    this.child.on("exit", () => {
      for (const p of this.pending.splice(0)) p({ error: "bench/wait4.py exited" });
    });
  }
  /** The command is `node ...argv`; stdout and stderr go to the given files, else nowhere. */
  run(argv, { stdout = null, stderr = null, cwd = process.cwd(), unset = [] } = {}) {
    return new Promise((resolve) => {
      this.pending.push(resolve);
      this.child.stdin.write(
        JSON.stringify({ argv: [process.execPath, ...argv], env: benchEnv(unset), stdout, stderr, cwd }) + "\n",
      );
    });
  }
  close() {
    this.child.stdin.end();
  }
}

class ExitHookRunner {
  name = "exit";
  describe = "each Node child's own rusage from an 'exit' handler (µs CPU, peak RSS; python3 not found for wait4)";
  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), "a2a-evidence-rusage-"));
    this.n = 0;
  }
  async run(argv, { stdout = null, stderr = null, cwd = process.cwd(), unset = [] } = {}) {
    const file = join(this.dir, `${this.n++}.json`);
    const env = { ...benchEnv(unset), A2A_EVIDENCE_BENCH_RUSAGE: file };
    const fds = [stdout, stderr].map((path) => (path === null ? "ignore" : openSync(path, "w")));
    const r = spawnSync(process.execPath, ["--require", join(here, "rusage-at-exit.cjs"), ...argv], {
      env,
      cwd,
      stdio: ["ignore", ...fds],
    });
    for (const fd of fds) if (typeof fd === "number") closeSync(fd);
    try {
      return JSON.parse(readFileSync(file, "utf8"));
    } catch {
      return { error: `no rusage written (exit ${r.status}, signal ${r.signal})` };
    } finally {
      rmSync(file, { force: true });
    }
  }
  close() {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The most precise runner this machine has. `A2A_EVIDENCE_BENCH_RUNNER=exit` forces the fallback. */
export function makeRunner() {
  const exe = process.env.A2A_EVIDENCE_BENCH_RUNNER === "exit" ? undefined : python();
  return exe ? new Wait4Runner(exe) : new ExitHookRunner();
}

/** CPU (user + system) of one result, in milliseconds. */
export const cpuMs = (r) => (r.userUs + r.sysUs) / 1000;
/** Peak RSS of one result, in MB (10^6 bytes). */
export const rssMb = (r) => (r.maxRssKb * 1024) / 1e6;
