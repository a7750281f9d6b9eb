/**
 * Flags a CI script may give more than once, often by appending to a common set: a repeat must
 * add to what the earlier one asked for, or be refused, never silently replace it — a dropped
 * --require or --checkpoints file lets the gate through on a property or a fork the caller asked
 * about.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { toPlain } from "../../src/json/value.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { at, capture } from "../properties/harness.js";

const vector = (name: string, file: string) => join(REPO_ROOT, "vectors", name, file);

describe("repeated verify flags add up", () => {
  it("--require given twice requires both lists: continuity NOT_PRESENT exits 3 whatever comes after it", async () => {
    const args = ["--trust", vector("valid-capture", "trust.json"), vector("valid-capture", "input.json")];
    for (const flags of [
      ["--require", "continuity", "--require", "externalRegistration"],
      ["--require", "externalRegistration", "--require", "continuity"],
    ]) {
      const r = await runCli(["verify", "--format", "json", ...flags, ...args]);
      const report = JSON.parse(r.stdout);
      expect(report.policy.require).toEqual(expect.arrayContaining(["continuity", "externalRegistration"]));
      expect(report.inputs[0].reasons.join("\n")).toMatch(/required continuity is NOT_PRESENT/);
      expect(r.code).toBe(3);
    }
  });

  it("--checkpoints given twice compares with both files: the fork in the first still FAILs continuity, exit 1", async () => {
    const mine = capture();
    const theirs = capture({ taskId: uuidFromLabel("the other branch") });
    const input = tempFile("input.json", JSON.stringify(toPlain(mine.input)));
    const trust = tempFile("trust.json", JSON.stringify(toPlain(mine.trust)));
    const seen = tempFile("seen.json", JSON.stringify([toPlain(at(theirs.bundle, "manifest", "cllCheckpoint"))]));
    const empty = tempFile("empty.json", "[]");
    for (const files of [
      [seen, empty],
      [empty, seen],
    ]) {
      const flags = files.flatMap((f) => ["--checkpoints", f]);
      const r = await runCli(["verify", "--format", "json", "--trust", trust, ...flags, input]);
      const c = JSON.parse(r.stdout).inputs[0].properties.continuity;
      expect([c.state, c.checks.find((x: { state: string }) => x.state === "FAIL")?.id]).toEqual([
        "FAIL",
        "equivocation.crossInput",
      ]);
      expect(r.code).toBe(1);
    }
  });

  it("--cosignatures given twice is refused (exit 2): a second file would hide the first one's lines, a forged one included", async () => {
    const file = tempFile("cosignatures.json", "[]");
    const r = await runCli([
      "verify",
      "--trust",
      vector("valid-capture", "trust.json"),
      "--cosignatures",
      file,
      "--cosignatures",
      file,
      vector("valid-capture", "input.json"),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--cosignatures.*given twice/);
  });
});
