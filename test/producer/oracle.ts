/**
 * A test oracle that reads a generated vector the way a verifier would — from the written
 * `input.json` and `trust.json` bytes — and reports each elementary fact the twelve properties are
 * built from (a recomputed digest equals the carried one, a signature verifies, a proof folds to
 * the root, a copy agrees with another). The generator test asserts which facts a vector breaks, so
 * each negative is shown to break exactly the object it claims and nothing else.
 *
 * Written from the spec text with node:crypto and cborg only; it shares no proof or signature code
 * with `producer/`.
 */
import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { decode, encode } from "cborg";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { JsonNumber, isJsonObject, jsonEquals, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { pyjson } from "../../src/canon/pyjson.js";
import { jcs } from "../../src/canon/jcs.js";
import {
  base64ToBytesStrict,
  bytesEqual,
  bytesToHex,
  hexToBytes,
  sha256,
  sha256Hex,
  utf8,
} from "../../src/util/bytes.js";
import { mmrConsistencyHolds, mmrInclusionHolds, rfc9162RootFromPath } from "./proof-folds.js";
import { lifecycleFacts } from "./oracle-lifecycle.js";

const EXT = "https://agentactioncapsule.org/extensions/a2a-task-evidence/v1";
const LEVELS = ["SIGNED_RECORD", "EXTERNALLY_REGISTERED", "CONTINUITY_WITNESSED"];
const TERMINAL = ["TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"];

export function parse(text: string | Uint8Array): JsonValue {
  const r = parseStrictJson(text);
  if (!r.ok) throw new Error(`${r.code} at ${r.path}: ${r.detail}`);
  return r.value;
}

/** Member access that fails loudly in a test instead of returning undefined. */
export function obj(v: JsonValue | undefined, ...path: Array<string | number>): JsonObject {
  const out = at(v, ...path);
  if (!isJsonObject(out)) throw new Error(`no object at ${path.join(".")}`);
  return out;
}

export function at(v: JsonValue | undefined, ...path: Array<string | number>): JsonValue | undefined {
  let cur = v;
  for (const seg of path)
    cur =
      typeof seg === "number" ? (Array.isArray(cur) ? cur[seg] : undefined) : isJsonObject(cur) ? cur[seg] : undefined;
  return cur;
}

const str = (v: JsonValue | undefined): string => (typeof v === "string" ? v : "");
const num = (v: JsonValue | undefined): number => (v instanceof JsonNumber ? v.toNumber() : NaN);
const arr = (v: JsonValue | undefined): JsonValue[] => (Array.isArray(v) ? v : []);
const hex = (v: JsonValue | undefined): Uint8Array => hexToBytes(str(v)) ?? new Uint8Array(0);

export function pyjsonHex(v: JsonValue): string {
  const r = pyjson(v);
  if (!r.ok) throw new Error(r.detail);
  return sha256Hex(utf8(r.value.text));
}

export function ed25519Key(raw: Uint8Array): KeyObject {
  return createPublicKey({
    key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]),
    format: "der",
    type: "spki",
  });
}

export function verifyCose(alg: number, key: KeyObject, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return alg === -8
      ? verify(null, message, key, signature)
      : verify("sha256", message, { key, dsaEncoding: "ieee-p1363" }, signature);
  } catch {
    return false;
  }
}

/** A tagged COSE_Sign1 split into its four members; protected header decoded as a Map. */
export function decodeSign1(bytes: Uint8Array): {
  protectedBytes: Uint8Array;
  protectedMap: Map<unknown, unknown>;
  unprotected: Map<unknown, unknown>;
  payload: Uint8Array | null;
  signature: Uint8Array;
} {
  if (bytes[0] !== 0xd2) throw new Error("not tag 18");
  const [protectedBytes, unprotected, payload, signature] = decode(bytes.subarray(1), { useMaps: true }) as [
    Uint8Array,
    Map<unknown, unknown>,
    Uint8Array | null,
    Uint8Array,
  ];
  return {
    protectedBytes,
    protectedMap: decode(protectedBytes, { useMaps: true }) as Map<unknown, unknown>,
    unprotected,
    payload,
    signature,
  };
}

