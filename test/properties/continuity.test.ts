/**
 * continuity without witness cosignatures: prior.checkpoint, chain.link (every chain rule, and
 * the first-checkpoint rules) and witness.assertion, through verify(). With nothing a witness
 * said, the property is FAIL when the carried chain is broken and NOT_PRESENT otherwise; the
 * cosigned cases are in continuity-witness.test.ts.
 *
 * The baseline's prior checkpoint is at 5 leaves (mmr_size 8), the current one at 9 (mmr_size 16).
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { flipHexDigit, flipHexMember } from "../../producer/mutations.js";
import type { Tamper } from "../../producer/options.js";
import {
  OTHER_PROFILE,
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
import { resignedCheckpoint, resignedPrior } from "./resign.js";

const NO_ASSERTION =
  "no continuity witness cosignature is carried (no continuityEvidence, no --cosignatures lines for this checkpoint)";

const priorOf = (m: JsonObject) => at(m, "priorCheckpoint");
const proofOf = (m: JsonObject) => at(m, "consistencyProof");

/** A log's first checkpoint: no prior, no consistency proof. */
const FIRST = { priorCheckpoint: null } as const;

describe("continuity FAIL paths", () => {
  const chained = capture().bundle.manifest as JsonObject;
  const cases: Case[] = [
    {
      name: "prior checkpoint malformed",
      tamper: { manifest: (m) => void (priorOf(m).witnesses = "none") },
      decided: {
        state: "FAIL",
        check: "prior.checkpoint",
        code: "CHECKPOINT_MALFORMED",
        detail:
          /^the prior checkpoint is malformed: witnesses must be an array at manifest\.priorCheckpoint\.witnesses$/,
      },
    },
    {
      name: "prior checkpoint not an object",
      tamper: { manifest: (m) => void (m.priorCheckpoint = "prior") },
      decided: { state: "FAIL", check: "prior.checkpoint", code: "CHECKPOINT_MALFORMED" },
    },
    {
      name: "consistency proof of another kind",
      tamper: { manifest: (m) => void (proofOf(m).kind = "inclusion") },
      decided: {
        state: "FAIL",
        check: "prior.checkpoint",
        code: "MMR_PROOF_KIND_MISMATCH",
        detail: /^the consistency proof is malformed: /,
      },
    },
    {
      name: "consistency proof path not a list of paths",
      tamper: { manifest: (m) => void (proofOf(m).witness = "paths") },
      decided: { state: "FAIL", check: "prior.checkpoint", code: "MMR_PROOF_MALFORMED" },
    },
    {
      name: "prior checkpoint's root changed (its signature breaks)",
      tamper: { manifest: (m) => flipHexMember(priorOf(m), "root") },
      decided: {
        state: "FAIL",
        check: "chain.link",
        code: "CHAIN_PRIOR_SIGNATURE_INVALID",
        detail: /^the checkpoint chain is broken: /,
      },
    },
    {
      name: "a genuinely signed prior from another log",
      tamper: { manifest: resignedPrior({ logId: "another-log" }) },
      decided: { state: "FAIL", check: "chain.link", code: "CHAIN_LOG_ID_MISMATCH" },
    },
    {
      name: "a genuinely signed prior at another size than prev_size",
      tamper: { manifest: resignedPrior({ mmrSize: 10 }) },
      decided: { state: "FAIL", check: "chain.link", code: "CHAIN_PREV_SIZE_MISMATCH" },
    },
    {
      name: "a genuinely signed prior with another root than prev_root",
      tamper: { manifest: resignedPrior({ root: "ab".repeat(32) }) },
      decided: { state: "FAIL", check: "chain.link", code: "CHAIN_PREV_ROOT_MISMATCH" },
    },
    {
      name: "a genuinely signed checkpoint that does not grow past its predecessor",
      tamper: { manifest: resignedCheckpoint({ mmrSize: 8 }) },
      decided: { state: "FAIL", check: "chain.link", code: "CHAIN_SIZE_NOT_INCREASING" },
      // The inclusion proof is for mmr_size 16.
      also: { localInclusion: "FAIL" },
    },
    {
      name: "a prior without a consistency proof",
      tamper: { manifest: (m) => void delete m.consistencyProof },
      decided: { state: "FAIL", check: "chain.link", code: "CHAIN_CONSISTENCY_MISSING" },
    },
    {
      name: "a consistency proof hash changed",
      tamper: {
        manifest: (m) => {
          const path = (proofOf(m).witness as JsonValue[])[0] as string[];
          path[0] = flipHexDigit(path[0] as string);
        },
      },
      decided: { state: "FAIL", check: "chain.link", code: "MMR_PEAK_MISMATCH" },
    },
    {
      name: "a consistency proof between other sizes",
      tamper: { manifest: (m) => void (proofOf(m).size_a = new JsonNumber("10")) },
      decided: { state: "FAIL", check: "chain.link", code: "MMR_PROOF_SIZE_MISMATCH" },
    },
    {
      name: "a first checkpoint whose prev_root is not empty",
      options: FIRST,
      tamper: { manifest: resignedCheckpoint({ prevRoot: "ab".repeat(32) }) },
      decided: { state: "FAIL", check: "chain.link", code: "CHAIN_FIRST_PREV_ROOT_NOT_EMPTY" },
    },
    {
      name: "a first checkpoint with a consistency proof",
      options: FIRST,
      tamper: { manifest: (m) => void (m.consistencyProof = proofOf(chained)) },
      decided: { state: "FAIL", check: "chain.link", code: "CHAIN_CONSISTENCY_UNEXPECTED" },
    },
  ];

  it.each(cases)("$name", (c) => void expectCase("continuity", c));

  it("a chain field of the current checkpoint changed without re-signing: continuity and the signature both FAIL", () => {
    const input = tampered({ manifest: (m) => void (at(m, "cllCheckpoint").prev_size = new JsonNumber("10")) });
    expectDecided(input, "continuity", { state: "FAIL", check: "chain.link", code: "CHAIN_PREV_SIZE_MISMATCH" });
    expect(statesOf(input)).toEqual(
      baseline({ continuity: "FAIL", checkpointSignature: "FAIL", externalRegistration: "FAIL" }),
    );
  });
});

