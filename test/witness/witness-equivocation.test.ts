/**
 * Witnesses counted by what they did and who runs them (contract §9.40, §9.41, §9.31), through
 * verify(): a pinned witness key that cosigned two roots for one size of one log never counts,
 * wherever the second line travels (the bundle, --cosignatures, another input); an operator one
 * of whose witnesses is producer-operated counts through none of them; and an Agent Card signing
 * key is a role. Every line and signature is built with producer/ and verifies.
 */
import { describe, expect, it } from "vitest";
import { fromPlain, isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import type { Report } from "../../src/report/model.js";
import { isFailedInput, type VerifiedInput } from "../../src/report/model.js";
import { verify } from "../../src/verify.js";
import { ed25519FromSeed, seedFromLabel } from "../../producer/ed25519.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import type { ExchangeOptions } from "../../producer/options.js";
import {
  CllWitness,
  cllNote,
  leavesForSize,
  type ContinuityOptions,
  type CosignerOptions,
} from "../../producer/witness.js";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonText } from "../../producer/json-text.js";
import { REPO_ROOT } from "../helpers/external.js";
import { mergedTrust } from "./merged-trust.js";
import { TS_URL, at, capture, check, checkOf, expectDecided, type Presented } from "../properties/harness.js";

const W1 = "witness-one.example/cll-w1";
const W2 = "witness-two.example/cll-w1";
const COSIGNATURE = "c2sp-cosignature/v1";

/** The witness `name` as witnessLog builds it (same seed): it can sign any note. */
const witnessKey = (name: string) => new CllWitness(name, ed25519FromSeed(seedFromLabel(`witness ${name}`)), new Map());

type Built = ReturnType<typeof capture>;

/** The note of the exchange's current checkpoint, with another root when `root` is given. */
function currentNote(e: Built, root?: Uint8Array): string {
  const cp = at(e.bundle, "manifest", "cllCheckpoint");
  const leaves = leavesForSize(Number(String(cp.mmr_size))) as number;
  return cllNote(cp.log_id as string, leaves, root ?? Buffer.from(cp.root as string, "hex"));
}
const FORK_ROOT = new Uint8Array(32).fill(0x5a);

/** The witness's line over the forked note (one size, another root), and the file entry that carries it. */
function forkLine(e: Built, name = W1): { note: string; line: string } {
  const note = currentNote(e, FORK_ROOT);
  return { note, line: witnessKey(name).cosign(note, 1_790_000_000n) };
}

function run(inputs: Array<{ source: string; e: Built }>, trust: JsonValue, request: Presented["request"] = {}) {
  return verify({ inputs: inputs.map(({ source, e }) => ({ source, data: e.input })), trust, ...request });
}
function verified(report: Report, k = 0): VerifiedInput {
  const input = report.inputs[k];
  if (!input || isFailedInput(input)) throw new Error(`not verified: ${JSON.stringify(input)}`);
  return input;
}
const onCurrentLines = (f: (lines: string[]) => void) => (b: JsonObject) => {
  const entry = (b.continuityEvidence as JsonValue[]).find((x) => isJsonObject(x) && x.checkpoint === "current");
  if (!isJsonObject(entry)) throw new Error("no current entry");
  f(entry.lines as string[]);
};

/** Continuity that counts no witness: INCONCLUSIVE below quorum, and a run requiring CONTINUITY_WITNESSED exits 3. */
function expectUncounted(e: Built, detail?: RegExp, request: Presented["request"] = {}): VerifiedInput {
  const report = run([{ source: "a.json", e }], e.trust, { minEvidence: "CONTINUITY_WITNESSED", ...request });
  const input = verified(report);
  expectDecided(input, "continuity", {
    state: "INCONCLUSIVE",
    check: "witness.quorum",
    code: "WITNESS_BELOW_QUORUM",
    ...(detail ? { detail } : {}),
  });
  expect(report.policy.exitCode).toBe(3);
  return input;
}

const one: ContinuityOptions = { witnesses: [{ name: W1 }] };
const two: ContinuityOptions = {
  witnesses: [
    { name: W1, operatorId: "org-a" },
    { name: W2, operatorId: "org-b" },
  ],
  policy: { quorum: 2 },
};