export function sigStructure(protectedBytes: Uint8Array, payload: Uint8Array): Uint8Array {
  return encode(["Signature1", protectedBytes, new Uint8Array(0), payload]);
}

function checkpointDigest(cp: JsonObject): string {
  const signed: JsonObject = Object.create(null);
  for (const k of ["v", "kind", "log_id", "mmr_size", "root", "prev_size", "prev_root", "key_id", "timestamp"])
    signed[k] = cp[k] as JsonValue;
  return pyjsonHex(signed);
}

export function checkpointSigned(cp: JsonObject): boolean {
  return verifyCose(-8, ed25519Key(hex(cp.key_id)), utf8(checkpointDigest(cp)), hex(cp.signature));
}

export function textCommitment(parts: JsonValue | undefined): string {
  const texts = arr(parts)
    .filter(isJsonObject)
    .filter((p) => typeof p.text === "string")
    .map((p) => p.text as string);
  return sha256Hex(utf8(texts.join("\n")));
}

interface Located {
  finalTask: JsonObject;
  firstTask?: JsonObject;
  bundle: JsonObject;
  evidenceArtifact?: JsonObject;
}

function locate(input: JsonValue): Located {
  const finalTask = isJsonObject(at(input, "result"))
    ? obj(input, "result")
    : isJsonObject(at(input, "finalTask"))
      ? obj(input, "finalTask")
      : isJsonObject(at(input, "task"))
        ? obj(input, "task")
        : obj(input);
  const firstTask = isJsonObject(at(input, "firstTask")) ? obj(input, "firstTask") : undefined;
  const evidenceArtifact = arr(finalTask.artifacts)
    .filter(isJsonObject)
    .find((a) => arr(a.extensions).includes(EXT));
  if (evidenceArtifact === undefined) return { finalTask, firstTask, bundle: obj(finalTask, "metadata", EXT) };
  const part = obj(evidenceArtifact, "parts", 0);
  const bundle =
    typeof part.raw === "string" ? obj(parse(base64ToBytesStrict(part.raw) ?? new Uint8Array(0))) : obj(part, "data");
  return { finalTask, firstTask, bundle, evidenceArtifact };
}

/** The data of each event of an SSE body: `data` lines joined with LF, dispatched at a blank line. */
function sseEvents(text: string): string[] {
  const events: string[] = [];
  let data: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data.length > 0) events.push(data.join("\n"));
      data = [];
    } else if (line.startsWith("data:")) {
      data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
    }
  }
  return events;
}

/**
 * What a stream vector observed, as a capture `{firstTask, finalTask}`: its events folded by the
 * rules of a2a-wire.md §2.5 (status replaced, a new status message appended to history, update
 * metadata merged into Task.metadata; artifacts added, replaced or, with `append`, extended). Written
 * apart from the verifier's fold, and trusting the producer's stream to be well formed.
 */
export function streamCapture(fileName: string, text: string): JsonObject {
  const texts = fileName.endsWith(".ndjson") ? text.split("\n").filter((l) => l.trim() !== "") : sseEvents(text);
  const unwrap = (t: string): JsonObject => {
    const e = obj(parse(t));
    return isJsonObject(e.result) ? e.result : e;
  };
  const events = texts.map(unwrap);
  const firstTask = obj(events[0], "task");
  // The first event parsed again: the fold changes its own copy, never the first Task.
  const finalTask = obj(unwrap(texts[0] ?? ""), "task");
  const history = arr(finalTask.history) as JsonObject[];
  const artifacts = arr(finalTask.artifacts) as JsonObject[];
  const metadata = isJsonObject(finalTask.metadata)
    ? finalTask.metadata
    : (finalTask.metadata = Object.create(null) as JsonObject);
  for (const e of events.slice(1)) {
    const update = isJsonObject(e.statusUpdate) ? e.statusUpdate : obj(e, "artifactUpdate");
    if (isJsonObject(e.statusUpdate)) {
      finalTask.status = update.status as JsonValue;
      const message = at(update, "status", "message");
      if (isJsonObject(message) && !history.some((m) => m.messageId === message.messageId)) history.push(message);
    } else {
      const artifact = obj(update, "artifact");
      const i = artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
      if (update.append === true) (artifacts[i]?.parts as JsonValue[]).push(...arr(artifact.parts));
      else if (i === -1) artifacts.push(artifact);
      else artifacts[i] = artifact;
    }
    if (isJsonObject(update.metadata)) Object.assign(metadata, update.metadata);
  }
  finalTask.history = history;
  finalTask.artifacts = artifacts;
  const capture: JsonObject = Object.create(null);
  capture.firstTask = firstTask;
  capture.finalTask = finalTask;
  return capture;
}

