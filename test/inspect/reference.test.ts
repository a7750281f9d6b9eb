/**
 * inspect on the published reference vector shows every value the profile's specification lists
 * for it (content-binding.md §4.2, §5, §6, §7.2, §8.2, §9.5; log-and-receipts.md §3.3, §4.2, §5.1)
 * — each asserted exactly, in the explanation and in the text an auditor reads.
 */
import { expect, it } from "vitest";
import { inspect, type Explanation } from "../../src/inspect/index.js";
import { isAbsent, type Absent } from "../../src/inspect/model.js";
import { describeExternal, readExternal } from "../helpers/external.js";
import { runCli, tempFile } from "../helpers/cli.js";
import { externalPath } from "../helpers/external.js";

/** The specification's values for the vector, copied from its text (never recomputed here). */
const SPEC = {
  evidenceId: "44539bedef5152e23a0771755a894080d5de9df37301dbbaba1269825a519c0e",
  evidenceIdPreimageLength: 615,
  evidenceIdPreimage:
    '{"authority":"reference-implementation-server","capturePolicyId":"a2a-server-boundary-v1","contextId":"3e9ff504-0f58-49e2-9d8d-141e41824948","nonEvidenceArtifacts":[{"artifactId":"response","contentCommitment":"73c952366f05c772f23228d55f011157a1524ce177ec2bf441f02cc14219ec8f","name":"response"}],"sealTime":"2026-09-08T06:04:12.936000+00:00","taskId":"56e99505-caeb-40dd-9865-becfe2077d4d","tenantId":null,"terminalState":"TASK_STATE_COMPLETED","transcript":[{"messageId":"msg-task-evidence-001","partCommitment":"f9096a204f4ce03bc50a07484a997aa0de398e65346d34234e480c9ef732ebf7","role":"ROLE_USER","sequence":0}]}',
  coreManifestDigest: "4248a21ca4db3ef9f1e627bb54e22f38d02ded57f0e158bcafb79ddce49dc6cf",
  coreManifestPreimageLength: 2194,
  capsuleId: "af5b0a3e981a411e40ce22a81264e54f28702b693a33e71b1db8c47384ee49a9",
  capsulePreimageLength: 954,
  capsulePreimage:
    '{"action_id":"a2a.task_evidence.v1/b5706a2a-6800-4358-b959-7704b350d7bd","action_type":"decide","assurance":{"attestation_mode":"self_attested","effect_mode":"confirmed","ledger_mode":"standalone"},"canonicalization_id":"jcs","developer":"capsule-emit-examples/a2a-task-evidence@v1","disposition":{"approver":"policy","decision":"accept","human_disposed":false,"verdict_class":"executed"},"effect":{"effect_attestation":"runtime_claimed","response_digest":"a102b10cedee485fe77d39a9e81d9892494fc1e1117f31c9776477562355dc4d","status":"confirmed","type":"a2a.task_completed"},"format_version":"4","model_attestation":{"compute_attestation":{"agent_input_digest":"44539bedef5152e23a0771755a894080d5de9df37301dbbaba1269825a519c0e","agent_output_digest":"a102b10cedee485fe77d39a9e81d9892494fc1e1117f31c9776477562355dc4d"}},"operator":"reference-implementation","spec_version":"draft-mih-scitt-agent-action-capsule-04","timestamp":"2026-09-08T06:04:12.936504Z"}',
  agentOutputDigest: "a102b10cedee485fe77d39a9e81d9892494fc1e1117f31c9776477562355dc4d",
  agentOutputPreimage: '{"terminalState":"TASK_STATE_COMPLETED"}',
  keyId: "fa23ec5d3e4082b21d56d5393e7db282072d65b8d1539fb96af6f89206c423b3",
  envelopeLength: 181,
  envelopeProtectedHex:
    "a30378236170706c69636174696f6e2f6167656e742d616374696f6e2d63617073756c652d6964045820fa23ec5d3e4082b21d56d5393e7db282072d65b8d1539fb96af6f89206c423b30127",
  envelopeSignature:
    "06178f2f5bd42e4f3d9b10a4815acccd712dbfdd86731fbf36504c22bfcc832b19cedf183b9cfa13162cd3c95d6467b2fd9926ff8a5f5ab956186d2b0916d20d",
  leafHash: "f4ea150c1272a7b83f5ca4775ad4d14fc616e63c64fdfdf4db11406d3386085c",
  mmrRoot: "f4ea150c1272a7b83f5ca4775ad4d14fc616e63c64fdfdf4db11406d3386085c",
  checkpointBody:
    '{"key_id":"fa23ec5d3e4082b21d56d5393e7db282072d65b8d1539fb96af6f89206c423b3","kind":"mmr_checkpoint","log_id":"9760b4d3abf16e7ff90f666417d7d72a3b440093e6a298675e95408fa3c2d781","mmr_size":1,"prev_root":"","prev_size":0,"root":"f4ea150c1272a7b83f5ca4775ad4d14fc616e63c64fdfdf4db11406d3386085c","timestamp":"2026-09-08T06:04:12.940746Z","v":1}',
  checkpointDigest: "00cc1e9a5e3181e16a4ea6f1cb41895b1355fa72714360c40f70c9b14d409e55",
  checkpointSignature:
    "900c5b539797af05232d9f0262ca5df52b584be109117f7e1e580e64e19993a3bef4008853d7671103af9893df810cd4f1e5a3e5e4d7f43ba51efe3f5e2cca0a",
  entryHash: "668b60287313bb04a5a9a810e37694b98a636fe0be1ed4f3d70677fe9ce64b9c",
  receiptLength: 89,
  receiptProtectedHex: "a219018b010127",
  receiptSignature:
    "ad79d394ead16782d3a7f60eeed70aecb9d88432f6ddf56606505109c7181a4c36200ed54e2491b9d17e93510055e60eb9bb912f7442c32348245effebf5b203",
  receiptRoot: "a85f496118b43fff815d1e04d4950d75f289d096806b93a597fd09a9fd4da726",
  receiptSigStructurePrefix: "846a5369676e61747572653147a219018b010127405820",
  tsKey: "9c505970c0815e85221c083a2a7e89fd7b0997f72ff91dc529283b7d6771e110",
  partCommitment: "f9096a204f4ce03bc50a07484a997aa0de398e65346d34234e480c9ef732ebf7",
  contentCommitment: "73c952366f05c772f23228d55f011157a1524ce177ec2bf441f02cc14219ec8f",
  tamperedEvidenceId: "e263f8ea69710b578a68a6606b50b1254dbaf8073eef1d52a05c28422d5266f8",
} as const;

