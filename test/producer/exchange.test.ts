import { describe, expect, it, vi } from "vitest";
import { JsonNumber, jsonEquals, type JsonObject } from "../../src/json/value.js";
import { base64ToBytesStrict, sha256Hex, utf8 } from "../../src/util/bytes.js";
import { textCommitment, uuidFromLabel } from "../../producer/a2a.js";
import { buildExchange } from "../../producer/exchange.js";
import { jsonText, pyjsonBytes, pyjsonDigestHex } from "../../producer/json-text.js";
import { at, decodeSign1, obj, parse } from "./oracle.js";
import { codeOf } from "./code-of.js";

const EXT = "https://agentactioncapsule.org/extensions/a2a-task-evidence/v1";
const MEDIA_TYPE = "application/vnd.agentactioncapsule.a2a-task-evidence+json";

const evidenceArtifact = (task: JsonObject) => obj(task, "artifacts", (task.artifacts as unknown[]).length - 1);

describe("buildExchange defaults", () => {
  const e = buildExchange();

  it("is a GetTask JSON-RPC response whose result is the terminal Task", () => {
    expect(jsonText(e.input)).toBe(jsonText(e.getTaskResponse));
    expect(e.input.jsonrpc).toBe("2.0");
    expect((e.input.id as JsonNumber).lexeme).toBe("1");
    expect(jsonEquals(e.input.result, e.finalTask)).toBe(true);
    expect(at(e.finalTask, "status", "state")).toBe("TASK_STATE_COMPLETED");
  });

  it("carries the bundle as pyjson bytes, base64 in the evidence artifact's raw part", () => {
    const artifact = evidenceArtifact(e.finalTask);
    expect(artifact.artifactId).toBe("task-evidence-bundle");
    expect(artifact.extensions).toEqual([EXT]);
    const part = obj(artifact, "parts", 0);
    expect(part.mediaType).toBe(MEDIA_TYPE);
    expect(part.filename).toBe("task-evidence-bundle.json");
    expect(base64ToBytesStrict(part.raw as string)).toEqual(e.bundleBytes);
    expect(e.bundleBytes).toEqual(pyjsonBytes(e.bundle));
    expect(jsonEquals(parse(e.bundleBytes), e.bundle)).toBe(true);
  });

  it("puts the same reference object on the artifact, on the Task and in the bundle", () => {
    const reference = obj(e.bundle, "taskEvidenceReference");
    expect(jsonEquals(at(evidenceArtifact(e.finalTask), "metadata", EXT), reference)).toBe(true);
    expect(jsonEquals(at(e.finalTask, "metadata", EXT), reference)).toBe(true);
    expect(reference.evidenceId).toBe(pyjsonDigestHex(obj(e.bundle, "taskEvidencePayload")));
    expect(reference.coreManifestDigest).toBe(pyjsonDigestHex(obj(e.bundle, "manifest")));
    expect(reference.evidenceStatus).toBe("EVIDENCE_STATUS_EXTERNALLY_REGISTERED");
  });

  it("binds the real artifact ids and one transcript entry per history message", () => {
    const payload = obj(e.bundle, "taskEvidencePayload");
    expect(at(payload, "nonEvidenceArtifacts", 0, "artifactId")).toBe(at(e.finalTask, "artifacts", 0, "artifactId"));
    expect(at(payload, "nonEvidenceArtifacts", 0, "artifactId")).not.toBe("response");
    expect(at(payload, "transcript", 0, "messageId")).toBe(at(e.finalTask, "history", 0, "messageId"));
    expect(payload.tenantId).toBeNull();
  });

  it("sends the requirement in history[0] and the acceptance on the first Task", () => {
    const requirement = obj(e.finalTask, "history", 0, "metadata", EXT);
    expect(requirement.requirement).toBe("REQUIRED");
    expect(requirement.minimumEvidence).toBe("EXTERNALLY_REGISTERED");
    expect(requirement.deliveryModes).toEqual(["EVIDENCE_ARTIFACT"]);
    expect(requirement.requireTask).toBe(true);
    const acceptance = obj(e.firstTask, "metadata", EXT);
    expect(acceptance.evidenceStatus).toBe("EVIDENCE_STATUS_PENDING");
    expect(at(acceptance, "evidenceAcceptance", "state")).toBe("ACCEPTED");
    expect(at(e.firstTask, "status", "state")).toBe("TASK_STATE_SUBMITTED");
    expect(e.firstTask.artifacts).toBeUndefined();
  });

  it("writes a trust file with the producer authority and the pinned Transparency Service", () => {
    expect(jsonText(e.trust, { sortKeys: false })).toBe(
      jsonText(
        parse(
          JSON.stringify({
            version: 1,
            producers: [{ authority: "a2a-evidence-producer.example", keys: [e.keys.producer.publicKeyHex] }],
            transparencyServices: [
              {
                url: "https://ts.a2a-evidence.example",
                keys: [e.keys.transparencyServices[0]!.publicKey],
                operator: "independent",
              },
            ],
          }),
        ),
        { sortKeys: false },
      ),
    );
    expect(e.keys.producer.publicKeyHex).toBe(at(e.bundle, "capsule", "key_id"));
  });

  it("is deterministic: the same options give the same bytes", () => {
    const again = buildExchange();
    expect(jsonText(again.input)).toBe(jsonText(e.input));
    expect(again.bundleBytes).toEqual(e.bundleBytes);
  });
});

