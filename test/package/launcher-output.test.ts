/**
 * The launcher tunes V8 once the bundle is loaded, and --jobs worker threads start after that.
 * Neither the tuning nor the threads may change what is written: the launcher's report (tuned
 * flags, the report spool) and its --jobs report (tuned flags, worker threads, no spool) are byte
 * for byte the report of the CLI run in this untuned process, for inputs that fork, agree, fail,
 * are not judged, or repeat, in every format.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toPlain } from "../../src/json/value.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { REPO_ROOT } from "../helpers/external.js";
import { runCli } from "../helpers/cli.js";
import { OTHER_PROFILE, capture, underProfile, widenedAt } from "../properties/harness.js";

const BIN = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
const DIST = join(REPO_ROOT, "dist");
const BUILT = existsSync(join(DIST, "a2a-evidence.cjs"));
if (!BUILT) process.stderr.write("SKIPPED: launcher output test: dist/ is not built (npm run build)\n");

/** A clean environment: no trust file, summary file or colour taken from the caller's. */
const env = { PATH: process.env.PATH ?? "", TMPDIR: tmpdir() };

describe.skipIf(!BUILT)("the built launcher, with and without worker threads", () => {
  it("writes, tuned and with worker threads, the bytes the untuned CLI writes in this process", async () => {
    const dir = mkdtempSync(join(tmpdir(), "launcher-threads-"));
    const file = (name: string, value: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, typeof value === "string" ? value : JSON.stringify(toPlain(value as never)));
      return path;
    };
    const mine = capture();
    const trust = file("trust.json", mine.trust);
    const inputs = [
      file("a.json", mine.input),
      file("fork.json", capture({ taskId: uuidFromLabel("the other branch") }).input),
      file("profile.json", capture({}, underProfile(OTHER_PROFILE)).input),
      file("narrowed.json", capture({ carrier: "data" }, { bundle: widenedAt(["manifest", "cllCheckpoint"]) }).input),
      join(REPO_ROOT, "vectors", "neg-continuity-prior-root", "input.json"),
      file("malformed.json", '{"a":1,"a":2}'),
      join(dir, "missing.json"),
    ];
    inputs.push(inputs[0] as string);
    for (const format of [
      ["--format", "json"],
      ["--format", "text", "-v"],
      ["--format", "ndjson"],
      ["--format", "junit", "-v"],
      ["--format", "github", "-v"],
      ["--format", "html"],
    ]) {
      const args = ["verify", ...format, "--trust", trust, ...inputs];
      const here = await runCli(args);
      expect(here.stdout.length).toBeGreaterThan(500);
      for (const extra of [[], ["--jobs", "2"]]) {
        const r = spawnSync(process.execPath, [BIN, ...args, ...extra], { encoding: "utf8", env });
        expect(r.stdout, [...format, ...extra].join(" ")).toBe(here.stdout);
        expect(r.stderr, [...format, ...extra].join(" ")).toBe(here.stderr);
        expect(r.status).toBe(here.code);
      }
    }
  });

  it("writes, over more than 32 inputs (V8's flags changed again as the run starts), the bytes the untuned CLI writes", async () => {
    // Every shipped vector's input, under one trust file: PASS, FAIL, INCONCLUSIVE and refused
    // inputs of every binding, so that most of the verifier runs after the change.
    const inputs = readdirSync(join(REPO_ROOT, "vectors"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) =>
        readdirSync(join(REPO_ROOT, "vectors", d.name))
          .filter((f) => f.startsWith("input."))
          .map((f) => join(REPO_ROOT, "vectors", d.name, f)),
      )
      .sort();
    expect(inputs.length).toBeGreaterThan(64);
    const trust = join(REPO_ROOT, "vectors", "valid-capture", "trust.json");
    for (const format of [
      ["--format", "json", "-v"],
      ["--format", "text", "-v"],
    ]) {
      const args = ["verify", ...format, "--trust", trust, ...inputs];
      const here = await runCli(args);
      expect(here.stdout.length).toBeGreaterThan(100_000);
      const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env, maxBuffer: 1 << 26 });
      expect(r.stdout === here.stdout, format.join(" ")).toBe(true);
      expect(r.stderr, format.join(" ")).toBe(here.stderr);
      expect(r.status).toBe(here.code);
    }
  });
});
