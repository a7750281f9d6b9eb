/**
 * SCITT receipt verification (COSE Receipts, log-and-receipts.md §5.3): a COSE_Sign1 whose
 * detached payload is the log's root, reconstructed here from the caller's leaf entry and the
 * receipt's first inclusion proof.
 *
 * What the leaf entry is belongs to the caller: in the A2A profile it is the checkpoint's 32-byte
 * entry_hash; in scitt-cose v1 it is SHA-256 of the whole Signed Statement.
 *
 * Without a key the receipt is checked for structure and proof only and `signatureChecked` is
 * false: the caller must report that as unverified, never as verified.
 */
import {
  checkCrit,
  decodeSign1,
  protectedAlg,
  verifySign1,
  HEADER_ALG,
  HEADER_CRIT,
  HEADER_KID,
  type Sign1,
} from "../cose/sign1.js";
import type { CborKey, CborMap } from "../cose/cbor.js";
import type { PublicKeyInfo } from "../cose/keys.js";
import { fail, ok, type Result } from "../result.js";
import { ccfProofRoot, rfc9162ProofRoot, type ProofRoot, type ProofTrace } from "./receipt-proofs.js";

export const HEADER_VDS = 395;
export const HEADER_VDP = 396;
export const VDP_INCLUSION_PROOFS = -1;
const HEADER_CWT_CLAIMS = 15;
export const VDS_RFC9162_SHA256 = 1;
export const VDS_CCF_LEDGER_SHA256 = 2;
const MAX_INCLUSION_PROOFS = 16;

/** The labels the receipt layer processes, and so may accept in crit (scitt-cose). */
const UNDERSTOOD_CRIT: { readonly [vds: number]: ReadonlyArray<CborKey> } = {
  [VDS_RFC9162_SHA256]: [HEADER_ALG, HEADER_CRIT, HEADER_VDS],
  [VDS_CCF_LEDGER_SHA256]: [HEADER_ALG, HEADER_CRIT, HEADER_VDS, HEADER_KID, HEADER_CWT_CLAIMS, "ccf.v1"],
};

export interface ReceiptVerification {
  readonly vds: typeof VDS_RFC9162_SHA256 | typeof VDS_CCF_LEDGER_SHA256;
  readonly alg: number;
  /** RFC 9162 tree size and leaf index from the proof; null for CCF, whose proofs carry neither. */
  readonly treeSize: number | null;
  readonly leafIndex: number | null;
  /** How many inclusion proofs the receipt carries; only the first is used. */
  readonly proofCount: number;
  readonly root: Uint8Array;
  /** False when no key was given: structure and proof hold, the signature was not checked. */
  readonly signatureChecked: boolean;
}

/** A receipt whose structure and proof hold: what its signature must then be checked over. */
export interface CheckedReceipt extends ReceiptVerification {
  readonly message: Sign1;
  readonly understoodCrit: ReadonlyArray<CborKey>;
}

/** Decodes once and verifies, or (key undefined) checks structure and proof only. */
export function verifyReceipt(
  receipt: Uint8Array,
  leafEntry: Uint8Array,
  key: PublicKeyInfo | undefined,
): Result<ReceiptVerification> {
  const checked = checkReceipt(receipt, leafEntry);
  if (!checked.ok) return checked;
  const { message: _message, understoodCrit: _crit, ...proved } = checked.value;
  if (key === undefined) return ok(proved);
  const signed = verifyReceiptSignature(checked.value, key);
  return signed.ok ? ok({ ...proved, signatureChecked: true }) : signed;
}

/**
 * The signature over Sig_structure with the reconstructed root as detached payload.
 * `onSigStructure` sees the exact bytes the signature is checked over (`inspect`).
 */
export function verifyReceiptSignature(
  checked: CheckedReceipt,
  key: PublicKeyInfo,
  onSigStructure?: (toBeSigned: Uint8Array) => void,
): Result<{ alg: number }> {
  // Two literals rather than a spread: the usual call allocates nothing more than it did.
  return onSigStructure === undefined
    ? verifySign1(checked.message, key, { detachedPayload: checked.root, understoodCritLabels: checked.understoodCrit })
    : verifySign1(checked.message, key, {
        detachedPayload: checked.root,
        understoodCritLabels: checked.understoodCrit,
        onSigStructure,
      });
}

