/**
 * The project's conformance vectors: for each, how the exchange is built, the single change that
 * makes it a negative, and what the verifier should report. `generate-vectors.ts` writes them to
 * `vectors/<name>/`; `vectors/README.md` is rendered from the same list, so the table and the
 * files cannot drift apart.
 *
 * Every negative is one change to `valid-capture` (a capture, so the negotiation is observable
 * too). Where the formats or the contract bind a second property to the changed object, the
 * expectation says so and `note` explains why.
 */
import { sha256Hex, utf8 } from "../src/util/bytes.js";
import { uuidFromLabel, type ArtifactSpec, type MessageSpec } from "./a2a.js";
import { EXTENSION_URI } from "./constants.js";
import { ed25519FromSeed, seedFromLabel } from "./ed25519.js";
import { expectation, type Expectation, type PendingExpectation } from "./expectations.js";
import { arrayAt, flipHexDigit, flipHexMember, flipLastBase64Byte, objectAt } from "./mutations.js";
import type { ExchangeOptions } from "./options.js";
import { PEAC_VECTORS } from "./vectors-peac.js";
import { STREAM_VECTORS } from "./vectors-stream.js";
import { grpcTwins } from "./vectors-grpc.js";
import { BINDING_VECTORS } from "./vectors-binding.js";
import { CONTINUITY_VECTORS } from "./vectors-continuity.js";
import { KEY_VECTORS } from "./vectors-keys.js";
import { KEY_AT_VECTORS } from "./vectors-keys-at.js";
import { LIFECYCLE_NOTES, LIFECYCLE_VECTORS } from "./vectors-lifecycle.js";

export interface VectorDefinition {
  readonly name: string;
  readonly description: string;
  /** The single change from the vector it derives from, or null for an honest exchange. */
  readonly mutation: string | null;
  readonly options: ExchangeOptions;
  readonly expected: Expectation | PendingExpectation;
  /** Why a property besides the targeted one changes, or where the expectation is a judgement. */
  readonly note?: string;
  /** Further `verify` arguments the vector is judged with, written to its `args.json` (e.g. `--at`). */
  readonly args?: readonly string[];
}

/** The producer's other records and a prior checkpoint put our leaf at a non-trivial position. */
const CAPTURE_BASE: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("capture task"),
  contextId: uuidFromLabel("capture context"),
  transcript: [
    {
      messageId: uuidFromLabel("capture message 0"),
      role: "ROLE_USER",
      parts: ["Quote EUR/USD for a 10 000 EUR transfer."],
    },
    {
      messageId: uuidFromLabel("capture message 1"),
      role: "ROLE_AGENT",
      parts: ["Quote ready: 1.0842 — valid for 30 s."],
    },
  ],
  artifacts: [
    {
      artifactId: uuidFromLabel("capture artifact 0"),
      name: "quote",
      parts: ["EUR/USD 1.0842", "valid until 09:30:30Z"],
    },
  ],
  leavesBefore: 5,
  leavesAfter: 3,
  priorCheckpoint: { leafCount: 5 },
  witnesses: [{ url: "https://ts.a2a-evidence.example", treeSize: 7, leafIndex: 4 }],
};

function derived(tamper: ExchangeOptions["tamper"], extra: ExchangeOptions = {}): ExchangeOptions {
  return { ...CAPTURE_BASE, ...extra, tamper };
}

const RICH_TRANSCRIPT: MessageSpec[] = [
  {
    messageId: uuidFromLabel("rich message 0"),
    role: "ROLE_USER",
    parts: ["Réserve une table pour deux à Montréal 🍁, s'il te plaît.", "Budget : 120 €"],
  },
  {
    messageId: uuidFromLabel("rich message 1"),
    role: "ROLE_AGENT",
    parts: ["東京ではなくモントリオールですね？", "Line one\u2028line two"],
  },
  { messageId: uuidFromLabel("rich message 2"), role: "ROLE_USER", parts: ["Oui, Montréal. Merci ! 😀 Ω≈ç√∫"] },
  { messageId: uuidFromLabel("rich message 3"), role: "ROLE_AGENT", parts: ["Réservé ✅ 予約番号 A-42"] },
];