describe("continuity NOT_PRESENT without cosignatures, and NOT_CHECKED", () => {
  it("an intact chain: NOT_PRESENT, with the link it checked in the detail", () => {
    const input = check(capture());
    expectDecided(input, "continuity", {
      state: "NOT_PRESENT",
      check: "witness.assertion",
      detail: `${NO_ASSERTION}; history intact between checkpoints at mmr_size 8 and 16 (anti-rewrite only, not anti-fork)`,
    });
    expect(checkStates(input, "continuity")).toEqual([
      "prior.checkpoint PASS",
      "chain.link PASS",
      "witness.assertion NOT_PRESENT",
    ]);
  });

  it("a log's first checkpoint: nothing to chain, NOT_PRESENT", () => {
    const input = check(capture(FIRST));
    expectDecided(input, "continuity", {
      state: "NOT_PRESENT",
      check: "witness.assertion",
      detail: /; first checkpoint of its log \(prev_size 0, no prior\): nothing to chain$/,
    });
    expect(checkStates(input, "continuity")).toEqual(["chain.link PASS", "witness.assertion NOT_PRESENT"]);
    expect(statesOf(input)).toEqual(baseline());
  });

  it("a checkpoint that chains to a prior the bundle does not carry: NOT_PRESENT, not FAIL", () => {
    const input = tampered({
      manifest: (m) => {
        delete m.priorCheckpoint;
        delete m.consistencyProof;
      },
    });
    expectDecided(input, "continuity", {
      state: "NOT_PRESENT",
      check: "chain.link",
      code: "CHAIN_PRIOR_MISSING",
      detail: NO_ASSERTION,
    });
    expect(statesOf(input)).toEqual(baseline());
  });

  it("a null prior and proof are absent ones", () => {
    const input = tampered({
      manifest: (m) => {
        m.priorCheckpoint = null;
        m.consistencyProof = null;
      },
    });
    expect(checkOf(input, "continuity", "chain.link").code).toBe("CHAIN_PRIOR_MISSING");
  });

  it("a malformed current checkpoint: the chain is NOT_CHECKED (reported under checkpointSignature)", () => {
    const input = tampered({ manifest: (m) => void (at(m, "cllCheckpoint").kind = "tree_head") });
    expectDecided(input, "continuity", { state: "NOT_PRESENT", check: "witness.assertion" });
    expect(checkStates(input, "continuity")).toEqual(["chain.link NOT_CHECKED", "witness.assertion NOT_PRESENT"]);
  });

  it.each([
    ["no checkpoint", { manifest: (m: JsonObject) => void delete m.cllCheckpoint }],
    ["no manifest", { bundle: (b: JsonObject) => void delete b.manifest }],
  ] as Array<[string, Tamper]>)("%s: NOT_PRESENT", (_, tamper) => {
    const input = tampered(tamper);
    expectDecided(input, "continuity", {
      state: "NOT_PRESENT",
      check: "witness.assertion",
      detail: `${NO_ASSERTION}; the bundle carries no checkpoint`,
    });
    expect(checkStates(input, "continuity")).toEqual(["witness.assertion NOT_PRESENT"]);
  });

  it("an unsupported record profile: NOT_CHECKED", () => {
    const input = tampered({ bundle: (b) => void (b.recordProfile = OTHER_PROFILE) });
    expectDecided(input, "continuity", { state: "NOT_CHECKED", check: "witness.assertion" });
  });
});
