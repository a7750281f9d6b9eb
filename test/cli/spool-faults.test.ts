/**
 * The report spool and the run around it when something fails: a step of making the private file
 * (the folder cannot be removed, the file cannot be unlinked), a full disk, a writer that throws
 * once the first pass is done, an output that cannot be opened. Nothing may be left open or on
 * disk, and what the spool gives back is only ever what was written whole.
 */
import { spawnSync } from "node:child_process";
import type * as Fs from "node:fs";
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { ReportSpool } from "../../src/cli/spool.js";
import { main } from "../../src/cli/main.js";
import type { InputReport } from "../../src/report/model.js";
import { REPO_ROOT } from "../helpers/external.js";

/** Each fault is armed by a test and fires once, in the spool's own calls into node:fs. */
const faults = vi.hoisted(() => ({ rmdir: false, unlink: false, write: 0 }));
vi.mock("node:fs", async (original) => {
  const real = await original<typeof Fs>();
  const fail = (code: string) => Object.assign(new Error(code), { code });
  return {
    ...real,
    rmdirSync: (...a: Parameters<typeof real.rmdirSync>) => {
      if (faults.rmdir) {
        faults.rmdir = false;
        throw fail("EBUSY");
      }
      return real.rmdirSync(...a);
    },
    unlinkSync: (...a: Parameters<typeof real.unlinkSync>) => {
      if (faults.unlink) {
        faults.unlink = false;
        throw fail("EPERM");
      }
      return real.unlinkSync(...a);
    },
    writeSync: (...a: Parameters<typeof real.writeSync>) => {
      if (faults.write > 0 && --faults.write === 0) throw fail("ENOSPC");
      return (real.writeSync as (...b: unknown[]) => number)(...a);
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), "spool-faults-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  faults.rmdir = false;
  faults.unlink = false;
  faults.write = 0;
});

/**
 * The spool files this test file's runs hold open. Test files share the process (and its
 * descriptor table) but each has its own TMPDIR, under which every spool it opens is made.
 */
function openSpools(): string[] {
  const mine = `${tmpdir()}/`;
  return readdirSync("/proc/self/fd")
    .map((fd) => {
      try {
        return readlinkSync(join("/proc/self/fd", fd));
      } catch {
        return "";
      }
    })
    .filter((target) => target.startsWith(mine) && /a2a-evidence-[^/]*\/reports/.test(target));
}
const HAS_PROC = existsSync("/proc/self/fd");

const report = (source: string): InputReport => ({
  source,
  error: { code: "INPUT_UNREADABLE", message: `${source} is a report` },
  exitCode: 2,
});

describe("ReportSpool.open when a step fails", () => {
  it.each([
    ["the folder cannot be removed", "rmdir"],
    ["the file cannot be unlinked", "unlink"],
  ] as const)("%s: it keeps nothing, and leaves no descriptor, file or folder", (_what, fault) => {
    const here = mkdtempSync(join(dir, "open-"));
    const before = HAS_PROC ? openSpools().length : 0;
    faults[fault] = true;
    const spool = ReportSpool.open(1 << 20, here);
    expect(faults[fault]).toBe(false);
    expect(spool.put(0, report("a"))).toBe(false);
    expect(spool.take(0)).toBeUndefined();
    spool.close();
    expect(readdirSync(here)).toEqual([]);
    if (HAS_PROC) expect(openSpools().length).toBe(before);
  });
});

describe("ReportSpool on a full disk", () => {
  it("a report that cannot be written is not kept, the others stay whole, and later ones still fit", () => {
    const spool = ReportSpool.open(1 << 20, dir);
    expect(spool.put(0, report("first"))).toBe(true);
    faults.write = 1;
    expect(spool.put(1, report("second"))).toBe(false);
    expect(spool.put(2, report("third"))).toBe(true);
    expect(spool.take(1)).toBeUndefined();
    expect(spool.take(0)).toEqual(report("first"));
    expect(spool.take(2)).toEqual(report("third"));
    spool.close();
  });
});

describe.skipIf(!HAS_PROC)("a run that ends early closes its spool", () => {
  const v = join(REPO_ROOT, "vectors", "valid-capture");
  const args = ["--trust", join(v, "trust.json"), join(v, "input.json"), join(v, "input.json")];

  it("when the report's writer throws after the first pass", async () => {
    const before = openSpools().length;
    const code = await main(["verify", "--format", "ndjson", ...args], {
      stdout: () => {
        throw new Error("the reader went away");
      },
      stderr: () => {},
      env: {},
      stdoutIsTTY: false,
    }).catch(() => "threw");
    expect([2, "threw"]).toContain(code);
    expect(openSpools().length).toBe(before);
  });

  it("when -o cannot be opened", async () => {
    const before = openSpools().length;
    let stderr = "";
    const code = await main(["verify", "-o", join(dir, "no", "such", "folder", "out.txt"), ...args], {
      stdout: () => {},
      stderr: (t) => void (stderr += t),
      env: {},
      stdoutIsTTY: false,
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/cannot write .*out\.txt: ENOENT/);
    expect(openSpools().length).toBe(before);
  });

  it("when something throws after -o is open, the -o file is closed too", async () => {
    const out = join(dir, "thrown-out.txt");
    const holding = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(join("/proc/self/fd", fd)) === out;
        } catch {
          return false;
        }
      }).length;
    const before = openSpools().length;
    // -o makes the CLI say each failed input on stderr; that stderr throws, mid-run.
    const missing = join(dir, "no-such-input.json");
    const code = await main(["verify", "-o", out, ...args, missing], {
      stdout: () => {},
      stderr: () => {
        throw new Error("stderr went away");
      },
      env: {},
      stdoutIsTTY: false,
    }).catch(() => "threw");
    expect([2, "threw"]).toContain(code);
    expect(existsSync(out)).toBe(true);
    expect(holding()).toBe(0);
    expect(openSpools().length).toBe(before);
  });
});

const BIN = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));
if (!BUILT) process.stderr.write("SKIPPED: --jobs early-exit test: dist/ is not built (npm run build)\n");

describe.skipIf(!BUILT)("--jobs when -o cannot be opened", () => {
  it("stops its worker threads and exits 2 instead of waiting on them", () => {
    const v = join(REPO_ROOT, "vectors", "valid-capture");
    const out = join(dir, "no", "such", "folder", "out.json");
    const input = join(v, "input.json");
    const r = spawnSync(
      process.execPath,
      [BIN, "verify", "--jobs", "2", "--format", "json", "-o", out, "--trust", join(v, "trust.json"), input, input],
      // A run that waits on live workers never ends: the bound only turns that into a failure (it
      // is no speed budget: a loaded machine may take minutes to start the workers).
      { encoding: "utf8", timeout: 240_000, killSignal: "SIGKILL" },
    );
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot write .*out\.json: ENOENT/);
  });
});
