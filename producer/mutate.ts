/**
 * The re-signing mutator: one semantic change to an exchange — to its payload, its capsule, its
 * manifest, its reference copies or the Tasks the caller observes — after which every signature,
 * digest and proof downstream is derived again with the producer's own functions and keys. The
 * result differs from an honest exchange only by the change itself, so a verifier that still
 * PASSes the property covering it has a gap, not a broken signature to hide behind.
 *
 * Derivation order (content-binding.md §4–§8, log-and-receipts.md §3–§5):
 *   payload → evidenceId → capsule (agent_input_digest; capsule change; capsule_id; envelope)
 *   → the producer log rebuilt around the new capsule_id (leaf, inclusion proof, prior checkpoint,
 *     consistency proof) → manifest copies (producerEnvelope, taskEvidencePayload)
 *   → manifest change → both checkpoints signed as they then stand, every stamp registered again
 *   → coreManifestDigest → every TaskEvidenceReference copy (then the reference change)
 *   → the bundle re-encoded into every carrier it had → the observed Tasks' changes.
 *
 * The log is rebuilt with the producer's own filler records, so only a log this producer built can
 * be derived again; any other is refused with a ProducerError rather than guessed at.
 */
import { decode } from "cborg";
import { JsonNumber, isJsonObject, type JsonObject, type JsonValue } from "../src/json/value.js";
import { base64ToBytesStrict, bytesToBase64, bytesToHex, utf8 } from "../src/util/bytes.js";
import { capsuleIdOf, producerEnvelope, producerEnvelopeOf } from "./capsule.js";
import { checkpointDigestHex, checkpointSigningFields, entryHashOf, type CheckpointFields } from "./checkpoint.js";
import { EVIDENCE_MEDIA_TYPE, EXTENSION_URI } from "./constants.js";
import { p256FromSeed, type P256Signer } from "./ecdsa-p256.js";
import { ed25519FromSeed, seedFromLabel, type Ed25519Signer } from "./ed25519.js";
import { getTaskResponse, wrapInput } from "./envelope.js";
import { ProducerError } from "./errors.js";
import type { Exchange } from "./exchange.js";
import { copyObject, pyjsonBytes, pyjsonDigestHex } from "./json-text.js";
import { buildLog, type LogOptions } from "./log.js";
import { mmrSizeForLeaves } from "./mmr.js";
import type { Envelope, Tamper, WitnessOptions } from "./options.js";
import { register, stubRecord } from "./transparency.js";

const signers = new Map<string, Ed25519Signer | P256Signer>();

/** The Ed25519 key a label names (memoized: key objects are built once per label). */
export function signer(label: string): Ed25519Signer {
  const key = `EdDSA ${label}`;
  let s = signers.get(key);
  if (!s) signers.set(key, (s = ed25519FromSeed(seedFromLabel(label))));
  return s as Ed25519Signer;
}

/** The producer's key (options.producerKeyLabel default). */
export const PRODUCER: Ed25519Signer = signer("producer");

/** The Ed25519 key a Transparency Service at `url` signs receipts with (producer/log.ts derives it the same way). */
export function transparencyServiceSigner(url: string): Ed25519Signer {
  return signer(`transparency-service ${url}`);
}

/** The key of a Transparency Service at `url` for either receipt algorithm. */
export function transparencyServiceKey(url: string, alg: "EdDSA" | "ES256"): Ed25519Signer | P256Signer {
  const label = `transparency-service ${url}`;
  if (alg === "EdDSA") return signer(label);
  const key = `ES256 ${label}`;
  let s = signers.get(key);
  if (!s) signers.set(key, (s = p256FromSeed(seedFromLabel(label))));
  return s;
}

export interface ResignKeys {
  /** Seals the capsule (key_id, envelope); default the producer key. */
  readonly producer?: Ed25519Signer;
  /** Signs both checkpoints; default the capsule's signer. */
  readonly checkpoint?: Ed25519Signer;
  /** Signs each stamp's receipt; default the service key derived from its url. */
  readonly transparencyService?: (url: string, alg: "EdDSA" | "ES256") => Ed25519Signer | P256Signer;
}

/** Where a TaskEvidenceReference copy sits. */
export type ReferencePlace = "bundle" | "artifact" | "task";

