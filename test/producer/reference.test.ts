/**
 * The producer fed the published reference vector's values reproduces the reference's published
 * numbers: if our sealing, signing bodies, hashing or byte conventions differed from the reference
 * implementation's, the vectors we generate would test a different profile.
 */
import { expect, it } from "vitest";
import { describeExternal, readExternal } from "../helpers/external.js";
import { JsonNumber, jsonEquals, type JsonObject } from "../../src/json/value.js";
import { base64ToBytesStrict, bytesToHex, hexToBytes, sha256Hex, utf8 } from "../../src/util/bytes.js";
import { textCommitment } from "../../producer/a2a.js";
import { agentOutputDigest, capsuleBody, capsuleIdOf, producerEnvelopeProtected } from "../../producer/capsule.js";
import { checkpointDigestHex, checkpointSigningFields, entryHashOf } from "../../producer/checkpoint.js";
import { coseSign1, encodeCbor, sigStructure1 } from "../../producer/cose.js";
import { buildExchange } from "../../producer/exchange.js";
import { pyjsonBytes, pyjsonDigestHex } from "../../producer/json-text.js";
import { inclusionProofJson } from "../../producer/log.js";
import { MmrBuilder } from "../../producer/mmr.js";
import { Rfc9162Tree } from "../../producer/rfc9162.js";
import { receiptFor } from "../../producer/transparency.js";
import { at, decodeSign1, ed25519Key, obj, parse } from "./oracle.js";
import { verify } from "node:crypto";

const EXT = "https://agentactioncapsule.org/extensions/a2a-task-evidence/v1";