describe("a witness that cosigned two roots for one size (contract §9.40)", () => {
  it("the second line in --cosignatures: the witness is not counted (WITNESS_EQUIVOCATION, both lines named); continuity INCONCLUSIVE; a run requiring CONTINUITY_WITNESSED exits 3", () => {
    const e = capture({ continuity: one });
    const fork = forkLine(e);
    const file = [{ type: COSIGNATURE, note: fork.note, lines: [fork.line] }];
    const input = expectUncounted(e, undefined, { cosignatures: JSON.stringify(file) });
    const eligible = checkOf(input, "continuity", "witness.eligible");
    expect([eligible.state, eligible.code, eligible.subject]).toEqual(["NOT_CHECKED", "WITNESS_EQUIVOCATION", W1]);
    expect(eligible.detail).toContain("(continuityEvidence[0].lines[0])");
    expect(eligible.detail).toContain("(--cosignatures[0].lines[0])");
    expect(eligible.values).toMatchObject({
      line: "continuityEvidence[0].lines[0]",
      otherLine: "--cosignatures[0].lines[0]",
    });
    expect(input.evidenceLevel.achieved).not.toBe("CONTINUITY_WITNESSED");
  });

  it("the same line inside the bundle: cosignature.signature FAILs, as before (exit 1)", () => {
    const base = capture({ continuity: one });
    const { line } = forkLine(base);
    const e = capture({ continuity: one }, { bundle: onCurrentLines((lines) => lines.push(line)) });
    const report = run([{ source: "a.json", e }], e.trust);
    expectDecided(verified(report), "continuity", {
      state: "FAIL",
      check: "cosignature.signature",
      subject: "continuityEvidence[0].lines[1]",
      code: "COSIGNATURE_INVALID",
    });
    expect(report.policy.exitCode).toBe(1);
  });

  it("two operators, quorum 2, one of them also cosigned the forked root: only one counts, INCONCLUSIVE", () => {
    const e = capture({ continuity: two });
    const fork = forkLine(e, W1);
    const input = expectUncounted(e, /witnessed by 1 independent operator\(s\), 2 required: only org-b \(witness-two/, {
      cosignatures: [{ type: COSIGNATURE, note: fork.note, lines: [fork.line] }] as never,
    });
    expect(checkOf(input, "continuity", "witness.eligible", W1).code).toBe("WITNESS_EQUIVOCATION");
    expect(checkOf(input, "continuity", "witness.eligible", W2).state).toBe("PASS");
  });

  it("the second line in another input's bundle: not counted in either input (run-wide), and the report names the other input", () => {
    const { a, b } = acrossInputs();
    const report = run(
      [
        { source: "a.json", e: a },
        { source: "b.json", e: b },
      ],
      mergedTrust(a, b),
    );
    for (const [k, other] of [
      [0, "b.json"],
      [1, "a.json"],
    ] as const) {
      const input = verified(report, k);
      expectDecided(input, "continuity", {
        state: "INCONCLUSIVE",
        check: "witness.quorum",
        code: "WITNESS_BELOW_QUORUM",
      });
      const eligible = checkOf(input, "continuity", "witness.eligible");
      expect(eligible.code).toBe("WITNESS_EQUIVOCATION");
      expect(eligible.detail).toContain(`in ${other}`);
      // Two producers, one log_id each: no producer signed a fork.
      expect(checkOf(input, "continuity", "equivocation.crossInput").state).toBe("NOT_PRESENT");
    }
    expect(report.policy.exitCode).toBe(0);
    // Alone, each still PASSes: the contradiction is only visible together.
    expect(verified(run([{ source: "a.json", e: a }], mergedTrust(a, b))).properties.continuity.state).toBe("PASS");
  });

  it("a witness whose only conflicting lines are in the file still does not count (the file is one pool)", () => {
    const e = capture({ continuity: one });
    const w = witnessKey(W1);
    const noteA = currentNote(e, new Uint8Array(32).fill(1));
    const noteB = currentNote(e, new Uint8Array(32).fill(2));
    const file = [
      { type: COSIGNATURE, note: noteA, lines: [w.cosign(noteA, 1_790_000_000n)] },
      { type: COSIGNATURE, note: noteB, lines: [w.cosign(noteB, 1_790_000_000n)] },
    ];
    const input = verified(run([{ source: "a.json", e }], e.trust, { cosignatures: file as never }));
    const eligible = checkOf(input, "continuity", "witness.eligible");
    expect([eligible.code, eligible.values?.line, eligible.values?.otherLine]).toEqual([
      "WITNESS_EQUIVOCATION",
      "--cosignatures[1].lines[0]",
      "--cosignatures[0].lines[0]",
    ]);
    expect(input.properties.continuity.state).toBe("INCONCLUSIVE");
  });

  describe("honest look-alikes", () => {
    it("the same line in the bundle and again in --cosignatures counts once: PASS, exit 0", () => {
      const e = capture({ continuity: one });
      const entry = (e.bundle.continuityEvidence as JsonObject[]).find((x) => x.checkpoint === "current") as JsonObject;
      const file = [{ type: COSIGNATURE, note: currentNote(e), lines: entry.lines }];
      const report = run([{ source: "a.json", e }], e.trust, {
        cosignatures: file as never,
        minEvidence: "CONTINUITY_WITNESSED",
      });
      expectDecided(verified(report), "continuity", {
        state: "PASS",
        check: "prior.checkpoint",
        detail: /; 1 exact duplicate line\(s\) counted once$/,
      });
      expect(report.policy.exitCode).toBe(0);
    });

    it("a second cosignature of the same root at another time is no equivocation: PASS", () => {
      const e = capture({ continuity: one });
      const note = currentNote(e);
      const file = [{ type: COSIGNATURE, note, lines: [witnessKey(W1).cosign(note, 1_800_000_000n)] }];
      const input = verified(run([{ source: "a.json", e }], e.trust, { cosignatures: file as never }));
      expect(input.properties.continuity.state).toBe("PASS");
    });

    it("two distinct honest witnesses of distinct operators meet quorum 2: PASS, exit 0", () => {
      const e = capture({ continuity: two });
      const report = run([{ source: "a.json", e }], e.trust, { minEvidence: "CONTINUITY_WITNESSED" });
      expectDecided(verified(report), "continuity", { state: "PASS", check: "prior.checkpoint" });
      expect(report.policy.exitCode).toBe(0);
    });

    it("a fork note at another size, or cosigned by an unpinned key, changes nothing", () => {
      const e = capture({ continuity: one });
      const cp = at(e.bundle, "manifest", "cllCheckpoint");
      const other = cllNote(cp.log_id as string, 10, FORK_ROOT);
      const stranger = new CllWitness(W1, ed25519FromSeed(seedFromLabel("a stranger")), new Map());
      const fork = currentNote(e, FORK_ROOT);
      const file = [
        { type: COSIGNATURE, note: other, lines: [witnessKey(W1).cosign(other, 1_790_000_000n)] },
        { type: COSIGNATURE, note: fork, lines: [stranger.cosign(fork, 1_790_000_000n)] },
      ];
      const input = verified(run([{ source: "a.json", e }], e.trust, { cosignatures: file as never }));
      expect(input.properties.continuity.state).toBe("PASS");
    });
  });
});

/** W1 of org-a cosigns; W2, pinned too, cosigns nothing and is what `w2` says. */
const besideW1 = (w2: Omit<CosignerOptions, "name">): ContinuityOptions => ({
  witnesses: [
    { name: W1, operatorId: "org-a" },
    { name: W2, cosigns: [], ...w2 },
  ],
});

describe("independence is per operator (contract §9.41)", () => {
  const sameOperator = besideW1({ operatorId: "org-a" });
  /** The trust file with W2's key also pinned as a producer key of another authority. */
  const w2AsProducer = (t: JsonObject) => {
    const key = witnessKey(W2).signer.publicKeyHex;
    (t.producers as JsonValue[]).push(fromPlain({ authority: "other-agent.example", keys: [key] }));
  };

  it("two witnesses of one operator, one producer-operated by key reuse: the other is producer-operated too, none counts (INCONCLUSIVE)", () => {
    const e = capture({ continuity: sameOperator, tamper: { trust: w2AsProducer } });
    const input = expectUncounted(e, /only producer-operated witnesses cosigned/);
    const eligible = checkOf(input, "continuity", "witness.eligible", W1);
    expect([eligible.state, eligible.code, eligible.operator]).toEqual([
      "NOT_CHECKED",
      "WITNESS_PRODUCER_OPERATED",
      "producer-operated",
    ]);
    expect(eligible.detail).toContain(`its operator org-a also runs a producer-operated witness (${W2}: its key`);
    expect(checkOf(input, "continuity", "cosignature.signature", "continuityEvidence[0].lines[0]").operator).toBe(
      "producer-operated",
    );
  });

  it("the same, by the trust file's label on the other witness", () => {
    const input = expectUncounted(capture({ continuity: besideW1({ operatorId: "org-a", operator: "producer" }) }));
    expect(checkOf(input, "continuity", "witness.eligible", W1).code).toBe("WITNESS_PRODUCER_OPERATED");
  });

  it("honest look-alike: the producer-operated witness belongs to another operator, so the first still counts (PASS)", () => {
    const e = capture({ continuity: besideW1({ operatorId: "org-b" }), tamper: { trust: w2AsProducer } });
    const report = run([{ source: "a.json", e }], e.trust, { minEvidence: "CONTINUITY_WITNESSED" });
    expectDecided(verified(report), "continuity", { state: "PASS", check: "prior.checkpoint" });
    expect(report.policy.exitCode).toBe(0);
  });
});

describe("Agent Card keys are a role (contract §9.31)", () => {
  const card = (key: string) => (t: JsonObject) => {
    t.agents = fromPlain([{ card: "https://payments-agent.example/.well-known/agent-card.json", keys: [key] }]);
  };

  it("a witness key also pinned as an Agent Card signing key is producer-operated and never counted", () => {
    const input = expectUncounted(
      capture({ continuity: one, tamper: { trust: card(witnessKey(W1).signer.publicKeyHex) } }),
    );
    const eligible = checkOf(input, "continuity", "witness.eligible");
    expect([eligible.code, eligible.operator]).toEqual(["WITNESS_PRODUCER_OPERATED", "producer-operated"]);
    expect(eligible.detail).toContain("an Agent Card signing key for https://payments-agent.example/");
  });

  it("a Transparency Service key also pinned as an Agent Card signing key is producer-operated", () => {
    const base = capture();
    const tsKey = base.keys.transparencyServices[0]?.publicKey as string;
    const input = check(capture({ tamper: { trust: card(tsKey) } }));
    const sig = checkOf(input, "externalRegistration", "witness.signature");
    expect([sig.state, sig.operator]).toEqual(["PASS", "producer-operated"]);
    expect(sig.detail).toContain("is also an Agent Card signing key for https://payments-agent.example/");
    // Registration still stands; independence does not.
    expect(input.properties.externalRegistration.state).toBe("PASS");
  });

  it("honest look-alike: an Agent Card key that no service or witness holds changes nothing", () => {
    const other = ed25519FromSeed(seedFromLabel("the agent's card key")).publicKeyHex;
    const input = check(capture({ continuity: one, tamper: { trust: card(other) } }));
    expect(input.properties.continuity.state).toBe("PASS");
    expect(checkOf(input, "externalRegistration", "witness.signature").operator).toBe("independent");
  });
});

/**
 * Two producers' logs under one origin, each cosigned by W1 at the same size: W1 equivocated, and
 * only the two inputs together show it. B's service stamp is at another tree size: services are
 * not what these cases are about.
 */
function acrossInputs(): { a: Built; b: Built } {
  const a = capture({ continuity: one });
  const logId = at(a.bundle, "manifest", "cllCheckpoint").log_id as string;
  const b = capture({
    ...otherProducer("b", { witnesses: [{ url: TS_URL, treeSize: 8, leafIndex: 4 }] }),
    logId,
    continuity: one,
  });
  return { a, b };
}

const BIN = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));