export interface SemanticMutation {
  /** The payload before it is sealed. */
  readonly payload?: (payload: JsonObject) => void;
  /** The capsule after agent_input_digest is set, before capsule_id and the envelope. */
  readonly capsule?: (capsule: JsonObject) => void;
  /** The manifest once the log is rebuilt, before the checkpoints are signed and the digest taken. */
  readonly manifest?: (manifest: JsonObject) => void;
  /** Every reference copy, after evidenceId and coreManifestDigest are written into it. */
  readonly reference?: (reference: JsonObject, where: ReferencePlace) => void;
  /** The observed terminal Task, with the re-encoded bundle in it. */
  readonly finalTask?: (task: JsonObject) => void;
  /** The first Task (captures only). */
  readonly firstTask?: (task: JsonObject) => void;
}

const integer = (v: JsonValue | undefined, what: string): number => {
  const n = v instanceof JsonNumber ? v.toNumber() : NaN;
  if (!Number.isSafeInteger(n)) throw new ProducerError("PRODUCER_INVALID_OPTION", `${what} is not an integer`);
  return n;
};

function objectMember(o: JsonObject, name: string, what: string): JsonObject {
  const v = o[name];
  if (!isJsonObject(v)) throw new ProducerError("PRODUCER_INVALID_OPTION", `${what}.${name} is not an object`);
  return v;
}

/** The six inputs of a checkpoint signature, read from its JSON. */
export function fieldsOf(checkpoint: JsonObject): CheckpointFields {
  return {
    logId: checkpoint.log_id as string,
    mmrSize: integer(checkpoint.mmr_size, "mmr_size"),
    root: checkpoint.root as string,
    prevSize: integer(checkpoint.prev_size, "prev_size"),
    prevRoot: checkpoint.prev_root as string,
    timestamp: checkpoint.timestamp as string,
  };
}

/**
 * What a receipt's protected header says that a new receipt must say again: its signature
 * algorithm (label 1: ES256 or EdDSA) and the CWT `iat` it states (label 15, claim 6), if any.
 */
function receiptHeader(receiptB64: JsonValue | undefined): { alg: "EdDSA" | "ES256"; iat?: number } {
  const bytes = typeof receiptB64 === "string" ? base64ToBytesStrict(receiptB64) : undefined;
  if (!bytes || bytes[0] !== 0xd2) return { alg: "EdDSA" };
  try {
    const sign1 = decode(bytes.subarray(1), { useMaps: true }) as unknown[];
    const header = decode(sign1[0] as Uint8Array, { useMaps: true }) as Map<number, unknown>;
    const claims = header.get(15);
    const iat = claims instanceof Map ? claims.get(6) : undefined;
    return {
      alg: header.get(1) === -7 ? "ES256" : "EdDSA",
      ...(typeof iat === "number" && Number.isSafeInteger(iat) ? { iat } : {}),
    };
  } catch {
    return { alg: "EdDSA" };
  }
}

/** The public form a trust file pins for a signer (log.ts): raw hex for Ed25519, PEM for ES256. */
const pinnedForm = (s: Ed25519Signer | P256Signer): string => (s.alg === "EdDSA" ? s.publicKeyHex : s.publicKeyPem);

/**
 * Registers `entryHash` again with every service that stamped the checkpoint, at the same
 * position; stubs stay stubs. `services` are the keys the exchange was built with: a service whose
 * key is not the one derived from its url (a custom key label) must be given in `keys`, or the
 * new receipt would silently be signed by another key.
 */
function registerAgain(
  checkpoint: JsonObject,
  entryHash: string,
  keys: ResignKeys,
  services?: ReadonlyMap<string, string>,
): void {
  const witnesses = checkpoint.witnesses;
  if (!Array.isArray(witnesses)) return;
  checkpoint.witnesses = witnesses.map((w) => {
    if (!isJsonObject(w) || typeof w.ts_url !== "string") return w;
    if (w.is_stub === true) return stubRecord(w.ts_url, entryHash);
    if (!(w.tree_size instanceof JsonNumber) || !(w.leaf_index instanceof JsonNumber)) return w;
    const url = w.ts_url;
    const { alg, iat } = receiptHeader(w.receipt_b64);
    const given = keys.transparencyService?.(url, alg);
    const by = given ?? transparencyServiceKey(url, alg);
    const expected = services?.get(url);
    if (!given && expected !== undefined && expected !== pinnedForm(by)) {
      throw new ProducerError(
        "PRODUCER_BAD_KEY_SEED",
        `${url} signed with a key not derived from its url: pass keys.transparencyService`,
      );
    }
    const treeSize = integer(w.tree_size, "tree_size");
    const leafIndex = integer(w.leaf_index, "leaf_index");
    return register({ url, signer: by, treeSize, leafIndex, ...(iat !== undefined ? { iat } : {}) }, entryHash);
  });
}