/**
 * Strict decode, vds from the protected header, crit, and the first inclusion proof folded to a
 * root. `trace` sees the proof's steps, for an explanation.
 */
export function checkReceipt(receipt: Uint8Array, leafEntry: Uint8Array, trace?: ProofTrace): Result<CheckedReceipt> {
  const decoded = decodeSign1(receipt);
  if (!decoded.ok) return decoded;
  const msg = decoded.value;
  const alg = protectedAlg(msg);
  if (!alg.ok) return alg;
  // vds decides how the proof is read, so it must be signed: the unprotected header is never read.
  const vds = msg.protectedHeader.get(HEADER_VDS);
  if (vds === undefined) return fail("RECEIPT_VDS_MISSING", "the protected header has no vds (label 395)");
  if (vds !== VDS_RFC9162_SHA256 && vds !== VDS_CCF_LEDGER_SHA256) {
    return fail(
      "RECEIPT_VDS_UNSUPPORTED",
      `vds ${String(vds)} is neither RFC9162_SHA256 (1) nor CCF_LEDGER_SHA256 (2)`,
    );
  }
  const understood = UNDERSTOOD_CRIT[vds] as ReadonlyArray<CborKey>;
  const crit = checkCrit(msg, understood);
  if (!crit.ok) return crit;
  if (msg.payload !== null)
    return fail("RECEIPT_PAYLOAD_ATTACHED", "a receipt's payload (the root) must be detached", "[2]");
  const proofs = inclusionProofs(msg);
  if (!proofs.ok) return proofs;
  const first = proofs.value[0] as Uint8Array;
  const at = `unprotected[${HEADER_VDP}][${VDP_INCLUSION_PROOFS}][0]`;
  const proof: Result<ProofRoot> =
    vds === VDS_RFC9162_SHA256
      ? rfc9162ProofRoot(first, leafEntry, at, trace)
      : ccfProofRoot(first, leafEntry, at, trace);
  if (!proof.ok) return proof;
  return ok({
    message: msg,
    understoodCrit: understood,
    vds,
    alg: alg.value,
    treeSize: proof.value.treeSize,
    leafIndex: proof.value.leafIndex,
    proofCount: proofs.value.length,
    root: proof.value.root,
    signatureChecked: false,
  });
}

/** A receipt's signed `iat`: claim 6 of the CWT claims map (label 15) in its protected header. */
export function receiptIatOf(receipt: CheckedReceipt): bigint | undefined {
  const claims = receipt.message.protectedHeader.get(HEADER_CWT_CLAIMS);
  if (!(claims instanceof Map)) return undefined;
  const iat = claims.get(6);
  if (typeof iat === "bigint") return iat >= 0n ? iat : undefined;
  return typeof iat === "number" && Number.isSafeInteger(iat) && iat >= 0 ? BigInt(iat) : undefined;
}

/** Unprotected 396 must be a map whose −1 is a non-empty array of at most 16 bstr. */
function inclusionProofs(msg: Sign1): Result<Uint8Array[]> {
  const vdp = msg.unprotectedHeader.get(HEADER_VDP);
  if (vdp === undefined) return fail("RECEIPT_PROOFS_MISSING", "no verifiable data proofs (unprotected label 396)");
  if (!(vdp instanceof Map))
    return fail("RECEIPT_PROOFS_MALFORMED", "label 396 must be a map", `unprotected[${HEADER_VDP}]`);
  const proofs = (vdp as CborMap).get(VDP_INCLUSION_PROOFS);
  const at = `unprotected[${HEADER_VDP}][${VDP_INCLUSION_PROOFS}]`;
  if (proofs === undefined) return fail("RECEIPT_PROOFS_MISSING", "no inclusion proofs (-1) in label 396", at);
  if (!Array.isArray(proofs) || proofs.length === 0 || proofs.length > MAX_INCLUSION_PROOFS) {
    return fail(
      "RECEIPT_PROOFS_MALFORMED",
      `inclusion proofs must be an array of 1 to ${MAX_INCLUSION_PROOFS} bstr`,
      at,
    );
  }
  if (!proofs.every((p) => p instanceof Uint8Array))
    return fail("RECEIPT_PROOFS_MALFORMED", "every inclusion proof must be a bstr", at);
  return ok(proofs as Uint8Array[]);
}
