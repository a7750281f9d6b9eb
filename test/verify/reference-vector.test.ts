/**
 * The published reference A2A vectors, end to end through the library (the CLI prints the same
 * report). Expected states are the ones the contract implies, including the honest taskBinding
 * FAIL the reference's own self-referential check hides.
 */
import { expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { isJsonObject, member } from "../../src/json/value.js";
import { PROPERTY_NAMES, isFailedInput, type VerifiedInput } from "../../src/report/model.js";
import { describeExternal, readExternal } from "../helpers/external.js";

describeExternal("a2a-reference", "reference A2A vectors", () => {
  const positive = readExternal("a2a-reference", "positive_vector.json");
  const tamper = readExternal("a2a-reference", "tamper_negative_vector.json");
  const parsed = parseStrictJson(positive);
  if (!parsed.ok || !isJsonObject(parsed.value)) throw new Error("positive vector does not parse");
  const trust = member(parsed.value, "trustConfig");
  if (trust === undefined) throw new Error("positive vector has no trustConfig");

  const run = (data: Uint8Array, extra: { trust?: boolean; task?: Uint8Array } = {}): VerifiedInput => {
    const report = verify({
      inputs: [{ source: "vector", data }],
      ...(extra.trust === false ? {} : { trust }),
      ...(extra.task ? { task: extra.task } : {}),
    });
    const input = report.inputs[0];
    if (!input || isFailedInput(input)) throw new Error(`input failed: ${JSON.stringify(input)}`);
    return input;
  };
  const states = (r: VerifiedInput) => Object.fromEntries(PROPERTY_NAMES.map((p) => [p, r.properties[p].state]));
  const expectedPositive = {
    contentBinding: "PASS",
    producerSignature: "PASS",
    taskBinding: "FAIL",
    localInclusion: "PASS",
    checkpointSignature: "PASS",
    externalRegistration: "PASS",
    continuity: "NOT_PRESENT",
    identityAuthorityBinding: "PASS",
    captureCoverage: "INCONCLUSIVE",
    outcomeCorroboration: "NOT_PRESENT",
    referenceConsistency: "PASS",
    negotiation: "PASS",
    peacReceipts: "NOT_PRESENT",
  };

  it("positive vector with its trustConfig: the contract's states, level EXTERNALLY_REGISTERED, exit 1", () => {
    const r = run(positive);
    expect(states(r)).toEqual(expectedPositive);
    expect(r.evidenceLevel).toEqual({
      achieved: "EXTERNALLY_REGISTERED",
      claimed: "EXTERNALLY_REGISTERED",
      negotiated: "EXTERNALLY_REGISTERED",
    });
    expect(r.exitCode).toBe(1);
    expect(r.evidenceId).toBe("44539bedef5152e23a0771755a894080d5de9df37301dbbaba1269825a519c0e");
    expect(r.locations).toEqual(["finalTask.artifacts[1].parts[0].raw", "evidenceBundle"]);
  });

  it("positive vector: taskBinding names both artifact ids and says name and content still match", () => {
    const tb = run(positive).properties.taskBinding;
    const failing = tb.checks.filter((c) => c.state === "FAIL");
    expect(failing.map((c) => c.id)).toEqual(["artifact.binding", "artifacts.coverage"]);
    expect(tb.detail).toContain('"response"');
    expect(tb.detail).toContain("a501101c-1a43-43de-98dc-a10e1691eb76");
    expect(tb.detail).toMatch(/same name "response" and its content matches the commitment/);
    // Everything the observed Task does show is bound.
    for (const id of ["task.id", "task.contextId", "task.terminalState", "transcript.sequence", "transcript.message"]) {
      expect(tb.checks.find((c) => c.id === id)?.state).toBe("PASS");
    }
  });

  it("positive vector: every binding the reference omits is checked and passes", () => {
    const r = run(positive);
    const pass = (p: keyof typeof expectedPositive, id: string) =>
      expect(r.properties[p].checks.filter((c) => c.id === id).map((c) => c.state)).toEqual(["PASS"]);
    pass("contentBinding", "payload.copiesAgree");
    pass("contentBinding", "coreManifestDigest.recompute");
    pass("contentBinding", "capsule.agentInputDigest");
    pass("contentBinding", "capsule.agentOutputDigest");
    pass("producerSignature", "capsuleId.recompute");
    pass("producerSignature", "manifest.producerEnvelope");
    pass("referenceConsistency", "reference.artifact");
    pass("referenceConsistency", "reference.task");
    pass("referenceConsistency", "bundle.copiesAgree");
    pass("referenceConsistency", "reference.claimedLevel");
    pass("externalRegistration", "witness.treePosition");
  });

  it("tamper vector (observed Task from the positive vector): contentBinding FAIL with the recomputed id; the --task Task's own copy disagrees", () => {
    const r = run(tamper, { task: positive });
    // --task is located like any input (contract §9.16): the evidence Artifact it carries is the
    // untampered bundle, so referenceConsistency reports the disagreeing copy too.
    expect(states(r)).toEqual({ ...expectedPositive, contentBinding: "FAIL", referenceConsistency: "FAIL" });
    const rc = r.properties.referenceConsistency;
    expect(rc.checks.find((c) => c.state === "FAIL")?.id).toBe("bundle.copiesAgree");
    expect(rc.detail).toMatch(
      /^the bundle at --task:finalTask\.artifacts\[1\]\.parts\[0\]\.raw differs from the one at evidenceBundle at taskEvidencePayload\.transcript\[0\]\.partCommitment/,
    );
    const cb = r.properties.contentBinding;
    expect(cb.checks.find((c) => c.state === "FAIL")?.id).toBe("evidenceId.recompute");
    expect(cb.detail).toContain("e263f8ea69710b578a68a6606b50b1254dbaf8073eef1d52a05c28422d5266f8");
    expect(r.evidenceLevel.achieved).toBe("NONE");
    expect(r.exitCode).toBe(1);
  });

  it("without a trust file: identityAuthorityBinding NOT_CHECKED, externalRegistration INCONCLUSIVE", () => {
    const r = run(positive, { trust: false });
    expect(r.properties.identityAuthorityBinding.state).toBe("NOT_CHECKED");
    expect(r.properties.externalRegistration.state).toBe("INCONCLUSIVE");
    expect(r.evidenceLevel.achieved).toBe("SIGNED_RECORD");
  });
});