const RICH_ARTIFACTS: ArtifactSpec[] = [
  {
    artifactId: uuidFromLabel("rich artifact 0"),
    name: "reservation",
    parts: ["Table für zwei — Montréal, 19:30", "Référence : A-42"],
  },
  { artifactId: uuidFromLabel("rich artifact 1"), name: "résumé-摘要", parts: ["予約完了 ☀️"] },
];

/** A GetTask response shows the requirement (history[0]) but not the first Task's acceptance. */
const HONEST_JSONRPC = expectation({ negotiation: "INCONCLUSIVE" });
const HONEST_CAPTURE = expectation();

/** Judgements that apply to several vectors; the README states each once. */
export const GENERAL_NOTES: ReadonlyArray<readonly [string, string]> = [
  [
    "Continuity",
    "continuity is NOT_PRESENT in every honest vector that carries no witness cosignature, including valid-rich and valid-capture, " +
      "which carry a prior checkpoint and a consistency proof that verify (a broken chain FAILs: see the neg-continuity-* vectors): " +
      "a consistency proof between two checkpoints the producer signed shows anti-rewrite, not that the log did not fork, and a " +
      "Transparency Service receipt proves inclusion, not continuity (log-and-receipts.md §6.1–6.2). continuity PASSes only where a " +
      "quorum of independent pinned witnesses cosigned the checkpoints (valid-continuity-*); see the continuity vectors for the rest.",
  ],
  [
    "Overclaims",
    "A negative that FAILs a property the claimed EVIDENCE_STATUS_EXTERNALLY_REGISTERED needs (contentBinding, producerSignature, " +
      "localInclusion, checkpointSignature, externalRegistration) leaves referenceConsistency PASS: that FAIL already reports the " +
      'defect, so the claimed-level check is not assessed (NOT_CHECKED, "not assessed because … FAIL") and one tampered object does ' +
      'not also read as a server overclaim (the orthogonality rule, and the published tamper vector, whose expectation is "every ' +
      'other property as on the positive vector"). An overclaim FAILs when a needed property is NOT_PRESENT, and is INCONCLUSIVE when ' +
      "one is NOT_CHECKED or INCONCLUSIVE for lack of trust material (see inconclusive-unpinned-ts).",
  ],
  [
    "Negotiation",
    'Only a capture carries the first Task, so every other envelope expects negotiation INCONCLUSIVE ("acceptance not observed", ' +
      "contract §9.8). negotiation compares the server's stated terminal status with the accepted minimum; it does not depend on what " +
      "the verifier could establish (that is referenceConsistency's claimed-level check).",
  ],
  ...LIFECYCLE_NOTES,
];