/** capsule_id (format "4"): SHA-256 of JCS of the capsule without capsule_id, signature, key_id. */
export function capsuleIdHolds(capsule: JsonObject): boolean {
  const identity: JsonObject = Object.create(null);
  for (const k of Object.keys(capsule))
    if (!["capsule_id", "signature", "key_id"].includes(k)) identity[k] = capsule[k] as JsonValue;
  const identityJcs = jcs(identity, { numbers: "safe-integers" });
  return identityJcs.ok && sha256Hex(utf8(identityJcs.value)) === capsule.capsule_id;
}

/** The Producer Envelope: EdDSA, the capsule-id content type, kid = key_id, payload = capsule_id, a valid signature. */
export function envelopeHolds(capsule: JsonObject): boolean {
  const envelope = decodeSign1(hex(capsule.signature));
  const kid = envelope.protectedMap.get(4) as Uint8Array;
  return (
    envelope.protectedMap.get(1) === -8 &&
    envelope.protectedMap.get(3) === "application/agent-action-capsule-id" &&
    bytesToHex(kid) === capsule.key_id &&
    envelope.payload !== null &&
    bytesToHex(envelope.payload) === capsule.capsule_id &&
    verifyCose(-8, ed25519Key(kid), sigStructure(envelope.protectedBytes, envelope.payload), envelope.signature)
  );
}

/** The carried capsule_id is a leaf under the checkpoint's root, by the manifest's inclusion proof. */
export function inclusionHolds(manifest: JsonObject, checkpoint: JsonObject, capsule: JsonObject): boolean {
  const inclusion = obj(manifest, "localInclusionProof");
  return (
    num(inclusion.size) === num(checkpoint.mmr_size) &&
    mmrInclusionHolds(hex(checkpoint.root), num(checkpoint.mmr_size), hex(capsule.capsule_id), {
      leafIndex: num(inclusion.leafIndex),
      witness: arr(inclusion.witness).map(hex),
      peaksLeft: arr(inclusion.peaksLeft).map(hex),
      peaksRight: arr(inclusion.peaksRight).map(hex),
    })
  );
}

