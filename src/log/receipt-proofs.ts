/**
 * The inclusion proof inside a SCITT receipt (one entry of vdp 396 / −1), decoded strictly and
 * folded to the root the receipt's signature must cover (log-and-receipts.md §5.3–§5.5).
 *
 * Every count and index here is attacker-controlled, so each is read through a typed reader (a
 * boolean or float never passes for an integer) and bounded before any hashing; a path longer
 * than 64 steps is refused outright.
 */
import {
  decodeStrictCbor,
  readArray,
  readBool,
  readBytes,
  readMap,
  readText,
  readUint,
  type CborValue,
} from "../cose/cbor.js";
import type { LogCode } from "../codes/log.js";
import { fail, ok, type Result } from "../result.js";
import { bytesEqual } from "../util/bytes.js";
import { ccfRootFromInclusion, type CcfLeaf, type CcfPathStep } from "./ccf.js";
import { rfc9162LeafHash, rfc9162RootFromInclusion, type PathFold } from "./rfc9162.js";

/** Longest path accepted (scitt-cose's cap); far beyond any real log's depth. */
export const MAX_PATH_LENGTH = 64;

export interface ProofRoot {
  readonly root: Uint8Array;
  /** RFC 9162 only; a CCF proof carries neither. */
  readonly treeSize: number | null;
  readonly leafIndex: number | null;
}

/**
 * What the proof functions read and compute, for an explanation (`inspect`): the proof as read,
 * the leaf hash, then each fold of the path. Optional, and it never changes a result.
 */
export interface ProofTrace {
  readonly rfc9162?: (treeSize: number, leafIndex: number, leafHash: Uint8Array) => void;
  readonly ccf?: (leaf: CcfLeaf, leafHash: Uint8Array) => void;
  readonly fold?: PathFold;
}

/** vds 1: `cbor [tree_size, leaf_index, [bstr32, …]]`, leaf = SHA-256(0x00 ‖ entry). */
export function rfc9162ProofRoot(
  proof: Uint8Array,
  leafEntry: Uint8Array,
  at: string,
  trace?: ProofTrace,
): Result<ProofRoot> {
  const parsed = asMalformed(readRfc9162Proof(proof, at), "RECEIPT_PROOF_MALFORMED");
  if (!parsed.ok) return parsed;
  const { treeSize, leafIndex, path } = parsed.value;
  const tooLong = checkPathLength(path.length, `${at}[2]`);
  if (!tooLong.ok) return tooLong;
  const leafHash = rfc9162LeafHash(leafEntry);
  trace?.rfc9162?.(treeSize, leafIndex, leafHash);
  const root = rfc9162RootFromInclusion(leafHash, leafIndex, treeSize, path, trace?.fold);
  if (!root.ok) return fail(root.code, root.detail, at);
  return ok({ root: root.value, treeSize, leafIndex });
}

/**
 * vds 2: `{1: [write_set_digest, commit_evidence, claims_digest], 2: [[left, hash], …]}`; the
 * claims digest must be the leaf entry, or the proof is about some other statement.
 */
export function ccfProofRoot(
  proof: Uint8Array,
  leafEntry: Uint8Array,
  at: string,
  trace?: ProofTrace,
): Result<ProofRoot> {
  const parsed = asMalformed(readCcfProof(proof, at), "CCF_PROOF_MALFORMED");
  if (!parsed.ok) return parsed;
  const { leaf, path } = parsed.value;
  const tooLong = checkPathLength(path.length, `${at}[2]`);
  if (!tooLong.ok) return tooLong;
  if (!bytesEqual(leaf.claimsDigest, leafEntry)) {
    return fail("CCF_CLAIMS_DIGEST_MISMATCH", "claims_digest is not the leaf entry", `${at}[1][2]`);
  }
  const root = ccfRootFromInclusion(
    leaf,
    path,
    trace === undefined
      ? undefined
      : { leaf: (h) => trace.ccf?.(leaf, h), ...(trace.fold ? { fold: trace.fold } : {}) },
  );
  if (!root.ok) return fail(root.code, root.detail, at);
  return ok({ root: root.value, treeSize: null, leafIndex: null });
}

