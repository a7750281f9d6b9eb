/**
 * continuity with witness cosignatures, through verify(): the baseline capture (prior at 5
 * leaves, current at 9) cosigned by CLL-aware witnesses (producer/witness.ts), then one change
 * at a time — each FAIL path with its check id, each reason for INCONCLUSIVE, what --at and
 * --cosignatures change, and the claimed level judged by contract §9.10.
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import type { Tamper } from "../../producer/options.js";
import { seedFromLabel } from "../../producer/ed25519.js";
import type { ContinuityOptions, CosignerOptions } from "../../producer/witness.js";
import {
  TS_URL,
  at,
  baseline,
  capture,
  check,
  checkOf,
  checkStates,
  expectCase,
  expectDecided,
  statesOf,
  tampered,
  type Case,
} from "./harness.js";
import { resignedPrior, signer } from "./resign.js";
import { verify } from "../../src/verify.js";
import { loadEvidence } from "../../src/input/load.js";
import { loadTrustConfig } from "../../src/trust/config.js";
import { EvidenceContext } from "../../src/evidence/context.js";
import { continuity } from "../../src/properties/continuity/index.js";

const W1 = "witness-one.example/cll-w1";
const W2 = "witness-two.example/cll-w1";
const one = (w: Partial<CosignerOptions> = {}, policy: ContinuityOptions["policy"] = {}): ContinuityOptions => ({
  witnesses: [{ name: W1, ...w }],
  policy,
});

/** The bundle's continuityEvidence entry for one checkpoint. */
function entry(b: JsonObject, role: "current" | "prior"): JsonObject {
  const found = (b.continuityEvidence as JsonValue[]).find((e) => isJsonObject(e) && e.checkpoint === role);
  if (!isJsonObject(found)) throw new Error(`no ${role} entry`);
  return found;
}
const lines = (b: JsonObject, role: "current" | "prior") => entry(b, role).lines as string[];
const flipLast = (line: string) => {
  const [name, b64] = line.slice(2).split(" ");
  const bytes = Buffer.from(b64 as string, "base64");
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
  return `— ${name} ${bytes.toString("base64")}`;
};
const onBundle = (f: (b: JsonObject) => void): Tamper => ({ bundle: f });

describe("continuity PASS with witness cosignatures", () => {
  it("one independent witness cosigned the prior and the current checkpoint: PASS, level CONTINUITY_WITNESSED", () => {
    const input = check(capture({ continuity: one() }));
    expectDecided(input, "continuity", {
      state: "PASS",
      check: "prior.checkpoint",
      detail: `witnessed by 1 independent operator(s), 1 required: ${W1}, over a verified chain from mmr_size 8 to 16`,
    });
    // The chain gate and the carriers, then form A's checks (listed in test/witness/form-a.test.ts).
    const states = checkStates(input, "continuity");
    expect(states.slice(0, 4)).toEqual([
      "prior.checkpoint PASS",
      "chain.link PASS",
      "chain.key PASS",
      "cosignature.evidence PASS",
    ]);
    expect(states.slice(4).filter((c) => !c.endsWith(" PASS"))).toEqual([
      "cosignature.time NOT_CHECKED",
      "cosignature.time NOT_CHECKED",
    ]);
    expect(states.at(-1)).toBe("witness.quorum PASS");
    expect(statesOf(input)).toEqual(baseline({ continuity: "PASS" }));
    expect(input.evidenceLevel.achieved).toBe("CONTINUITY_WITNESSED");
  });

  it("two operators of three pinned, quorum 2: PASS; the same two under one operatorId: INCONCLUSIVE (quorum counts operators)", () => {
    const three = (operatorIds: [string, string]): ContinuityOptions => ({
      witnesses: [
        { name: W1, operatorId: operatorIds[0] },
        { name: W2, operatorId: operatorIds[1] },
        { name: "witness-three.example/cll-w1", cosigns: [] },
      ],
      policy: { quorum: 2 },
    });
    expectDecided(check(capture({ continuity: three(["org-a", "org-b"]) })), "continuity", {
      state: "PASS",
      check: "prior.checkpoint",
    });
    expectDecided(check(capture({ continuity: three(["org-a", "org-a"]) })), "continuity", {
      state: "INCONCLUSIVE",
      check: "witness.quorum",
      code: "WITNESS_BELOW_QUORUM",
      detail: `witnessed by 1 independent operator(s), 2 required: only org-a (${W1}, ${W2})`,
    });
  });

  it("requirePriorCosigned false: a witness that cosigned only the current checkpoint counts", () => {
    const input = check(capture({ continuity: one({ cosigns: ["current"] }, { requirePriorCosigned: false }) }));
    expectDecided(input, "continuity", { state: "PASS", check: "prior.checkpoint" });
  });

  it("acceptGenesis: a log's first checkpoint, witnessed on first contact, PASSes", () => {
    const input = check(capture({ priorCheckpoint: null, continuity: one({}, { acceptGenesis: true }) }));
    expectDecided(input, "continuity", {
      state: "PASS",
      check: "chain.link",
      detail: /over a first checkpoint, accepted by continuityPolicy\.acceptGenesis$/,
    });
  });

  it("--at after the cosignatures: their times PASS", () => {
    const input = check(capture({ continuity: one() }), { request: { at: "2026-10-01T10:00:00Z" } });
    expect(checkStates(input, "continuity").filter((s) => s.startsWith("cosignature.time"))).toEqual([
      "cosignature.time PASS",
      "cosignature.time PASS",
    ]);
    expect(input.properties.continuity.state).toBe("PASS");
  });
});

