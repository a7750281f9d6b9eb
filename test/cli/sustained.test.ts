/**
 * The launcher keeps V8's baseline compiler off until the CLI says the run has much to verify
 * (`CommandHost.sustained`): more than 32 inputs, an input of 1 MiB or more, or --jobs worker
 * threads, before they start (their code cache is made under the flags it leaves). A run over a
 * few bundles of usual size never says so. A run over more than 32 inputs in one thread also says
 * it has many inputs (`CommandHost.manyInputs`), so the launcher has V8 collect old garbage
 * sooner; one large input or worker threads do not. (The host here only records the calls: that V8's flags
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
  const r = await runCli(args, {
    host: { sustained: () => events.push("sustained"), manyInputs: () => events.push("many inputs") },
  });
  return { ...r, events: [...events] };
}

describe("when a run tells the launcher it is sustained", () => {
  it("one input of usual size: never", async () => {
    const r = await run(["verify", "--trust", TRUST, INPUT]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.events).toEqual([]);
  });

  it("32 inputs: never; 33: once, and once that it has many inputs", async () => {
    const few = await run(["verify", "--format", "json", "--trust", TRUST, ...copies(32)]);
    expect(few.code, few.stderr).toBe(0);
    expect(few.events).toEqual([]);
    const many = await run(["verify", "--format", "json", "--trust", TRUST, ...copies(33)]);
    expect(many.code, many.stderr).toBe(0);
    expect(many.events).toEqual(["sustained", "many inputs"]);
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
    // Sustained, but not many inputs: the old generation of a run over one large input grows as
    // its data is read, and holding it back would cost collections.
    expect(large.events).toEqual(["sustained"]);
    // The input read to decide is the input verified.
    expect(large.stdout.replace("large.json", "small.json")).toBe(small.stdout);
  });

  it("--jobs: before its worker threads start, and never many inputs in this thread", async () => {
    for (const n of [2, 33]) {
      events.length = 0;
      const r = await runCli(["verify", "--jobs", "2", "--trust", TRUST, ...copies(n)], {
        host: {
          workerEntry: "worker.cjs",
          sustained: () => events.push("sustained"),
          manyInputs: () => events.push("many inputs"),
        },
      });
      expect(r.code).toBe(2);
      expect(events, `${n} inputs`).toEqual(["sustained", "workers started"]);
    }
  });
});
