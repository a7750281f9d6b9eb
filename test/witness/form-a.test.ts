/**
 * Form A over the design's worked example 2 (continuity-witness.md §5.3): the producer's prior P
 * (3 leaves) and current C (5 leaves) checkpoints with their consistency proof, one witness's
 * cosignatures of both, and the trust file of §4.2 A.3 — then the example's mutations and every
 * other branch of form A, each asserting the deciding check, its state and its code.
 */
import { describe, expect, it } from "vitest";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { fromPlain, type JsonValue } from "../../src/json/value.js";
import { parseCheckpoint, verifyCheckpointSignature, type Checkpoint } from "../../src/log/checkpoint.js";
import { verifyCheckpointChain } from "../../src/log/checkpoint-chain.js";
import { parseConsistencyProof } from "../../src/log/mmr.js";
import { deriveState } from "../../src/properties/shared/checks.js";
import type { Check, State } from "../../src/properties/shared/types.js";
import { loadTrustConfig, type TrustConfig } from "../../src/trust/config.js";
import { formAChecks, type ChainOutcome, type FormAInput } from "../../src/properties/continuity/form-a.js";
import { readWitnessLines } from "../../src/evidence/witness-lines.js";
import type { CarriedLine } from "../../src/witness/evidence.js";
import { parseRfc3339 } from "../../src/witness/time.js";
import { CllWitness } from "../../producer/witness.js";
import { ed25519FromSeed } from "../../producer/ed25519.js";

const json = (text: string): JsonValue => {
  const r = parseStrictJson(text);
  if (!r.ok) throw new Error(r.detail);
  return r.value;
};
const checkpoint = (text: string, path: string): Checkpoint => {
  const r = parseCheckpoint(json(text), path);
  if (!r.ok) throw new Error(r.detail);
  return r.value;
};

const P_JSON = `{"key_id":"ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c","kind":"mmr_checkpoint","log_id":"example-cll-log-1","mmr_size":4,"prev_root":"","prev_size":0,"root":"e5280e43815bcb82f184d4dbe10741b65a28c34488a9a3029e0e08d1cbed9a17","signature":"f7c5ab4c2baba6ac7c4ca40029c0e5ecd84434de8383e52f9a328e23596800331bebab3d71210af8fc9a26da5187f5327147d6c190a14fd3182dcedaa99ce70f","timestamp":"2026-09-10T00:00:00Z","v":1}`;
const C_JSON = `{"key_id":"ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c","kind":"mmr_checkpoint","log_id":"example-cll-log-1","mmr_size":8,"prev_root":"e5280e43815bcb82f184d4dbe10741b65a28c34488a9a3029e0e08d1cbed9a17","prev_size":4,"root":"a19de527084fc32502d998b4dd0e73f942d3b4ddc55b2c093dfd907e95a93f1a","signature":"3ac6e229fa8907c799e82678fe1899872ed40e3c442b3c8b10fae52b3ebf10d9543fa9ab5457f78194ef53148c10b919e093b823af12a132ce99007d3c023606","timestamp":"2026-09-10T00:05:00Z","v":1}`;
const PROOF_JSON = `{"kind":"consistency","new_peaks":["44588de7a213cb67d681fd0822d22f57248a50b5cab4d5579c1d9162403b6755","71235381e2cb35478270e72fab0bc96ac0ee43de2078f035c240687fbe9365bb"],"old_peaks":["f7b19d3f831d2cddfe91865465a8beb649e4bf16c3aa2fde7378e7ee2e215694","9f596bd4047b2ad4f7fcb13c2123e2c6de1f8c2e42caacf93b4515aaa15a78e3"],"size_a":4,"size_b":8,"v":1,"witness":[["05c9493be026d8315757aa79d5bea709b5e51fb8ce61c011a55bb78a04ce20c1"],["8f454fa1685e0732b507f966c22fe0a65884f9301bb5287a07529eda0cc93cb5","f7b19d3f831d2cddfe91865465a8beb649e4bf16c3aa2fde7378e7ee2e215694"]]}`;
const LINE_P =
  "— witness.example/cll-w1 eVDrygAAAABqofMKNJiLdOXcXZIiykDl9+egtkzw4cMfrRlF/gGQgjxp5LIdUKKidyNjDpb1CqsSv44MQMJy4WgV6dPXBL+0t5IEAw==";
