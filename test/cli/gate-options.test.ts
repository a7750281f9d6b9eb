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