function checkPathLength(length: number, at: string): Result<void> {
  if (length > MAX_PATH_LENGTH) return fail("RECEIPT_PATH_TOO_LONG", `${length} steps exceeds ${MAX_PATH_LENGTH}`, at);
  return ok(undefined);
}

function readRfc9162Proof(
  proof: Uint8Array,
  at: string,
): Result<{ treeSize: number; leafIndex: number; path: Uint8Array[] }> {
  const fields = decodeProof(proof, at, readArray);
  if (!fields.ok) return fields;
  if (fields.value.length !== 3)
    return fail("RECEIPT_PROOF_MALFORMED", "proof must be [tree_size, leaf_index, path]", at);
  const treeSize = readUint(fields.value[0], `${at}[0]`);
  if (!treeSize.ok) return treeSize;
  const leafIndex = readUint(fields.value[1], `${at}[1]`);
  if (!leafIndex.ok) return leafIndex;
  const path = readEach(fields.value[2], `${at}[2]`, readBytes);
  if (!path.ok) return path;
  return ok({ treeSize: treeSize.value, leafIndex: leafIndex.value, path: path.value });
}

function readCcfProof(proof: Uint8Array, at: string): Result<{ leaf: CcfLeaf; path: CcfPathStep[] }> {
  const map = decodeProof(proof, at, readMap);
  if (!map.ok) return map;
  const leaf = readArray(map.value.get(1), `${at}[1]`);
  if (!leaf.ok) return leaf;
  if (leaf.value.length !== 3)
    return fail("CCF_PROOF_MALFORMED", "leaf must be [write_set_digest, ce, claims_digest]", `${at}[1]`);
  const writeSetDigest = readBytes(leaf.value[0], `${at}[1][0]`);
  if (!writeSetDigest.ok) return writeSetDigest;
  const commitEvidence = readText(leaf.value[1], `${at}[1][1]`);
  if (!commitEvidence.ok) return commitEvidence;
  const claimsDigest = readBytes(leaf.value[2], `${at}[1][2]`);
  if (!claimsDigest.ok) return claimsDigest;
  const path = readEach(map.value.get(2), `${at}[2]`, readCcfStep);
  if (!path.ok) return path;
  const parts = {
    writeSetDigest: writeSetDigest.value,
    commitEvidence: commitEvidence.value,
    claimsDigest: claimsDigest.value,
  };
  return ok({ leaf: parts, path: path.value });
}

function readCcfStep(step: CborValue, at: string): Result<CcfPathStep> {
  const pair = readArray(step, at);
  if (!pair.ok) return pair;
  if (pair.value.length !== 2) return fail("CCF_PROOF_MALFORMED", "path step must be [left, hash]", at);
  const left = readBool(pair.value[0], `${at}[0]`);
  if (!left.ok) return left;
  const hash = readBytes(pair.value[1], `${at}[1]`);
  return hash.ok ? ok({ left: left.value, hash: hash.value }) : hash;
}

/** The proof bstr strictly decoded and read as its top-level type. */
function decodeProof<T>(proof: Uint8Array, at: string, read: (v: CborValue, at: string) => Result<T>): Result<T> {
  const decoded = decodeStrictCbor(proof);
  return decoded.ok ? read(decoded.value, at) : fail(decoded.code, decoded.detail, `${at}${decoded.path ?? ""}`);
}

/** An array read element by element. */
function readEach<T>(
  value: CborValue | undefined,
  at: string,
  read: (v: CborValue, at: string) => Result<T>,
): Result<T[]> {
  const items = readArray(value, at);
  if (!items.ok) return items;
  const out: T[] = [];
  for (let i = 0; i < items.value.length; i++) {
    const item = read(items.value[i] as CborValue, `${at}[${i}]`);
    if (!item.ok) return item;
    out.push(item.value);
  }
  return ok(out);
}

/** Any decoding or reading failure inside a proof is reported as that proof being malformed. */
function asMalformed<T>(r: Result<T>, code: LogCode): Result<T> {
  if (r.ok || r.code === code) return r;
  return fail(code, `${r.code}: ${r.detail}`, r.path);
}
