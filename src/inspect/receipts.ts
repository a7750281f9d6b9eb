/**
 * Each witness record's Transparency Service receipt (log-and-receipts.md §5): the entry hash
 * recomputed from the checkpoint beside the stated one, the receipt's decoded protected and
 * unprotected headers, the inclusion proof's leaf hash and each fold of its path (RFC 9162) or
 * the CCF leaf and steps, the root, and the signature over the exact Sig_structure under each key
 * the trust file pins for the record's ts_url — the calls verify makes, traced.
 */
import { decodeSign1, sigStructure } from "../cose/sign1.js";
import { joinPath } from "../json/path.js";
import { isJsonObject, member, memberAt, type JsonValue } from "../json/value.js";
import { checkpointEntryHash } from "../log/checkpoint.js";
import { checkReceipt, verifyReceiptSignature, type CheckedReceipt } from "../log/receipt.js";
import { isStub } from "../evidence/receipts.js";
import type { EvidenceContext } from "../evidence/context.js";
import { CHECKPOINT_PATH, manifestCheckpoint } from "../evidence/manifest-checkpoint.js";
import { judgeOperator, operatorText } from "../evidence/operator.js";
import { valueText } from "../json/diff.js";
import { base64ToBytesStrict, hexToBytes } from "../util/bytes.js";
import { binary, hex, listed, malformed, stepFailure } from "./common.js";
import { coseSection } from "./cose.js";
import type {
  Absent,
  Bytes,
  InspectOptions,
  PathFoldStep,
  ReceiptProof,
  ReceiptRecord,
  ReceiptsSection,
  SignatureResult,
  StepFailure,
} from "./model.js";

const AT = joinPath(CHECKPOINT_PATH, "witnesses");

export function receiptsSection(ctx: EvidenceContext, o: InspectOptions): ReceiptsSection | Absent {
  const parsed = manifestCheckpoint(ctx);
  if (parsed === undefined) return { absent: "the bundle carries no checkpoint" };
  const raw = memberAt(ctx.manifest, "cllCheckpoint", "witnesses");
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0))
    return { absent: "the checkpoint carries no witness stamps" };
  const cp = parsed.result;
  if (!cp.ok) return { absent: `the checkpoint is malformed, so no stamp can be bound to it: ${cp.detail}` };
  const entryHash = checkpointEntryHash(cp.value);
  return {
    at: AT,
    records: listed(cp.value.witnesses ?? [], o, (record, i) => recordOf(ctx, record, joinPath(AT, i), entryHash, o)),
  };
}

function blank(at: string, tsUrl: string | null): ReceiptRecord {
  return {
    at,
    tsUrl,
    stub: false,
    entryHash: null,
    receipt: null,
    cose: null,
    vds: null,
    proof: null,
    proofCount: null,
    root: null,
    recordPosition: null,
    sigStructure: null,
    signature: "not checked",
    signatureDetail: "",
    key: null,
    trustPath: null,
  };
}

