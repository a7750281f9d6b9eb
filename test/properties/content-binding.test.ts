/**
 * contentBinding: every branch of its five checks (evidenceId.recompute, payload.copiesAgree,
 * coreManifestDigest.recompute, capsule.agentInputDigest, capsule.agentOutputDigest), through
 * verify() on exchanges built by the independent producer.
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonObject } from "../../src/json/value.js";
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
  copy,
  expectCase,
  expectDecided,
  statesOf,
  tampered,
  widenedAt,
  type Case,
  type States,
} from "./harness.js";

const attestation = (b: JsonObject) => at(b, "capsule", "model_attestation", "compute_attestation");

/** Everything a claim EXTERNALLY_REGISTERED needs from the manifest is gone with it. */
const WITHOUT_MANIFEST: Partial<States> = {
  localInclusion: "NOT_PRESENT",
  checkpointSignature: "NOT_PRESENT",
  externalRegistration: "NOT_PRESENT",
  referenceConsistency: "FAIL",
};

describe("contentBinding FAIL paths", () => {
  const cases: Case[] = [
    {
      name: "top-level payload changed after sealing",
      tamper: { bundle: (b) => void (at(b, "taskEvidencePayload").tenantId = "tenant-b") },
      decided: { state: "FAIL", check: "evidenceId.recompute", detail: /does not derive the referenced evidence ID/ },
    },
    {
      name: "evidenceId not 64 lowercase hex",
      tamper: { bundle: (b) => void (b.evidenceId = (b.evidenceId as string).toUpperCase()) },
      decided: { state: "FAIL", check: "evidenceId.recompute", detail: /not 64 lowercase hex/ },
      // The reference copies state the real id, which the bundle no longer claims.
      also: { referenceConsistency: "FAIL" },
    },
    // SUSPECTED VERIFIER BUG: the detail renders the claimed number 1 as {"lexeme":"1"} (JSON.stringify of a JsonNumber).
    {
      name: "evidenceId not a string",
      tamper: { bundle: (b) => void (b.evidenceId = new JsonNumber("1")) },
      decided: {
        state: "FAIL",
        check: "evidenceId.recompute",
        detail: "claimed evidenceId is not 64 lowercase hex characters: 1",
      },
      also: { referenceConsistency: "FAIL" },
    },
    {
      name: "evidenceId changed by one hex digit",
      tamper: { bundle: (b) => flipHexMember(b, "evidenceId") },
      decided: { state: "FAIL", check: "evidenceId.recompute" },
      also: { referenceConsistency: "FAIL" },
    },
    {
      name: "taskEvidencePayload not an object",
      tamper: { bundle: (b) => void (b.taskEvidencePayload = "payload") },
      decided: { state: "FAIL", check: "evidenceId.recompute", detail: "taskEvidencePayload is not a JSON object" },
      // Without a payload object nothing binds a Task and no terminal state is stated.
      also: { taskBinding: "NOT_PRESENT", identityAuthorityBinding: "NOT_PRESENT" },
    },
    {
      name: "manifest's payload copy differs from the top-level one",
      tamper: { manifest: (m) => void (at(m, "taskEvidencePayload").tenantId = "tenant-b") },
      decided: {
        state: "FAIL",
        check: "payload.copiesAgree",
        detail: /differs from taskEvidencePayload at taskEvidencePayload\.tenantId/,
      },
    },
    {
      name: "manifest carries no payload copy",
      tamper: { manifest: (m) => void delete m.taskEvidencePayload },
      decided: { state: "FAIL", check: "payload.copiesAgree", detail: "the manifest carries no taskEvidencePayload" },
    },
    {
      name: "manifest changed after coreManifestDigest",
      tamper: { bundle: (b) => void (at(b, "manifest").note = "added in transit") },
      decided: {
        state: "FAIL",
        check: "coreManifestDigest.recompute",
        detail: /recomputed coreManifestDigest [0-9a-f]{64} != claimed/,
      },
    },
    {
      name: "coreManifestDigest changed by one hex digit",
      tamper: { bundle: (b) => flipHexMember(b, "coreManifestDigest", -1) },
      decided: { state: "FAIL", check: "coreManifestDigest.recompute" },
      also: { referenceConsistency: "FAIL" },
    },
    {
      name: "coreManifestDigest not hex",
      tamper: { bundle: (b) => void (b.coreManifestDigest = "sha256:abc") },
      decided: {
        state: "FAIL",
        check: "coreManifestDigest.recompute",
        detail: /claimed coreManifestDigest is not 64 lowercase hex/,
      },
      also: { referenceConsistency: "FAIL" },
    },
    {
      name: "manifest without coreManifestDigest",
      tamper: { bundle: (b) => void delete b.coreManifestDigest },
      decided: {
        state: "FAIL",
        check: "coreManifestDigest.recompute",
        detail: /carries a manifest but no coreManifestDigest/,
      },
      also: { referenceConsistency: "FAIL" },
    },
    {
      name: "manifest with a null coreManifestDigest",
      tamper: { bundle: (b) => void (b.coreManifestDigest = null) },
      decided: {
        state: "FAIL",
        check: "coreManifestDigest.recompute",
        detail: /carries a manifest but no coreManifestDigest/,
      },
      also: { referenceConsistency: "FAIL" },
    },
    {
      name: "coreManifestDigest without manifest",
      tamper: { bundle: (b) => void delete b.manifest },
      decided: {
        state: "FAIL",
        check: "coreManifestDigest.recompute",
        detail: /claimed but the bundle carries no manifest/,
      },
      also: WITHOUT_MANIFEST,
    },
    {
      name: "manifest not an object",
      tamper: { bundle: (b) => void (b.manifest = "manifest") },
      decided: { state: "FAIL", check: "coreManifestDigest.recompute", detail: "manifest is not a JSON object" },
      also: WITHOUT_MANIFEST,
    },
    {
      name: "capsule agent_input_digest missing",
      tamper: { bundle: (b) => void delete attestation(b).agent_input_digest },
      decided: { state: "FAIL", check: "capsule.agentInputDigest", detail: /agent_input_digest is absent/ },
      // The digest is part of the sealed capsule: its id no longer recomputes.
      also: { producerSignature: "FAIL" },
    },
    {
      name: "capsule agent_input_digest names another payload",
      tamper: { bundle: (b) => flipHexMember(attestation(b), "agent_input_digest") },
      decided: {
        state: "FAIL",
        check: "capsule.agentInputDigest",
        detail: /the signed record commits to a different payload/,
      },
      also: { producerSignature: "FAIL" },
    },
    {
      name: "capsule agent_output_digest changed",
      tamper: { bundle: (b) => flipHexMember(attestation(b), "agent_output_digest") },
      decided: {
        state: "FAIL",
        check: "capsule.agentOutputDigest",
        detail: /capsule agent_output_digest "[0-9a-f]{64}" != digest of \{"terminalState":"TASK_STATE_COMPLETED"\}/,
      },
      also: { producerSignature: "FAIL" },
    },
    {
      name: "capsule effect.response_digest changed",
      tamper: { bundle: (b) => flipHexMember(at(b, "capsule", "effect"), "response_digest") },
      decided: { state: "FAIL", check: "capsule.agentOutputDigest", detail: /capsule effect\.response_digest/ },
      also: { producerSignature: "FAIL" },
    },
    {
      name: "payload sealed with a terminal state the capsule's output does not commit to",
      tamper: { payload: (p) => void (p.terminalState = "TASK_STATE_FAILED") },
      decided: { state: "FAIL", check: "capsule.agentOutputDigest" },
      // The observed Task and the references say COMPLETED.
      also: { taskBinding: "FAIL" },
    },
    {
      name: "payload terminalState not a string",
      tamper: { payload: (p) => void (p.terminalState = new JsonNumber("3")) },
      decided: {
        state: "FAIL",
        check: "capsule.agentOutputDigest",
        detail: "taskEvidencePayload.terminalState is not a string",
      },
      also: { taskBinding: "FAIL" },
    },
  ];

  it.each(cases)("$name", (c) => void expectCase("contentBinding", c));

  it("a payload change fails every check that reads the payload, and only those", () => {
    const input = tampered({
      bundle: (b) => void (at(b, "taskEvidencePayload").sealTime = "2027-01-01T00:00:00+00:00"),
    });
    expect(checkStates(input, "contentBinding")).toEqual([
      "evidenceId.recompute FAIL",
      "payload.copiesAgree FAIL",
      "coreManifestDigest.recompute PASS",
      "capsule.agentInputDigest FAIL",
      "capsule.agentOutputDigest PASS",
    ]);
    expect(checkOf(input, "contentBinding", "evidenceId.recompute").values?.recomputed).not.toBe(
      checkOf(input, "contentBinding", "evidenceId.recompute").values?.claimed,
    );
  });

  it("a payload that cannot be canonicalized FAILs with the canonicalizer's code (parsed input deeper than pyjson's cap)", () => {
    const e = capture();
    const bundle = copy(e.bundle);
    let deep: JsonObject = at(bundle, "taskEvidencePayload");
    for (let i = 0; i < 300; i++) deep = deep.nested = Object.create(null) as JsonObject;
    const input = check(e, { input: bundle, request: { task: e.getTaskResponse, firstTask: e.firstTask } });
    expectDecided(input, "contentBinding", { state: "FAIL", check: "evidenceId.recompute", code: "CANON_TOO_DEEP" });
    // Without a recomputed evidenceId the capsule link cannot be compared: listed, not dropped.
    expect(checkOf(input, "contentBinding", "capsule.agentInputDigest").state).toBe("NOT_CHECKED");
  });

  it("an agent output that has no JCS form FAILs with the canonicalizer's code (parsed input, lone surrogate)", () => {
    // pyjson escapes a lone surrogate as Python does, so the payload still derives evidenceId;
    // JCS has no UTF-8 form for it. Only a parsed value can carry one: the strict parser refuses it.
    const e = capture({}, { payload: (p) => void (p.terminalState = "TASK_STATE_\uD800") });
    const input = check(e, { input: e.bundle, request: { task: e.getTaskResponse, firstTask: e.firstTask } });
    expectDecided(input, "contentBinding", {
      state: "FAIL",
      check: "capsule.agentOutputDigest",
      code: "CANON_LONE_SURROGATE",
    });
    expect(checkOf(input, "contentBinding", "evidenceId.recompute").state).toBe("PASS");
  });
});