const LINE_C =
  "— witness.example/cll-w1 eVDrygAAAABqofQ2yC0hF42khh2Owx2N64CaociSJKZjShBi/dfizob6FUyLZM8AHVc/d4i5sJgJ9g6BXR1r3JWj0L0kF/nT9oC/Cw==";
const NAME = "witness.example/cll-w1";
const VKEY = "witness.example/cll-w1+7950ebca+BGa+fjMsekUzMr2dCn99sFX1xe8aBq2mbZizn7aBDEc6";
const WITNESS_KEY = "66be7e332c7a453332bd9d0a7f7db055f5c5ef1a06ada66d98b39fb6810c473a";
const PRODUCER_KEY = "ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c";
const P = checkpoint(P_JSON, "manifest.priorCheckpoint");
const C = checkpoint(C_JSON, "manifest.cllCheckpoint");
/** The same witness key, for lines the example does not have (other timestamps). */
const WITNESS = new CllWitness(NAME, ed25519FromSeed(new Uint8Array(32).fill(0x0b)), new Map());
const NOTE_P = "agentactioncapsule.org/cll-mmr/v1/example-cll-log-1\n3\n5SgOQ4Fby4LxhNTb4QdBtloow0SIqaMCng4I0cvtmhc=\n";
const NOTE_C = "agentactioncapsule.org/cll-mmr/v1/example-cll-log-1\n5\noZ3lJwhPwyUC2Zi03Q5z+ULTtN3FWywJPf2QfpWpPxo=\n";

/** §4.2 A.3's trust file, in the contract §9.22 shape, with changes. */
function trust(
  witness: Record<string, unknown> = {},
  policy: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): TrustConfig {
  const r = loadTrustConfig(
    fromPlain({
      version: 1,
      witnesses: [
        {
          id: "w1",
          name: NAME,
          keys: [VKEY],
          operator: "independent",
          operatorId: "example-witness-org",
          statements: ["cll-mmr-consistency/v1"],
          ...witness,
        },
      ],
      continuityPolicy: {
        quorum: 1,
        requirePriorCosigned: true,
        acceptGenesis: false,
        maxFutureSkewSeconds: 300,
        ...policy,
      },
      ...extra,
    }),
  );
  if (!r.ok) throw new Error(`${r.code} ${r.path}: ${r.detail}`);
  return r.value;
}

const lines = (current: string[], prior: string[] = []): CarriedLine[] => [
  ...current.map((line, i) => ({ role: "current" as const, line, path: `continuityEvidence[0].lines[${i}]` })),
  ...prior.map((line, i) => ({ role: "prior" as const, line, path: `continuityEvidence[1].lines[${i}]` })),
];

/** Form A over the carried lines, read as continuity reads them (src/evidence/witness-lines.ts). */
function run(
  o: Partial<Omit<FormAInput, "lines">> & { lines?: CarriedLine[]; trustConfig?: TrustConfig | null } = {},
): Check[] {
  const t = o.trustConfig === null ? undefined : (o.trustConfig ?? trust());
  const { lines: carried = lines([LINE_C], [LINE_P]), ...rest } = o;
  const input = {
    current: C,
    prior: P,
    chain: "chained" as ChainOutcome,
    witnesses: t?.witnesses,
    trust: t,
    policy: t?.continuityPolicy ?? {
      quorum: 1,
      requirePriorCosigned: true,
      acceptGenesis: false,
      maxFutureSkewSeconds: 300,
    },
    otherRoles: new Map([[PRODUCER_KEY, "the checkpoint's key_id"]]),
    at: undefined,
    ...rest,
  };
  return formAChecks({ ...input, lines: readWitnessLines({ ...input, lines: carried }) });
}

/** The state form A's checks decide, and the first check in that state. */
function decided(checks: Check[]): { state: State; check: string | undefined; code: string | undefined } {
  const state = deriveState(checks);
  const c = checks.find((x) => x.state === state);
  return { state, check: c?.id, code: c?.code };
}

const states = (checks: Check[]) => checks.map((c) => `${c.id} ${c.state}`);

