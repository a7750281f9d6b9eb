/**
 * A log fork across inputs through the built CLI, where --jobs worker threads take each input's
 * sighting and the main thread compares them (a sighting crosses the thread boundary as a
 * structured copy): two inputs whose producer signed two roots at one size FAIL
 * `equivocation.crossInput`, as in one thread; a checkpoint whose signature does not verify states
 * nothing, in a worker as in one thread, and forks no other input.
 */
import { describe, expect, it } from "vitest";
import { isFailedInput } from "../../src/report/model.js";
import type { JsonObject, JsonValue } from "../../src/json/value.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { capture } from "../properties/harness.js";
import { BUILT, builtVerify } from "./built-cli.js";

/** verify over the inputs with `extra` options; per input: continuity, its equivocation.crossInput check, checkpointSignature. */
function builtCli(inputs: readonly JsonValue[], trust: JsonValue) {
  const run = builtVerify(inputs, trust);
  return (...extra: string[]) => {
    const { status, stdout, report } = run(...extra);
    const states = report.inputs.map((i) => {
      if (isFailedInput(i)) return ["not verified"];
      const cross = i.properties.continuity.checks.find((c) => c.id === "equivocation.crossInput");
      return [i.properties.continuity.state, cross?.state, i.properties.checkpointSignature.state];
    });
    return { status, stdout, states };
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

  it.each([
    [
      "two inputs whose producer signed two roots at one size: both FAIL equivocation.crossInput",
      () => [plainA.input, plainB.input],
      [
        ["FAIL", "FAIL", "PASS"],
        ["FAIL", "FAIL", "PASS"],
      ],
    ],
    [
      // The forged input FAILs its own checkpointSignature (exit 1); the honest one's comparison
      // sees only the prior checkpoint they share, which agrees.
      "the other branch's checkpoint with a forged signature states nothing: the honest input is not forked",
      () => [plainA.input, forgedB.input],
      [
        ["NOT_PRESENT", "PASS", "PASS"],
        ["NOT_PRESENT", "PASS", "FAIL"],
      ],
    ],
  ] as const)("%s, in one thread and with --jobs 2 (exit 1)", (_, inputs, states) => {
    const cli = builtCli(inputs(), plainA.trust);
    const one = cli();
    expect([one.status, one.states]).toEqual([1, states]);
    const two = cli("--jobs", "2");
    expect([two.status, two.stdout]).toEqual([1, one.stdout]);
  });
});
