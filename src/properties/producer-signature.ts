/**
 * producerSignature — the producer key signed this record (contract §4; content-binding.md §7,
 * §8.3, §12 items 2 and 4).
 *
 *   capsuleId.recompute        the capsule_id recomputed from the capsule equals the carried one
 *                              (AAC check 2; the reference never compares them)
 *   envelope.claim             the capsule carries both `signature` and `key_id`, or neither
 *   envelope.verify            strict COSE_Sign1 decode, alg/kid/content type, payload == capsule_id,
 *                              Ed25519 signature under the kid (AAC Producer Envelope, §8.3 order)
 *   envelope.keyId             the authenticated kid is the capsule's key_id
 *   manifest.producerEnvelope  the manifest's producerEnvelope copies the capsule's fields exactly
 *   interim.signature          each supplied interim record passes these checks, under the terminal record's key
 * The key is self-attested (the kid): whether it may speak for the authority is
 * identityAuthorityBinding's question, answered only by the trust file.
 */
import { isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { showValue, valueText } from "../json/diff.js";
import { hexToBytes, isHex64 } from "../util/bytes.js";
import { verifyProducerEnvelope } from "../aac/producer-envelope.js";
import type { Check, PropertyResult } from "./shared/types.js";
import { checksFor, decide } from "./shared/checks.js";
import type { EvidenceContext } from "../evidence/context.js";
import { widenedReason } from "../evidence/widening.js";
import { capsuleIdReading, recomputedCapsuleId, type CapsuleIdReading } from "../evidence/capsule-id.js";
import { interimChecks, withInterim } from "./shared/interim.js";
import { producerKeyWindow } from "../keys/signature-windows.js";

export const CHECKS = checksFor([
  "capsuleId.recompute",
  "envelope.claim",
  "envelope.verify",
  "envelope.keyId",
  "manifest.producerEnvelope",
  "interim.signature",
  "key.window",
]);
const { check, only } = CHECKS;

export function producerSignature(ctx: EvidenceContext): PropertyResult {
  return withInterim(
    producerSignatureOfRecord(ctx),
    interimChecks(ctx, "interim.signature", check, producerSignature, (r) => sameProducer(ctx, r.ctx)),
  );
}

/**
 * A Task's records are one producer's: an interim record signed by another key than the terminal
 * record's is not this producer's record of the pause (the wrong issuer), however valid its own
 * signature.
 */
function sameProducer(terminal: EvidenceContext, interim: EvidenceContext): { state: "PASS" | "FAIL"; detail: string } {
  const expected = terminal.capsule ? member(terminal.capsule, "key_id") : undefined;
  const got = interim.capsule ? member(interim.capsule, "key_id") : undefined;
  if (got === expected) return { state: "PASS", detail: "the terminal record's producer key signed it" };
  return {
    state: "FAIL",
    detail: `signed by key ${showValue(got)}, not by the terminal record's producer key ${showValue(expected)}: the wrong issuer for this Task's record`,
  };
}

function producerSignatureOfRecord(ctx: EvidenceContext): PropertyResult {
  const capsuleValue = member(ctx.bundle, "capsule");
  if (capsuleValue === undefined || capsuleValue === null)
    return only("envelope.claim", "NOT_PRESENT", "the bundle carries no capsule");
  if (!isJsonObject(capsuleValue)) return only("envelope.claim", "FAIL", "capsule is not a JSON object");
  const capsule = capsuleValue;
  const signature = member(capsule, "signature");
  const keyId = member(capsule, "key_id");
  if (signature === undefined && keyId === undefined) {
    return only(
      "envelope.claim",
      "NOT_PRESENT",
      "the capsule carries no producer envelope (neither signature nor key_id)",
    );
  }
  const checks: Check[] = [];
  const identity = capsuleIdReading(ctx) as CapsuleIdReading;
  checks.push(capsuleIdCheck(identity, ctx.located.carrier));
  if (signature === undefined || keyId === undefined) {
    checks.push(
      check(
        "envelope.claim",
        "FAIL",
        `the capsule carries ${signature === undefined ? "key_id but no signature" : "a signature but no key_id"}`,
      ),
    );
    return decide(checks, "");
  }
  checks.push(check("envelope.claim", "PASS", "the capsule carries a producer envelope (signature and key_id)"));
  const carried = member(capsule, "capsule_id");
  const signedId = recomputedCapsuleId(identity) ?? (isHex64(carried) ? carried : undefined);
  const envelope = envelopeChecks(signature, keyId, signedId);
  checks.push(...envelope);
  checks.push(manifestEnvelopeCheck(ctx, capsule));
  const window = producerKeyWindow(ctx, keyId);
  if (window) checks.push(window);
  return decide(checks, () => `producer key ${String(keyId)} signed capsule_id ${String(signedId)}`);
}

/** The capsuleId.recompute check over the capsule's identity as read. */
function capsuleIdCheck(reading: CapsuleIdReading, carrier: string): Check {
  const id = "capsuleId.recompute";
  switch (reading.kind) {
    case "widened": {
      const { capsuleId } = reading;
      return check(id, "INCONCLUSIVE", `capsule_id ${capsuleId} ${widenedReason(carrier, reading.narrowed)}`, {
        values: { capsuleId },
      });
    }
    case "tooMany":
      return check(
        id,
        "INCONCLUSIVE",
        `capsule_id does not recompute, and ${reading.reason} stop the search: the ${carrier} carrier passed numbers through doubles`,
      );
    case "equal":
      return check(
        id,
        "PASS",
        `recomputed capsule_id (format "${reading.formatVersion}") equals the carried ${reading.capsuleId}`,
        { values: { capsuleId: reading.capsuleId } },
      );
    case "unsupported":
      return check(id, "INCONCLUSIVE", `unsupported capsule format: ${reading.detail}`, { code: reading.code });
    case "changed":
      return check(id, "FAIL", `capsule_id ${reading.detail}: the capsule was changed after it was sealed`, {
        code: reading.code,
      });
    case "unreadable":
      return check(
        id,
        "FAIL",
        `capsule_id cannot be recomputed: ${reading.detail}${reading.path ? ` at capsule.${reading.path}` : ""}`,
        { code: reading.code },
      );
  }
}

function envelopeChecks(signature: JsonValue, keyId: JsonValue, signedId: string | undefined): Check[] {
  const id = "envelope.verify";
  if (typeof signature !== "string") return [check(id, "FAIL", "capsule.signature is not a hex string")];
  const bytes = hexToBytes(signature);
  if (!bytes) return [check(id, "FAIL", "capsule.signature is not lowercase hex of a COSE_Sign1")];
  if (signedId === undefined)
    return [check(id, "NOT_CHECKED", "no well-formed capsule_id to check the envelope against")];
  const r = verifyProducerEnvelope(bytes, signedId);
  if (!r.ok)
    return [
      check(id, "FAIL", `producer envelope does not verify for capsule_id ${signedId}: ${r.detail}`, { code: r.code }),
    ];
  const checks = [
    check(id, "PASS", `COSE_Sign1 over capsule_id ${signedId} verifies under its kid ${r.value.publicKeyHex}`, {
      values: { kid: r.value.publicKeyHex, capsuleId: signedId },
    }),
  ];
  checks.push(
    r.value.publicKeyHex === keyId
      ? check("envelope.keyId", "PASS", `the envelope's kid is the capsule's key_id ${keyId}`)
      : check(
          "envelope.keyId",
          "FAIL",
          `the envelope's kid ${r.value.publicKeyHex} != capsule key_id ${showValue(keyId)}`,
          {
            values: { kid: r.value.publicKeyHex, keyId: valueText(keyId) },
          },
        ),
  );
  return checks;
}

const ENVELOPE_MEMBERS = [
  ["capsuleId", "capsule_id"],
  ["keyId", "key_id"],
  ["signature", "signature"],
] as const;

function manifestEnvelopeCheck(ctx: EvidenceContext, capsule: JsonObject): Check {
  const id = "manifest.producerEnvelope";
  const manifest = ctx.manifest;
  if (!manifest) return check(id, "NOT_PRESENT", "the bundle carries no manifest");
  const pe = member(manifest, "producerEnvelope");
  if (!isJsonObject(pe)) return check(id, "FAIL", "manifest.producerEnvelope is missing or not an object");
  for (const [inManifest, inCapsule] of ENVELOPE_MEMBERS) {
    if (member(pe, inManifest) !== member(capsule, inCapsule)) {
      return check(
        id,
        "FAIL",
        `manifest.producerEnvelope.${inManifest} ${showValue(member(pe, inManifest))} != capsule.${inCapsule} ${showValue(member(capsule, inCapsule))}`,
      );
    }
  }
  return check(id, "PASS", "manifest.producerEnvelope equals the capsule's capsule_id, key_id and signature");
}
