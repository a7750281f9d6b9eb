/**
 * localInclusion: inclusion.proof (checkpoint and proof shape, leaf body) and inclusion.verify
 * (the MMR climb to cllCheckpoint.root), every branch through verify().
 *
 * The baseline's record is leaf 5 of a 9-leaf log: mountains of 8 and 1 leaves, so its proof has
 * three witness hashes, no left peak and one right peak.
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { flipHexDigit, flipHexMember } from "../../producer/mutations.js";
import type { Tamper } from "../../producer/options.js";
import {
  OTHER_PROFILE,
  at,
  capture,
  check,
  checkStates,
  expectCase,
  expectDecided,
  tampered,
  type Case,
  type States,
} from "./harness.js";
import { resignedCheckpoint } from "./resign.js";

const proofOf = (m: JsonObject) => at(m, "localInclusionProof");
const inProof = (change: (proof: JsonObject) => void): Tamper => ({ manifest: (m) => change(proofOf(m)) });

/** A malformed checkpoint is also checkpointSignature's and externalRegistration's defect. */
const MALFORMED_CHECKPOINT: Partial<States> = { checkpointSignature: "FAIL", externalRegistration: "FAIL" };

describe("localInclusion FAIL paths", () => {
  const cases: Case[] = [
    {
      name: "checkpoint root not 64 hex characters",
      tamper: { manifest: (m) => void (at(m, "cllCheckpoint").root = "c1e8") },
      decided: {
        state: "FAIL",
        check: "inclusion.proof",
        code: "CHECKPOINT_MALFORMED",
        detail: /^the checkpoint's root or mmr_size is malformed: root must be 64 lowercase hex/,
      },
      also: MALFORMED_CHECKPOINT,
    },
    {
      name: "checkpoint mmr_size not an integer",
      tamper: { manifest: (m) => void (at(m, "cllCheckpoint").mmr_size = new JsonNumber("16.0")) },
      decided: { state: "FAIL", check: "inclusion.proof", code: "CHECKPOINT_MALFORMED" },
      also: MALFORMED_CHECKPOINT,
    },
    {
      name: "inclusion proof not an object",
      tamper: { manifest: (m) => void (m.localInclusionProof = ["proof"]) },
      decided: {
        state: "FAIL",
        check: "inclusion.proof",
        code: "MMR_PROOF_MALFORMED",
        detail: /^the inclusion proof is malformed: /,
      },
    },
    {
      name: "inclusion proof version 2",
      tamper: inProof((p) => void (p.v = new JsonNumber("2"))),
      decided: { state: "FAIL", check: "inclusion.proof", code: "MMR_PROOF_VERSION_UNSUPPORTED" },
    },
    {
      name: "inclusion proof of another kind",
      tamper: inProof((p) => void (p.kind = "consistency")),
      decided: { state: "FAIL", check: "inclusion.proof", code: "MMR_PROOF_KIND_MISMATCH" },
    },
    {
      name: "inclusion proof witness hash not hex",
      tamper: inProof((p) => void ((p.witness as JsonValue[])[0] = "not a hash")),
      decided: {
        state: "FAIL",
        check: "inclusion.proof",
        code: "MMR_HASH_MALFORMED",
        detail: /at manifest\.localInclusionProof\.witness\[0\]$/,
      },
    },
    {
      name: "inclusion proof mixes camelCase and snake_case",
      tamper: inProof((p) => {
        p.leaf_index = p.leafIndex as JsonValue;
        delete p.leafIndex;
      }),
      decided: { state: "FAIL", check: "inclusion.proof", code: "MMR_PROOF_MALFORMED", detail: /mixes/ },
    },
    {
      name: "inclusion proof with an unknown member",
      tamper: inProof((p) => void (p.leafHash = "00".repeat(32))),
      decided: { state: "FAIL", check: "inclusion.proof", code: "MMR_PROOF_MALFORMED" },
    },
    {
      name: "capsule_id not hex: no leaf body to prove",
      tamper: { bundle: (b) => void (at(b, "capsule").capsule_id = "leaf") },
      decided: {
        state: "FAIL",
        check: "inclusion.proof",
        detail: "capsule.capsule_id is not 64 lowercase hex: no leaf body to prove",
      },
      also: { producerSignature: "FAIL" },
    },
    {
      name: "a witness hash changed",
      tamper: inProof((p) => {
        const witness = p.witness as string[];
        witness[0] = flipHexDigit(witness[0] as string);
      }),
      decided: {
        state: "FAIL",
        check: "inclusion.verify",
        code: "MMR_ROOT_MISMATCH",
        detail: /is not proven at leaf 5/,
      },
    },
    {
      name: "a right peak changed",
      tamper: inProof((p) => {
        const peaks = p.peaksRight as string[];
        peaks[0] = flipHexDigit(peaks[0] as string, 63);
      }),
      decided: { state: "FAIL", check: "inclusion.verify", code: "MMR_ROOT_MISMATCH" },
    },
    {
      name: "another record's id as the leaf body",
      tamper: { bundle: (b) => flipHexMember(at(b, "capsule"), "capsule_id", -1) },
      decided: { state: "FAIL", check: "inclusion.verify", code: "MMR_ROOT_MISMATCH" },
      also: { producerSignature: "FAIL" },
    },
    {
      name: "proof for another tree size than the checkpoint's",
      tamper: inProof((p) => void (p.size = new JsonNumber("15"))),
      decided: { state: "FAIL", check: "inclusion.verify", code: "MMR_PROOF_SIZE_MISMATCH" },
    },
    {
      name: "a witness hash missing",
      tamper: inProof((p) => void (p.witness as JsonValue[]).pop()),
      decided: { state: "FAIL", check: "inclusion.verify", code: "MMR_WITNESS_LENGTH_MISMATCH" },
    },
    {
      name: "the right peak missing",
      tamper: inProof((p) => void (p.peaksRight = [])),
      decided: { state: "FAIL", check: "inclusion.verify", code: "MMR_PEAKS_LENGTH_MISMATCH" },
    },
    {
      name: "leaf index beyond the log",
      tamper: inProof((p) => void (p.leafIndex = new JsonNumber("9"))),
      decided: { state: "FAIL", check: "inclusion.verify", code: "MMR_LEAF_INDEX_OUT_OF_RANGE" },
    },
    {
      name: "a genuinely signed checkpoint over another root",
      tamper: { manifest: resignedCheckpoint({ root: "ab".repeat(32) }) },
      decided: { state: "FAIL", check: "inclusion.verify", code: "MMR_ROOT_MISMATCH" },
      // The consistency proof to the new root breaks too; the signature and the stamps hold.
      also: { continuity: "FAIL" },
    },
    {
      name: "a genuinely signed checkpoint and proof at a size that is no MMR",
      tamper: {
        manifest: (m) => {
          resignedCheckpoint({ mmrSize: 17 })?.(m);
          proofOf(m).size = new JsonNumber("17");
        },
      },
      decided: { state: "FAIL", check: "inclusion.verify", code: "MMR_SIZE_INVALID" },
      also: { continuity: "FAIL" },
    },
  ];

  it.each(cases)("$name", (c) => void expectCase("localInclusion", c));
});