/** Every elementary fact of one vector, true when it holds. */
export function facts(input: string | JsonValue, trustText: string): Record<string, boolean> {
  const value = typeof input === "string" ? parse(input) : input;
  const { finalTask, firstTask, bundle, evidenceArtifact } = locate(value);
  // A Task that has not ended has no terminal record: its one fact is that it says so (docs/profile.md §5).
  const state = str(at(finalTask, "status", "state"));
  if (!TERMINAL.includes(state))
    return { pendingStatus: at(finalTask, "metadata", EXT, "evidenceStatus") === "EVIDENCE_STATUS_PENDING" };
  const trust = obj(parse(trustText));
  const payload = obj(bundle, "taskEvidencePayload");
  const manifest = obj(bundle, "manifest");
  const capsule = obj(bundle, "capsule");
  const checkpoint = obj(manifest, "cllCheckpoint");
  const f: Record<string, boolean> = {};

  // contentBinding
  f.evidenceId = pyjsonHex(payload) === bundle.evidenceId;
  f.payloadCopies = jsonEquals(payload, manifest.taskEvidencePayload);
  f.coreManifestDigest = pyjsonHex(manifest) === bundle.coreManifestDigest;
  f.agentInputDigest =
    at(capsule, "model_attestation", "compute_attestation", "agent_input_digest") === bundle.evidenceId;

  // producerSignature
  f.capsuleId = capsuleIdHolds(capsule);
  f.envelopeSignature = envelopeHolds(capsule);
  f.envelopeCopy = jsonEquals(
    manifest.producerEnvelope,
    parse(JSON.stringify({ capsuleId: capsule.capsule_id, keyId: capsule.key_id, signature: capsule.signature })),
  );

  // localInclusion
  f.localInclusion = inclusionHolds(manifest, checkpoint, capsule);

  // checkpointSignature
  f.checkpointSignature =
    checkpoint.v instanceof JsonNumber &&
    checkpoint.v.lexeme === "1" &&
    checkpoint.kind === "mmr_checkpoint" &&
    checkpointSigned(checkpoint);

  // externalRegistration: the entry hash is recomputed from the checkpoint, never taken from the record
  const entryHash = sha256(hex(checkpointDigest(checkpoint)));
  const records = arr(checkpoint.witnesses)
    .filter(isJsonObject)
    .filter((w) => w.is_stub !== true);
  const pins = arr(trust.transparencyServices).filter(isJsonObject);
  f.entryHash = records.every((w) => bytesEqual(hex(w.entry_hash), entryHash));
  f.receiptPinned = records.every((w) => pins.some((p) => p.url === w.ts_url));
  f.receipt = records.every((w) => {
    const receipt = decodeSign1(base64ToBytesStrict(str(w.receipt_b64)) ?? new Uint8Array(0));
    const proofs = (receipt.unprotected.get(396) as Map<unknown, unknown>).get(-1) as Uint8Array[];
    const [treeSize, leafIndex, path] = decode(proofs[0] as Uint8Array) as [number, number, Uint8Array[]];
    const root = rfc9162RootFromPath(entryHash, leafIndex, treeSize, path);
    const pin = pins.find((p) => p.url === w.ts_url);
    // A key object with a window (contract §5.1) pins its `key`; windows are not modelled here.
    const first = arr(pin?.keys)[0];
    const pinned = str(isJsonObject(first) ? first.key : first);
    if (
      root === undefined ||
      receipt.protectedMap.get(395) !== 1 ||
      treeSize !== num(w.tree_size) ||
      leafIndex !== num(w.leaf_index)
    )
      return false;
    if (pin === undefined) return true; // structurally valid; whether it counts is receiptPinned
    const key = pinned.startsWith("-----BEGIN")
      ? createPublicKey(pinned)
      : ed25519Key(hexToBytes(pinned) ?? new Uint8Array(0));
    return verifyCose(
      receipt.protectedMap.get(1) as number,
      key,
      sigStructure(receipt.protectedBytes, root),
      receipt.signature,
    );
  });

  // continuity (only when a prior checkpoint is carried)
  if (isJsonObject(manifest.priorCheckpoint)) {
    const prior = manifest.priorCheckpoint;
    const proof = obj(manifest, "consistencyProof");
    f.priorSignature = checkpointSigned(prior);
    f.chain =
      jsonEquals(checkpoint.prev_size, prior.mmr_size) &&
      checkpoint.prev_root === prior.root &&
      checkpoint.log_id === prior.log_id;
    f.consistency =
      num(proof.size_a) === num(prior.mmr_size) &&
      num(proof.size_b) === num(checkpoint.mmr_size) &&
      mmrConsistencyHolds(hex(prior.root), hex(checkpoint.root), {
        sizeA: num(proof.size_a),
        sizeB: num(proof.size_b),
        oldPeaks: arr(proof.old_peaks).map(hex),
        witness: arr(proof.witness).map((path) => arr(path).map(hex)),
        newPeaks: arr(proof.new_peaks).map(hex),
      });
  }

  // continuity witnesses (only when cosignatures are carried), from c2sp.org/tlog-cosignature's text
  if (Array.isArray(bundle.continuityEvidence)) Object.assign(f, cosignatureFacts(bundle, manifest, checkpoint, trust));

  // identityAuthorityBinding
  const authorized = arr(trust.producers)
    .filter(isJsonObject)
    .find((p) => p.authority === payload.authority);
  // A key object with a window (contract §5.1) pins its `key`; windows are not modelled here.
  f.authorityKey = arr(authorized?.keys)
    .map((k) => (isJsonObject(k) ? k.key : k))
    .includes(str(capsule.key_id));

  // taskBinding
  const observedArtifacts = arr(finalTask.artifacts)
    .filter(isJsonObject)
    .filter((a) => a !== evidenceArtifact);
  f.taskId = payload.taskId === finalTask.id;
  f.contextId = payload.contextId === finalTask.contextId;
  f.terminalState = payload.terminalState === at(finalTask, "status", "state");
  f.artifacts = jsonEquals(
    payload.nonEvidenceArtifacts,
    parse(
      JSON.stringify(
        observedArtifacts.map((a) => ({
          artifactId: a.artifactId,
          contentCommitment: textCommitment(a.parts),
          name: a.name,
        })),
      ),
    ),
  );
  // The Message entries, in order, numbered with the transition entries (docs/profile.md §2.1).
  const entries = arr(payload.transcript);
  f.transcript =
    entries.every((e, i) => num(at(e, "sequence")) === i) &&
    jsonEquals(
      parse(
        JSON.stringify(
          entries
            .filter((e) => isJsonObject(e) && !("kind" in e))
            .map((e) => ({
              messageId: at(e, "messageId"),
              partCommitment: at(e, "partCommitment"),
              role: at(e, "role"),
            })),
        ),
      ),
      parse(
        JSON.stringify(
          arr(finalTask.history)
            .filter(isJsonObject)
            .map((m) => ({ messageId: m.messageId, partCommitment: textCommitment(m.parts), role: m.role })),
        ),
      ),
    );

  // referenceConsistency
  const reference = obj(bundle, "taskEvidenceReference");
  const copies = [
    reference,
    ...(evidenceArtifact === undefined ? [] : [at(evidenceArtifact, "metadata", EXT), at(finalTask, "metadata", EXT)]),
  ];
  f.referenceCopies = copies.every((c) => jsonEquals(c, reference));
  f.referenceValues =
    reference.evidenceId === bundle.evidenceId &&
    reference.coreManifestDigest === bundle.coreManifestDigest &&
    reference.recordProfile === bundle.recordProfile &&
    reference.terminalState === payload.terminalState &&
    reference.deliveryMode === (evidenceArtifact === undefined ? "INLINE_METADATA" : "EVIDENCE_ARTIFACT");
  f.statusTerminal = copies.every((c) => at(c, "evidenceStatus") !== "EVIDENCE_STATUS_PENDING");
  const typed = (c: JsonValue | undefined) =>
    at(c, "evidenceStatus") !== "EVIDENCE_STATUS_FAILED" || /^[A-Z][A-Z0-9_]*: \S/.test(str(at(c, "failureReason")));
  f.failureTyped = copies.every(typed);
  // A continuity claim needs continuity evidence in the bundle (contract §9.10).
  f.claimSupported =
    reference.evidenceStatus !== "EVIDENCE_STATUS_CONTINUITY_WITNESSED" || bundle.continuityEvidence !== undefined;

  // negotiation (only when the first Task was captured)
  if (firstTask !== undefined) {
    const requirement = obj(finalTask, "history", 0, "metadata", EXT);
    const acceptance = obj(firstTask, "metadata", EXT, "evidenceAcceptance");
    const claimed = str(reference.evidenceStatus).replace("EVIDENCE_STATUS_", "");
    f.acceptance =
      firstTask.id === finalTask.id &&
      firstTask.contextId === finalTask.contextId &&
      jsonEquals(at(firstTask, "history", 0), at(finalTask, "history", 0)) &&
      acceptance.state === "ACCEPTED" &&
      acceptance.recordProfile === requirement.recordProfile &&
      acceptance.minimumEvidence === requirement.minimumEvidence &&
      num(acceptance.maximumRegistrationDelaySeconds) <= num(requirement.maximumRegistrationDelaySeconds) &&
      arr(requirement.deliveryModes).includes(str(reference.deliveryMode));
    // The requirement is fixed for the Task: a later Message in the history may not carry another one.
    f.requirementFixed = arr(finalTask.history).every(
      (m) => at(m, "metadata", EXT) === undefined || jsonEquals(at(m, "metadata", EXT), requirement),
    );
    // A server may fail (FAILED with a typed reason), never silently downgrade.
    f.minimumMet =
      claimed === "FAILED"
        ? typed(reference)
        : LEVELS.indexOf(claimed) >= LEVELS.indexOf(str(requirement.minimumEvidence));
  }
  return { ...f, ...lifecycleFacts(value, bundle, finalTask) };
}

