/**
 * producerSignature: capsuleId.recompute, envelope.claim, envelope.verify, envelope.keyId and
 * manifest.producerEnvelope, every branch through verify().
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonObject } from "../../src/json/value.js";
import { bytesToHex } from "../../src/util/bytes.js";
import { producerEnvelope } from "../../producer/capsule.js";
import { coseSign1 } from "../../producer/cose.js";
import { flipHexMember } from "../../producer/mutations.js";
import type { Tamper } from "../../producer/options.js";
import {
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
  widened,
  type Case,
  type States,
} from "./harness.js";
import { PRODUCER, resealedCapsule, signer } from "./resign.js";

const OTHER = signer("another producer");

const capsuleOf = (b: JsonObject) => at(b, "capsule");
const inCapsule = (change: (c: JsonObject) => void): Tamper => ({ bundle: (b) => change(capsuleOf(b)) });
const producerEnvelopeCopy = (change: (pe: JsonObject) => void): Tamper => ({
  manifest: (m) => change(at(m, "producerEnvelope")),
});

/** A capsule without a key to authorise, or without a leaf, changes the properties that read them. */
const NO_KEY_ID: Partial<States> = { identityAuthorityBinding: "NOT_PRESENT" };
const NO_LEAF: Partial<States> = { localInclusion: "FAIL" };

/** An Ed25519 COSE_Sign1 over `payload` with the given protected header, signed by the producer key. */
function envelopeWith(protectedHeader: Array<[number, number | string | Uint8Array]>, payload: Uint8Array): string {
  return bytesToHex(
    coseSign1({ protectedHeader, unprotectedHeader: new Map(), payload, detached: false, sign: PRODUCER.sign }),
  );
}

