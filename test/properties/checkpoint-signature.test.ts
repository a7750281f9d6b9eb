/**
 * checkpointSignature: checkpoint.shape, checkpoint.signature (including the structured-carrier
 * reconstruction) and checkpoint.signer, every branch through verify().
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonObject } from "../../src/json/value.js";
import { flipHexMember } from "../../producer/mutations.js";
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
  widenedAt,
  type Case,
  type States,
} from "./harness.js";
import { PRODUCER, resignedCheckpoint, signer } from "./resign.js";

const OTHER = signer("checkpoint signing service");

const checkpointOf = (m: JsonObject) => at(m, "cllCheckpoint");
const inCheckpoint = (change: (cp: JsonObject) => void): Tamper => ({ manifest: (m) => change(checkpointOf(m)) });

/** A checkpoint that does not parse binds no stamp; its root and size still serve localInclusion. */
const MALFORMED: Partial<States> = { externalRegistration: "FAIL" };
/** A signed member changed: the stamps registered the checkpoint as it was signed. */
const SIGNED_MEMBER: Partial<States> = { externalRegistration: "FAIL" };

describe("checkpointSignature FAIL paths", () => {
  const cases: Case[] = [
    {
      name: "checkpoint not an object",
      tamper: { manifest: (m) => void (m.cllCheckpoint = "checkpoint") },
      decided: {
        state: "FAIL",
        check: "checkpoint.shape",
        code: "CHECKPOINT_MALFORMED",
        detail: "checkpoint is not an object at manifest.cllCheckpoint",
      },
      // No witness list can be read from it; the claim EXTERNALLY_REGISTERED then lacks registration.
      also: { localInclusion: "FAIL", externalRegistration: "NOT_PRESENT", referenceConsistency: "FAIL" },
    },
    {
      name: "a signed member missing",
      tamper: inCheckpoint((cp) => void delete cp.timestamp),
      decided: { state: "FAIL", check: "checkpoint.shape", code: "CHECKPOINT_MEMBER_MISSING" },
      also: MALFORMED,
    },
    {
      name: "an unknown member (would read as signed content)",
      tamper: inCheckpoint((cp) => void (cp.issuer = "producer")),
      decided: { state: "FAIL", check: "checkpoint.shape", code: "CHECKPOINT_MEMBER_UNKNOWN" },
      also: MALFORMED,
    },
    {
      name: "v is 2",
      tamper: inCheckpoint((cp) => void (cp.v = new JsonNumber("2"))),
      decided: { state: "FAIL", check: "checkpoint.shape", code: "CHECKPOINT_VERSION_UNSUPPORTED" },
      also: MALFORMED,
    },
    {
      name: "v not an integer",
      tamper: inCheckpoint((cp) => void (cp.v = "1")),
      decided: {
        state: "FAIL",
        check: "checkpoint.shape",
        code: "CHECKPOINT_MALFORMED",
        detail: /^v must be an integer/,
      },
      also: MALFORMED,
    },
    {
      name: "kind is not mmr_checkpoint",
      tamper: inCheckpoint((cp) => void (cp.kind = "tree_head")),
      decided: { state: "FAIL", check: "checkpoint.shape", code: "CHECKPOINT_KIND_INVALID" },
      also: MALFORMED,
    },
    {
      name: "root not 64 lowercase hex",
      tamper: inCheckpoint((cp) => void (cp.root = (cp.root as string).toUpperCase())),
      decided: {
        state: "FAIL",
        check: "checkpoint.shape",
        code: "CHECKPOINT_MALFORMED",
        detail: /^root must be 64 lowercase hex/,
      },
      also: { ...MALFORMED, localInclusion: "FAIL" },
    },
    {
      name: "key_id not a raw key in hex",
      tamper: inCheckpoint((cp) => void (cp.key_id = "producer")),
      decided: { state: "FAIL", check: "checkpoint.shape", code: "CHECKPOINT_MALFORMED", detail: /^key_id must be/ },
      also: MALFORMED,
    },
    {
      name: "signature not 128 hex characters",
      tamper: inCheckpoint((cp) => void (cp.signature = (cp.signature as string).slice(2))),
      decided: {
        state: "FAIL",
        check: "checkpoint.shape",
        code: "CHECKPOINT_MALFORMED",
        detail: /^signature must be 128 lowercase hex/,
      },
      also: MALFORMED,
    },
    {
      name: "witnesses not an array",
      tamper: inCheckpoint((cp) => void (cp.witnesses = {})),
      decided: {
        state: "FAIL",
        check: "checkpoint.shape",
        code: "CHECKPOINT_MALFORMED",
        detail: /^witnesses must be an array/,
      },
      also: MALFORMED,
    },
    {
      name: "a signed member (timestamp) changed after signing",
      tamper: inCheckpoint((cp) => void (cp.timestamp = "2026-10-01T09:30:01.254107Z")),
      decided: {
        state: "FAIL",
        check: "checkpoint.signature",
        code: "CHECKPOINT_SIGNATURE_INVALID",
        detail: /^checkpoint signature does not verify under key_id=/,
      },
      also: SIGNED_MEMBER,
    },
    {
      name: "the signature's last byte flipped (signature is not a signed member: the stamps still bind)",
      tamper: inCheckpoint((cp) => flipHexMember(cp, "signature", -1)),
      decided: { state: "FAIL", check: "checkpoint.signature", code: "CHECKPOINT_SIGNATURE_INVALID" },
    },
    {
      name: "key_id swapped for another key without re-signing",
      tamper: inCheckpoint((cp) => void (cp.key_id = OTHER.publicKeyHex)),
      decided: { state: "FAIL", check: "checkpoint.signature", code: "CHECKPOINT_SIGNATURE_INVALID" },
      also: SIGNED_MEMBER,
    },
  ];

  it.each(cases)("$name", (c) => void expectCase("checkpointSignature", c));
});

