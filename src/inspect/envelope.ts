/**
 * The Producer Envelope (content-binding.md §8): `capsule.signature` decoded as a COSE_Sign1 —
 * its protected header exactly as received and decoded, the unprotected header, the payload —
 * and the SHA-256 of the exact Sig_structure bytes the Ed25519 signature was verified over, by
 * the very call verify makes.
 */
import { verifyProducerEnvelope } from "../aac/producer-envelope.js";
import { decodeSign1 } from "../cose/sign1.js";
import { isJsonObject, member } from "../json/value.js";
import type { EvidenceContext } from "../evidence/context.js";
import { hexToBytes } from "../util/bytes.js";
import { binary, hex, malformed, stepFailure } from "./common.js";
import { coseSection } from "./cose.js";
import type { Absent, Bytes, CoseSection, EnvelopeSection, InspectOptions } from "./model.js";

const AT = "capsule.signature";

export function envelopeSection(
  ctx: EvidenceContext,
  signedId: string | null,
  o: InspectOptions,
): EnvelopeSection | Absent {
  const capsule = member(ctx.bundle, "capsule");
  if (!isJsonObject(capsule)) return { absent: "the bundle carries no capsule" };
  const signature = member(capsule, "signature");
  const keyId = member(capsule, "key_id");
  if (signature === undefined)
    return {
      absent:
        keyId === undefined
          ? "the capsule carries no producer envelope (neither signature nor key_id)"
          : "the capsule carries key_id but no signature",
    };
  const empty = { envelope: null, cose: null, signedId, kid: null, sigStructure: null, result: "not checked" as const };
  if (typeof signature !== "string")
    return { at: AT, ...empty, failure: malformed("capsule.signature is not a hex string", AT) };
  const bytes = hexToBytes(signature);
  if (!bytes)
    return { at: AT, ...empty, failure: malformed("capsule.signature is not lowercase hex of a COSE_Sign1", AT) };
  const envelope = binary(bytes, o);
  const decoded = decodeSign1(bytes);
  const cose: CoseSection | null = decoded.ok ? coseSection(decoded.value, o) : null;
  const kidValue = decoded.ok ? decoded.value.protectedHeader.get(4) : undefined;
  const kid = kidValue instanceof Uint8Array ? hex(kidValue) : null;
  const base = { at: AT, envelope, cose, signedId, kid };
  // verify checks the envelope only when the capsule claims one completely (envelope.claim).
  if (keyId === undefined)
    return {
      ...base,
      sigStructure: null,
      result: "not checked",
      failure: { detail: "the capsule carries a signature but no key_id" },
    };
  if (signedId === null)
    return {
      ...base,
      sigStructure: null,
      result: "not checked",
      failure: { detail: "no well-formed capsule_id to check the envelope against" },
    };
  let sigStructure: Bytes | null = null;
  const r = verifyProducerEnvelope(bytes, signedId, (toBeSigned) => {
    sigStructure = binary(toBeSigned, o);
  });
  if (r.ok) return { ...base, kid: r.value.publicKeyHex, sigStructure, result: "verifies" };
  // A failure before the signature (shape, alg, payload) leaves no Sig_structure: it was never built.
  return {
    ...base,
    sigStructure,
    result: sigStructure === null ? "not checked" : "does not verify",
    failure: stepFailure(r),
  };
}