describe("producerSignature FAIL paths", () => {
  const cases: Case[] = [
    {
      name: "a capsule member changed after sealing",
      tamper: inCapsule((c) => void (c.operator = "another-operator")),
      decided: {
        state: "FAIL",
        check: "capsuleId.recompute",
        code: "AAC_CAPSULE_ID_MISMATCH",
        detail: /the capsule was changed after it was sealed/,
      },
      // The envelope is checked against the recomputed id, which it does not sign.
      checks: { "envelope.verify": "FAIL" },
    },
    {
      name: "capsule_id changed by one hex digit",
      tamper: inCapsule((c) => flipHexMember(c, "capsule_id")),
      decided: { state: "FAIL", check: "capsuleId.recompute", code: "AAC_CAPSULE_ID_MISMATCH" },
      // The carried id is the log leaf: it is no longer the one the producer appended.
      also: NO_LEAF,
    },
    {
      name: "capsule_id missing",
      tamper: inCapsule((c) => void delete c.capsule_id),
      decided: { state: "FAIL", check: "capsuleId.recompute", code: "AAC_CAPSULE_ID_MISSING" },
      checks: { "envelope.verify": "NOT_CHECKED" },
      also: NO_LEAF,
    },
    {
      name: "capsule_id not lowercase hex",
      tamper: inCapsule((c) => void (c.capsule_id = (c.capsule_id as string).toUpperCase())),
      decided: { state: "FAIL", check: "capsuleId.recompute", code: "AAC_CAPSULE_ID_MALFORMED" },
      checks: { "envelope.verify": "NOT_CHECKED" },
      also: NO_LEAF,
    },
    {
      name: "format_version missing",
      tamper: inCapsule((c) => void delete c.format_version),
      decided: { state: "FAIL", check: "capsuleId.recompute", code: "AAC_FORMAT_VERSION_MISSING" },
      // With no recomputed id the envelope is still checked against the well-formed carried one.
      checks: { "envelope.verify": "PASS" },
    },
    {
      name: "format_version not a string",
      tamper: inCapsule((c) => void (c.format_version = new JsonNumber("4"))),
      decided: { state: "FAIL", check: "capsuleId.recompute", code: "AAC_FORMAT_VERSION_NOT_STRING" },
    },
    {
      name: "format 4 without canonicalization_id",
      tamper: inCapsule((c) => void delete c.canonicalization_id),
      decided: { state: "FAIL", check: "capsuleId.recompute", code: "AAC_CANONICALIZATION_ID_MISSING" },
    },
    {
      name: "canonicalization_id null",
      tamper: inCapsule((c) => void (c.canonicalization_id = null)),
      decided: { state: "FAIL", check: "capsuleId.recompute", code: "AAC_CANONICALIZATION_ID_NOT_STRING" },
    },
    {
      name: "format 4 with another canonicalization",
      tamper: inCapsule((c) => void (c.canonicalization_id = "jcs-n")),
      decided: { state: "FAIL", check: "capsuleId.recompute", code: "AAC_CANONICALIZATION_PROFILE_MISMATCH" },
    },
    {
      name: "format 2 declaring a canonicalization_id",
      tamper: inCapsule((c) => void (c.format_version = "2")),
      decided: { state: "FAIL", check: "capsuleId.recompute", code: "AAC_CANONICALIZATION_PROFILE_MISMATCH" },
    },
    {
      name: "a capsule member JCS (safe integers) cannot canonicalize",
      tamper: inCapsule((c) => void (c.score = new JsonNumber("0.5"))),
      decided: { state: "FAIL", check: "capsuleId.recompute", code: "CANON_FLOAT", detail: /at capsule\.score/ },
    },
    {
      name: "capsule not an object",
      tamper: { bundle: (b) => void (b.capsule = "capsule") },
      decided: { state: "FAIL", check: "envelope.claim", detail: "capsule is not a JSON object" },
      // No capsule to prove or to authorise; the claim EXTERNALLY_REGISTERED then has no localInclusion.
      also: { ...NO_KEY_ID, localInclusion: "NOT_PRESENT", referenceConsistency: "FAIL" },
    },
    {
      name: "a signature but no key_id",
      tamper: inCapsule((c) => void delete c.key_id),
      decided: { state: "FAIL", check: "envelope.claim", detail: "the capsule carries a signature but no key_id" },
      checks: { "capsuleId.recompute": "PASS" },
      also: NO_KEY_ID,
    },
    {
      name: "a key_id but no signature",
      tamper: inCapsule((c) => void delete c.signature),
      decided: { state: "FAIL", check: "envelope.claim", detail: "the capsule carries key_id but no signature" },
    },
    {
      name: "signature not a string",
      tamper: inCapsule((c) => void (c.signature = new JsonNumber("1"))),
      decided: { state: "FAIL", check: "envelope.verify", detail: "capsule.signature is not a hex string" },
      checks: { "manifest.producerEnvelope": "FAIL" },
    },
    {
      name: "signature not lowercase hex",
      tamper: inCapsule((c) => void (c.signature = (c.signature as string).toUpperCase())),
      decided: {
        state: "FAIL",
        check: "envelope.verify",
        detail: "capsule.signature is not lowercase hex of a COSE_Sign1",
      },
    },
    {
      name: "envelope signature byte flipped",
      tamper: inCapsule((c) => flipHexMember(c, "signature", -1)),
      decided: { state: "FAIL", check: "envelope.verify", code: "ENVELOPE_SIGNATURE_INVALID" },
    },
    {
      name: "envelope is not a COSE_Sign1",
      tamper: inCapsule((c) => void (c.signature = "a0")),
      decided: { state: "FAIL", check: "envelope.verify", code: "ENVELOPE_MALFORMED" },
    },
    {
      name: "envelope larger than 4096 bytes",
      tamper: inCapsule((c) => void (c.signature = "00".repeat(4097))),
      decided: { state: "FAIL", check: "envelope.verify", code: "ENVELOPE_TOO_LARGE" },
    },
    {
      name: "envelope signs another capsule_id",
      tamper: inCapsule((c) => void (c.signature = bytesToHex(producerEnvelope("ab".repeat(32), PRODUCER)))),
      decided: { state: "FAIL", check: "envelope.verify", code: "ENVELOPE_PAYLOAD_MISMATCH" },
    },
    {
      name: "envelope under ES256 instead of EdDSA",
      tamper: inCapsule(
        (c) =>
          void (c.signature = envelopeWith(
            [
              [3, "application/agent-action-capsule-id"],
              [4, PRODUCER.publicKeyRaw],
              [1, -7],
            ],
            Buffer.from(c.capsule_id as string, "hex"),
          )),
      ),
      decided: { state: "FAIL", check: "envelope.verify", code: "ENVELOPE_ALGORITHM_MISMATCH" },
    },
    {
      name: "envelope signed by another key than key_id (manifest copy kept consistent)",
      tamper: {
        manifest: (m) => {
          const pe = at(m, "producerEnvelope");
          pe.signature = bytesToHex(producerEnvelope(pe.capsuleId as string, OTHER));
        },
        bundle: (b) => void (capsuleOf(b).signature = at(b, "manifest", "producerEnvelope").signature as string),
      },
      decided: {
        state: "FAIL",
        check: "envelope.keyId",
        detail: new RegExp(`the envelope's kid ${OTHER.publicKeyHex} != capsule key_id`),
      },
      checks: { "envelope.verify": "PASS", "manifest.producerEnvelope": "PASS" },
    },
    {
      name: "key_id names another key (key_id is outside the capsule identity)",
      tamper: inCapsule((c) => void (c.key_id = OTHER.publicKeyHex)),
      decided: { state: "FAIL", check: "envelope.keyId" },
      checks: { "capsuleId.recompute": "PASS", "envelope.verify": "PASS", "manifest.producerEnvelope": "FAIL" },
      // The trust file does not authorise that key for the authority.
      also: { identityAuthorityBinding: "FAIL" },
    },
    {
      name: "manifest producerEnvelope missing",
      tamper: { manifest: (m) => void delete m.producerEnvelope },
      decided: {
        state: "FAIL",
        check: "manifest.producerEnvelope",
        detail: "manifest.producerEnvelope is missing or not an object",
      },
    },
    {
      name: "manifest producerEnvelope not an object",
      tamper: { manifest: (m) => void (m.producerEnvelope = "envelope") },
      decided: {
        state: "FAIL",
        check: "manifest.producerEnvelope",
        detail: "manifest.producerEnvelope is missing or not an object",
      },
    },
    {
      name: "manifest producerEnvelope.capsuleId differs",
      tamper: producerEnvelopeCopy((pe) => flipHexMember(pe, "capsuleId")),
      decided: {
        state: "FAIL",
        check: "manifest.producerEnvelope",
        detail: /^manifest\.producerEnvelope\.capsuleId "[0-9a-f]{64}" != capsule\.capsule_id/,
      },
    },
    {
      name: "manifest producerEnvelope.keyId differs",
      tamper: producerEnvelopeCopy((pe) => flipHexMember(pe, "keyId")),
      decided: { state: "FAIL", check: "manifest.producerEnvelope", detail: /^manifest\.producerEnvelope\.keyId/ },
    },
    {
      name: "manifest producerEnvelope.signature differs",
      tamper: producerEnvelopeCopy((pe) => flipHexMember(pe, "signature", -1)),
      decided: { state: "FAIL", check: "manifest.producerEnvelope", detail: /^manifest\.producerEnvelope\.signature/ },
    },
  ];

  it.each(cases)("$name", (c) => void expectCase("producerSignature", c));
});

