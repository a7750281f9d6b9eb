/**
 * Consistent re-signing for mutations a single producer hook cannot express: a capsule sealed
 * with other content, a checkpoint signed with other members or by another key. Each re-derives
 * exactly what the formats bind to the changed object, with the producer's own functions and keys,
 * so only the property under test sees a difference.
 */
import { isJsonObject, type JsonNumber, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { bytesToHex } from "../../src/util/bytes.js";
import { capsuleIdOf, producerEnvelope, producerEnvelopeOf } from "../../producer/capsule.js";
import { signCheckpoint, type CheckpointFields } from "../../producer/checkpoint.js";
import { ed25519FromSeed, seedFromLabel, type Ed25519Signer } from "../../producer/ed25519.js";
import { pyjsonDigestHex } from "../../producer/json-text.js";
import type { Tamper } from "../../producer/options.js";
import { register } from "../../producer/transparency.js";
import { at, serverReferences } from "./harness.js";

/** The producer's key (options.producerKeyLabel default). */
export const PRODUCER: Ed25519Signer = ed25519FromSeed(seedFromLabel("producer"));

export function signer(label: string): Ed25519Signer {
  return ed25519FromSeed(seedFromLabel(label));
}

/** The key a Transparency Service at `url` signs receipts with (producer/log.ts). */
export function transparencyServiceSigner(url: string): Ed25519Signer {
  return signer(`transparency-service ${url}`);
}

/**
 * A tamper that changes the capsule and seals it again: capsule_id, the envelope, the manifest's
 * producerEnvelope, coreManifestDigest and every reference copy follow. The log leaf does not
 * (it is the id the producer appended), so localInclusion FAILs.
 */
export function resealedCapsule(change: (capsule: JsonObject) => void, by: Ed25519Signer = PRODUCER): Tamper {
  let digest = "";
  return {
    bundle: (b) => {
      const capsule = at(b, "capsule");
      change(capsule);
      delete capsule.capsule_id;
      delete capsule.key_id;
      delete capsule.signature;
      const id = capsuleIdOf(capsule);
      capsule.capsule_id = id;
      capsule.key_id = by.publicKeyHex;
      capsule.signature = bytesToHex(producerEnvelope(id, by));
      const manifest = at(b, "manifest");
      manifest.producerEnvelope = producerEnvelopeOf(capsule);
      digest = pyjsonDigestHex(manifest);
      b.coreManifestDigest = digest;
      at(b, "taskEvidenceReference").coreManifestDigest = digest;
    },
    finalTask: (t) => serverReferences(t).forEach((r) => void (r.coreManifestDigest = digest)),
  };
}

const int = (v: JsonValue | undefined): number => (v as JsonNumber).toNumber();

/** The six inputs of a checkpoint signature, read from its JSON. */
export function fieldsOf(checkpoint: JsonObject): CheckpointFields {
  return {
    logId: checkpoint.log_id as string,
    mmrSize: int(checkpoint.mmr_size),
    root: checkpoint.root as string,
    prevSize: int(checkpoint.prev_size),
    prevRoot: checkpoint.prev_root as string,
    timestamp: checkpoint.timestamp as string,
  };
}

/**
 * Signs `checkpoint` again in place with `changes` applied (by the producer unless `by` is
 * given), and registers the new entry_hash with every Transparency Service that stamped it, at
 * the same position: the checkpoint is then a genuine one with those members.
 */
export function resignCheckpoint(checkpoint: JsonObject, changes: Partial<CheckpointFields> = {}, by: Ed25519Signer = PRODUCER): void {
  const signed = signCheckpoint({ ...fieldsOf(checkpoint), ...changes }, by);
  const witnesses = checkpoint.witnesses;
  for (const name of Object.keys(checkpoint)) delete checkpoint[name];
  Object.assign(checkpoint, signed.checkpoint);
  if (!Array.isArray(witnesses)) return;
  checkpoint.witnesses = witnesses.map((w) => {
    if (!isJsonObject(w) || w.is_stub === true) return w;
    const url = w.ts_url as string;
    return register({ url, signer: transparencyServiceSigner(url), treeSize: int(w.tree_size), leafIndex: int(w.leaf_index) }, signed.entryHash);
  });
}

/** A manifest hook that re-signs the current checkpoint with `changes`. */
export function resignedCheckpoint(changes: Partial<CheckpointFields>, by: Ed25519Signer = PRODUCER): Tamper["manifest"] {
  return (m) => resignCheckpoint(at(m, "cllCheckpoint"), changes, by);
}

/** A manifest hook that re-signs the prior checkpoint with `changes`. */
export function resignedPrior(changes: Partial<CheckpointFields>, by: Ed25519Signer = PRODUCER): Tamper["manifest"] {
  return (m) => resignCheckpoint(at(m, "priorCheckpoint"), changes, by);
}