describe("checkpointSignature PASS, INCONCLUSIVE, NOT_PRESENT and NOT_CHECKED", () => {
  it("PASS: signed by the producer key", () => {
    const input = check(capture());
    expectDecided(input, "checkpointSignature", {
      state: "PASS",
      check: "checkpoint.shape",
      detail: `checkpoint signature under key_id=${PRODUCER.publicKeyHex}`,
    });
    expect(checkStates(input, "checkpointSignature")).toEqual([
      "checkpoint.shape PASS",
      "checkpoint.signature PASS",
      "checkpoint.signer PASS",
    ]);
    expect(checkOf(input, "checkpointSignature", "checkpoint.signer").detail).toBe(
      "signed by the producer key (the capsule's key_id)",
    );
  });

  it("signed by a key only the bundle supplies: checkpoint.signer INCONCLUSIVE", () => {
    const input = tampered({ manifest: resignedCheckpoint({}, OTHER) });
    expectDecided(input, "checkpointSignature", {
      state: "INCONCLUSIVE",
      check: "checkpoint.signer",
      detail: new RegExp(
        `^signed by ${OTHER.publicKeyHex}, which is neither the producer key nor listed in the trust file .*: a key only the bundle supplies$`,
      ),
    });
    expect(checkOf(input, "checkpointSignature", "checkpoint.signature").state).toBe("PASS");
    // The claim EXTERNALLY_REGISTERED needs checkpointSignature, now only INCONCLUSIVE.
    expect(statesOf(input)).toEqual(
      baseline({ checkpointSignature: "INCONCLUSIVE", referenceConsistency: "INCONCLUSIVE" }),
    );
  });

  it("signed by another key the trust file lists for the payload's authority: PASS", () => {
    const input = tampered({
      manifest: resignedCheckpoint({}, OTHER),
      trust: (t) => void (at(t, "producers", 0).keys as string[]).push(OTHER.publicKeyHex),
    });
    expectDecided(input, "checkpointSignature", { state: "PASS", check: "checkpoint.shape" });
    expect(checkOf(input, "checkpointSignature", "checkpoint.signer").detail).toMatch(
      /^signed by a key the trust file lists for authority/,
    );
    expect(statesOf(input)).toEqual(baseline());
  });

  it.each([
    ["no checkpoint", (m: JsonObject) => void delete m.cllCheckpoint],
    ["a null checkpoint", (m: JsonObject) => void (m.cllCheckpoint = null)],
  ])("NOT_PRESENT with %s", (_, change) => {
    const input = tampered({ manifest: change });
    expectDecided(input, "checkpointSignature", {
      state: "NOT_PRESENT",
      check: "checkpoint.shape",
      detail: "the bundle carries no checkpoint",
    });
  });

  it("an unsupported record profile: NOT_CHECKED", () => {
    const input = tampered({ bundle: (b) => void (b.recordProfile = OTHER_PROFILE) });
    expectDecided(input, "checkpointSignature", { state: "NOT_CHECKED", check: "checkpoint.shape" });
  });
});

describe("checkpointSignature through structured carriers", () => {
  const widenCheckpoint = widenedAt(["manifest", "cllCheckpoint"]);

  it("a data part with widened numbers: the signature verifies only on the reconstruction, INCONCLUSIVE", () => {
    const input = tampered({ bundle: widenCheckpoint }, { carrier: "data" });
    expectDecided(input, "checkpointSignature", {
      state: "INCONCLUSIVE",
      check: "checkpoint.signature",
      detail:
        /only with widened numbers written back as integers: the data carrier passed numbers through doubles, so the signed body is a reconstruction$/,
    });
    expect(checkOf(input, "checkpointSignature", "checkpoint.shape").state).toBe("PASS");
    expect(statesOf(input).localInclusion).toBe("PASS");
  });

  it("the same widened checkpoint in a raw part FAILs its shape: exact bytes have no excuse", () => {
    const input = tampered({ bundle: widenCheckpoint });
    expectDecided(input, "checkpointSignature", {
      state: "FAIL",
      check: "checkpoint.shape",
      code: "CHECKPOINT_MALFORMED",
    });
  });

  it("a data part with a broken signature and no widening FAILs like a raw part", () => {
    const input = tampered({ manifest: (m) => flipHexMember(checkpointOf(m), "signature", -1) }, { carrier: "data" });
    expectDecided(input, "checkpointSignature", {
      state: "FAIL",
      check: "checkpoint.signature",
      code: "CHECKPOINT_SIGNATURE_INVALID",
    });
    expect(statesOf(input)).toEqual(baseline({ checkpointSignature: "FAIL" }));
  });

  // SUSPECTED VERIFIER BUG: a broken signature on a widened checkpoint is reported as the carrier's widening ("v must be an integer"), which also FAILs localInclusion, unlike the same defect in a raw part.
  it("a data part with widened numbers and a broken signature: the signature FAILs, and only checkpointSignature", () => {
    const input = tampered(
      { manifest: (m) => flipHexMember(checkpointOf(m), "signature", -1), bundle: widenCheckpoint },
      { carrier: "data" },
    );
    expectDecided(input, "checkpointSignature", {
      state: "FAIL",
      check: "checkpoint.signature",
      code: "CHECKPOINT_SIGNATURE_INVALID",
    });
    expect(statesOf(input).localInclusion).toBe("PASS");
  });
});
