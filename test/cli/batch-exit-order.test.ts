/**
 * A batch that mixes a PASS, a tampered bundle, a Task that has not ended and a file that is not
 * evidence: the run exits 1 (1 > 2 > 3 > 0, contract §6) in the CLI, with --jobs, in the library
 * summary and in the HTML banner, and every report still names the input that could not be read.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { verify } from "../../src/verify.js";
import { combinedExitCode } from "../../src/policy.js";

const vector = (name: string) => join(REPO_ROOT, "vectors", name, "input.json");
const TRUST = join(REPO_ROOT, "vectors", "valid-minimal", "trust.json");

function batch(): string[] {
  return [
    vector("valid-minimal"),
    vector("neg-producerSignature-signature-byte"),
    vector("pending-input-required-never-resumed"),
    tempFile("notes.json", '{"hello": "not evidence"}'),
  ];
}

describe("exit order 1 > 2 > 3 > 0", () => {
  it("a FAIL beside an input that could not be read exits 1, and the last line still names the unread input", async () => {
    const inputs = batch();
    const r = await runCli(["verify", "--trust", TRUST, ...inputs]);
    expect(r.code).toBe(1);
    const last = r.stdout.trimEnd().split("\n").at(-1);
    expect(last).toBe(
      `exit 1 (the worst of 4 inputs): some property FAILs in ${inputs[1]}; could not verify ${inputs[3]}`,
    );
    expect(r.stdout).toContain("summary: 4 inputs · exit 0: 1 · exit 1: 1 · exit 3: 1 · exit 2: 1");
  });

  it("--jobs and the JSON report give the same exit and list every input", async () => {
    const inputs = batch();
    const r = await runCli(["verify", "--jobs", "2", "--format", "json", "--trust", TRUST, ...inputs]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.policy.exitCode).toBe(1);
    expect(report.inputs.map((i: { exitCode: number }) => i.exitCode)).toEqual([0, 1, 3, 2]);
    expect(report.summary.exitCodes).toEqual({ "0": 1, "1": 1, "2": 1, "3": 1 });
  });

  it("the library's summary exit code is 1", () => {
    const inputs = batch();
    const report = verify({
      inputs: inputs.map((p) => ({ source: p, data: readFileSync(p) })),
      trust: readFileSync(TRUST),
    });
    expect(report.policy.exitCode).toBe(1);
    expect(combinedExitCode([0, 2, 3, 1])).toBe(1);
    expect(combinedExitCode([0, 3, 2])).toBe(2);
    expect(combinedExitCode([0, 3])).toBe(3);
    expect(combinedExitCode([])).toBe(0);
  });

  it("the HTML banner says exit 1 and names the input that could not be verified", async () => {
    const inputs = batch();
    const r = await runCli(["verify", "--format", "html", "--trust", TRUST, ...inputs]);
    expect(r.code).toBe(1);
    const banner = /<div class="banner exit-\d">.*?<\/div>/.exec(r.stdout)?.[0] ?? "";
    expect(banner).toContain("<strong>Exit 1</strong>: some property FAILs");
    expect(banner).not.toContain("could not run");
    expect(banner).toContain(`1 input(s) could not be verified: <code>${inputs[3]}</code>`);
  });
});