describe("form A over the design's example 2", () => {
  it("the chain gate passes: P and C are signed, chained and consistent", () => {
    const proof = parseConsistencyProof(json(PROOF_JSON), "manifest.consistencyProof");
    if (!proof.ok) throw new Error(proof.detail);
    expect(verifyCheckpointSignature(C).ok).toBe(true);
    const chain = verifyCheckpointChain(P, C, proof.value);
    expect(chain.ok && chain.value.link).toBe("chained");
  });

  it("both lines verify, T_P <= T_C, one independent operator: PASS", () => {
    const checks = run();
    expect(decided(checks)).toEqual({ state: "PASS", check: "cosignature.note", code: undefined });
    expect(states(checks)).toEqual([
      "cosignature.note PASS",
      "cosignature.note PASS",
      "cosignature.signature PASS",
      "cosignature.time NOT_CHECKED",
      "cosignature.signature PASS",
      "cosignature.time NOT_CHECKED",
      "witness.eligible PASS",
      "witness.quorum PASS",
    ]);
    const quorum = checks.at(-1) as Check;
    expect(quorum.detail).toBe(
      "witnessed by 1 independent operator(s), 1 required: example-witness-org (w1), over a verified chain from mmr_size 4 to 8",
    );
    const sig = checks.find((c) => c.id === "cosignature.signature") as Check;
    expect([sig.values, sig.operator]).toEqual([
      { witness: "w1", name: NAME, keyId: "7950ebca", checkpoint: "current", timestamp: "1788998710" },
      "independent",
    ]);
  });

  it("the two lines swapped: each FAILs under the pinned key, and the detail says which checkpoint it really cosigns", () => {
    const checks = run({ lines: lines([LINE_P], [LINE_C]) });
    expect(decided(checks)).toEqual({ state: "FAIL", check: "cosignature.signature", code: "COSIGNATURE_INVALID" });
    const failed = checks.filter((c) => c.state === "FAIL");
    expect(failed.map((c) => c.subject)).toEqual(["continuityEvidence[0].lines[0]", "continuityEvidence[1].lines[0]"]);
    expect(failed[0]?.detail).toMatch(
      /it is the witness's cosignature of the prior checkpoint \(3 leaves\), carried for the current one$/,
    );
  });

  it("the witness labelled producer-operated: reported (operator field), never counted, INCONCLUSIVE", () => {
    const checks = run({ trustConfig: trust({ operator: "producer" }) });
    expect(decided(checks)).toEqual({ state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" });
    const eligible = checks.find((c) => c.id === "witness.eligible") as Check;
    expect([eligible.state, eligible.code, eligible.operator]).toEqual([
      "NOT_CHECKED",
      "WITNESS_PRODUCER_OPERATED",
      "producer-operated",
    ]);
    expect(checks.find((c) => c.id === "cosignature.signature")?.operator).toBe("producer-operated");
    expect(checks.at(-1)?.detail).toMatch(
      /only producer-operated witnesses cosigned: w1 \(producer-operated, reported and never counted: the trust file labels it producer-operated\)/,
    );
  });

  it("the witness key in another role (here: the producer's): auto-demoted whatever the trust file says", () => {
    const checks = run({ otherRoles: new Map([[WITNESS_KEY, "a producer key for example.org in the trust file"]]) });
    expect(decided(checks)).toEqual({ state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" });
    const eligible = checks.find((c) => c.id === "witness.eligible") as Check;
    expect([eligible.code, eligible.operator]).toEqual(["WITNESS_PRODUCER_OPERATED", "producer-operated"]);
    expect(eligible.detail).toBe(
      `producer-operated, reported and never counted: its key ${WITNESS_KEY} is also a producer key for example.org in the trust file`,
    );
  });

  it("the design's literal mutation, the producer's key pinned for the witness: no line is under it, so none counts", () => {
    const checks = run({ trustConfig: trust({ keys: [PRODUCER_KEY] }) });
    expect(decided(checks)).toEqual({ state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" });
    expect(checks.find((c) => c.id === "cosignature.unknown")?.detail).toBe(
      "2 line(s) from cosigners no trust-file witness pins, ignored: witness.example/cll-w1+7950ebca, witness.example/cll-w1+7950ebca",
    );
  });

  it("line(P) dropped, requirePriorCosigned: INCONCLUSIVE; without the requirement: PASS", () => {
    const checks = run({ lines: lines([LINE_C]) });
    expect(decided(checks)).toEqual({ state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" });
    expect(checks.find((c) => c.id === "witness.eligible")?.code).toBe("WITNESS_CHECKPOINT_NOT_COSIGNED");
    expect(
      decided(run({ lines: lines([LINE_C]), trustConfig: trust({}, { requirePriorCosigned: false }) })).state,
    ).toBe("PASS");
  });

  it("only the prior cosigned: not counted", () => {
    const checks = run({ lines: lines([], [LINE_P]), trustConfig: trust({}, { requirePriorCosigned: false }) });
    expect(checks.find((c) => c.id === "witness.eligible")?.detail).toBe(
      "no counted cosignature of the current checkpoint: not counted",
    );
    expect(decided(checks).state).toBe("INCONCLUSIVE");
  });

  it("the blob relabelled with the type-0x01 key ID 64422bcb: an unknown cosigner, ignored (not a FAIL)", () => {
    const blob = Buffer.from(LINE_C.split(" ")[2] as string, "base64");
    blob.set(Buffer.from("64422bcb", "hex"), 0);
    const checks = run({ lines: lines([`— ${NAME} ${blob.toString("base64")}`], [LINE_P]) });
    expect(checks.find((c) => c.id === "cosignature.unknown")?.state).toBe("NOT_CHECKED");
    expect(decided(checks)).toEqual({ state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" });
  });

  it("a witness that cosigned the prior after the current (T_P > T_C) contradicts itself: INCONCLUSIVE, not counted", () => {
    const checks = run({ lines: lines([WITNESS.cosign(NOTE_C, 1788998400n)], [WITNESS.cosign(NOTE_P, 1788998500n)]) });
    expect(decided(checks)).toEqual({ state: "INCONCLUSIVE", check: "witness.eligible", code: "WITNESS_INCONSISTENT" });
  });

  it("exact duplicate lines count once; a second, different valid line of one witness is verified and the witness counted once", () => {
    const dup = run({ lines: lines([LINE_C, LINE_C], [LINE_P]) });
    expect(decided(dup).state).toBe("PASS");
    expect(dup.filter((c) => c.id === "cosignature.signature")).toHaveLength(2);
    expect(dup.at(-1)?.detail).toMatch(/; 1 exact duplicate line\(s\) counted once$/);
    const again = run({
      lines: lines([LINE_C, WITNESS.cosign(NOTE_C, 1788998720n)], [LINE_P]),
      trustConfig: trust({}, { quorum: 2 }),
    });
    expect(again.filter((c) => c.id === "cosignature.signature" && c.state === "PASS")).toHaveLength(3);
    expect(decided(again)).toEqual({ state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" });
  });

  it("a quorum of 2 with one operator: INCONCLUSIVE, naming what was counted", () => {
    const checks = run({ trustConfig: trust({}, { quorum: 2 }) });
    expect(decided(checks)).toEqual({ state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" });
    expect(checks.at(-1)?.detail).toBe(
      "witnessed by 1 independent operator(s), 2 required: only example-witness-org (w1)",
    );
  });

  it("a policy below one (only possible outside the schema) still needs one witness", () => {
    const t = trust();
    const checks = run({
      trustConfig: null,
      witnesses: t.witnesses,
      policy: { ...t.continuityPolicy, quorum: 0 },
      lines: lines([], []),
    });
    expect(decided(checks)).toEqual({ state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" });
  });

  it("no cll-mmr-consistency/v1 statement: listed, never counted", () => {
    const checks = run({ trustConfig: trust({ statements: ["mirrors/v1"] }) });
    const eligible = checks.find((c) => c.id === "witness.eligible") as Check;
    expect([eligible.state, eligible.code]).toEqual(["NOT_CHECKED", "WITNESS_NO_STATEMENT"]);
    expect(decided(checks).state).toBe("INCONCLUSIVE");
  });

  it("no trust file: INCONCLUSIVE, the lines unknown", () => {
    const checks = run({ trustConfig: null, witnesses: undefined });
    expect(decided(checks)).toEqual({ state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" });
    expect(checks.at(-1)?.detail).toBe("no trust file: no witness key is pinned, so no cosignature can be verified");
  });

  it("--at: NOT_CHECKED without it; PASS within maxFutureSkewSeconds; INCONCLUSIVE and not counted beyond; an invalid time INCONCLUSIVE", () => {
    expect(
      run()
        .filter((c) => c.id === "cosignature.time")
        .map((c) => c.state),
    ).toEqual(["NOT_CHECKED", "NOT_CHECKED"]);
    // T_C = 1788998710 = 2026-09-10T00:05:10Z.
    const within = run({ at: parseRfc3339("2026-09-10T00:01:00Z") });
    expect(within.filter((c) => c.id === "cosignature.time").map((c) => c.detail)).toEqual([
      "claims 1788998710 (2026-09-10T00:05:10Z), 250 s after --at, within maxFutureSkewSeconds",
      "claims 1788998410 (2026-09-10T00:00:10Z), 50 s before --at",
    ]);
    expect(decided(within).state).toBe("PASS");
    const beyond = run({ at: parseRfc3339("2026-09-10T00:00:00Z") });
    expect(decided(beyond)).toEqual({
      state: "INCONCLUSIVE",
      check: "cosignature.time",
      code: "COSIGNATURE_TIMESTAMP_FUTURE",
    });
    expect(beyond.find((c) => c.id === "witness.eligible")?.code).toBe("WITNESS_CHECKPOINT_NOT_COSIGNED");
    expect(decided(run({ at: parseRfc3339("yesterday") }))).toEqual({
      state: "INCONCLUSIVE",
      check: "cosignature.time",
      code: "TIME_INVALID",
    });
  });

  it.each<[string, ChainOutcome, boolean, State, string]>([
    ["genesis, acceptGenesis false", "genesis", false, "INCONCLUSIVE", "CONTINUITY_GENESIS"],
    ["prior not carried", "prior-missing", false, "INCONCLUSIVE", "CONTINUITY_PRIOR_NOT_CARRIED"],
  ])("%s: the quorum check says why", (_, chain, acceptGenesis, state, code) => {
    const checks = run({ chain, prior: null, lines: lines([LINE_C]), trustConfig: trust({}, { acceptGenesis }) });
    expect(decided(checks)).toEqual({ state, check: "witness.quorum", code });
  });

  it("genesis with acceptGenesis: the current checkpoint's cosignature suffices", () => {
    const checks = run({
      chain: "genesis",
      prior: null,
      lines: lines([LINE_C]),
      trustConfig: trust({}, { acceptGenesis: true }),
    });
    expect(decided(checks).state).toBe("PASS");
    expect(checks.at(-1)?.detail).toMatch(/over a first checkpoint, accepted by continuityPolicy\.acceptGenesis$/);
  });

  it("lines for a prior the bundle does not carry are ignored", () => {
    const checks = run({
      chain: "genesis",
      prior: null,
      lines: lines([LINE_C], [LINE_P]),
      trustConfig: trust({}, { acceptGenesis: true }),
    });
    expect(checks[0]?.id === "cosignature.note" && checks.find((c) => c.subject === "prior checkpoint")?.state).toBe(
      "NOT_CHECKED",
    );
    expect(decided(checks).state).toBe("PASS");
  });
});

describe("form A FAIL paths: malformed lines and cosignatures under a pinned key", () => {
  const blob = Buffer.from(LINE_C.split(" ")[2] as string, "base64");
  const withBlob = (b: Buffer) => `— ${NAME} ${b.toString("base64")}`;
  const timestamped = (t: bigint) => {
    const b = Buffer.from(blob);
    b.writeBigUInt64BE(t, 4);
    return withBlob(b);
  };
  it.each<[string, string, string, string]>([
    ["no em dash", LINE_C.replace("—", "-"), "cosignature.line", "NOTE_LINE_MALFORMED"],
    ["a trailing line feed", `${LINE_C}\n`, "cosignature.line", "NOTE_LINE_MALFORMED"],
    ["no space after the name", `— ${NAME}`, "cosignature.line", "NOTE_LINE_MALFORMED"],
    ["a name with a '+'", LINE_C.replace(NAME, "witness+example"), "cosignature.line", "NOTE_KEY_NAME_INVALID"],
    [
      "a name with a no-break space",
      LINE_C.replace("witness.example", "witness\u00a0example"),
      "cosignature.line",
      "NOTE_KEY_NAME_INVALID",
    ],
    ["base64 without padding", LINE_C.replace(/==$/, ""), "cosignature.line", "NOTE_LINE_MALFORMED"],
    ["URL-safe base64", LINE_C.replace(/\//g, "_"), "cosignature.line", "NOTE_LINE_MALFORMED"],
    [
      "two spaces before the base64",
      LINE_C.replace(`${NAME} `, `${NAME}  `),
      "cosignature.line",
      "NOTE_LINE_MALFORMED",
    ],
    [
      "four bytes: a key ID and nothing signed",
      withBlob(blob.subarray(0, 4)),
      "cosignature.line",
      "NOTE_LINE_MALFORMED",
    ],
    [
      "a short blob under the pinned key",
      withBlob(blob.subarray(0, 75)),
      "cosignature.signature",
      "COSIGNATURE_MALFORMED",
    ],
    [
      "a long blob under the pinned key",
      withBlob(Buffer.concat([blob, Buffer.of(0)])),
      "cosignature.signature",
      "COSIGNATURE_MALFORMED",
    ],
    ["timestamp 0", timestamped(0n), "cosignature.signature", "COSIGNATURE_TIMESTAMP_INVALID"],
    ["timestamp 2^63", timestamped(2n ** 63n), "cosignature.signature", "COSIGNATURE_TIMESTAMP_INVALID"],
    ["another timestamp than the one signed", timestamped(1788998711n), "cosignature.signature", "COSIGNATURE_INVALID"],
    [
      "one signature bit flipped",
      withBlob(Buffer.concat([blob.subarray(0, 75), Buffer.of((blob[75] as number) ^ 1)])),
      "cosignature.signature",
      "COSIGNATURE_INVALID",
    ],
  ])("%s: FAIL", (_, line, id, code) => {
    const checks = run({ lines: lines([line], [LINE_P]) });
    expect(decided(checks)).toEqual({ state: "FAIL", check: id, code });
  });

  it("a bad line FAILs even when the witness would not count (producer-operated, no statement): never outvoted", () => {
    const bad = withBlob(Buffer.concat([blob.subarray(0, 75), Buffer.of((blob[75] as number) ^ 1)]));
    for (const t of [trust({ operator: "producer" }), trust({ statements: [] })]) {
      expect(decided(run({ lines: lines([bad], [LINE_P]), trustConfig: t }))).toEqual({
        state: "FAIL",
        check: "cosignature.signature",
        code: "COSIGNATURE_INVALID",
      });
    }
    // … and a second, good witness reaching quorum does not outvote it.
    const other = new CllWitness("witness.example/cll-w2", ed25519FromSeed(new Uint8Array(32).fill(0x0c)), new Map());
    const t = loadTrustConfig(
      fromPlain({
        version: 1,
        witnesses: [
          { name: NAME, keys: [VKEY], operator: "independent", statements: ["cll-mmr-consistency/v1"] },
          { name: other.name, keys: [other.vkey], operator: "independent", statements: ["cll-mmr-consistency/v1"] },
        ],
      }),
    );
    if (!t.ok) throw new Error(t.detail);
    const checks = run({
      trustConfig: t.value,
      lines: lines([bad, other.cosign(NOTE_C, 1788998720n)], [LINE_P, other.cosign(NOTE_P, 1788998420n)]),
    });
    expect(checks.at(-1)?.state).toBe("PASS");
    expect(decided(checks)).toEqual({ state: "FAIL", check: "cosignature.signature", code: "COSIGNATURE_INVALID" });
  });

  it.each([
    ["a space", "example cll log"],
    ["a '+'", "example+log"],
    ["an empty log_id", ""],
    ["201 characters", "a".repeat(201)],
    ["non-ASCII", "journal-é"],
  ])("a log_id with %s cannot be a note origin: INCONCLUSIVE", (_, logId) => {
    const checks = run({ current: { ...C, logId }, prior: { ...P, logId } });
    expect(decided(checks)).toEqual({
      state: "INCONCLUSIVE",
      check: "cosignature.note",
      code: "LOG_ID_NOT_REPRESENTABLE",
    });
  });

  it("an empty log (mmr_size 0) has no note", () => {
    const checks = run({ current: { ...C, mmrSize: 0 }, chain: "genesis", prior: null, lines: lines([LINE_C]) });
    expect(decided(checks)).toEqual({
      state: "INCONCLUSIVE",
      check: "cosignature.note",
      code: "NOTE_SIZE_NOT_ELIGIBLE",
    });
  });
});
