/**
 * Transparency Service forks across inputs (contract §9.32): two inputs whose stamps from one
 * service fold to two roots for one tree size FAIL `registration.consistent` in both, as two
 * checkpoints of one producer log do — through verify(), and through the CLI with --jobs and
 * --shard, where the comparison spans every input whichever worker or shard holds it. The two
 * inputs are two producers' honest exchanges (their logs do not fork), each stamped by the same
 * service at one tree size under another root; every signature verifies.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isFailedInput, type Report, type VerifiedInput } from "../../src/report/model.js";
import { verify } from "../../src/verify.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import type { ExchangeOptions } from "../../producer/options.js";
import { jsonText } from "../../producer/json-text.js";
import { REPO_ROOT } from "../helpers/external.js";
import { mergedTrust } from "./merged-trust.js";
import { TS_URL, capture, expectDecided } from "../properties/harness.js";

type Built = ReturnType<typeof capture>;

/** An exchange of another producer (its own key, authority and task), stamped as `stamp` says. */
function producer(label: string, stamp: { url?: string; treeSize?: number } = {}, extra: ExchangeOptions = {}): Built {
  return capture({
    taskId: uuidFromLabel(`registration fork task ${label}`),
    producerKeyLabel: `registration fork producer ${label}`,
    authority: `${label}-agent.example`,
    witnesses: [{ url: stamp.url ?? TS_URL, treeSize: stamp.treeSize ?? 7, leafIndex: 4 }],
    ...extra,
  });
}

function run(all: Built[]): Report {
  return verify({ inputs: all.map((e, k) => ({ source: `${k}.json`, data: e.input })), trust: mergedTrust(...all) });
}
function verified(report: Report, k: number): VerifiedInput {
  const input = report.inputs[k];
  if (!input || isFailedInput(input)) throw new Error(`not verified: ${JSON.stringify(input)}`);
  return input;
}

describe("one service, one tree size, two roots in two inputs", () => {
  const a = producer("a");
  const b = producer("b");

  it("alone, each input's registration PASSes", () => {
    for (const e of [a, b]) {
      const report = verify({ inputs: [{ source: "x.json", data: e.input }], trust: mergedTrust(a, b) });
      expect(verified(report, 0).properties.externalRegistration.state).toBe("PASS");
      expect(report.policy.exitCode).toBe(0);
    }
  });

  it("together, both FAIL registration.consistent (REGISTRATION_FORK), each naming the other's stamp; exit 1", () => {
    const report = run([a, b]);
    for (const [k, other] of [
      [0, "1.json"],
      [1, "0.json"],
    ] as const) {
      const input = verified(report, k);
      const deciding = expectDecided(input, "externalRegistration", {
        state: "FAIL",
        check: "registration.consistent",
        subject: `manifest.cllCheckpoint.witnesses ${TS_URL}`,
        code: "REGISTRATION_FORK",
        detail: new RegExp(
          `^manifest\\.cllCheckpoint\\.witnesses ${TS_URL.replace(/\./g, "\\.")}: the service signed two roots for tree size 7: [0-9a-f]{64} \\(manifest\\.cllCheckpoint\\.witnesses\\[0\\]\\) and [0-9a-f]{64} \\(manifest\\.cllCheckpoint\\.witnesses\\[0\\] in ${other.replace(".", "\\.")}\\)`,
        ),
      });
      expect(deciding.values?.root).not.toBe(deciding.values?.otherRoot);
      // The producers' own logs did not fork: only the service's did.
      expect(input.properties.continuity.checks.some((c) => c.code === "EQUIVOCATION_FORK")).toBe(false);
    }
    expect(report.policy.exitCode).toBe(1);
  });

  it("a third input that agrees with neither is compared too: all three FAIL", () => {
    const report = run([a, b, producer("c")]);
    for (const k of [0, 1, 2])
      expect(
        verified(report, k).properties.externalRegistration.checks.some((c) => c.code === "REGISTRATION_FORK"),
      ).toBe(true);
  });
});

describe("honest look-alikes: stamps that are not comparable", () => {
  it("stamps of different tree sizes from one service: not compared, exit 0", () => {
    const report = run([producer("a"), producer("b", { treeSize: 8 })]);
    for (const k of [0, 1]) expect(verified(report, k).properties.externalRegistration.state).toBe("PASS");
    expect(report.policy.exitCode).toBe(0);
  });

  it("stamps of one tree size from different services: not compared, exit 0", () => {
    const report = run([producer("a"), producer("b", { url: "https://ts-two.a2a-evidence.example" })]);
    for (const k of [0, 1]) expect(verified(report, k).properties.externalRegistration.state).toBe("PASS");
    expect(report.policy.exitCode).toBe(0);
  });

  it("the same input twice agrees with itself: exit 0", () => {
    const a = producer("a");
    const report = verify({
      inputs: [
        { source: "0.json", data: a.input },
        { source: "1.json", data: a.input },
      ],
      trust: mergedTrust(a),
    });
    for (const k of [0, 1]) expect(verified(report, k).properties.externalRegistration.state).toBe("PASS");
    expect(report.policy.exitCode).toBe(0);
  });
});

const BIN = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));

describe.skipIf(!BUILT)("the CLI compares stamps across every input, with --jobs and --shard", () => {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-ts-fork-"));
  const all = [producer("a"), producer("b"), producer("c", { treeSize: 8 }), producer("d", { treeSize: 9 })];
  all.forEach((e, k) => writeFileSync(join(dir, `${k}.json`), jsonText(e.input)));
  writeFileSync(join(dir, "trust.json"), jsonText(mergedTrust(...all)));
  const cli = (...extra: string[]) => {
    const r = spawnSync(
      process.execPath,
      [
        BIN,
        "verify",
        "--format",
        "json",
        "--trust",
        join(dir, "trust.json"),
        ...extra,
        ...all.map((_, k) => join(dir, `${k}.json`)),
      ],
      { encoding: "utf8" },
    );
    const report = JSON.parse(r.stdout) as Report;
    const forked = report.inputs
      .filter(
        (i) =>
          !isFailedInput(i) && i.properties.externalRegistration.checks.some((c) => c.code === "REGISTRATION_FORK"),
      )
      .map((i) => i.source.replace(/^.*\//, ""));
    return { status: r.status, stdout: r.stdout, forked };
  };

  it("one thread and --jobs 2 give the same report: the two inputs that fork FAIL, the others do not", () => {
    const one = cli();
    const two = cli("--jobs", "2");
    expect([one.status, one.forked]).toEqual([1, ["0.json", "1.json"]]);
    expect(two.stdout).toBe(one.stdout);
    expect(two.status).toBe(1);
  });

  it("--shard: each input's report is what the whole run says of it, whichever shard holds the other", () => {
    const forked = ["1/2", "2/2"].flatMap((shard) => [
      ...cli("--shard", shard).forked,
      ...cli("--shard", shard, "--jobs", "2").forked,
    ]);
    expect(forked.sort()).toEqual(["0.json", "0.json", "1.json", "1.json"]);
  });
});