describe("localInclusion PASS, NOT_PRESENT and NOT_CHECKED", () => {
  it("PASS: the detail names the leaf and the size", () => {
    const input = check(capture());
    expectDecided(input, "localInclusion", {
      state: "PASS",
      check: "inclusion.proof",
      detail: "leaf_index=5 against checkpoint root at mmr_size=16",
    });
    expect(checkStates(input, "localInclusion")).toEqual(["inclusion.proof PASS", "inclusion.verify PASS"]);
  });

  it("a snake_case proof (the CLL spelling) is read too", () => {
    const input = tampered(
      inProof((p) => {
        for (const [camel, snake] of [
          ["leafIndex", "leaf_index"],
          ["peaksLeft", "peaks_left"],
          ["peaksRight", "peaks_right"],
        ] as const) {
          p[snake] = p[camel] as JsonValue;
          delete p[camel];
        }
      }),
    );
    expectDecided(input, "localInclusion", { state: "PASS", check: "inclusion.proof" });
  });

  it.each([
    ["no checkpoint", { manifest: (m: JsonObject) => void delete m.cllCheckpoint }, "the bundle carries no checkpoint"],
    [
      "a null checkpoint",
      { manifest: (m: JsonObject) => void (m.cllCheckpoint = null) },
      "the bundle carries no checkpoint",
    ],
    [
      "no inclusion proof",
      { manifest: (m: JsonObject) => void delete m.localInclusionProof },
      "the bundle carries no inclusion proof",
    ],
    [
      "a null inclusion proof",
      { manifest: (m: JsonObject) => void (m.localInclusionProof = null) },
      "the bundle carries no inclusion proof",
    ],
    ["no capsule", { bundle: (b: JsonObject) => void delete b.capsule }, "the bundle carries no capsule"],
    [
      "no checkpoint and no proof",
      {
        manifest: (m: JsonObject) => {
          delete m.cllCheckpoint;
          delete m.localInclusionProof;
        },
      },
      "the bundle carries no checkpoint, no inclusion proof",
    ],
    [
      "no manifest",
      { bundle: (b: JsonObject) => void delete b.manifest },
      "the bundle carries no checkpoint, no inclusion proof",
    ],
  ] as Array<[string, Tamper, string]>)("NOT_PRESENT with %s", (_, tamper, detail) => {
    const input = tampered(tamper);
    expectDecided(input, "localInclusion", { state: "NOT_PRESENT", check: "inclusion.proof", detail });
    expect(checkStates(input, "localInclusion")).toEqual(["inclusion.proof NOT_PRESENT"]);
  });

  it("an unsupported record profile: NOT_CHECKED", () => {
    const input = tampered({ bundle: (b) => void (b.recordProfile = OTHER_PROFILE) });
    expectDecided(input, "localInclusion", { state: "NOT_CHECKED", check: "inclusion.proof" });
  });
});
