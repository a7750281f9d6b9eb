/**
 * A log fork shown by an input in a structured carrier that widened its integers (mmr_size 16 →
 * 16.0): its checkpoints' signatures verify only under a narrowing, and what the comparison holds
 * of them is the narrowed checkpoint, so the fork is found as it is for a plain input — its current
 * checkpoint's root, and its prior checkpoint's, each stated only through the narrowing. Through
 * verify(), and through the built CLI in one thread and with --jobs 2 (byte for byte).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../../src/json/value.js";
import { isFailedInput, type Report } from "../../src/report/model.js";
import { verify } from "../../src/verify.js";
import { parseCheckpoint } from "../../src/log/checkpoint.js";
import { bytesToHex, sha256, utf8 } from "../../src/util/bytes.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { signCheckpoint } from "../../producer/checkpoint.js";
import { ed25519FromSeed, seedFromLabel } from "../../producer/ed25519.js";
import { at, capture, widenedAt } from "../properties/harness.js";
import { BUILT, builtVerify } from "./built-cli.js";

const DATA = { carrier: "data" } as const;

/** The manifest's prior checkpoint replaced by one its producer signed with another root at the same size. */
function forkedPrior(m: JsonObject): void {
  const p = m.priorCheckpoint as JsonObject;
  m.priorCheckpoint = signCheckpoint(
    {
      logId: p.log_id as string,
      mmrSize: Number(String(p.mmr_size)),
      root: bytesToHex(sha256(utf8("the other branch's prior root"))),
      prevSize: Number(String(p.prev_size)),
      prevRoot: p.prev_root as string,
      timestamp: p.timestamp as string,
    },
    ed25519FromSeed(seedFromLabel("producer")),
  ).checkpoint;
}

/** Per input: its equivocation.crossInput state and code, and what the first fork it names was stated by. */
function crossInput(report: Report) {
  return report.inputs.map((i) => {
    if (isFailedInput(i)) return ["not verified"];
    const c = i.properties.continuity.checks.find((x) => x.id === "equivocation.crossInput");
    return [c?.state, c?.code, c?.detail.match(/\(([^()]*)\), both signed/)?.[1]];
  });
}

const run = (inputs: readonly JsonValue[], trust: JsonValue) =>
  verify({ inputs: inputs.map((data, k) => ({ source: `${k}.json`, data })), trust });

describe("a fork shown by an input whose checkpoints verify only under a narrowing", () => {
  const plain = capture(DATA);
  const current = capture(
    { ...DATA, taskId: uuidFromLabel("the other branch") },
    { bundle: widenedAt(["manifest", "cllCheckpoint"], ["manifest", "priorCheckpoint"]) },
  );
  const prior = capture(DATA, { manifest: forkedPrior, bundle: widenedAt(["manifest", "priorCheckpoint"]) });

  it("is widened: its checkpoints do not parse as presented", () => {
    for (const [e, names] of [
      [current, ["cllCheckpoint", "priorCheckpoint"]],
      [prior, ["priorCheckpoint"]],
    ] as const)
      for (const name of names)
        expect(parseCheckpoint(at(e.bundle, "manifest", name), `manifest.${name}`).ok, name).toBe(false);
  });

  it("its current checkpoint, narrowed, forks the other input's: both FAIL", () => {
    expect(crossInput(run([plain.input, current.input], plain.trust))).toEqual([
      ["FAIL", "EQUIVOCATION_FORK", "its checkpoint in 1.json"],
      ["FAIL", "EQUIVOCATION_FORK", "its checkpoint in 0.json"],
    ]);
  });

  it("its prior checkpoint, narrowed, is the only statement of the other root: the plain input FAILs", () => {
    const [a] = crossInput(run([plain.input, prior.input], plain.trust));
    expect(a).toEqual(["FAIL", "EQUIVOCATION_FORK", "its prior checkpoint in 1.json"]);
  });

  it.skipIf(!BUILT)("the built CLI finds both, in one thread and with --jobs 2, byte for byte", () => {
    const cli = builtVerify([plain.input, current.input, prior.input], plain.trust);
    const one = cli();
    expect(crossInput(one.report).map((s) => s.slice(0, 2))).toEqual([
      ["FAIL", "EQUIVOCATION_FORK"],
      ["FAIL", "EQUIVOCATION_FORK"],
      ["FAIL", "EQUIVOCATION_FORK"],
    ]);
    const two = cli("--jobs", "2");
    expect([two.status, two.stdout]).toEqual([one.status, one.stdout]);
  });
});