const JSON_VECTORS: readonly VectorDefinition[] = [
  {
    name: "valid-minimal",
    description:
      "One leaf, one Ed25519 Transparency Service, one user message and one response artifact, as the reference server returns it from GetTask over JSON-RPC — but with the real artifact id in the payload.",
    mutation: null,
    options: {},
    expected: HONEST_JSONRPC,
  },
  {
    name: "valid-rich",
    description:
      "37-leaf producer log with our record at leaf 18, a prior checkpoint at 18 leaves with a consistency proof, two independent Transparency Services (Ed25519, 13-entry log, index 6; ES256, 100-entry log, index 57), a 4-message multi-turn transcript with multi-part text (é, emoji, CJK, U+2028), two artifacts (one with a non-ASCII name), tenantId set; delivered as a capture.",
    mutation: null,
    options: {
      envelope: "capture",
      taskId: uuidFromLabel("rich task"),
      contextId: uuidFromLabel("rich context"),
      tenantId: "tenant-eu-1",
      transcript: RICH_TRANSCRIPT,
      artifacts: RICH_ARTIFACTS,
      leavesBefore: 18,
      leavesAfter: 18,
      priorCheckpoint: { leafCount: 18, timestamp: "2026-10-01T08:45:12.004211Z" },
      witnesses: [
        { url: "https://ts-one.a2a-evidence.example", treeSize: 13, leafIndex: 6 },
        { url: "https://ts-two.a2a-evidence.example", alg: "ES256", treeSize: 100, leafIndex: 57 },
      ],
    },
    expected: HONEST_CAPTURE,
    note: 'The artifact name "résumé-摘要" makes pyjson (\\u-escaped) and JCS (raw UTF-8) differ, so evidenceId only recomputes under pyjson; the capsule\'s agent_input_digest is that pyjson evidenceId.',
  },
  {
    name: "valid-data-part",
    description:
      "As valid-minimal, but the bundle is carried as a `data` part of the evidence artifact; its integers keep their integer lexemes.",
    mutation: null,
    options: { carrier: "data" },
    expected: HONEST_JSONRPC,
    note: "The data part is written as an emitter that keeps integer lexemes would write it; a Python emitter would widen them (1 → 1.0), which contract §9.1 turns into INCONCLUSIVE — not covered here.",
  },
  {
    name: "valid-inline-metadata",
    description:
      "As valid-minimal, but the bundle itself is carried inline under Task.metadata[EXT] (deliveryMode INLINE_METADATA, which the requirement lists); there is no evidence artifact.",
    mutation: null,
    options: { carrier: "inline" },
    expected: HONEST_JSONRPC,
    note: "INLINE_METADATA has no published shape (a2a-wire.md §6.12 point 3); we put the whole bundle there and its taskEvidenceReference is the only reference copy. referenceConsistency PASS assumes the verifier reads it so.",
  },
  {
    name: "valid-rest-task",
    description: "As valid-minimal, delivered as the bare Task of a REST GetTask response body.",
    mutation: null,
    options: { envelope: "task" },
    expected: HONEST_JSONRPC,
  },
  {
    name: "valid-stream-task",
    description: 'As valid-minimal, delivered in the stream wrapper {"task": …}.',
    mutation: null,
    options: { envelope: "stream" },
    expected: HONEST_JSONRPC,
  },
  {
    name: "valid-capture",
    description:
      "A capture {firstTask, finalTask}: 9-leaf log with our record at leaf 5, a prior checkpoint at 5 leaves with a consistency proof, one Ed25519 Transparency Service (7-entry log, index 4), a user and an agent message, one two-part artifact. Every negative below is one change to this vector.",
    mutation: null,
    options: CAPTURE_BASE,
    expected: HONEST_CAPTURE,
  },
  {
    name: "valid-signed-record-only",
    description:
      "A capture with no witness at all: the server claims and the caller (PREFERRED) asked for SIGNED_RECORD; the checkpoint and the inclusion proof are still there.",
    mutation: null,
    options: {
      envelope: "capture",
      witnesses: [],
      requirement: { requirement: "PREFERRED", minimumEvidence: "SIGNED_RECORD" },
    },
    expected: expectation({ externalRegistration: "NOT_PRESENT" }, "SIGNED_RECORD"),
  },
  {
    name: "valid-producer-operated-ts",
    description: "As valid-minimal, but the trust file labels the Transparency Service as operated by the producer.",
    mutation: null,
    options: { witnesses: [{ url: "https://ts.a2a-evidence.example", operator: "producer" }] },
    expected: HONEST_JSONRPC,
    note: "A producer-operated service can establish registration (externalRegistration PASS, labelled producer-operated) but never continuity (contract §5).",
  },
  {
    name: "valid-with-stub-witness",
    description:
      "As valid-minimal, plus a stub witness record (is_stub, index and size −1, JSON placeholder receipt) after the real one.",
    mutation: null,
    options: {
      witnesses: [
        { url: "https://ts.a2a-evidence.example" },
        { url: "https://witness.a2a-evidence.example", stub: true },
      ],
    },
    expected: HONEST_JSONRPC,
    note: "Stub stamps never count and are never a FAIL (contract §9.7); the real stamp verifies.",
  },
  {
    name: "inconclusive-unpinned-ts",
    description: "valid-capture with a trust file that pins no Transparency Service.",
    mutation: "trust.transparencyServices: [<the service>] → []",
    options: derived({ trust: (t) => void (t.transparencyServices = []) }),
    expected: expectation({ externalRegistration: "INCONCLUSIVE", referenceConsistency: "INCONCLUSIVE" }),
    note: "A valid receipt from a service with no pinned key is INCONCLUSIVE; the EXTERNALLY_REGISTERED claim then cannot be confirmed for lack of trust material, so referenceConsistency is INCONCLUSIVE (contract §4), and the achieved level is SIGNED_RECORD. negotiation stays PASS (see Negotiation).",
  },
  {
    name: "inconclusive-taskBinding-data-part",
    description:
      "valid-capture whose quote Artifact also carries a data part, committed as the profile commits: by its text alone.",
    mutation: 'artifacts[0].parts: + {"data": {"amount": "10000", "rate": "1.0842"}} (sealed with it)',
    options: {
      ...CAPTURE_BASE,
      artifacts: [
        {
          ...(CAPTURE_BASE.artifacts?.[0] as ArtifactSpec),
          parts: ["EUR/USD 1.0842", "valid until 09:30:30Z", { data: { amount: "10000", rate: "1.0842" } }],
        },
      ],
    },
    expected: expectation({ taskBinding: "INCONCLUSIVE" }),
    note: "The profile's commitments cover text only (content-binding.md §6): a data, raw or url part could be replaced after sealing without any commitment changing, so the payload cannot be shown to describe the Artifact. artifact.binding is INCONCLUSIVE, never PASS, and the default policy, which needs taskBinding PASS, exits 3.",
  },
  {
    name: "neg-contentBinding-tenant-id",
    description:
      "The top-level payload's tenantId is changed after sealing; evidenceId, the manifest's copy and every digest are left as they were.",
    mutation:
      'bundle.taskEvidencePayload.tenantId: null → "tenant-b" (bundle re-encoded in the raw part; nothing else changed)',
    options: derived({ bundle: (b) => void (objectAt(b, "taskEvidencePayload").tenantId = "tenant-b") }),
    expected: expectation({ contentBinding: "FAIL" }),
    note: "tenantId is compared by taskBinding only when the caller names a tenant, so taskBinding stays PASS.",
  },
  {
    name: "neg-producerSignature-capsule-member",
    description:
      "A capsule member is changed after sealing: the recomputed capsule_id no longer matches the carried one or the signed payload.",
    mutation: 'bundle.capsule.operator: "a2a-evidence-producer" → "another-operator"',
    options: derived({ bundle: (b) => void (objectAt(b, "capsule").operator = "another-operator") }),
    expected: expectation({ producerSignature: "FAIL" }),
    note: "localInclusion stays PASS because the MMR leaf is the carried capsule_id (log-and-receipts.md §3.3, A2A call site); a verifier that used the recomputed id would FAIL it as well.",
  },
  {
    name: "neg-producerSignature-signature-byte",
    description:
      "The last byte of the Producer Envelope's Ed25519 signature is flipped in the capsule; the manifest's producerEnvelope copy keeps the original.",
    mutation: "bundle.capsule.signature: last hex digit XOR 1",
    options: derived({
      bundle: (b) => flipHexMember(objectAt(b, "capsule"), "signature", -1),
    }),
    expected: expectation({ producerSignature: "FAIL" }),
    note: "The capsule and manifest.producerEnvelope then disagree as well; both are producerSignature checks.",
  },
  {
    name: "neg-taskBinding-artifact-commitment",
    description:
      "The producer commits to artifact text other than what the Task returned; evidenceId, capsule, log, checkpoint, receipt, manifest and every reference copy are derived from that payload and signed, so only the binding to the observed Task breaks.",
    mutation:
      'payload.nonEvidenceArtifacts[0].contentCommitment → SHA-256("EUR/USD 1.0900\\nvalid until 09:30:30Z"), before sealing',
    options: derived({
      payload: (p) =>
        void (objectAt(p, "nonEvidenceArtifacts", 0).contentCommitment = sha256Hex(
          utf8("EUR/USD 1.0900\nvalid until 09:30:30Z"),
        )),
    }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-taskBinding-task-id",
    description:
      "The producer seals a payload naming another taskId; everything downstream is consistently derived and signed.",
    mutation: "payload.taskId → another UUID, before sealing",
    options: derived({ payload: (p) => void (p.taskId = uuidFromLabel("another task")) }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-localInclusion-witness-hash",
    description:
      "One sibling hash of the MMR inclusion proof is wrong; coreManifestDigest and its reference copies are recomputed over the altered manifest.",
    mutation: "manifest.localInclusionProof.witness[0]: first hex digit XOR 1 (coreManifestDigest re-derived)",
    options: derived({
      manifest: (m) => {
        const witness = arrayAt(m, "localInclusionProof", "witness");
        witness[0] = flipHexDigit(witness[0] as string);
      },
    }),
    expected: expectation({ localInclusion: "FAIL" }),
    note: "referenceConsistency stays PASS: see Overclaims.",
  },
  {
    name: "neg-checkpointSignature-timestamp",
    description: "The checkpoint's timestamp is changed after signing; coreManifestDigest is re-derived.",
    mutation:
      'manifest.cllCheckpoint.timestamp: "2026-10-01T09:30:00.254107Z" → "2026-10-01T09:30:01.254107Z" (coreManifestDigest re-derived)',
    options: derived({
      manifest: (m) => void (objectAt(m, "cllCheckpoint").timestamp = "2026-10-01T09:30:01.254107Z"),
    }),
    expected: expectation({ checkpointSignature: "FAIL", externalRegistration: "FAIL" }),
    note: "externalRegistration FAILs too: the timestamp is a signed field, so the entry_hash recomputed from the checkpoint no longer equals the registered one (log-and-receipts.md §5.3 step 1) — the format binds the two. continuity stays as it was: the chain fields and the consistency proof are untouched, and the current checkpoint's own signature is checkpointSignature's.",
  },
  {
    name: "neg-externalRegistration-receipt-signature",
    description:
      "The last byte of the Transparency Service's receipt signature is flipped; coreManifestDigest is re-derived. The checkpoint signature does not cover witnesses.",
    mutation:
      "manifest.cllCheckpoint.witnesses[0].receipt_b64: last decoded byte XOR 0x01 (coreManifestDigest re-derived)",
    options: derived({
      manifest: (m) => {
        const record = objectAt(m, "cllCheckpoint", "witnesses", 0);
        record.receipt_b64 = flipLastBase64Byte(record.receipt_b64 as string);
      },
    }),
    expected: expectation({ externalRegistration: "FAIL" }),
    note: "A stamp that fails under the pinned key is a FAIL, never outvoted (contract §9.7).",
  },
  {
    name: "neg-continuity-prior-root",
    description: "The prior checkpoint's root is changed; coreManifestDigest is re-derived.",
    mutation: "manifest.priorCheckpoint.root: first hex digit XOR 1 (coreManifestDigest re-derived)",
    options: derived({
      manifest: (m) => flipHexMember(objectAt(m, "priorCheckpoint"), "root"),
    }),
    expected: expectation({ continuity: "FAIL" }),
    note: "The prior checkpoint's signature, the chain rule prev_root == prior.root and the consistency proof's old root all break; all are continuity checks. The claim (EXTERNALLY_REGISTERED) does not need continuity, so referenceConsistency stays PASS.",
  },
  {
    name: "neg-continuity-consistency-proof",
    description: "One hash of the consistency proof's per-peak path is wrong; coreManifestDigest is re-derived.",
    mutation: "manifest.consistencyProof.witness[0][0]: first hex digit XOR 1 (coreManifestDigest re-derived)",
    options: derived({
      manifest: (m) => {
        const path = arrayAt(m, "consistencyProof", "witness")[0] as string[];
        path[0] = flipHexDigit(path[0] as string);
      },
    }),
    expected: expectation({ continuity: "FAIL" }),
  },
  {
    name: "neg-identityAuthorityBinding-other-key",
    description: "The trust file authorizes a different key for the payload's authority; the bundle is untouched.",
    mutation: "trust.producers[0].keys: [<producer key>] → [<another Ed25519 key>]",
    options: derived({
      trust: (t) =>
        void (objectAt(t, "producers", 0).keys = [ed25519FromSeed(seedFromLabel("another producer")).publicKeyHex]),
    }),
    expected: expectation({ identityAuthorityBinding: "FAIL" }),
    note: "checkpointSignature stays PASS: its \"whether the signer is the producer key\" is read here as checkpoint key_id == capsule key_id (both are the bundle's key), which still holds. A verifier that instead compares the checkpoint key with the trust file's keys could report it differently.",
  },
  {
    name: "neg-referenceConsistency-task-evidence-id",
    description: "The terminal Task's Task.metadata[EXT].evidenceId differs from the bundle and the artifact's copy.",
    mutation: "finalTask.metadata[EXT].evidenceId: first hex digit XOR 1",
    options: derived({
      finalTask: (t) => flipHexMember(objectAt(t, "metadata", EXTENSION_URI), "evidenceId"),
    }),
    expected: expectation({ referenceConsistency: "FAIL" }),
  },
  {
    name: "neg-referenceConsistency-terminal-pending",
    description:
      "The server states EVIDENCE_STATUS_PENDING on the terminal Task, in every reference copy (bundle, artifact metadata, Task.metadata).",
    mutation: "evidenceStatus: EVIDENCE_STATUS_EXTERNALLY_REGISTERED → EVIDENCE_STATUS_PENDING in every reference copy",
    options: derived(undefined, { evidenceStatus: "EVIDENCE_STATUS_PENDING" }),
    expected: expectation({ referenceConsistency: "FAIL", negotiation: "FAIL" }),
    note: "negotiation FAILs too: the terminal status PENDING neither meets the accepted minimum EXTERNALLY_REGISTERED nor is EVIDENCE_STATUS_FAILED with a typed reason (contract §4, negotiation). The contract binds the two; the copies agree, so only the PENDING rule breaks referenceConsistency.",
  },
  {
    name: "neg-negotiation-acceptance-minimum",
    description:
      "The first Task accepts a lower minimumEvidence (SIGNED_RECORD) than the request Message asked for (EXTERNALLY_REGISTERED).",
    mutation: 'firstTask.metadata[EXT].evidenceAcceptance.minimumEvidence: "EXTERNALLY_REGISTERED" → "SIGNED_RECORD"',
    options: derived({
      firstTask: (t) =>
        void (objectAt(t, "metadata", EXTENSION_URI, "evidenceAcceptance").minimumEvidence = "SIGNED_RECORD"),
    }),
    expected: expectation({ negotiation: "FAIL" }),
  },
  ...PEAC_VECTORS,
  ...STREAM_VECTORS,
  ...CONTINUITY_VECTORS,
  ...LIFECYCLE_VECTORS,
  ...KEY_VECTORS,
  ...KEY_AT_VECTORS,
];

export const VECTORS: readonly VectorDefinition[] = [...JSON_VECTORS, ...grpcTwins(JSON_VECTORS), ...BINDING_VECTORS];
