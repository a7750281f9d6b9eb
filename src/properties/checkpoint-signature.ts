/**
 * checkpointSignature — the checkpoint is signed by its key (contract §4; log-and-receipts.md
 * §4.1–§4.3).
 *
 *   checkpoint.shape      v == 1, kind == "mmr_checkpoint", every signed member well-formed
 *   checkpoint.signature  Ed25519 under key_id over the 64 ASCII characters of
 *                         hex(SHA-256(pyjson(the nine signed members))) — not the raw digest, not the body
 *   checkpoint.signer     whether the signer is the producer key (capsule key_id) or a key the trust
 *                         file lists for the payload's authority; any other key is only self-asserted
 *   interim.checkpoint    each supplied interim record's checkpoint passes these checks, under the
 *                         terminal checkpoint's key
 */
import { showValue } from "../json/diff.js";
import { member } from "../json/value.js";
import { bytesToHex } from "../util/bytes.js";
import { verifyCheckpointSignature } from "../log/checkpoint.js";
import type { Check, PropertyResult } from "./shared/types.js";
import { checksFor, decide } from "./shared/checks.js";
import type { EvidenceContext } from "../evidence/context.js";
import { manifestCheckpoint } from "../evidence/manifest-checkpoint.js";
import { interimChecks, withInterim } from "./shared/interim.js";
import { checkpointKeyWindow } from "../keys/signature-windows.js";

export const CHECKS = checksFor([
  "checkpoint.shape",
  "checkpoint.signature",
  "checkpoint.signer",
  "interim.checkpoint",
  "key.window",
]);
const { check, only } = CHECKS;

export function checkpointSignature(ctx: EvidenceContext): PropertyResult {
  return withInterim(
    checkpointSignatureOfRecord(ctx),
    interimChecks(ctx, "interim.checkpoint", check, checkpointSignature, (r) => sameSigner(ctx, r.ctx)),
  );
}

/** One log, one key: the interim record's checkpoint is signed by the key that signs the terminal one. */
function sameSigner(
  terminal: EvidenceContext,
  interim: EvidenceContext,
): { state: "PASS" | "FAIL"; detail: string } | undefined {
  const a = manifestCheckpoint(terminal)?.result;
  const b = manifestCheckpoint(interim)?.result;
  if (!a?.ok || !b?.ok) return undefined;
  const expected = bytesToHex(a.value.keyId);
  const got = bytesToHex(b.value.keyId);
  if (got === expected)
    return { state: "PASS", detail: "signed by the key that signs the terminal record's checkpoint" };
  return {
    state: "FAIL",
    detail: `its checkpoint is signed by ${got}, not by ${expected}, which signs the terminal record's: not the same log's checkpoint`,
  };
}

function checkpointSignatureOfRecord(ctx: EvidenceContext): PropertyResult {
  const parsed = manifestCheckpoint(ctx);
  if (parsed === undefined) return only("checkpoint.shape", "NOT_PRESENT", "the bundle carries no checkpoint");
  const cp = parsed.result;
  if (!cp.ok)
    return only("checkpoint.shape", "FAIL", `${cp.detail}${cp.path ? ` at ${cp.path}` : ""}`, { code: cp.code });
  const checkpoint = cp.value;
  const keyId = bytesToHex(checkpoint.keyId);
  const checks: Check[] = [
    check(
      "checkpoint.shape",
      "PASS",
      `v 1, kind mmr_checkpoint, log_id ${checkpoint.logId}, mmr_size ${checkpoint.mmrSize}`,
    ),
  ];
  const values = { keyId, digest: checkpoint.digestHex };
  const sig = verifyCheckpointSignature(checkpoint);
  checks.push(
    sig.ok && parsed.narrowed
      ? check(
          "checkpoint.signature",
          "INCONCLUSIVE",
          `checkpoint signature verifies under key_id=${keyId} only with widened numbers written back as integers: the ${ctx.located.carrier} carrier passed numbers through doubles, so the signed body is a reconstruction`,
          { values },
        )
      : sig.ok
        ? check(
            "checkpoint.signature",
            "PASS",
            `checkpoint signature under key_id=${keyId} over digest ${checkpoint.digestHex}`,
            { values },
          )
        : check(
            "checkpoint.signature",
            "FAIL",
            `checkpoint signature does not verify under key_id=${keyId} over digest ${checkpoint.digestHex}`,
            {
              code: sig.code,
              values,
            },
          ),
  );
  checks.push(signerCheck(ctx, keyId));
  const window = checkpointKeyWindow(ctx, keyId);
  if (window) checks.push(window);
  return decide(checks, `checkpoint signature under key_id=${keyId}`);
}

function signerCheck(ctx: EvidenceContext, keyId: string): Check {
  const id = "checkpoint.signer";
  const producerKey = ctx.capsule ? member(ctx.capsule, "key_id") : undefined;
  if (producerKey === keyId) return check(id, "PASS", "signed by the producer key (the capsule's key_id)");
  const authority = ctx.payload ? member(ctx.payload, "authority") : undefined;
  const listed = typeof authority === "string" ? ctx.trust?.producers.get(authority) : undefined;
  if (listed?.some((k) => k.key.ed25519Hex === keyId)) {
    return check(id, "PASS", `signed by a key the trust file lists for authority ${showValue(authority)}`);
  }
  return check(
    id,
    "INCONCLUSIVE",
    `signed by ${keyId}, which is neither the producer key nor listed in the trust file for authority ${showValue(authority)}: a key only the bundle supplies`,
  );
}
