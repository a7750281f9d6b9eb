/**
 * A log fork across inputs through the built CLI, where --jobs worker threads take each input's
 * sighting and the main thread compares them (a sighting crosses the thread boundary as a
 * structured copy): two inputs whose producer signed two roots at one size FAIL
 * `equivocation.crossInput`, as in one thread; a checkpoint whose signature does not verify states
 * nothing, in a worker as in one thread, and forks no other input.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isFailedInput, type Report } from "../../src/report/model.js";
import type { JsonObject, JsonValue } from "../../src/json/value.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { jsonText } from "../../producer/json-text.js";
import { REPO_ROOT } from "../helpers/external.js";
import { capture } from "../properties/harness.js";

const BIN = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));

/** The inputs (`0.json`, …) and the trust file in a folder; verify over all of them with `extra` options. */
function builtCli(inputs: readonly JsonValue[], trust: JsonValue) {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-log-fork-"));
  inputs.forEach((input, k) => writeFileSync(join(dir, `${k}.json`), jsonText(input)));
  writeFileSync(join(dir, "trust.json"), jsonText(trust));
  return (...extra: string[]) => {
    const files = inputs.map((_, k) => join(dir, `${k}.json`));
    const r = spawnSync(
      process.execPath,
      [BIN, "verify", "--format", "json", "--trust", join(dir, "trust.json"), ...extra, ...files],
      { encoding: "utf8" },
    );
    const report = JSON.parse(r.stdout) as Report;
    /** Per input: continuity's state, its equivocation.crossInput check's state, checkpointSignature's state. */
    const states = report.inputs.map((i) => {
      if (isFailedInput(i)) return ["not verified"];
      const cross = i.properties.continuity.checks.find((c) => c.id === "equivocation.crossInput");
      return [i.properties.continuity.state, cross?.state, i.properties.checkpointSignature.state];
    });
    return { status: r.status, stdout: r.stdout, states };
  };
}

/** Flips one bit of the current checkpoint's signature: the producer did not sign what it states. */
function forgeCheckpoint(manifest: JsonObject): void {
  const cp = manifest.cllCheckpoint as JsonObject;
  const sig = cp.signature as string;
  cp.signature = `${sig[0] === "0" ? "1" : "0"}${sig.slice(1)}`;
}

describe.skipIf(!BUILT)("a log fork across inputs, with --jobs", () => {
  const plainA = capture();
  const other = { taskId: uuidFromLabel("the other branch") };
  const plainB = capture(other);
  const forgedB = capture(other, { manifest: forgeCheckpoint });

  it("two inputs whose producer signed two roots at one size: both FAIL equivocation.crossInput, exit 1, in one thread and with --jobs 2", () => {
    const cli = builtCli([plainA.input, plainB.input], plainA.trust);
    const one = cli();
    expect([one.status, one.states]).toEqual([
      1,
      [
        ["FAIL", "FAIL", "PASS"],
        ["FAIL", "FAIL", "PASS"],
      ],
    ]);
    const two = cli("--jobs", "2");
    expect([two.status, two.stdout]).toEqual([1, one.stdout]);
  });

  it("the other branch's checkpoint with a forged signature states nothing: the honest input is not forked, in one thread and with --jobs 2", () => {
    const cli = builtCli([plainA.input, forgedB.input], plainA.trust);
    const one = cli();
    // The forged input FAILs its own checkpointSignature (exit 1); the honest one's comparison
    // sees only the prior checkpoint they share, which agrees.
    expect([one.status, one.states]).toEqual([
      1,
      [
        ["NOT_PRESENT", "PASS", "PASS"],
        ["NOT_PRESENT", "PASS", "FAIL"],
      ],
    ]);
    const two = cli("--jobs", "2");
    expect([two.status, two.stdout]).toEqual([1, one.stdout]);
  });
});