describe.skipIf(!BUILT)("the CLI pools every input's lines, with --jobs and --shard", () => {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-witness-"));
  const { a, b } = acrossInputs();
  const plain = capture({ ...otherProducer("c", { witnesses: [{ url: TS_URL, treeSize: 9, leafIndex: 4 }] }) });
  const inputs = [a, b, plain].map((e, k) => {
    const path = join(dir, `${k}.json`);
    writeFileSync(path, jsonText(e.input));
    return path;
  });
  const trust = join(dir, "trust.json");
  writeFileSync(trust, jsonText(mergedTrust(a, b, plain)));
  const cli = (...extra: string[]) => {
    const r = spawnSync(process.execPath, [BIN, "verify", "--format", "json", "--trust", trust, ...extra, ...inputs], {
      encoding: "utf8",
    });
    const report = JSON.parse(r.stdout) as Report;
    const equivocated = report.inputs
      .filter(
        (i) =>
          !isFailedInput(i) &&
          i.properties.continuity.state === "INCONCLUSIVE" &&
          i.properties.continuity.checks.some((c) => c.code === "WITNESS_EQUIVOCATION"),
      )
      .map((i) => i.source.replace(/^.*\//, ""));
    return { status: r.status, stdout: r.stdout, equivocated };
  };

  it("one thread and --jobs 2 give the same report: the witness counts in neither input that shows its lines", () => {
    const one = cli();
    expect([one.status, one.equivocated]).toEqual([0, ["0.json", "1.json"]]);
    const two = cli("--jobs", "2");
    expect(two.stdout).toBe(one.stdout);
    expect(two.status).toBe(0);
  });

  it("--shard: whichever shard holds the other input", () => {
    const found = ["1/2", "2/2"].flatMap((shard) => [
      ...cli("--shard", shard).equivocated,
      ...cli("--shard", shard, "--jobs", "2").equivocated,
    ]);
    expect(found.sort()).toEqual(["0.json", "0.json", "1.json", "1.json"]);
  });
});

/** Another producer (its own key and authority) with its own task, and the options given. */
function otherProducer(label: string, extra: ExchangeOptions = {}): ExchangeOptions {
  return {
    taskId: uuidFromLabel(`task of producer ${label}`),
    producerKeyLabel: `producer ${label}`,
    authority: `${label}-agent.example`,
    ...extra,
  };
}
