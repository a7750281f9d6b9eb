/**
 * Equivocation across inputs: the pure comparison (findEquivocations), its check in continuity,
 * and a fork shown by two bundles that each PASS alone — the split view a single bundle cannot
 * reveal. verify() does not call the comparison yet; these tests stand in for that call site.
 */
import { describe, expect, it } from "vitest";
import { fromPlain, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { verify } from "../../src/verify.js";
import { isFailedInput } from "../../src/report/model.js";
import { parseCheckpoint, type Checkpoint } from "../../src/log/checkpoint.js";
import { loadEvidence } from "../../src/input/load.js";
import { EvidenceContext } from "../../src/evidence/context.js";
import { continuity } from "../../src/properties/continuity/index.js";
import {
  crossInputCheck,
  inputCheckpoints,
  producerIdentities,
  withCrossInput,
} from "../../src/properties/continuity/cross-input.js";
import { loadTrustConfig, type TrustConfig } from "../../src/trust/config.js";
import {
  findEquivocations,
  parseSeenCheckpoints,
  sighted,
  type InputCheckpoints,
} from "../../src/witness/equivocation.js";
import { bytesToHex, sha256, utf8 } from "../../src/util/bytes.js";
import { signCheckpoint } from "../../producer/checkpoint.js";
import { ed25519FromSeed, seedFromLabel } from "../../producer/ed25519.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { at, capture, check } from "../properties/harness.js";

const producer = ed25519FromSeed(seedFromLabel("equivocation producer"));
const root = (label: string) => bytesToHex(sha256(utf8(label)));

/** A signed checkpoint of log `logId` at `mmrSize` with `rootLabel`, chained to (prevSize, prevRootLabel). */
function cp(
  mmrSize: number,
  rootLabel: string,
  prev?: [number, string],
  o: { logId?: string; by?: typeof producer } = {},
): Checkpoint {
  const json = signCheckpoint(
    {
      logId: o.logId ?? "log-1",
      mmrSize,
      root: root(rootLabel),
      prevSize: prev?.[0] ?? 0,
      prevRoot: prev ? root(prev[1]) : "",
      timestamp: "2026-10-01T00:00:00Z",
    },
    o.by ?? producer,
  ).checkpoint;
  const r = parseCheckpoint(json, "manifest.cllCheckpoint");
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}
/** A sighting of these checkpoints, as a run keeps it: only what verifies under its key_id is in it. */
const input = (source: string, current?: Checkpoint, prior?: Checkpoint): InputCheckpoints => ({
  source,
  current: current === undefined ? undefined : sighted(current),
  prior: prior === undefined ? undefined : sighted(prior),
  cosigned: undefined,
  stamped: undefined,
});

describe("findEquivocations", () => {
  it("two checkpoints of one log at one size with different roots: a fork for both inputs", () => {
    const [a, b] = findEquivocations([
      input("a.json", cp(16, "A16", [8, "R8"])),
      input("b.json", cp(16, "B16", [8, "R8"])),
    ]);
    expect(a?.forks).toEqual([
      {
        logId: "log-1",
        mmrSize: 16,
        root: root("A16"),
        statedBy: "its checkpoint",
        otherRoot: root("B16"),
        otherStatedBy: "its checkpoint in b.json",
      },
    ]);
    expect(b?.forks.map((f) => f.otherStatedBy)).toEqual(["its checkpoint in a.json"]);
    const c = crossInputCheck(a as never);
    expect([c.id, c.state, c.code]).toEqual(["equivocation.crossInput", "FAIL", "EQUIVOCATION_FORK"]);
    expect(c.detail).toMatch(
      /^the log forked: log "log-1" at mmr_size 16 has root [0-9a-f]{64} \(its checkpoint\) and root [0-9a-f]{64} \(its checkpoint in b\.json\), both signed by its producer$/,
    );
  });

  it("a smaller checkpoint not in the history a larger one's prev_root (fixed by its consistency proof) states: inconsistent, a fork at the smaller size", () => {
    const [small, large] = findEquivocations([
      input("small.json", cp(8, "X8")),
      input("large.json", cp(16, "L16", [8, "Y8"]), cp(8, "Y8")),
    ]);
    expect(small?.forks.map((f) => [f.mmrSize, f.statedBy, f.otherStatedBy])).toEqual([
      [8, "its checkpoint", "prev_root of its checkpoint in large.json"],
    ]);
    expect(large?.forks.map((f) => [f.mmrSize, f.statedBy])).toEqual([[8, "prev_root of its checkpoint"]]);
  });

  it("a smaller checkpoint that the larger one extends: stale, not a fork", () => {
    const [small, large] = findEquivocations([
      input("small.json", cp(8, "R8")),
      input("large.json", cp(16, "L16", [8, "R8"]), cp(8, "R8")),
    ]);
    expect(small?.forks).toEqual([]);
    expect(small?.stale).toBe(
      'a checkpoint of log "log-1" at mmr_size 16 was seen in large.json, larger than this one (8)',
    );
    expect(large?.stale).toBeUndefined();
    const c = crossInputCheck(small as never);
    expect([c.state, c.detail]).toEqual([
      "PASS",
      `no fork: 3 statement(s) of this log from other inputs or --checkpoints agree at every size both state; stale, not a fork: ${small?.stale}`,
    ]);
  });

  it("sizes no statement links are not comparable: no finding", () => {
    const [a] = findEquivocations([
      input("a.json", cp(10, "A10", [4, "A4"])),
      input("b.json", cp(16, "B16", [8, "B8"])),
    ]);
    expect([a?.forks, a?.compared]).toEqual([[], 2]);
  });

  it("the same input twice agrees with itself; an input alone has nothing to compare", () => {
    const x = cp(16, "A16", [8, "R8"]);
    const [a] = findEquivocations([input("a.json", x, cp(8, "R8")), input("again.json", x, cp(8, "R8"))]);
    expect([a?.forks.length, a?.compared]).toEqual([0, 3]);
    const [alone] = findEquivocations([input("a.json", x)]);
    expect(crossInputCheck(alone as never).state).toBe("NOT_PRESENT");
  });

  it("a disagreement inside one input is its own chain's FAIL, not a fork between inputs", () => {
    const [a] = findEquivocations([input("a.json", cp(16, "A16", [8, "R8"]), cp(8, "other"))]);
    expect(a?.forks).toEqual([]);
  });

  it("another key reusing the log_id is another log (a stranger cannot FAIL an honest input); keys one authority pins are one producer", () => {
    const stranger = ed25519FromSeed(seedFromLabel("stranger"));
    const sibling = ed25519FromSeed(seedFromLabel("producer's second key"));
    const inputs = [
      input("a.json", cp(16, "A16")),
      input("b.json", cp(16, "B16", undefined, { by: stranger })),
      input("c.json", cp(16, "C16", undefined, { by: sibling })),
    ];
    expect(findEquivocations(inputs).map((f) => f.forks.length)).toEqual([0, 0, 0]);
    const trust = loadTrustConfig(
      fromPlain({
        version: 1,
        producers: [{ authority: "producer.example", keys: [producer.publicKeyHex, sibling.publicKeyHex] }],
      }),
    );
    if (!trust.ok) throw new Error(trust.detail);
    expect(findEquivocations(inputs, [], producerIdentities(trust.value)).map((f) => f.forks.length)).toEqual([
      1, 0, 1,
    ]);
  });

  it("only signed checkpoints state anything: a forged one is ignored", () => {
    const forged = { ...cp(16, "B16"), signature: new Uint8Array(64) };
    // A run's sighting never holds it; a --checkpoints entry like it is not a statement either.
    expect(sighted(forged)).toBeUndefined();
    expect(sighted(cp(16, "B16"))).toBeDefined();
    expect(findEquivocations([input("a.json", cp(16, "A16"))], [forged])[0]?.compared).toBe(0);
    expect(findEquivocations([input("a.json", cp(16, "A16")), input("b.json", forged)])[0]?.forks).toEqual([]);
  });

  it("previously seen checkpoints (--checkpoints) take part: a fork against one of them", () => {
    const seenJson = signCheckpoint(
      { logId: "log-1", mmrSize: 16, root: root("SEEN"), prevSize: 0, prevRoot: "", timestamp: "t" },
      producer,
    ).checkpoint;
    const seen = parseSeenCheckpoints(fromPlain([seenJson]));
    if (!seen.ok) throw new Error(seen.detail);
    const [a] = findEquivocations([input("a.json", cp(16, "A16"))], seen.value);
    expect(a?.forks.map((f) => f.otherStatedBy)).toEqual(["a previously seen checkpoint in --checkpoints[0]"]);
  });

  it("--checkpoints: a JSON array of signed CLL checkpoints, or exit 2 naming the path", () => {
    const good = signCheckpoint(
      { logId: "log-1", mmrSize: 1, root: root("x"), prevSize: 0, prevRoot: "", timestamp: "t" },
      producer,
    ).checkpoint;
    const code = (v: unknown) => {
      const r = parseSeenCheckpoints(fromPlain(v));
      return r.ok ? "ok" : [r.code, r.path];
    };
    expect(code([good])).toBe("ok");
    expect(code({ checkpoints: [good] })).toEqual(["CHECKPOINTS_FILE_MALFORMED", "--checkpoints"]);
    expect(code([good, { ...good, kind: "tree_head" }])).toEqual([
      "CHECKPOINTS_FILE_MALFORMED",
      "--checkpoints[1].kind",
    ]);
    expect(code([{ ...good, root: root("y") }])).toEqual(["CHECKPOINTS_FILE_MALFORMED", "--checkpoints[0].signature"]);
  });

  it("cost stays linear: 2 000 inputs of one log, each at its own size, compare in one pass", () => {
    const inputs = Array.from({ length: 2000 }, (_, i) => input(`${i}.json`, cp(2 * i + 1, `r${i}`)));
    const out = findEquivocations(inputs);
    expect(out.every((f) => f.forks.length === 0)).toBe(true);
    expect(out[0]?.compared).toBe(1999);
    expect(out[1999]?.stale).toBeUndefined();
  });
});

describe("a fork shown by two inputs", () => {
  /** Two branches of one log: the same producer key, log_id and first five leaves; another record at our position. */
  const branchA = capture({ continuity: { witnesses: [{ name: "witness-one.example/cll-w1" }] } });
  const branchB = capture({
    taskId: uuidFromLabel("the other branch"),
    continuity: { witnesses: [{ name: "witness-two.example/cll-w1" }] },
  });

  /** What verify() would report for continuity once it passes each input its findings. */
  function continuityWith(
    e: typeof branchA,
    findings: ReturnType<typeof findEquivocations>[number],
    trust: TrustConfig,
  ) {
    const loaded = loadEvidence(e.input);
    if (!loaded.ok) throw new Error(loaded.detail);
    return withCrossInput(continuity(new EvidenceContext(loaded.value, trust, {})), findings);
  }
  const trustOf = (e: typeof branchA, extra: JsonObject[]) => {
    const t = loadTrustConfig(
      fromPlain({ ...e.trust, witnesses: [...((e.trust.witnesses as JsonObject[] | undefined) ?? []), ...extra] }),
    );
    if (!t.ok) throw new Error(t.detail);
    return t.value;
  };

  it("each branch PASSes alone, witnessed by a different witness (a split view)", () => {
    expect(check(branchA).properties.continuity.state).toBe("PASS");
    expect(check(branchB).properties.continuity.state).toBe("PASS");
  });

  it("compared, both FAIL with equivocation.crossInput: the log forked", () => {
    const sightings = [branchA, branchB].map((e, i) => {
      const loaded = loadEvidence(e.input);
      if (!loaded.ok) throw new Error(loaded.detail);
      const located = loaded.value.bundles[0];
      if (!located) throw new Error("no bundle");
      return inputCheckpoints(`branch-${i}.json`, located.bundle, false);
    });
    const findings = findEquivocations(sightings);
    // A caller pinning both witnesses sees each branch witnessed, and the fork.
    const trust = trustOf(branchA, branchB.trust.witnesses as JsonObject[]);
    for (const [i, e] of [branchA, branchB].entries()) {
      const r = continuityWith(e, findings[i] as never, trust);
      expect(r.state).toBe("FAIL");
      const deciding = r.checks.find((c) => c.state === "FAIL");
      expect([deciding?.id, deciding?.code]).toEqual(["equivocation.crossInput", "EQUIVOCATION_FORK"]);
      expect(r.detail).toMatch(
        new RegExp(
          `^the log forked: log "[0-9a-f]{64}" at mmr_size 16 .* \\(its checkpoint in branch-${1 - i}\\.json\\)`,
        ),
      );
      expect(r.checks.find((c) => c.id === "witness.quorum")?.state).toBe("PASS");
    }
  });

  it("a fork FAILs continuity even for a bundle that carries no cosignature", () => {
    const plainA = capture();
    const plainB = capture({ taskId: uuidFromLabel("the other branch") });
    const sightings = [plainA, plainB].map((e, i) => inputCheckpoints(`p${i}`, e.bundle, false));
    const r = continuityWith(plainA, findEquivocations(sightings)[0] as never, trustOf(plainA, []));
    expect([r.state, r.checks.find((c) => c.state === "FAIL")?.id]).toEqual(["FAIL", "equivocation.crossInput"]);
    const agreeing = continuityWith(
      plainA,
      findEquivocations([
        inputCheckpoints("a", plainA.bundle, false),
        inputCheckpoints("b", plainA.bundle, false),
      ])[0] as never,
      trustOf(plainA, []),
    );
    expect(agreeing.state).toBe("NOT_PRESENT");
  });

  it("through verify(): two inputs that fork FAIL continuity, each naming the other, and exit 1", () => {
    const plainA = capture();
    const plainB = capture({ taskId: uuidFromLabel("the other branch") });
    const report = verify({
      inputs: [
        { source: "a.json", data: plainA.input },
        { source: "b.json", data: plainB.input },
      ],
      trust: plainA.trust,
    });
    for (const [i, input] of report.inputs.entries()) {
      if (isFailedInput(input)) throw new Error("not verified");
      const c = input.properties.continuity;
      expect([c.state, c.checks.find((x) => x.state === "FAIL")?.id]).toEqual(["FAIL", "equivocation.crossInput"]);
      expect(c.detail).toContain(`its checkpoint in ${i === 0 ? "b.json" : "a.json"}`);
    }
    expect(report.policy.exitCode).toBe(1);
    // Alone, each is as honest as before.
    const alone = verify({ inputs: [{ source: "a.json", data: plainA.input }], trust: plainA.trust }).inputs[0];
    expect(alone && !isFailedInput(alone) && alone.properties.continuity.state).toBe("NOT_PRESENT");
  });

  it("through verify(): a checkpoint seen before (checkpoints) that forks from the input FAILs it", () => {
    const plainA = capture();
    const plainB = capture({ taskId: uuidFromLabel("the other branch") });
    const seen = parseSeenCheckpoints(fromPlain([at(plainB.bundle, "manifest", "cllCheckpoint")]) as JsonValue);
    if (!seen.ok) throw new Error(seen.detail);
    const input = verify({
      inputs: [{ source: "a.json", data: plainA.input }],
      trust: plainA.trust,
      checkpoints: seen.value,
    }).inputs[0];
    if (!input || isFailedInput(input)) throw new Error("not verified");
    expect(input.properties.continuity.checks.find((c) => c.state === "FAIL")?.id).toBe("equivocation.crossInput");
  });

  it("through verify(): unusable cosignatures are the run's error (exit 2), not a per-input INCONCLUSIVE", () => {
    const plainA = capture();
    const report = verify({
      inputs: [{ source: "a.json", data: plainA.input }],
      trust: plainA.trust,
      cosignatures: "{ not json",
    });
    expect(report.policy.exitCode).toBe(2);
    expect(report.error?.source).toBe("--cosignatures");
  });
});
