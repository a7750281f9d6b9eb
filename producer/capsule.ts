/**
 * AAC capsule sealing (content-binding.md §7) and the Producer Envelope (§8) for one A2A Task
 * Evidence payload.
 *
 * The capsule's agent input is the payload, so `agent_input_digest` is the evidenceId; its agent
 * output is `{"terminalState": …}`. `capsule_id` is SHA-256 of the JCS form of the capsule
 * without `capsule_id`, `signature` and `key_id` (format "4": nulls, empties and `chain` take
 * part). The envelope signs the raw 32 bytes of `capsule_id`, never its hex text.
 */
import { newJsonObject, type JsonObject, type JsonValue } from "../src/json/value.js";
import { bytesToHex, hexToBytes, sha256Hex } from "../src/util/bytes.js";
import {
  CAPSULE_SPEC_VERSION,
  COSE_ALG_EDDSA,
  COSE_LABEL_ALG,
  COSE_LABEL_CONTENT_TYPE,
  COSE_LABEL_KID,
  EFFECT_TYPE,
  PRODUCER_ENVELOPE_CONTENT_TYPE,
} from "./constants.js";
import { coseSign1 } from "./cose.js";
import type { Ed25519Signer } from "./ed25519.js";
import { jcsBytes, jsonObject, pyjsonDigestHex } from "./json-text.js";

/** Top-level members that are not part of the capsule's identity (format "4"). */
const IDENTITY_EXCLUDED = new Set(["capsule_id", "signature", "key_id"]);

export interface CapsuleContent {
  readonly evidenceId: string;
  readonly terminalState: string;
  /** `<action>/<uuid>`. */
  readonly actionId: string;
  /** RFC 3339 with microseconds and `Z`, as the reference seals it. */
  readonly timestamp: string;
  readonly operator: string;
  readonly developer: string;
}

/** agent_output_digest = effect.response_digest = SHA-256(pyjson({"terminalState": …})). */
export function agentOutputDigest(terminalState: string): string {
  return pyjsonDigestHex(jsonObject({ terminalState }));
}

/** capsule_id (format "4"): SHA-256 of JCS(capsule minus capsule_id, signature, key_id). */
export function capsuleIdOf(capsule: JsonObject): string {
  const identity = newJsonObject();
  for (const name of Object.keys(capsule)) {
    if (!IDENTITY_EXCLUDED.has(name)) identity[name] = capsule[name] as JsonValue;
  }
  return sha256Hex(jcsBytes(identity));
}

/**
 * Protected header of the envelope in the reference producer's order 3, 4, 1: it builds
 * `{content type, kid}` and sets `alg` last. A verifier re-encoding it canonically would break.
 */
export function producerEnvelopeProtected(kid: Uint8Array): Array<[number, number | string | Uint8Array]> {
  return [
    [COSE_LABEL_CONTENT_TYPE, PRODUCER_ENVELOPE_CONTENT_TYPE],
    [COSE_LABEL_KID, kid],
    [COSE_LABEL_ALG, COSE_ALG_EDDSA],
  ];
}

/** The Producer Envelope: COSE_Sign1 over the raw capsule_id, attached, empty unprotected map. */
export function producerEnvelope(capsuleId: string, signer: Ed25519Signer): Uint8Array {
  return coseSign1({
    protectedHeader: producerEnvelopeProtected(signer.publicKeyRaw),
    unprotectedHeader: new Map(),
    payload: hexToBytes(capsuleId) as Uint8Array,
    detached: false,
    sign: signer.sign,
  });
}

/** The capsule as sealed, before its identity and envelope are added. */
export function capsuleBody(content: CapsuleContent): JsonObject {
  const outputDigest = agentOutputDigest(content.terminalState);
  return jsonObject({
    action_id: content.actionId,
    action_type: "decide",
    assurance: { attestation_mode: "self_attested", effect_mode: "confirmed", ledger_mode: "standalone" },
    canonicalization_id: "jcs",
    developer: content.developer,
    disposition: { approver: "policy", decision: "accept", human_disposed: false, verdict_class: "executed" },
    effect: {
      effect_attestation: "runtime_claimed",
      response_digest: outputDigest,
      status: "confirmed",
      type: EFFECT_TYPE,
    },
    format_version: "4",
    model_attestation: {
      compute_attestation: { agent_input_digest: content.evidenceId, agent_output_digest: outputDigest },
    },
    operator: content.operator,
    spec_version: CAPSULE_SPEC_VERSION,
    timestamp: content.timestamp,
  });
}

/** A sealed format-"4" capsule with `capsule_id`, `key_id` and the hex envelope in `signature`. */
export function sealCapsule(content: CapsuleContent, signer: Ed25519Signer): JsonObject {
  const capsule = capsuleBody(content);
  // The local-only envelope fields are added after capsule_id, as capsule-emit does (§7.1).
  const capsuleId = capsuleIdOf(capsule);
  capsule.capsule_id = capsuleId;
  capsule.key_id = signer.publicKeyHex;
  capsule.signature = bytesToHex(producerEnvelope(capsuleId, signer));
  return capsule;
}

/** `manifest.producerEnvelope`: the capsule's envelope fields under the manifest's names. */
export function producerEnvelopeOf(capsule: JsonObject): JsonObject {
  return jsonObject({ capsuleId: capsule.capsule_id, keyId: capsule.key_id, signature: capsule.signature });
}
