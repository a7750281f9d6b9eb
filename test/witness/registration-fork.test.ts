/**
 * Transparency Service forks across inputs (contract §9.32): two inputs whose stamps from one
 * service fold to two roots for one tree size FAIL `registration.consistent` in both, as two
 * checkpoints of one producer log do — through verify(), and through the CLI with --jobs and
 * --shard, where the comparison spans every input whichever worker or shard holds it. The two
 * inputs are two producers' honest exchanges (their logs do not fork), each stamped by the same
 * service at one tree size under another root; every signature verifies. Under --at, a stamp under
 * a service key revoked before that time shows no fork, as it counts for no registration.
 */
import { describe, expect, it } from "vitest";
import { isFailedInput, type Report, type VerifiedInput } from "../../src/report/model.js";
import { verify } from "../../src/verify.js";
import { fromPlain, toPlain, type JsonValue } from "../../src/json/value.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import type { ExchangeOptions } from "../../producer/options.js";
import { BUILT, builtVerify } from "./built-cli.js";
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

/**
 * The built CLI's verify over the inputs with `extra` options: its exit status, its JSON report,
 * and which inputs FAIL with a registration fork.
 */
function builtCli(inputs: readonly JsonValue[], trust: JsonValue) {
  const run = builtVerify(inputs, trust);
  return (...extra: string[]) => {
    const { status, stdout, report } = run(...extra);
    const forked = report.inputs
      .filter(
        (i) =>
          !isFailedInput(i) && i.properties.externalRegistration.checks.some((c) => c.code === "REGISTRATION_FORK"),
      )
      .map((i) => i.source.replace(/^.*\//, ""));
    return { status, stdout, forked };
  };
}

/**
 * Under --at (contract §5.1, §9.32): the service signed input a's stamp with its first key and
 * input b's with a second key that the trust file revokes at 10:00Z; both stamps are of tree size
 * 7 under two roots. A stamp counts for the comparison exactly when it counts for its own input's
 * registration, so the caller's time decides whether the fork is shown.
 */
describe("a fork shown by a stamp under a revoked service key, judged at the caller's time", () => {
  const REVOKED_AT = "2026-10-01T10:00:00Z";
  const BEFORE = "2026-10-01T09:45:00Z";
  const AFTER = "2026-10-01T10:30:00Z";
  const OTHER_TS = "https://ts-two.a2a-evidence.example";
  const a = producer("a");
  const b = producer(
    "b",
    {},
    { witnesses: [{ url: TS_URL, keyLabel: "rotated service key", treeSize: 7, leafIndex: 4 }] },
  );
  // b stamped also by a second service, under a key with no window: its registration holds without the revoked stamp.
  const b2 = producer(
    "b",
    {},
    {
      witnesses: [
        { url: TS_URL, keyLabel: "rotated service key", treeSize: 7, leafIndex: 4 },
        { url: OTHER_TS, treeSize: 3, leafIndex: 2 },
      ],
    },
  );
  /** One entry for the service: a's key, and b's key revoked at 10:00Z. */
  const trust = (...all: Built[]) => {
    const t = toPlain(mergedTrust(...all)) as { transparencyServices: { url: string; keys: unknown[] }[] };
    const keysOf = (e: Built) =>
      (toPlain(e.trust) as typeof t).transparencyServices.find((s) => s.url === TS_URL)?.keys ?? [];
    const service = t.transparencyServices.find((s) => s.url === TS_URL);
    if (!service) throw new Error("no entry for the service");
    service.keys = [...keysOf(a), { key: keysOf(b)[0], revokedAt: REVOKED_AT, reason: "service signing key leaked" }];
    return fromPlain(t);
  };
  const runAt = (at: string, second: Built = b) =>
    verify({
      inputs: [
        { source: "0.json", data: a.input },
        { source: "1.json", data: second.input },
      ],
      trust: trust(a, second),
      at,
    });
  const forked = (report: Report, k: number) =>
    verified(report, k).properties.externalRegistration.checks.filter((c) => c.code === "REGISTRATION_FORK");

  it("the two stamps are under two keys of the one service, and fold to two roots for tree size 7", () => {
    const heads = [a, b].map((e) => {
      const r = verify({ inputs: [{ source: "x.json", data: e.input }], trust: trust(a, b), at: BEFORE });
      const receipt = verified(r, 0).properties.externalRegistration.checks.find((c) => c.id === "witness.receipt");
      const signed = verified(r, 0).properties.externalRegistration.checks.find((c) => c.id === "witness.signature");
      return { root: receipt?.values?.root, key: signed?.values?.key };
    });
    expect(heads[0]?.root).not.toBe(heads[1]?.root);
    expect(heads[0]?.key).not.toBe(heads[1]?.key);
  });

  it("--at before the revocation: the key is valid, the stamp counts, the fork is found in both; exit 1", () => {
    const report = runAt(BEFORE);
    for (const [k, other] of [
      [0, "1.json"],
      [1, "0.json"],
    ] as const) {
      const deciding = expectDecided(verified(report, k), "externalRegistration", {
        state: "FAIL",
        check: "registration.consistent",
        subject: `manifest.cllCheckpoint.witnesses ${TS_URL}`,
        code: "REGISTRATION_FORK",
      });
      expect(deciding.values?.otherStamp).toBe(`manifest.cllCheckpoint.witnesses[0] in ${other}`);
    }
    const window = verified(report, 1).properties.externalRegistration.checks.find((c) => c.id === "key.window");
    expect([window?.state, window?.values?.trustedTime]).toEqual(["PASS", BEFORE]);
    expect(report.policy.exitCode).toBe(1);
  });

  it("--at after the revocation: b's stamp is not counted, in its own registration nor in the comparison; exit 3", () => {
    const report = runAt(AFTER);
    const [first, second] = [verified(report, 0), verified(report, 1)];
    expect([forked(report, 0), forked(report, 1)]).toEqual([[], []]);
    expect(first.properties.externalRegistration.state).toBe("PASS");
    expectDecided(second, "externalRegistration", {
      state: "INCONCLUSIVE",
      check: "key.window",
      subject: `manifest.cllCheckpoint.witnesses[0] ${TS_URL}`,
      code: "KEY_REVOKED",
    });
    expect(second.properties.externalRegistration.checks.find((c) => c.id === "registration.verified")?.state).toBe(
      "INCONCLUSIVE",
    );
    expect(report.policy.exitCode).toBe(3);
  });

  it("--at after the revocation, b stamped by another service too: the revoked stamp still counts nowhere; exit 3", () => {
    const report = runAt(AFTER, b2);
    expect([forked(report, 0), forked(report, 1)]).toEqual([[], []]);
    expect(verified(report, 0).properties.externalRegistration.state).toBe("PASS");
    // b's registration does not rest on the revoked stamp: the other service's alone is counted,
    // and the stamp not counted leaves the property INCONCLUSIVE, never a PASS that hides the fork.
    const registration = verified(report, 1).properties.externalRegistration;
    expectDecided(verified(report, 1), "externalRegistration", {
      state: "INCONCLUSIVE",
      check: "key.window",
      subject: `manifest.cllCheckpoint.witnesses[0] ${TS_URL}`,
      code: "KEY_REVOKED",
    });
    expect(registration.checks.find((c) => c.id === "registration.verified")).toMatchObject({
      state: "PASS",
      detail: "1 of 2 stamp(s) verified under pinned keys",
    });
    expect(report.policy.exitCode).toBe(3);
    // The same two inputs at a time the key was valid: the fork is found.
    const before = runAt(BEFORE, b2);
    expect([forked(before, 0).length, forked(before, 1).length]).toEqual([1, 1]);
    expect(before.policy.exitCode).toBe(1);
  });

  describe.skipIf(!BUILT)("the built CLI, where worker threads and shards take the sightings", () => {
    const cli = builtCli([a.input, b.input], trust(a, b));
    it("--jobs 2 and --shard judge each stamp at --at as one thread does", () => {
      for (const [at, status, forks] of [
        [BEFORE, 1, ["0.json", "1.json"]],
        [AFTER, 3, []],
      ] as const) {
        const one = cli("--at", at);
        expect([one.status, one.forked]).toEqual([status, forks]);
        expect(cli("--at", at, "--jobs", "2").stdout).toBe(one.stdout);
        const sharded = ["1/2", "2/2"].flatMap((shard) => cli("--at", at, "--shard", shard, "--jobs", "2").forked);
        expect(sharded.sort()).toEqual(forks);
      }
    });
  });
});

describe.skipIf(!BUILT)("the CLI compares stamps across every input, with --jobs and --shard", () => {
  const all = [producer("a"), producer("b"), producer("c", { treeSize: 8 }), producer("d", { treeSize: 9 })];
  const cli = builtCli(
    all.map((e) => e.input),
    mergedTrust(...all),
  );

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