describe("buildExchange options", () => {
  it("wraps the terminal Task as a bare Task, a stream wrapper or a capture", () => {
    const task = buildExchange({ envelope: "task" });
    expect(jsonEquals(task.input, task.finalTask)).toBe(true);
    const stream = buildExchange({ envelope: "stream" });
    expect(Object.keys(stream.input)).toEqual(["task"]);
    expect(jsonEquals(stream.input.task, stream.finalTask)).toBe(true);
    const capture = buildExchange({ envelope: "capture" });
    expect(Object.keys(capture.input).sort()).toEqual(["finalTask", "firstTask"]);
    expect(jsonEquals(capture.input.firstTask, capture.firstTask)).toBe(true);
  });

  it("carries the bundle in a data part, with integer lexemes kept", () => {
    const e = buildExchange({ carrier: "data" });
    const part = obj(evidenceArtifact(e.finalTask), "parts", 0);
    expect(Object.keys(part).sort()).toEqual(["data", "mediaType"]);
    expect(jsonEquals(part.data, e.bundle)).toBe(true);
    expect((at(part, "data", "manifest", "cllCheckpoint", "mmr_size") as JsonNumber).lexeme).toBe("1");
  });

  it("carries the bundle inline under Task.metadata[EXT], with no evidence artifact", () => {
    const e = buildExchange({ carrier: "inline" });
    expect((e.finalTask.artifacts as JsonObject[]).map((a) => a.artifactId)).toEqual([uuidFromLabel("artifact-0")]);
    expect(jsonEquals(at(e.finalTask, "metadata", EXT), e.bundle)).toBe(true);
    expect(at(e.bundle, "taskEvidenceReference", "deliveryMode")).toBe("INLINE_METADATA");
    expect(at(e.finalTask, "history", 0, "metadata", EXT, "deliveryModes")).toEqual(["INLINE_METADATA"]);
  });

  it("commits to multi-part text joined with \\n, ignoring data parts, in history order", () => {
    const e = buildExchange({
      transcript: [
        { messageId: "m0", role: "ROLE_USER", parts: ["é", { data: { k: "v" } }, "😀\u2028"] },
        { messageId: "m1", role: "ROLE_AGENT", parts: ["東京"] },
      ],
      artifacts: [
        { artifactId: "a0", name: "x", parts: ["one", "two"] },
        { artifactId: "a1", name: "y", parts: ["three"] },
      ],
    });
    const payload = obj(e.bundle, "taskEvidencePayload");
    expect(at(payload, "transcript", 0, "partCommitment")).toBe(sha256Hex(utf8("é\n😀\u2028")));
    expect(at(payload, "transcript", 1, "role")).toBe("ROLE_AGENT");
    expect((at(payload, "transcript", 1, "sequence") as JsonNumber).lexeme).toBe("1");
    expect(at(payload, "nonEvidenceArtifacts", 0, "contentCommitment")).toBe(textCommitment(["one", "two"]));
    expect(at(payload, "nonEvidenceArtifacts", 1, "artifactId")).toBe("a1");
    expect(at(e.finalTask, "history", 0, "parts", 1, "mediaType")).toBe("application/json");
    expect(at(e.finalTask, "history", 1, "extensions")).toBeUndefined();
  });

  it("places our record among the producer's other leaves and chains to a prior checkpoint", () => {
    const e = buildExchange({ leavesBefore: 4, leavesAfter: 2, priorCheckpoint: { leafCount: 3 } });
    const manifest = obj(e.bundle, "manifest");
    const checkpoint = obj(manifest, "cllCheckpoint");
    const prior = obj(manifest, "priorCheckpoint");
    expect((checkpoint.mmr_size as JsonNumber).lexeme).toBe("11");
    expect((at(manifest, "localInclusionProof", "leafIndex") as JsonNumber).lexeme).toBe("4");
    expect((prior.mmr_size as JsonNumber).lexeme).toBe("4");
    expect(jsonEquals(checkpoint.prev_size, prior.mmr_size)).toBe(true);
    expect(checkpoint.prev_root).toBe(prior.root);
    expect((prior.prev_size as JsonNumber).lexeme).toBe("0");
    expect(prior.prev_root).toBe("");
    expect(Object.keys(obj(manifest, "consistencyProof")).sort()).toEqual([
      "kind",
      "new_peaks",
      "old_peaks",
      "size_a",
      "size_b",
      "v",
      "witness",
    ]);
    const first = obj(buildExchange().bundle, "manifest");
    expect(first.priorCheckpoint).toBeNull();
    expect(first.consistencyProof).toBeNull();
  });

  it("issues ES256 receipts and pins their PEM key; Ed25519 keys are pinned as raw hex", () => {
    const e = buildExchange({
      witnesses: [{ url: "https://a.example" }, { url: "https://b.example", alg: "ES256", treeSize: 5, leafIndex: 2 }],
    });
    const [a, b] = e.keys.transparencyServices;
    expect(a!.publicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(b!.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    const records = at(e.bundle, "manifest", "cllCheckpoint", "witnesses") as JsonObject[];
    expect((records[1]!.leaf_index as JsonNumber).lexeme).toBe("2");
    const receipt = decodeSign1(base64ToBytesStrict(records[1]!.receipt_b64 as string)!);
    expect(receipt.protectedMap.get(1)).toBe(-7);
    expect([...receipt.protectedMap.keys()]).toEqual([395, 1]);
    expect(receipt.payload).toBeNull();
    expect(receipt.signature).toHaveLength(64);
  });

  it("writes stub witness records that no trust file lists", () => {
    const e = buildExchange({ witnesses: [{ url: "https://stub.example", stub: true }] });
    const record = obj(e.bundle, "manifest", "cllCheckpoint", "witnesses", 0);
    expect(record.is_stub).toBe(true);
    expect((record.leaf_index as JsonNumber).lexeme).toBe("-1");
    expect((record.tree_size as JsonNumber).lexeme).toBe("-1");
    const placeholder = obj(parse(base64ToBytesStrict(record.receipt_b64 as string)!));
    expect(placeholder["cll-stub"]).toBe(true);
    expect(placeholder.crit).toEqual(["cll-stub"]);
    expect(e.trust.transparencyServices).toEqual([]);
    expect(at(e.bundle, "taskEvidenceReference", "evidenceStatus")).toBe("EVIDENCE_STATUS_SIGNED_RECORD");
  });

  it("without witnesses, omits `witnesses` and claims and asks for SIGNED_RECORD", () => {
    const e = buildExchange({ witnesses: [] });
    expect(obj(e.bundle, "manifest", "cllCheckpoint").witnesses).toBeUndefined();
    expect(at(e.bundle, "taskEvidenceReference", "evidenceStatus")).toBe("EVIDENCE_STATUS_SIGNED_RECORD");
    expect(at(e.finalTask, "history", 0, "metadata", EXT, "minimumEvidence")).toBe("SIGNED_RECORD");
  });

  it("labels a producer-operated service in the trust file", () => {
    const e = buildExchange({ witnesses: [{ url: "https://own.example", operator: "producer" }] });
    expect(at(e.trust, "transparencyServices", 0, "operator")).toBe("producer");
  });

  it("takes ids, tenant, timestamps and the JSON-RPC id from options", () => {
    const e = buildExchange({
      taskId: "t-1",
      contextId: "c-1",
      tenantId: "tenant-x",
      jsonRpcId: "req-7",
      sealTime: "2026-01-01T00:00:00.000000+00:00",
    });
    expect(e.finalTask.id).toBe("t-1");
    expect(e.input.id).toBe("req-7");
    expect(at(e.bundle, "taskEvidencePayload", "tenantId")).toBe("tenant-x");
    expect(at(e.bundle, "taskEvidencePayload", "sealTime")).toBe("2026-01-01T00:00:00.000000+00:00");
    expect(at(e.finalTask, "history", 0, "taskId")).toBe("t-1");
  });
});

describe("tamper hooks", () => {
  const honest = buildExchange();
  const flip = (h: string) => (h[0] === "0" ? "1" : "0") + h.slice(1);

  it("payload: every digest and signature follows the changed payload", () => {
    const payload = vi.fn((p: JsonObject) => void (p.taskId = "another"));
    const e = buildExchange({ tamper: { payload } });
    expect(payload).toHaveBeenCalledOnce();
    expect(at(e.bundle, "taskEvidencePayload", "taskId")).toBe("another");
    expect(at(e.bundle, "manifest", "taskEvidencePayload", "taskId")).toBe("another");
    expect(e.bundle.evidenceId).toBe(pyjsonDigestHex(obj(e.bundle, "taskEvidencePayload")));
    expect(at(e.bundle, "capsule", "model_attestation", "compute_attestation", "agent_input_digest")).toBe(
      e.bundle.evidenceId,
    );
    expect(e.finalTask.id).toBe(honest.finalTask.id);
  });

  it("manifest: coreManifestDigest and every reference copy follow the changed manifest; evidenceId does not move", () => {
    const e = buildExchange({ tamper: { manifest: (m) => void (obj(m, "cllCheckpoint").timestamp = "x") } });
    const digest = pyjsonDigestHex(obj(e.bundle, "manifest"));
    expect(e.bundle.coreManifestDigest).toBe(digest);
    expect(at(e.finalTask, "metadata", EXT, "coreManifestDigest")).toBe(digest);
    expect(at(evidenceArtifact(e.finalTask), "metadata", EXT, "coreManifestDigest")).toBe(digest);
    expect(digest).not.toBe(honest.bundle.coreManifestDigest);
    expect(e.bundle.evidenceId).toBe(honest.bundle.evidenceId);
  });

  it("bundle: changes only the bundle, and the raw part carries the changed bytes", () => {
    const e = buildExchange({ tamper: { bundle: (b) => void (obj(b, "taskEvidencePayload").tenantId = "t") } });
    expect(e.bundle.evidenceId).toBe(honest.bundle.evidenceId);
    expect(at(e.bundle, "manifest", "taskEvidencePayload", "tenantId")).toBeNull();
    expect(base64ToBytesStrict(at(evidenceArtifact(e.finalTask), "parts", 0, "raw") as string)).toEqual(e.bundleBytes);
    expect(e.bundleBytes).not.toEqual(honest.bundleBytes);
  });

  it("finalTask, firstTask and trust: each changes only its own object, and the input follows", () => {
    const e = buildExchange({
      envelope: "capture",
      tamper: {
        finalTask: (t) =>
          void (obj(t, "metadata", EXT).evidenceId = flip(obj(t, "metadata", EXT).evidenceId as string)),
        firstTask: (t) => void (obj(t, "status").state = "TASK_STATE_WORKING"),
        trust: (t) => void (t.version = new JsonNumber("2")),
      },
    });
    expect(at(e.input, "finalTask", "metadata", EXT, "evidenceId")).not.toBe(e.bundle.evidenceId);
    expect(at(evidenceArtifact(e.finalTask), "metadata", EXT, "evidenceId")).toBe(e.bundle.evidenceId);
    expect(at(e.input, "firstTask", "status", "state")).toBe("TASK_STATE_WORKING");
    expect((e.trust.version as JsonNumber).lexeme).toBe("2");
  });
});

describe("buildExchange refuses options it cannot honour", () => {
  it.each([
    ["an empty transcript", { transcript: [] }, "PRODUCER_INVALID_OPTION"],
    ["negative leavesBefore", { leavesBefore: -1 }, "PRODUCER_INVALID_OPTION"],
    ["fractional leavesAfter", { leavesAfter: 1.5 }, "PRODUCER_INVALID_OPTION"],
    [
      "a prior checkpoint of the empty log",
      { leavesBefore: 2, priorCheckpoint: { leafCount: 0 } },
      "PRODUCER_INVALID_OPTION",
    ],
    [
      "a prior checkpoint as large as the log",
      { leavesBefore: 2, priorCheckpoint: { leafCount: 3 } },
      "PRODUCER_INVALID_OPTION",
    ],
    [
      "a receipt index outside the TS log",
      { witnesses: [{ url: "https://ts.example", treeSize: 3, leafIndex: 3 }] },
      "PRODUCER_INDEX_OUT_OF_RANGE",
    ],
    ["an empty TS log", { witnesses: [{ url: "https://ts.example", treeSize: 0 }] }, "PRODUCER_INDEX_OUT_OF_RANGE"],
    [
      "a delay Python would print in exponent form",
      { requirement: { maximumRegistrationDelaySeconds: 1e-7 } },
      "PRODUCER_INVALID_OPTION",
    ],
  ] as const)("%s", (_, options, code) => {
    expect(codeOf(() => buildExchange(options as never))).toBe(code);
  });

  it("keeps a Task history object per message (no shared references between copies)", () => {
    const e = buildExchange({ envelope: "capture" });
    const first = obj(e.firstTask, "history", 0);
    const final = obj(e.finalTask, "history", 0);
    expect(first).not.toBe(final);
    expect(jsonEquals(first, final)).toBe(true);
  });
});