/** The leaf count n of an MMR of `size` nodes: 2n − popcount(n) = size. */
function leavesOf(size: number): number {
  for (let n = 0; n <= size; n++) if (2 * n - n.toString(2).replace(/0/g, "").length === size) return n;
  return NaN;
}

/**
 * cosignatures: every line whose name and key ID a trust-file witness pins verifies over the note
 * of its checkpoint; noteOrigin: the log_id can be a note origin; quorum: enough independent
 * operators with the consistency statement cosigned every checkpoint the policy needs.
 */
function cosignatureFacts(
  bundle: JsonObject,
  manifest: JsonObject,
  checkpoint: JsonObject,
  trust: JsonObject,
): Record<string, boolean> {
  const note = (cp: JsonObject) =>
    `agentactioncapsule.org/cll-mmr/v1/${str(cp.log_id)}\n${leavesOf(num(cp.mmr_size))}\n${Buffer.from(hex(cp.root)).toString("base64")}\n`;
  const prior = isJsonObject(manifest.priorCheckpoint) ? manifest.priorCheckpoint : undefined;
  const witnesses = arr(trust.witnesses).filter(isJsonObject);
  const pins = witnesses.flatMap((w) =>
    arr(w.keys).map((item) => {
      const vkey = isJsonObject(item) ? item.key : item;
      const [name, id, ...rest] = str(vkey).split("+");
      return { w, name, id, key: (base64ToBytesStrict(rest.join("+")) ?? new Uint8Array(1)).subarray(1) };
    }),
  );
  const good = new Map<JsonObject, Set<string>>();
  let all = true;
  for (const entry of arr(bundle.continuityEvidence).filter(isJsonObject)) {
    const cp = entry.checkpoint === "prior" ? prior : checkpoint;
    for (const line of arr(entry.lines).map(str)) {
      const space = line.indexOf(" ", 2);
      const blob = base64ToBytesStrict(line.slice(space + 1)) ?? new Uint8Array(0);
      const pin = pins.find((p) => p.name === line.slice(2, space) && p.id === bytesToHex(blob.subarray(0, 4)));
      if (pin === undefined || cp === undefined) continue;
      const time = new DataView(blob.buffer, blob.byteOffset + 4, 8).getBigUint64(0);
      const ok = verifyCose(
        -8,
        ed25519Key(pin.key),
        utf8(`cosignature/v1\ntime ${time}\n${note(cp)}`),
        blob.subarray(12),
      );
      all &&= ok;
      if (ok) good.set(pin.w, (good.get(pin.w) ?? new Set()).add(str(entry.checkpoint)));
    }
  }
  const noteOrigin = /^[A-Za-z0-9._~:/-]{1,200}$/.test(str(checkpoint.log_id));
  const policy = isJsonObject(trust.continuityPolicy) ? trust.continuityPolicy : obj(parse("{}"));
  const operators = new Set(
    [...good]
      .filter(
        ([w, roles]) =>
          w.operator === "independent" &&
          arr(w.statements).includes("cll-mmr-consistency/v1") &&
          roles.has("current") &&
          (prior === undefined || roles.has("prior")),
      )
      .map(([w]) => str(w.operatorId) || str(w.name)),
  );
  const quorum =
    noteOrigin && (prior !== undefined || policy.acceptGenesis === true) && operators.size >= (num(policy.quorum) || 1);
  return { cosignatures: all, noteOrigin, quorum };
}

/** The names of the facts that do not hold, sorted. */
export function brokenFacts(input: string | JsonValue, trustText: string): string[] {
  return Object.entries(facts(input, trustText))
    .filter(([, holds]) => !holds)
    .map(([name]) => name)
    .sort();
}
