/**
 * The options a CI gate is written with must never open the gate by accident: an option that
 * names nothing reads in the pipeline file as a stricter policy than the one applied.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const vector = (name: string, file: string) => join(REPO_ROOT, "vectors", name, file);
const MINIMAL = vector("valid-minimal", "input.json");
const TRUST = vector("valid-minimal", "trust.json");

describe("--require, empty or overlapping", () => {
  it("a --require that names no property is a usage error (exit 2), not an empty requirement", async () => {
    for (const list of ["", ",", " , "]) {
      for (const args of [
        ["--require", list],
        ["--require", "continuity", "--require", list],
      ]) {
        const r = await runCli(["verify", "--trust", TRUST, ...args, MINIMAL]);
        expect(r.code).toBe(2);
        expect(r.stdout).toBe("");
        expect(r.stderr).toBe(`a2a-evidence: --require: "${list}" names no property\n`);
      }
    }
    // A stray comma beside a name is not an empty requirement: valid-minimal has no continuity.
    const trailing = await runCli(["verify", "-q", "--trust", TRUST, "--require", "continuity,", MINIMAL]);
    expect(trailing.code).toBe(3);
  });

  it("the same property named twice is required once", async () => {
    const r = await runCli([
      "verify",
      "--format",
      "json",
      "--trust",
      TRUST,
      "--require",
      "continuity,continuity",
      "--require",
      "continuity",
      MINIMAL,
    ]);
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout);
    expect(report.policy.require).toEqual(["continuity"]);
    expect(report.inputs[0].reasons).toEqual([expect.stringMatching(/^required continuity is NOT_PRESENT: /)]);
  });
});

describe("a single-valued option given twice is a usage error (exit 2)", () => {
  // commander keeps the last value: '--trust strict.json … --trust other.json' pinned only the
  // second file's keys, and '--min-evidence CONTINUITY_WITNESSED … --min-evidence SIGNED_RECORD'
  // exited 0 where the first asked for more. Which one was meant cannot be known.
  const other = vector("neg-identityAuthorityBinding-other-key", "trust.json");
  it.each([
    [["--trust", other, "--trust", TRUST], "--trust"],
    [["--trust", TRUST, "--min-evidence", "CONTINUITY_WITNESSED", "--min-evidence", "SIGNED_RECORD"], "--min-evidence"],
    [["--trust", TRUST, "--task", MINIMAL, "--task", MINIMAL], "--task"],
    [["--trust", TRUST, "--first-task", MINIMAL, "--first-task", MINIMAL], "--first-task"],
    [["--trust", TRUST, "--authority", "a.example", "--authority", "b.example"], "--authority"],
    [["--trust", TRUST, "--tenant", "t1", "--tenant", "t2"], "--tenant"],
    [["--trust", TRUST, "--at", "2026-01-01T00:00:00Z", "--at", "2027-01-01T00:00:00Z"], "--at"],
    [["--trust", TRUST, "-o", "/dev/null", "--output", "/dev/null"], "-o, --output"],
  ])("%j", async (args, flag) => {
    const r = await runCli(["verify", ...args, MINIMAL]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(new RegExp(`^error: option '${flag} <[a-z]+>' argument '.*' is invalid\\. given twice`));
  });

  it("given once, each of them is accepted", async () => {
    const r = await runCli([
      "verify",
      "-q",
      "--trust",
      TRUST,
      "--min-evidence",
      "SIGNED_RECORD",
      "--at",
      "2026-01-01T00:00:00Z",
      MINIMAL,
    ]);
    expect(r.code).toBe(0);
  });
});