function section<T extends object>(s: T): Exclude<T, Absent> {
  if (isAbsent(s)) throw new Error(s.absent);
  return s as Exclude<T, Absent>;
}

describeExternal("a2a-reference", "inspect on the published reference vector", () => {
  const bytes = readExternal("a2a-reference", "positive_vector.json");
  const trust = JSON.stringify(JSON.parse(Buffer.from(bytes).toString("utf8")).trustConfig);
  const explained = inspect({ source: "positive_vector.json", data: bytes, trust }, { bytes: true, all: false });
  if (!explained.ok) throw new Error(`${explained.code}: ${explained.detail}`);
  const e: Explanation = explained.value;

  it("where the bundle was found: the raw part (verified) and the capture's copy", () => {
    expect(e.location.copies.items).toEqual([
      {
        location: "finalTask.artifacts[1].parts[0].raw",
        carrier: "raw",
        artifactId: "task-evidence-bundle",
        verified: true,
      },
      { location: "evidenceBundle", carrier: "capture", artifactId: null, verified: false },
    ]);
  });

  it("evidenceId: 615 bytes of pyjson, the specification's preimage, SHA-256 44539bed…", () => {
    const s = section(e.evidenceId);
    expect(s.preimage).toEqual({
      length: SPEC.evidenceIdPreimageLength,
      sha256: SPEC.evidenceId,
      text: SPEC.evidenceIdPreimage,
    });
    expect([s.recomputed, s.claimed, s.equal]).toEqual([SPEC.evidenceId, SPEC.evidenceId, true]);
  });

  it("coreManifestDigest: 2194 bytes of pyjson, SHA-256 4248a21c…", () => {
    const s = section(e.coreManifestDigest);
    expect([s.preimage?.length, s.preimage?.sha256, s.recomputed, s.claimed]).toEqual([
      SPEC.coreManifestPreimageLength,
      SPEC.coreManifestDigest,
      SPEC.coreManifestDigest,
      SPEC.coreManifestDigest,
    ]);
  });

  it("capsule_id: the 954-byte JCS identity form without capsule_id, signature and key_id, SHA-256 af5b0a3e…", () => {
    const s = section(e.capsuleId);
    expect(s.excluded).toEqual(["capsule_id", "signature", "key_id"]);
    expect(s.preimage).toEqual({
      length: SPEC.capsulePreimageLength,
      sha256: SPEC.capsuleId,
      text: SPEC.capsulePreimage,
    });
    expect([s.recomputed, s.carried, s.signedId]).toEqual([SPEC.capsuleId, SPEC.capsuleId, SPEC.capsuleId]);
  });

  it("agent_input_digest is the evidenceId; agent_output_digest is SHA-256 of the JCS of the terminal state", () => {
    const s = section(e.agentDigests);
    expect([s.agentInputDigest, s.evidenceId]).toEqual([SPEC.evidenceId, SPEC.evidenceId]);
    expect(s.outputPreimage?.text).toBe(SPEC.agentOutputPreimage);
    expect([s.outputRecomputed, s.agentOutputDigest, s.responseDigest]).toEqual([
      SPEC.agentOutputDigest,
      SPEC.agentOutputDigest,
      SPEC.agentOutputDigest,
    ]);
  });

  it("the Producer Envelope: 181 bytes, protected header in the order 3, 4, 1 as received, Sig_structure over it", () => {
    const s = section(e.producerEnvelope);
    expect(s.envelope?.length).toBe(SPEC.envelopeLength);
    expect(s.cose?.protectedBytes.hex).toBe(SPEC.envelopeProtectedHex);
    expect(s.cose?.protected.map((h) => [h.label, h.name, h.value])).toEqual([
      ["3", "content type", '"application/agent-action-capsule-id"'],
      ["4", "kid", `h'${SPEC.keyId}'`],
      ["1", "alg", "-8 (EdDSA)"],
    ]);
    expect(s.cose?.unprotected).toEqual([]);
    expect([s.cose?.payload, s.cose?.signature, s.kid, s.result]).toEqual([
      SPEC.capsuleId,
      SPEC.envelopeSignature,
      SPEC.keyId,
      "verifies",
    ]);
    // RFC 9052 §4.4, as content-binding.md §8.1 spells it: 84 6a "Signature1" bstr(protected) 40 bstr(payload).
    expect(s.sigStructure?.hex).toBe(`846a5369676e617475726531584c${SPEC.envelopeProtectedHex}405820${SPEC.capsuleId}`);
  });

  it("the MMR leaf hash f4ea150c… is the root: one node, no folds, one peak", () => {
    const s = section(e.inclusion);
    expect([s.leafBody, s.leafHash, s.folds, s.peaks, s.root, s.checkpointRoot, s.equal]).toEqual([
      SPEC.capsuleId,
      SPEC.leafHash,
      [],
      [SPEC.mmrRoot],
      SPEC.mmrRoot,
      SPEC.mmrRoot,
      true,
    ]);
  });

  it("the checkpoint: the specification's signing body, digest 00cc1e9a…, its signature, entry_hash 668b6028…", () => {
    const s = section(e.checkpoint);
    expect(s.signingBody?.text).toBe(SPEC.checkpointBody);
    expect([s.digest, s.signature, s.keyId, s.result, s.entryHash]).toEqual([
      SPEC.checkpointDigest,
      SPEC.checkpointSignature,
      SPEC.keyId,
      "verifies",
      SPEC.entryHash,
    ]);
  });

  it("the receipt: 89 bytes, vds 1 and EdDSA protected, root a85f4961… under the TS key 9c505970…", () => {
    const r = section(e.receipts).records.items[0];
    expect(r?.entryHash).toEqual({ stated: SPEC.entryHash, recomputed: SPEC.entryHash, equal: true });
    expect(r?.receipt?.length).toBe(SPEC.receiptLength);
    expect(r?.cose?.protectedBytes.hex).toBe(SPEC.receiptProtectedHex);
    expect(r?.cose?.protected.map((h) => h.value)).toEqual(["1 (RFC9162_SHA256)", "-8 (EdDSA)"]);
    expect(r?.cose?.unprotected.map((h) => h.value)).toEqual(["{-1 /inclusion proofs/: [h'83010080']}"]);
    expect(r?.cose?.payload).toBeNull();
    expect(r?.cose?.signature).toBe(SPEC.receiptSignature);
    expect(r?.proof).toEqual({
      kind: "RFC9162_SHA256",
      treeSize: 1,
      leafIndex: 0,
      leafHash: SPEC.receiptRoot,
      folds: [],
    });
    expect([r?.root, r?.signature, r?.key]).toEqual([SPEC.receiptRoot, "verifies", SPEC.tsKey]);
    expect(r?.sigStructure?.hex).toBe(`${SPEC.receiptSigStructurePrefix}${SPEC.receiptRoot}`);
    expect(r?.trustPath).toBe('tsPubkeysB64["http://127.0.0.1:53533"]');
  });

  it("the commitments: partCommitment f9096a20…, and the artifact's content 73c95236… under another artifactId", () => {
    const c = section(e.commitments);
    expect(c.transcript.items[0]?.observed?.recomputed).toBe(SPEC.partCommitment);
    expect(c.artifacts.items[0]?.observed).toBeNull();
    expect(c.artifacts.items[0]?.sameName.map((a) => [a.artifactId, a.recomputed])).toEqual([
      ["a501101c-1a43-43de-98dc-a10e1691eb76", SPEC.contentCommitment],
    ]);
  });

  it("the text an auditor reads shows each of these values", async () => {
    const vector = externalPath("a2a-reference", "positive_vector.json");
    const r = await runCli(["inspect", "--bytes", "--trust", tempFile("trust.json", trust), vector]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    for (const v of Object.values(SPEC)) {
      if (typeof v === "number" || v === SPEC.tamperedEvidenceId) continue;
      expect(r.stdout, v).toContain(v);
    }
    expect(r.stdout).toContain(
      `canonical bytes:     ${SPEC.evidenceIdPreimageLength} bytes, SHA-256 ${SPEC.evidenceId}`,
    );
    expect(r.stdout).toContain(
      `canonical bytes:     ${SPEC.coreManifestPreimageLength} bytes, SHA-256 ${SPEC.coreManifestDigest}`,
    );
    expect(r.stdout).toContain(`canonical bytes:     ${SPEC.capsulePreimageLength} bytes, SHA-256 ${SPEC.capsuleId}`);
    expect(r.stdout).toContain(`leaf hash:           SHA-256(0x00 ‖ body) = ${SPEC.leafHash}`);
    expect(r.stdout).toContain(`digest:              SHA-256(signing body) = ${SPEC.checkpointDigest}`);
    expect(r.stdout).toContain(`root:                ${SPEC.receiptRoot}`);
  });

  it("the tamper vector: the recomputed evidenceId is e263f8ea…, the claimed one 44539bed…", () => {
    const tamper = inspect(
      { source: "tamper", data: readExternal("a2a-reference", "tamper_negative_vector.json") },
      { bytes: false, all: false },
    );
    if (!tamper.ok) throw new Error(tamper.detail);
    const s = section(tamper.value.evidenceId);
    expect([s.recomputed, s.claimed, s.equal]).toEqual([SPEC.tamperedEvidenceId, SPEC.evidenceId, false]);
  });
});