/** Signs the checkpoint's nine members as they stand (key_id becomes the signer's) and registers it again. */
export function sealCheckpoint(
  checkpoint: JsonObject,
  by: Ed25519Signer = PRODUCER,
  keys: ResignKeys = {},
  services?: ReadonlyMap<string, string>,
): void {
  checkpoint.key_id = by.publicKeyHex;
  const digestHex = checkpointDigestHex(checkpoint);
  checkpoint.signature = bytesToHex(by.sign(utf8(digestHex)));
  registerAgain(checkpoint, entryHashOf(digestHex), keys, services);
}

/**
 * Signs `checkpoint` again in place with `changes` applied (by the producer unless `by` is
 * given), and registers the new entry_hash with every Transparency Service that stamped it, at
 * the same position: the checkpoint is then a genuine one with those members.
 */
export function resignCheckpoint(
  checkpoint: JsonObject,
  changes: Partial<CheckpointFields> = {},
  by: Ed25519Signer = PRODUCER,
  keys: ResignKeys = {},
): void {
  const fields = checkpointSigningFields({ ...fieldsOf(checkpoint), ...changes }, by.publicKeyHex);
  const witnesses = checkpoint.witnesses;
  for (const name of Object.keys(checkpoint)) delete checkpoint[name];
  Object.assign(checkpoint, fields);
  if (witnesses !== undefined) checkpoint.witnesses = witnesses;
  sealCheckpoint(checkpoint, by, keys);
}

/** A manifest hook that re-signs the current checkpoint with `changes`. */
export function resignedCheckpoint(
  changes: Partial<CheckpointFields>,
  by: Ed25519Signer = PRODUCER,
): NonNullable<Tamper["manifest"]> {
  return (m) => resignCheckpoint(objectMember(m, "cllCheckpoint", "manifest"), changes, by);
}

/** A manifest hook that re-signs the prior checkpoint with `changes`. */
export function resignedPrior(
  changes: Partial<CheckpointFields>,
  by: Ed25519Signer = PRODUCER,
): NonNullable<Tamper["manifest"]> {
  return (m) => resignCheckpoint(objectMember(m, "priorCheckpoint", "manifest"), changes, by);
}

/** Seals the capsule again in place: capsule_id over its content, key_id and the envelope by `by`. */
export function resealCapsule(capsule: JsonObject, by: Ed25519Signer = PRODUCER): void {
  delete capsule.capsule_id;
  delete capsule.key_id;
  delete capsule.signature;
  const id = capsuleIdOf(capsule);
  capsule.capsule_id = id;
  capsule.key_id = by.publicKeyHex;
  capsule.signature = bytesToHex(producerEnvelope(id, by));
}

function leafCountForSize(size: number): number {
  // An MMR of n leaves has between n and 2n − 1 nodes.
  for (let n = Math.floor((size + 1) / 2); n <= size; n++) if (mmrSizeForLeaves(n) === size) return n;
  throw new ProducerError("PRODUCER_INVALID_OPTION", `${size} is not the size of an MMR`);
}

/** What the manifest's log was built from, read back from the manifest. */
function logOptionsOf(manifest: JsonObject): { options: LogOptions; leafIndex: number } {
  const cp = objectMember(manifest, "cllCheckpoint", "manifest");
  const proof = objectMember(manifest, "localInclusionProof", "manifest");
  const leafCount = leafCountForSize(integer(cp.mmr_size, "cllCheckpoint.mmr_size"));
  const leafIndex = integer(proof.leafIndex, "localInclusionProof.leafIndex");
  const prior = manifest.priorCheckpoint;
  return {
    leafIndex,
    options: {
      leavesBefore: leafIndex,
      leavesAfter: leafCount - leafIndex - 1,
      logId: cp.log_id as string,
      checkpointTimestamp: cp.timestamp as string,
      priorCheckpoint: isJsonObject(prior)
        ? {
            leafCount: leafCountForSize(integer(prior.mmr_size, "priorCheckpoint.mmr_size")),
            timestamp: prior.timestamp as string,
            keyLabel: null,
          }
        : null,
      witnesses: [] as WitnessOptions[],
    },
  };
}