function recordOf(
  ctx: EvidenceContext,
  record: JsonValue,
  at: string,
  entryHash: string,
  o: InspectOptions,
): ReceiptRecord {
  if (!isJsonObject(record)) return { ...blank(at, null), failure: malformed("witness record is not an object", at) };
  const url = member(record, "ts_url");
  const tsUrl = typeof url === "string" ? url : null;
  if (isStub(record))
    return { ...blank(at, tsUrl), stub: true, signatureDetail: "a stub stamp (placeholder, no receipt): never counts" };
  const stated = member(record, "entry_hash");
  const statedText = stated === undefined ? null : valueText(stated);
  let out: ReceiptRecord = {
    ...blank(at, tsUrl),
    entryHash: { stated: statedText, recomputed: entryHash, equal: stated === entryHash },
    recordPosition: {
      treeSize: valueText(member(record, "tree_size")),
      leafIndex: valueText(member(record, "leaf_index")),
    },
  };
  if (tsUrl === null) return { ...out, failure: malformed("ts_url is not a string", joinPath(at, "ts_url")) };
  const b64 = member(record, "receipt_b64");
  const bytes = typeof b64 === "string" ? base64ToBytesStrict(b64) : undefined;
  if (!bytes)
    return { ...out, failure: malformed("receipt_b64 is not strict standard base64", joinPath(at, "receipt_b64")) };
  const decoded = decodeSign1(bytes);
  out = { ...out, receipt: binary(bytes, o), ...(decoded.ok ? { cose: coseSection(decoded.value, o) } : {}) };
  const vds = decoded.ok ? decoded.value.protectedHeader.get(395) : undefined;
  if (typeof vds === "number") out = { ...out, vds };

  // The leaf entry is the entry hash recomputed from the checkpoint: a stamp about this checkpoint
  // folds from it (a stated entry_hash is only a claim, compared above).
  const folds: PathFoldStep[] = [];
  let proof: ReceiptProof | null = null;
  const structure = checkReceipt(bytes, hexToBytes(entryHash) as Uint8Array, {
    rfc9162: (treeSize, leafIndex, leafHash) =>
      (proof = { kind: "RFC9162_SHA256", treeSize, leafIndex, leafHash: hex(leafHash), folds }),
    ccf: (leaf, leafHash) =>
      (proof = {
        kind: "CCF_LEDGER_SHA256",
        treeSize: null,
        leafIndex: null,
        writeSetDigest: hex(leaf.writeSetDigest),
        commitEvidence: leaf.commitEvidence,
        claimsDigest: hex(leaf.claimsDigest),
        leafHash: hex(leafHash),
        folds,
      }),
    fold: (index, sibling, siblingIsLeft, result) =>
      folds.push({ index, sibling: hex(sibling), siblingSide: siblingIsLeft ? "left" : "right", result: hex(result) }),
  });
  out = { ...out, proof };
  if (!structure.ok) return { ...out, failure: stepFailure(structure) };
  const checked = structure.value;
  out = { ...out, vds: checked.vds, proofCount: checked.proofCount, root: hex(checked.root) };
  return { ...out, ...signature(ctx, checked, tsUrl, o) };
}

function signature(
  ctx: EvidenceContext,
  checked: CheckedReceipt,
  url: string,
  o: InspectOptions,
): {
  sigStructure: Bytes;
  signature: SignatureResult;
  signatureDetail: string;
  key: string | null;
  trustPath: string | null;
  failure?: StepFailure;
} {
  const service = ctx.trust?.transparencyServices.get(url);
  if (!service) {
    // Not checked, as in verify; the bytes a pinned key would be checked over are still shown.
    const toBeSigned = binary(sigStructure(checked.message.protectedBytes, new Uint8Array(0), checked.root), o);
    const why = ctx.trust
      ? `${url} is not a Transparency Service in the trust file`
      : "no trust file: no key is pinned for this service";
    return { sigStructure: toBeSigned, signature: "not checked", signatureDetail: why, key: null, trustPath: null };
  }
  const operator = operatorText(judgeOperator(ctx, service.keys, service.operator));
  let toBeSigned: Bytes | undefined;
  let last: StepFailure | undefined;
  for (const k of service.keys) {
    const r = verifyReceiptSignature(checked, k.key, (b) => {
      toBeSigned ??= binary(b, o);
    });
    if (r.ok) {
      return {
        sigStructure: toBeSigned as Bytes,
        signature: "verifies",
        signatureDetail: `under the key pinned at ${k.path} (${operator})`,
        key: k.key.fingerprint,
        trustPath: k.path,
      };
    }
    last = stepFailure(r);
  }
  return {
    sigStructure:
      toBeSigned ?? binary(sigStructure(checked.message.protectedBytes, new Uint8Array(0), checked.root), o),
    signature: "does not verify",
    signatureDetail: `under any of the ${service.keys.length} key(s) pinned for ${url} (${operator})`,
    key: null,
    trustPath: null,
    ...(last ? { failure: last } : {}),
  };
}