describe("contentBinding PASS, NOT_PRESENT and NOT_CHECKED", () => {
  it("PASS: every check recomputes, and the detail names the evidence ID", () => {
    const e = capture();
    const input = check(e);
    expectDecided(input, "contentBinding", {
      state: "PASS",
      check: "evidenceId.recompute",
      detail: `recomputed evidenceId matches: ${e.bundle.evidenceId as string}`,
    });
    expect(checkStates(input, "contentBinding")).toEqual([
      "evidenceId.recompute PASS",
      "payload.copiesAgree PASS",
      "coreManifestDigest.recompute PASS",
      "capsule.agentInputDigest PASS",
      "capsule.agentOutputDigest PASS",
    ]);
  });

  it.each([
    ["no taskEvidencePayload", (b: JsonObject) => void delete b.taskEvidencePayload],
    ["a null taskEvidencePayload", (b: JsonObject) => void (b.taskEvidencePayload = null)],
    ["no evidenceId", (b: JsonObject) => void delete b.evidenceId],
    ["a null evidenceId", (b: JsonObject) => void (b.evidenceId = null)],
  ])("NOT_PRESENT with %s", (_, change) => {
    const input = tampered({ bundle: change });
    expectDecided(input, "contentBinding", { state: "NOT_PRESENT", check: "evidenceId.recompute" });
    expect(checkStates(input, "contentBinding")).toEqual(["evidenceId.recompute NOT_PRESENT"]);
  });

  it("without a manifest or a digest, the manifest checks are NOT_PRESENT and the payload still binds", () => {
    const input = tampered({
      bundle: (b) => {
        delete b.manifest;
        delete b.coreManifestDigest;
      },
    });
    expectDecided(input, "contentBinding", { state: "PASS", check: "evidenceId.recompute" });
    expect(checkStates(input, "contentBinding")).toEqual([
      "evidenceId.recompute PASS",
      "payload.copiesAgree NOT_PRESENT",
      "coreManifestDigest.recompute NOT_PRESENT",
      "capsule.agentInputDigest PASS",
      "capsule.agentOutputDigest PASS",
    ]);
  });

  it("without a capsule, both capsule checks are NOT_PRESENT (and producerSignature is NOT_PRESENT)", () => {
    const input = tampered({ bundle: (b) => void delete b.capsule });
    expectDecided(input, "contentBinding", { state: "PASS", check: "evidenceId.recompute" });
    expect(checkOf(input, "contentBinding", "capsule.agentInputDigest").state).toBe("NOT_PRESENT");
    expect(checkOf(input, "contentBinding", "capsule.agentOutputDigest").state).toBe("NOT_PRESENT");
    expect(statesOf(input).producerSignature).toBe("NOT_PRESENT");
  });

  it("a capsule without agent_output_digest and effect.response_digest: agentOutputDigest NOT_PRESENT", () => {
    const input = tampered({
      bundle: (b) => {
        delete attestation(b).agent_output_digest;
        delete at(b, "capsule", "effect").response_digest;
      },
    });
    expectDecided(input, "contentBinding", { state: "PASS", check: "evidenceId.recompute" });
    expect(checkOf(input, "contentBinding", "capsule.agentOutputDigest").state).toBe("NOT_PRESENT");
    expect(statesOf(input).producerSignature).toBe("FAIL");
  });

  it("an unsupported record profile is NOT_CHECKED, not guessed at", () => {
    const input = tampered({ bundle: (b) => void (b.recordProfile = OTHER_PROFILE) });
    expectDecided(input, "contentBinding", {
      state: "NOT_CHECKED",
      check: "evidenceId.recompute",
      detail: `unsupported record profile ${OTHER_PROFILE}`,
    });
  });
});