const sameHashes = (a: JsonValue | undefined, b: JsonValue | undefined): boolean =>
  Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);

/** Rebuilds the producer log around `capsuleId` and writes its proofs and checkpoints into the manifest. */
function rebuildLog(manifest: JsonObject, capsuleId: string, by: Ed25519Signer): void {
  const { options } = logOptionsOf(manifest);
  const before = objectMember(manifest, "localInclusionProof", "manifest");
  const witnesses = objectMember(manifest, "cllCheckpoint", "manifest").witnesses;
  const log = buildLog(options, capsuleId, by);
  // The siblings do not depend on our leaf: equal siblings mean the other leaves are this producer's fillers.
  for (const name of ["witness", "peaksLeft", "peaksRight"]) {
    if (!sameHashes(before[name], log.localInclusionProof[name])) {
      throw new ProducerError(
        "PRODUCER_INVALID_OPTION",
        "the manifest's log was not built by this producer: it cannot be derived again",
      );
    }
  }
  if (witnesses !== undefined) log.cllCheckpoint.witnesses = witnesses;
  manifest.cllCheckpoint = log.cllCheckpoint;
  manifest.localInclusionProof = log.localInclusionProof;
  if (manifest.priorCheckpoint !== undefined) manifest.priorCheckpoint = log.priorCheckpoint;
  if (manifest.consistencyProof !== undefined) manifest.consistencyProof = log.consistencyProof;
}

const isBundleShaped = (v: JsonValue | undefined): v is JsonObject =>
  isJsonObject(v) && "evidenceId" in v && "taskEvidencePayload" in v && "extensionVersion" in v;

/** The Artifacts of a Task that carry the bundle in a `raw` or `data` part of the evidence media type. */
function carrierArtifacts(task: JsonObject): JsonObject[] {
  const artifacts = Array.isArray(task.artifacts) ? task.artifacts : [];
  return artifacts.filter(
    (a): a is JsonObject =>
      isJsonObject(a) &&
      Array.isArray(a.parts) &&
      a.parts.some(
        (p) =>
          isJsonObject(p) && p.mediaType === EVIDENCE_MEDIA_TYPE && (typeof p.raw === "string" || isJsonObject(p.data)),
      ),
  );
}

/** Writes the re-derived bundle into every carrier of the Task, and returns the reference copies it owes. */
function carryBundle(
  task: JsonObject,
  bundle: JsonObject,
  bundleBytes: Uint8Array,
): Array<[JsonObject, ReferencePlace]> {
  const references: Array<[JsonObject, ReferencePlace]> = [];
  for (const artifact of carrierArtifacts(task)) {
    for (const part of artifact.parts as JsonValue[]) {
      if (!isJsonObject(part) || part.mediaType !== EVIDENCE_MEDIA_TYPE) continue;
      if (typeof part.raw === "string") part.raw = bytesToBase64(bundleBytes);
      else if (isJsonObject(part.data)) part.data = copyObject(bundle);
    }
    const md = artifact.metadata;
    const ref = isJsonObject(md) ? md[EXTENSION_URI] : undefined;
    if (isJsonObject(ref)) references.push([ref, "artifact"]);
  }
  const md = task.metadata;
  const inTask = isJsonObject(md) ? md[EXTENSION_URI] : undefined;
  if (isBundleShaped(inTask)) (md as JsonObject)[EXTENSION_URI] = copyObject(bundle);
  else if (isJsonObject(inTask)) references.push([inTask, "task"]);
  return references;
}

function envelopeOf(input: JsonObject): Envelope {
  if ("jsonrpc" in input) return "jsonrpc";
  if ("finalTask" in input) return "capture";
  if (Object.keys(input).length === 1 && "task" in input) return "stream";
  return "task";
}