describeExternal("a2a-reference", "producer against the reference positive vector", () => {
  const vector = parse(readExternal("a2a-reference", "positive_vector.json"));
  const bundle = obj(vector, "evidenceBundle");
  const payload = obj(bundle, "taskEvidencePayload");
  const manifest = obj(bundle, "manifest");
  const capsule = obj(bundle, "capsule");
  const checkpoint = obj(manifest, "cllCheckpoint");
  const witness = obj(checkpoint, "witnesses", 0);
  const finalTask = obj(vector, "finalTask");

  it("derives evidenceId 44539bed… and coreManifestDigest 4248a21c… from the payload and manifest", () => {
    expect(pyjsonDigestHex(payload)).toBe(bundle.evidenceId);
    expect(bundle.evidenceId).toMatch(/^44539bed/);
    expect(pyjsonDigestHex(manifest)).toBe(bundle.coreManifestDigest);
    expect(bundle.coreManifestDigest).toMatch(/^4248a21c/);
  });

  it("seals the reference capsule: same members and values, capsule_id af5b0a3e…", () => {
    const body = capsuleBody({
      evidenceId: bundle.evidenceId as string,
      terminalState: payload.terminalState as string,
      actionId: capsule.action_id as string,
      timestamp: capsule.timestamp as string,
      operator: capsule.operator as string,
      developer: capsule.developer as string,
    });
    const reference: JsonObject = Object.create(null);
    for (const k of Object.keys(capsule))
      if (!["capsule_id", "key_id", "signature"].includes(k)) reference[k] = capsule[k]!;
    expect(jsonEquals(body, reference)).toBe(true);
    expect(capsuleIdOf(body)).toBe(capsule.capsule_id);
    expect(capsuleIdOf(capsule)).toMatch(/^af5b0a3e/);
    expect(agentOutputDigest(payload.terminalState as string)).toBe(at(capsule, "effect", "response_digest"));
  });

  it("encodes the Producer Envelope byte for byte (protected order 3, 4, 1) over a Sig_structure the reference signature verifies", () => {
    const envelope = hexToBytes(capsule.signature as string)!;
    const { signature } = decodeSign1(envelope);
    const kid = hexToBytes(capsule.key_id as string)!;
    const ours = coseSign1({
      protectedHeader: producerEnvelopeProtected(kid),
      unprotectedHeader: new Map(),
      payload: hexToBytes(capsule.capsule_id as string)!,
      detached: false,
      sign: () => signature,
    });
    expect(bytesToHex(ours)).toBe(capsule.signature);
    const toBeSigned = sigStructure1(
      encodeCbor(new Map(producerEnvelopeProtected(kid))),
      hexToBytes(capsule.capsule_id as string)!,
    );
    expect(verify(null, toBeSigned, ed25519Key(kid), signature)).toBe(true);
  });

  it("signs the checkpoint body: digest 00cc1e9a…, entry_hash 668b6028…, the reference signature verifies over our ASCII digest", () => {
    const fields = checkpointSigningFields(
      {
        logId: checkpoint.log_id as string,
        mmrSize: (checkpoint.mmr_size as JsonNumber).toNumber(),
        root: checkpoint.root as string,
        prevSize: (checkpoint.prev_size as JsonNumber).toNumber(),
        prevRoot: checkpoint.prev_root as string,
        timestamp: checkpoint.timestamp as string,
      },
      checkpoint.key_id as string,
    );
    const digest = checkpointDigestHex(fields);
    expect(digest).toBe(checkpointDigestHex(checkpoint));
    expect(digest).toBe("00cc1e9a5e3181e16a4ea6f1cb41895b1355fa72714360c40f70c9b14d409e55"); // log-and-receipts.md §4.2
    expect(entryHashOf(digest)).toBe(witness.entry_hash);
    const key = ed25519Key(hexToBytes(checkpoint.key_id as string)!);
    expect(verify(null, utf8(digest), key, hexToBytes(checkpoint.signature as string)!)).toBe(true);
  });

  it("builds the one-leaf MMR (root f4ea150c…) and its inclusion proof exactly as the manifest carries them", () => {
    const mmr = new MmrBuilder();
    mmr.appendBody(hexToBytes(capsule.capsule_id as string)!);
    expect(bytesToHex(mmr.root())).toBe(checkpoint.root);
    expect(mmr.size).toBe((checkpoint.mmr_size as JsonNumber).toNumber());
    expect(pyjsonBytes(inclusionProofJson(mmr.inclusionProof(0)))).toEqual(
      pyjsonBytes(obj(manifest, "localInclusionProof")),
    );
  });

  it("builds the Transparency Service tree (root a85f4961…) and the receipt byte for byte", () => {
    const receipt = base64ToBytesStrict(witness.receipt_b64 as string)!;
    const tree = new Rfc9162Tree([hexToBytes(witness.entry_hash as string)!]);
    expect(bytesToHex(tree.root())).toBe("a85f496118b43fff815d1e04d4950d75f289d096806b93a597fd09a9fd4da726"); // log-and-receipts.md §5.1
    const { signature } = decodeSign1(receipt);
    const ours = receiptFor({ alg: "EdDSA", sign: () => signature }, 1, 0, tree.auditPath(0), tree.root());
    expect(ours).toEqual(receipt);
  });

  it("writes the bundle bytes the reference wrote: pyjson(evidenceBundle) is the raw part, 5102 bytes", () => {
    const raw = base64ToBytesStrict(at(finalTask, "artifacts", 1, "parts", 0, "raw") as string)!;
    expect(pyjsonBytes(bundle)).toEqual(raw);
    expect(raw.length).toBe(5102);
    expect(sha256Hex(raw)).toBe("d93b0b4990fe89b1bd01b1b14d55e2a73c5df0db2f46ca4749030a1d24c0611c"); // a2a-wire.md §6.6
  });

  it("commits to message and artifact text the way the reference does", () => {
    const userMessage = obj(finalTask, "history", 0);
    const texts = (parts: unknown) => (parts as JsonObject[]).map((p) => p.text as string);
    expect(textCommitment(texts(userMessage.parts))).toBe(at(payload, "transcript", 0, "partCommitment"));
    expect(textCommitment(texts(at(finalTask, "artifacts", 0, "parts")))).toBe(
      at(payload, "nonEvidenceArtifacts", 0, "contentCommitment"),
    );
  });

  it("emits Tasks, bundle and references with the reference's shapes and member names", () => {
    const ours = buildExchange({ envelope: "capture" });
    const shape = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.length === 0 ? [] : [shape(v[0])];
      if (v !== null && typeof v === "object" && !(v instanceof JsonNumber)) {
        return Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
        );
      }
      return v instanceof JsonNumber ? "number" : typeof v;
    };
    expect(shape(ours.firstTask)).toEqual(shape(obj(vector, "firstTask")));
    // Our transcript and artifacts differ in content, not in shape.
    expect(shape(ours.finalTask)).toEqual(shape(finalTask));
    expect(shape(ours.bundle)).toEqual(shape(bundle));
    expect(pyjsonBytes(ours.bundle)).toEqual(ours.bundleBytes);
  });

  it("prints maximumRegistrationDelaySeconds as 60.0, as the Python server does", () => {
    const lexeme = (t: JsonObject, ...path: Array<string | number>) => (at(t, ...path) as JsonNumber).lexeme;
    const ours = buildExchange();
    expect(lexeme(ours.finalTask, "history", 0, "metadata", EXT, "maximumRegistrationDelaySeconds")).toBe(
      lexeme(finalTask, "history", 0, "metadata", EXT, "maximumRegistrationDelaySeconds"),
    );
    expect(lexeme(ours.firstTask, "metadata", EXT, "evidenceAcceptance", "maximumRegistrationDelaySeconds")).toBe(
      "60.0",
    );
  });
});
