/**
 * Consistent re-signing for mutations a single producer hook cannot express: a capsule sealed
 * with other content, a checkpoint signed with other members or by another key. The derivations
 * are the producer's (producer/mutate.ts); this file only binds them to the property tests' hooks.
 */
import type { JsonObject } from "../../src/json/value.js";
import { producerEnvelopeOf } from "../../producer/capsule.js";
import { pyjsonDigestHex } from "../../producer/json-text.js";
import type { Tamper } from "../../producer/options.js";
import { PRODUCER, resealCapsule } from "../../producer/mutate.js";
import type { Ed25519Signer } from "../../producer/ed25519.js";
import { at, serverReferences } from "./harness.js";

export {
  PRODUCER,
  signer,
  transparencyServiceSigner,
  fieldsOf,
  resignCheckpoint,
  resignedCheckpoint,
  resignedPrior,
} from "../../producer/mutate.js";

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
      resealCapsule(capsule, by);
      const manifest = at(b, "manifest");
      manifest.producerEnvelope = producerEnvelopeOf(capsule);
      digest = pyjsonDigestHex(manifest);
      b.coreManifestDigest = digest;
      at(b, "taskEvidenceReference").coreManifestDigest = digest;
    },
    finalTask: (t) => serverReferences(t).forEach((r) => void (r.coreManifestDigest = digest)),
  };
}