/** Writes the evidence result into a reference copy: what it states of the bundle follows the bundle. */
function restate(reference: JsonObject, evidenceId: string, coreManifestDigest: string): void {
  if ("evidenceId" in reference) reference.evidenceId = evidenceId;
  if ("coreManifestDigest" in reference) reference.coreManifestDigest = coreManifestDigest;
}

/**
 * The exchange with `mutation` applied and everything downstream of it derived again. The trust
 * file is the original's; the keys are the ones that signed.
 */
export function resign(exchange: Exchange, mutation: SemanticMutation = {}, keys: ResignKeys = {}): Exchange {
  const producer = keys.producer ?? PRODUCER;
  const checkpointSigner = keys.checkpoint ?? producer;
  // Continuity witnesses cosign the checkpoints with keys and times this exchange does not carry:
  // a re-derived checkpoint would leave their lines behind, so such an exchange is refused.
  if (exchange.bundle.continuityEvidence !== undefined) {
    throw new ProducerError(
      "PRODUCER_INVALID_OPTION",
      "the bundle carries continuity cosignatures, which cannot be derived again here",
    );
  }
  const bundle = copyObject(exchange.bundle);
  const payload = objectMember(bundle, "taskEvidencePayload", "bundle");
  mutation.payload?.(payload);
  const evidenceId = pyjsonDigestHex(payload);
  bundle.evidenceId = evidenceId;

  const capsule = objectMember(bundle, "capsule", "bundle");
  objectMember(
    objectMember(capsule, "model_attestation", "capsule"),
    "compute_attestation",
    "capsule.model_attestation",
  ).agent_input_digest = evidenceId;
  mutation.capsule?.(capsule);
  resealCapsule(capsule, producer);

  const manifest = objectMember(bundle, "manifest", "bundle");
  rebuildLog(manifest, capsule.capsule_id as string, checkpointSigner);
  manifest.producerEnvelope = producerEnvelopeOf(capsule);
  manifest.taskEvidencePayload = copyObject(payload);
  mutation.manifest?.(manifest);
  const services = new Map(exchange.keys.transparencyServices.map((t) => [t.url, t.publicKey]));
  for (const name of ["cllCheckpoint", "priorCheckpoint"]) {
    const cp = manifest[name];
    if (isJsonObject(cp)) sealCheckpoint(cp, checkpointSigner, keys, services);
  }
  const coreManifestDigest = pyjsonDigestHex(manifest);
  bundle.coreManifestDigest = coreManifestDigest;

  const bundleReference = objectMember(bundle, "taskEvidenceReference", "bundle");
  restate(bundleReference, evidenceId, coreManifestDigest);
  mutation.reference?.(bundleReference, "bundle");
  // The reference copies are changed before the bytes are written: the raw part carries the bundle's own copy.
  const bundleBytes = pyjsonBytes(bundle);

  const finalTask = copyObject(exchange.finalTask);
  for (const [reference, where] of carryBundle(finalTask, bundle, bundleBytes)) {
    restate(reference, evidenceId, coreManifestDigest);
    mutation.reference?.(reference, where);
  }
  mutation.finalTask?.(finalTask);
  const firstTask = copyObject(exchange.firstTask);
  mutation.firstTask?.(firstTask);

  const input = exchange.input;
  const jsonRpcId =
    isJsonObject(input) && (typeof input.id === "string" || input.id instanceof JsonNumber) ? input.id : 1;
  const id = jsonRpcId instanceof JsonNumber ? jsonRpcId.toNumber() : jsonRpcId;
  return {
    firstTask,
    finalTask,
    getTaskResponse: getTaskResponse(id, finalTask),
    // A capture keeps the interim records it was given: they are the client's, not the producer's to re-seal.
    input: wrapInput(
      envelopeOf(input),
      id,
      firstTask,
      finalTask,
      isJsonObject(input) && Array.isArray(input.interimBundles) ? (input.interimBundles as JsonObject[]) : [],
    ),
    bundle,
    bundleBytes,
    interimBundles: exchange.interimBundles,
    trust: copyObject(exchange.trust),
    keys: {
      producer: { publicKeyHex: producer.publicKeyHex, publicKeyPem: producer.publicKeyPem },
      transparencyServices: exchange.keys.transparencyServices,
      witnesses: exchange.keys.witnesses,
    },
  };
}