/** The bundle in the capture's evidence Artifact `data` part. */
const DATA = { carrier: "data" } as const;

const PAYLOADS = [["taskEvidencePayload"], ["manifest", "taskEvidencePayload"]];

describe("contentBinding through structured carriers (number widening, contract §9.1)", () => {
  it("a data part whose integers kept their lexemes is verified like a raw part", () => {
    const input = check(capture(DATA));
    expect(statesOf(input)).toEqual(baseline());
  });

  it("widened numbers in the manifest: coreManifestDigest INCONCLUSIVE, not FAIL", () => {
    const input = check(capture(DATA, { bundle: widenedAt(["manifest", "localInclusionProof"]) }));
    expectDecided(input, "contentBinding", {
      state: "INCONCLUSIVE",
      check: "coreManifestDigest.recompute",
      detail: /matches only with 3 widened number\(s\) narrowed back to integers: the data carrier/,
    });
    expect(checkOf(input, "contentBinding", "evidenceId.recompute").state).toBe("PASS");
    // The narrowed digest is reported beside the one over the presented bytes.
    const values = checkOf(input, "contentBinding", "coreManifestDigest.recompute").values ?? {};
    expect(values.recomputedNarrowed).toBe(values.claimed);
    expect(values.recomputed).not.toBe(values.claimed);
    // The claim EXTERNALLY_REGISTERED needs contentBinding, which is now only INCONCLUSIVE.
    expect(statesOf(input)).toEqual(baseline({ contentBinding: "INCONCLUSIVE", referenceConsistency: "INCONCLUSIVE" }));
  });

  it("widened numbers inline in Task.metadata are excused the same way", () => {
    const input = check(capture({ carrier: "inline" }, { bundle: widenedAt(["manifest", "localInclusionProof"]) }));
    expectDecided(input, "contentBinding", {
      state: "INCONCLUSIVE",
      check: "coreManifestDigest.recompute",
      detail: /the inline carrier/,
    });
  });

  // SUSPECTED VERIFIER BUG: agentInputDigest compares with the digest of the widened payload and FAILs where evidenceId.recompute is INCONCLUSIVE (contract §9.1).
  it("widened numbers in the payload: evidenceId INCONCLUSIVE, and the capsule link is not a FAIL either", () => {
    const input = check(capture(DATA, { bundle: widenedAt(...PAYLOADS) }));
    expectDecided(input, "contentBinding", {
      state: "INCONCLUSIVE",
      check: "evidenceId.recompute",
      detail: /matches only with 2 widened number\(s\) narrowed back to integers/,
    });
    expect(checkOf(input, "contentBinding", "capsule.agentInputDigest").state).toBe("INCONCLUSIVE");
    expect(statesOf(input)).toEqual(baseline({ contentBinding: "INCONCLUSIVE", referenceConsistency: "INCONCLUSIVE" }));
  });

  it("the same widened payload in a raw part FAILs: exact bytes have no excuse", () => {
    const input = tampered({ bundle: widenedAt(...PAYLOADS) });
    expectDecided(input, "contentBinding", {
      state: "FAIL",
      check: "evidenceId.recompute",
      detail:
        /numbers hashed as written, not as Python prints integers: transcript\[0\]\.sequence, transcript\[1\]\.sequence\)/,
    });
  });

  it.each([
    ["alone", [] as string[][]],
    ["with widened numbers", PAYLOADS],
  ])("a real change to the payload in a data part still FAILs (%s)", (_, paths) => {
    const input = check(
      capture(DATA, {
        bundle: (b) => {
          widenedAt(...paths)(b);
          at(b, "taskEvidencePayload").tenantId = "tenant-b";
        },
      }),
    );
    expectDecided(input, "contentBinding", { state: "FAIL", check: "evidenceId.recompute" });
  });

  /** A payload member beyond 2^53, as sealed, and as a double would carry it. */
  const BIG = "9007199254740993";
  const ROUNDED = "9007199254740992";
  const bigPayload: Tamper["payload"] = (p) => void (p.count = new JsonNumber(BIG));
  const rounded: Tamper["bundle"] = (b) => {
    for (const path of PAYLOADS) at(b, ...path).count = new JsonNumber(ROUNDED);
  };

  it("integers beyond 2^53 rounded by a data carrier: INCONCLUSIVE, found by re-deriving with the integers that round to the double", () => {
    const input = check(capture(DATA, { payload: bigPayload, bundle: rounded }));
    expectDecided(input, "contentBinding", {
      state: "INCONCLUSIVE",
      check: "evidenceId.recompute",
      detail: /matches only with 1 widened number\(s\) narrowed back to integers: the data carrier/,
    });
    expect(checkOf(input, "contentBinding", "capsule.agentInputDigest").state).toBe("INCONCLUSIVE");
  });

  it("a real change beside an integer beyond 2^53 still FAILs: widening excuses only what narrowing explains (§9.17)", () => {
    const input = check(
      capture(DATA, {
        payload: bigPayload,
        bundle: (b) => {
          rounded(b);
          at(b, "taskEvidencePayload").tenantId = "tenant-b";
          at(b, "manifest", "taskEvidencePayload").tenantId = "tenant-b";
        },
      }),
    );
    expectDecided(input, "contentBinding", {
      state: "FAIL",
      check: "evidenceId.recompute",
      detail: /and under every narrowing of widened numbers/,
    });
    expect(checkOf(input, "contentBinding", "capsule.agentInputDigest").state).toBe("FAIL");
  });

  it("a number so large that hundreds of integers round to it: INCONCLUSIVE, too many widened candidates", () => {
    const huge: Tamper["bundle"] = (b) => {
      for (const path of PAYLOADS) at(b, ...path).count = new JsonNumber("100000000000000000000");
    };
    const input = check(
      capture(DATA, { payload: (p) => void (p.count = new JsonNumber("100000000000000000001")), bundle: huge }),
    );
    expectDecided(input, "contentBinding", {
      state: "INCONCLUSIVE",
      check: "evidenceId.recompute",
      detail: /too many widened candidates/,
    });
  });

  it("integers beyond 2^53 rounded in the manifest only: coreManifestDigest INCONCLUSIVE, the payload still binds", () => {
    const input = check(
      capture(DATA, {
        manifest: (m) => void (m.count = new JsonNumber(BIG)),
        bundle: (b) => void (at(b, "manifest").count = new JsonNumber(ROUNDED)),
      }),
    );
    expectDecided(input, "contentBinding", {
      state: "INCONCLUSIVE",
      check: "coreManifestDigest.recompute",
      detail: /matches only with 1 widened number\(s\) narrowed back to integers/,
    });
    expect(checkStates(input, "contentBinding")).toEqual([
      "evidenceId.recompute PASS",
      "payload.copiesAgree PASS",
      "coreManifestDigest.recompute INCONCLUSIVE",
      "capsule.agentInputDigest PASS",
      "capsule.agentOutputDigest PASS",
    ]);
  });

  it("the same rounding in a raw part FAILs", () => {
    const input = tampered({ payload: bigPayload, bundle: rounded });
    expectDecided(input, "contentBinding", { state: "FAIL", check: "evidenceId.recompute" });
  });

  it("a digest that is wrong for reasons other than widening in a data part FAILs (flipped claim)", () => {
    const input = check(
      capture(DATA, { bundle: (b) => void (b.coreManifestDigest = flipHexDigit(b.coreManifestDigest as string)) }),
    );
    expectDecided(input, "contentBinding", { state: "FAIL", check: "coreManifestDigest.recompute" });
  });
});