describe("continuity FAIL paths with witness cosignatures", () => {
  const cases: Case[] = [
    {
      name: "continuityEvidence is not an array",
      options: { continuity: one() },
      tamper: onBundle((b) => void (b.continuityEvidence = { lines: [] })),
      decided: {
        state: "FAIL",
        check: "cosignature.evidence",
        subject: "continuityEvidence",
        code: "COSIGNATURE_EVIDENCE_MALFORMED",
      },
    },
    {
      name: "an entry names another checkpoint",
      options: { continuity: one() },
      tamper: onBundle((b) => void (entry(b, "current").checkpoint = "latest")),
      decided: {
        state: "FAIL",
        check: "cosignature.evidence",
        subject: "continuityEvidence",
        code: "COSIGNATURE_EVIDENCE_MALFORMED",
        detail: /at continuityEvidence\[0\]\.checkpoint$/,
      },
    },
    {
      name: "a line is not a signature line",
      options: { continuity: one() },
      tamper: onBundle((b) => void lines(b, "current").push("witnessed, trust me")),
      decided: {
        state: "FAIL",
        check: "cosignature.line",
        subject: "continuityEvidence[0].lines[1]",
        code: "NOTE_LINE_MALFORMED",
      },
    },
    {
      name: "the current checkpoint's cosignature is altered",
      options: { continuity: one() },
      tamper: onBundle((b) => void (lines(b, "current")[0] = flipLast(lines(b, "current")[0] as string))),
      decided: {
        state: "FAIL",
        check: "cosignature.signature",
        subject: "continuityEvidence[0].lines[0]",
        code: "COSIGNATURE_INVALID",
        detail: /forged, corrupted, or about another checkpoint$/,
      },
    },
    {
      name: "the prior's cosignature presented as the current one's",
      options: { continuity: one() },
      tamper: onBundle((b) => void (entry(b, "current").lines = [...lines(b, "prior")])),
      decided: {
        state: "FAIL",
        check: "cosignature.signature",
        subject: "continuityEvidence[0].lines[0]",
        code: "COSIGNATURE_INVALID",
        detail: /it is the witness's cosignature of the prior checkpoint \(5 leaves\), carried for the current one$/,
      },
    },
    {
      name: "an altered cosignature of a producer-operated witness (never outvoted, whether or not it counts)",
      options: { continuity: { witnesses: [{ name: W1 }, { name: W2, operator: "producer" }] } },
      tamper: onBundle((b) => void (lines(b, "current")[1] = flipLast(lines(b, "current")[1] as string))),
      decided: {
        state: "FAIL",
        check: "cosignature.signature",
        subject: "continuityEvidence[0].lines[1]",
        code: "COSIGNATURE_INVALID",
      },
      checks: { "witness.quorum": "PASS" },
    },
    {
      name: "a broken chain under valid cosignatures",
      options: { continuity: one() },
      tamper: { manifest: (m) => void (at(m, "consistencyProof").size_a = new JsonNumber("10")) },
      decided: { state: "FAIL", check: "chain.link", code: "MMR_PROOF_SIZE_MISMATCH" },
    },
  ];
  it.each(cases)("$name", (c) => void expectCase("continuity", c));
});