describe("producerSignature PASS, INCONCLUSIVE, NOT_PRESENT and NOT_CHECKED", () => {
  it("PASS: the producer key signed the capsule_id, and the detail names both", () => {
    const e = capture();
    const input = check(e);
    const capsule = capsuleOf(e.bundle);
    expectDecided(input, "producerSignature", {
      state: "PASS",
      check: "capsuleId.recompute",
      detail: `producer key ${capsule.key_id as string} signed capsule_id ${capsule.capsule_id as string}`,
    });
    expect(checkStates(input, "producerSignature")).toEqual([
      "capsuleId.recompute PASS",
      "envelope.claim PASS",
      "envelope.verify PASS",
      "envelope.keyId PASS",
      "manifest.producerEnvelope PASS",
    ]);
  });

  it("a capsule format this verifier does not implement is INCONCLUSIVE, never PASS", () => {
    const input = tampered(inCapsule((c) => void (c.format_version = "5")));
    expectDecided(input, "producerSignature", {
      state: "INCONCLUSIVE",
      check: "capsuleId.recompute",
      code: "AAC_FORMAT_VERSION_UNSUPPORTED",
      detail: /^unsupported capsule format/,
    });
    // The envelope over the carried id still verifies: nothing contradicts, nothing is established.
    expect(checkOf(input, "producerSignature", "envelope.verify").state).toBe("PASS");
  });

  it.each([
    ["no capsule", (b: JsonObject) => void delete b.capsule],
    ["a null capsule", (b: JsonObject) => void (b.capsule = null)],
    [
      "a capsule with neither signature nor key_id",
      (b: JsonObject) => {
        delete capsuleOf(b).signature;
        delete capsuleOf(b).key_id;
      },
    ],
  ])("NOT_PRESENT with %s", (_, change) => {
    const input = tampered({ bundle: change });
    expectDecided(input, "producerSignature", { state: "NOT_PRESENT", check: "envelope.claim" });
    expect(checkStates(input, "producerSignature")).toEqual(["envelope.claim NOT_PRESENT"]);
  });

  it("without a manifest, the manifest copy is NOT_PRESENT and the signature still PASSes", () => {
    const input = tampered({ bundle: (b) => void delete b.manifest });
    expectDecided(input, "producerSignature", { state: "PASS", check: "capsuleId.recompute" });
    expect(checkOf(input, "producerSignature", "manifest.producerEnvelope").state).toBe("NOT_PRESENT");
  });

  it("an unsupported extension version is NOT_CHECKED", () => {
    const input = tampered({ bundle: (b) => void (b.extensionVersion = "2") });
    expectDecided(input, "producerSignature", {
      state: "NOT_CHECKED",
      check: "envelope.claim",
      detail: 'unsupported extension version "2"',
    });
  });

  describe("a capsule whose integers a structured carrier widened", () => {
    // A capsule sealed with an integer member, re-sealed consistently; the leaf in the log is the
    // original id, so localInclusion FAILs in all three, which is not what these tests are about.
    const withCount = resealedCapsule((c) => void (c.attempts = new JsonNumber("2")));
    const widenCapsule: Tamper["bundle"] = (b) => {
      withCount.bundle?.(b);
      b.capsule = widened(capsuleOf(b));
    };

    it("raw part, integers as sealed: PASS (the re-sealing is sound)", () => {
      const input = tampered(withCount);
      expectDecided(input, "producerSignature", { state: "PASS", check: "capsuleId.recompute" });
      expect(statesOf(input)).toEqual(baseline({ localInclusion: "FAIL" }));
    });

    it("data part, widened: capsuleId.recompute INCONCLUSIVE and the envelope checked against the narrowed id", () => {
      const input = tampered({ ...withCount, bundle: widenCapsule }, { carrier: "data" });
      expectDecided(input, "producerSignature", {
        state: "INCONCLUSIVE",
        check: "capsuleId.recompute",
        detail: /matches only with \d+ widened number\(s\) narrowed back to integers: the data carrier/,
      });
      expect(checkOf(input, "producerSignature", "envelope.verify").state).toBe("PASS");
      // referenceConsistency, which reads both states, is pinned in reference-consistency.test.ts.
      const { referenceConsistency: _, ...others } = statesOf(input);
      const { referenceConsistency: __, ...expected } = baseline({
        producerSignature: "INCONCLUSIVE",
        localInclusion: "FAIL",
      });
      expect(others).toEqual(expected);
    });

    it("raw part, widened: FAIL (exact bytes have no excuse)", () => {
      const input = tampered({ ...withCount, bundle: widenCapsule });
      expectDecided(input, "producerSignature", { state: "FAIL", check: "capsuleId.recompute", code: "CANON_FLOAT" });
    });
  });
});
