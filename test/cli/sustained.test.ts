/**
 * The launcher keeps V8's baseline compiler off until the CLI says the run has much to verify
 * (`CommandHost.sustained`): more than 32 inputs, an input of 1 MiB or more, or --jobs worker
 * threads, before they start (their code cache is made under the flags it leaves). A run over a
 * few bundles of usual size never says so. (The host here only records the calls: that V8's flags
 * change no report is the launcher's output test's, and the worker caches are code-cache.test.ts's.)
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const events: string[] = [];

vi.mock("../../src/cli/jobs.js", () => ({
  JobPool: class {
    constructor() {
      events.push("workers started");
      throw new Error("no worker threads in this test");
    }
  },
}));

const vector = (name: string, file: string) => join(REPO_ROOT, "vectors", name, file);
const TRUST = vector("valid-capture", "trust.json");
const INPUT = vector("valid-capture", "input.json");

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A new temporary folder, removed after the tests. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-sustained-"));
  dirs.push(dir);
  return dir;
}

/** `n` copies of the valid-capture input, each its own file. */
function copies(n: number): string[] {
  const dir = tempDir();
  return Array.from({ length: n }, (_, k) => {
    const path = join(dir, `i${String(k).padStart(3, "0")}.json`);
    copyFileSync(INPUT, path);
    return path;
  });
}

async function run(args: string[]) {
  events.length = 0;
  const r = await runCli(args, { host: { sustained: () => events.push("sustained") } });
  return { ...r, events: [...events] };
}

describe("when a run tells the launcher it is sustained", () => {
  it("one input of usual size: never", async () => {
    const r = await run(["verify", "--trust", TRUST, INPUT]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.events).toEqual([]);
  });

  it("32 inputs: never; 33: once", async () => {
    const few = await run(["verify", "--format", "json", "--trust", TRUST, ...copies(32)]);
    expect(few.code, few.stderr).toBe(0);
    expect(few.events).toEqual([]);
    const many = await run(["verify", "--format", "json", "--trust", TRUST, ...copies(33)]);
    expect(many.code, many.stderr).toBe(0);
    expect(many.events).toEqual(["sustained"]);
  });

  it("an input of 1 MiB or more: once it is read; one byte less: never", async () => {
    const text = readFileSync(INPUT, "utf8").trimEnd();
    const dir = tempDir();
    const padded = (name: string, size: number) => {
      const path = join(dir, name);
      writeFileSync(path, text + " ".repeat(size - Buffer.byteLength(text)));
      return path;
    };
    const small = await run(["verify", "--trust", TRUST, padded("small.json", (1 << 20) - 1)]);
    expect(small.code, small.stderr).toBe(0);
    expect(small.events).toEqual([]);
    const large = await run(["verify", "--trust", TRUST, padded("large.json", 1 << 20)]);
    expect(large.code, large.stderr).toBe(0);
    expect(large.events).toEqual(["sustained"]);
    // The input read to decide is the input verified.
    expect(large.stdout.replace("large.json", "small.json")).toBe(small.stdout);
  });

  it("--jobs: before its worker threads start", async () => {
    events.length = 0;
    const r = await runCli(["verify", "--jobs", "2", "--trust", TRUST, ...copies(2)], {
      host: { workerEntry: "worker.cjs", sustained: () => events.push("sustained") },
    });
    expect(r.code).toBe(2);
    expect(events).toEqual(["sustained", "workers started"]);
  });
});