describe("continuity INCONCLUSIVE with witness cosignatures", () => {
  const cases: Case[] = [
    {
      name: "only a producer-operated witness (trust file label)",
      options: { continuity: one({ operator: "producer" }) },
      decided: {
        state: "INCONCLUSIVE",
        check: "witness.quorum",
        code: "WITNESS_BELOW_QUORUM",
        detail: /only producer-operated witnesses cosigned/,
      },
      checks: { "witness.eligible": "NOT_CHECKED" },
    },
    {
      name: "a witness whose key is the producer's: producer-operated by key reuse",
      options: { continuity: one({ seed: seedFromLabel("producer") }) },
      decided: {
        state: "INCONCLUSIVE",
        check: "witness.quorum",
        code: "WITNESS_BELOW_QUORUM",
        detail: /its key [0-9a-f]{64} is also the checkpoint's key_id/,
      },
    },
    {
      name: "a witness whose key is the Transparency Service's: producer-operated by key reuse",
      options: { continuity: one({ seed: seedFromLabel(`transparency-service ${TS_URL}`) }) },
      decided: {
        state: "INCONCLUSIVE",
        check: "witness.quorum",
        code: "WITNESS_BELOW_QUORUM",
        detail: new RegExp(`is also the key of Transparency Service ${TS_URL.replace(/\./g, "\\.")}`),
      },
    },
    {
      name: "an unknown witness",
      options: { continuity: { witnesses: [{ name: W1, listed: false }] } },
      decided: {
        state: "INCONCLUSIVE",
        check: "witness.quorum",
        code: "WITNESS_BELOW_QUORUM",
        detail: /no cosignature verified under a pinned witness key \(2 line\(s\) from unknown cosigners\)$/,
      },
      checks: { "cosignature.unknown": "NOT_CHECKED" },
    },
    {
      name: "a witness without the consistency statement",
      options: { continuity: one({ statements: ["mirrors/v1"] }) },
      decided: { state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" },
      checks: { "witness.eligible": "NOT_CHECKED" },
    },
    {
      name: "the prior's cosignature dropped (requirePriorCosigned)",
      options: { continuity: one({ cosigns: ["current"] }) },
      decided: { state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" },
    },
    {
      name: "witnessed genesis (acceptGenesis false)",
      options: { priorCheckpoint: null, continuity: one() },
      decided: { state: "INCONCLUSIVE", check: "witness.quorum", code: "CONTINUITY_GENESIS" },
    },
    {
      name: "the prior checkpoint is not carried",
      options: { continuity: one() },
      tamper: {
        manifest: (m) => {
          delete m.priorCheckpoint;
          delete m.consistencyProof;
        },
      },
      decided: { state: "INCONCLUSIVE", check: "witness.quorum", code: "CONTINUITY_PRIOR_NOT_CARRIED" },
    },
    {
      name: "the prior signed by another key (a rotation cannot be proven offline)",
      options: { continuity: one() },
      tamper: { manifest: resignedPrior({}, signer("an earlier producer key")) },
      decided: { state: "INCONCLUSIVE", check: "chain.key", code: "CONTINUITY_KEY_ROTATION" },
    },
    {
      name: "an empty log_id: no note origin can carry it",
      options: { logId: "", continuity: one() },
      decided: {
        state: "INCONCLUSIVE",
        check: "cosignature.note",
        subject: "current checkpoint",
        code: "LOG_ID_NOT_REPRESENTABLE",
      },
    },
    {
      name: "only an entry of a type this verifier does not implement",
      options: { continuity: one() },
      tamper: onBundle((b) => void (b.continuityEvidence = [{ type: "mldsa44-cosignature/v1", lines: ["…"] }])),
      decided: { state: "INCONCLUSIVE", check: "witness.quorum", code: "WITNESS_BELOW_QUORUM" },
      checks: { "cosignature.type": "NOT_CHECKED" },
    },
    {
      name: "--at before the witness's claimed time (beyond maxFutureSkewSeconds)",
      options: { continuity: one() },
      presented: { request: { at: "2026-10-01T09:00:00Z" } },
      decided: {
        state: "INCONCLUSIVE",
        check: "cosignature.time",
        subject: "continuityEvidence[0].lines[0]",
        code: "COSIGNATURE_TIMESTAMP_FUTURE",
      },
    },
  ];
  it.each(cases)("$name", (c) => void expectCase("continuity", c));

  it("a --cosignatures value that is not the documented shape: the run's error through verify() (exit 2); INCONCLUSIVE for a caller of the property itself", () => {
    const e = capture({ continuity: one() });
    const report = verify({
      inputs: [{ source: "test", data: e.input }],
      trust: e.trust,
      cosignatures: '{"lines": []}',
    });
    expect([report.policy.exitCode, report.error?.code, report.error?.source]).toEqual([
      2,
      "COSIGNATURE_EVIDENCE_MALFORMED",
      "--cosignatures",
    ]);
    const loaded = loadEvidence(e.input);
    const trust = loadTrustConfig(e.trust);
    if (!loaded.ok || !trust.ok) throw new Error("not loaded");
    const r = continuity(new EvidenceContext(loaded.value, trust.value, { cosignatures: '{"lines": []}' }));
    const deciding = r.checks.find((c) => c.state === "INCONCLUSIVE");
    expect([r.state, deciding?.id, deciding?.subject, deciding?.code]).toEqual([
      "INCONCLUSIVE",
      "cosignature.evidence",
      "--cosignatures",
      "COSIGNATURE_EVIDENCE_MALFORMED",
    ]);
  });

  it("--at that is not an RFC 3339 time: the run's error through verify() (exit 2); INCONCLUSIVE for a caller of the property itself", () => {
    const e = capture({ continuity: one() });
    const report = verify({ inputs: [{ source: "test", data: e.input }], trust: e.trust, at: "10 minutes ago" });
    expect([report.policy.exitCode, report.error?.code, report.error?.source]).toEqual([2, "TIME_INVALID", "--at"]);
    const loaded = loadEvidence(e.input);
    const trust = loadTrustConfig(e.trust);
    if (!loaded.ok || !trust.ok) throw new Error("not loaded");
    const r = continuity(new EvidenceContext(loaded.value, trust.value, { at: "10 minutes ago" }));
    const deciding = r.checks.find((c) => c.state === "INCONCLUSIVE");
    expect([r.state, deciding?.id, deciding?.subject, deciding?.code]).toEqual([
      "INCONCLUSIVE",
      "cosignature.time",
      "continuityEvidence[0].lines[0]",
      "TIME_INVALID",
    ]);
  });

  it("no trust file: INCONCLUSIVE", () => {
    const input = check(capture({ continuity: one() }), { trust: null });
    expectDecided(input, "continuity", {
      state: "INCONCLUSIVE",
      check: "witness.quorum",
      code: "WITNESS_BELOW_QUORUM",
      detail: "no trust file: no witness key is pinned, so no cosignature can be verified",
    });
  });

  it("a malformed current checkpoint: its cosignatures cannot be checked (NOT_CHECKED, never PASS)", () => {
    const input = tampered(
      { manifest: (m) => void (at(m, "cllCheckpoint").kind = "tree_head") },
      { continuity: one() },
    );
    expectDecided(input, "continuity", { state: "NOT_CHECKED", check: "chain.link" });
    expect(checkStates(input, "continuity")).toEqual([
      "chain.link NOT_CHECKED",
      "cosignature.evidence PASS",
      "cosignature.note NOT_CHECKED",
    ]);
  });

  it("the producer-operated label is a JSON field (operator) on the checks", () => {
    const input = check(capture({ continuity: one({ seed: seedFromLabel("producer") }) }));
    expect(checkOf(input, "continuity", "witness.eligible").operator).toBe("producer-operated");
    expect(
      input.properties.continuity.checks.filter((c) => c.id === "cosignature.signature").map((c) => c.operator),
    ).toEqual(["producer-operated", "producer-operated"]);
  });
});

describe("--cosignatures: lines the caller brings", () => {
  /** The bundle's lines moved into a --cosignatures file, each entry naming its note. */
  function asFile(e: ReturnType<typeof capture>, keep = false): { input: JsonObject; file: unknown[] } {
    const ev = e.bundle.continuityEvidence as JsonObject[];
    const prefix = "agentactioncapsule.org/cll-mmr/v1/";
    const m = e.bundle.manifest as JsonObject;
    const note = (cp: JsonObject, leaves: number) =>
      `${prefix}${cp.log_id}\n${leaves}\n${Buffer.from(cp.root as string, "hex").toString("base64")}\n`;
    const notes = { current: note(at(m, "cllCheckpoint"), 9), prior: note(at(m, "priorCheckpoint"), 5) };
    const file = ev.map((x) => ({
      type: "c2sp-cosignature/v1",
      note: notes[x.checkpoint as "current" | "prior"],
      lines: x.lines,
    }));
    const stripped = capture(
      { continuity: one() },
      keep ? undefined : onBundle((b) => void delete b.continuityEvidence),
    );
    return { input: stripped.input, file };
  }

  it("lines from the file alone give the same PASS, as bytes, text or a parsed value", () => {
    const e = capture({ continuity: one() });
    const { input, file } = asFile(e);
    for (const cosignatures of [JSON.stringify(file), Buffer.from(JSON.stringify(file)), file as JsonValue]) {
      const r = check(e, { input, request: { cosignatures: cosignatures as never } });
      expectDecided(r, "continuity", { state: "PASS", check: "prior.checkpoint" });
      expect(checkOf(r, "continuity", "cosignature.evidence").detail).toBe(
        "2 cosignature line(s): 0 in continuityEvidence, 2 from --cosignatures",
      );
    }
  });

  it("the same lines in the bundle and in the file count once", () => {
    const e = capture({ continuity: one() });
    const { file } = asFile(e, true);
    const r = check(e, { request: { cosignatures: file as JsonValue } });
    expectDecided(r, "continuity", {
      state: "PASS",
      check: "prior.checkpoint",
      detail: /; 2 exact duplicate line\(s\) counted once$/,
    });
  });

  it("entries that cosign other checkpoints do not count for this input: NOT_PRESENT, saying so", () => {
    const e = capture({ continuity: one() });
    const { input, file } = asFile(e);
    const other = (file as Array<{ note: string }>).map((f) => ({
      ...f,
      note: f.note.replace("\n9\n", "\n10\n").replace("\n5\n", "\n6\n"),
    }));
    const r = check(e, { input, request: { cosignatures: other as never } });
    expectDecided(r, "continuity", { state: "NOT_PRESENT", check: "witness.assertion" });
    expect(checkOf(r, "continuity", "witness.assertion").detail).toMatch(
      /; 2 --cosignatures entr\(ies\) cosign other checkpoints$/,
    );
  });

  it("a file line that fails under a pinned key FAILs this input", () => {
    const e = capture({ continuity: one() });
    const { input, file } = asFile(e);
    const bad = (file as Array<{ lines: string[] }>).map((f) => ({ ...f, lines: f.lines.map(flipLast) }));
    const r = check(e, { input, request: { cosignatures: bad as never } });
    expectDecided(r, "continuity", {
      state: "FAIL",
      check: "cosignature.signature",
      subject: "--cosignatures[0].lines[0]",
      code: "COSIGNATURE_INVALID",
    });
  });
});

describe("the claimed level CONTINUITY_WITNESSED (contract §9.10)", () => {
  const CLAIM = { evidenceStatus: "EVIDENCE_STATUS_CONTINUITY_WITNESSED" } as const;
  it("supported when continuity PASSes", () => {
    const input = check(capture({ ...CLAIM, continuity: one() }));
    expect([
      input.properties.referenceConsistency.state,
      input.evidenceLevel.achieved,
      input.evidenceLevel.claimed,
    ]).toEqual(["PASS", "CONTINUITY_WITNESSED", "CONTINUITY_WITNESSED"]);
  });
  it("an overclaim FAIL when nothing is carried for continuity", () => {
    const input = check(capture(CLAIM));
    expectDecided(input, "referenceConsistency", {
      state: "FAIL",
      check: "reference.claimedLevel",
      detail: /carries nothing for continuity/,
    });
  });
  it("INCONCLUSIVE when continuity is INCONCLUSIVE", () => {
    const input = check(capture({ ...CLAIM, continuity: one({ operator: "producer" }) }));
    expect(input.properties.referenceConsistency.state).toBe("INCONCLUSIVE");
  });
  it("not assessed when continuity FAILs (the FAIL is continuity's)", () => {
    const input = tampered(
      onBundle((b) => void (lines(b, "current")[0] = flipLast(lines(b, "current")[0] as string))),
      { ...CLAIM, continuity: one() },
    );
    expect([input.properties.continuity.state, input.properties.referenceConsistency.state]).toEqual(["FAIL", "PASS"]);
  });
});
