/**
 * A Transparency Service as the profile's witness stamps describe it (log-and-receipts.md §5): an
 * RFC 9162 log of 32-byte entries, and for one entry a COSE Receipt — COSE_Sign1 with protected
 * `{395: 1 (RFC9162_SHA256), 1: alg}` (the local TS's order), unprotected
 * `{396: {-1: [bstr(cbor [tree_size, leaf_index, [path…]])]}}`, and the tree root as the
 * detached payload.
 *
 * The other entries of the log are fillers derived from the service's url, so our entry sits at
 * a chosen index of a tree of a chosen size and the audit path is a real one.
 */
import type { JsonObject } from "../src/json/value.js";
import { bytesToBase64, hexToBytes, sha256, utf8 } from "../src/util/bytes.js";
import {
  COSE_ALG_EDDSA,
  COSE_ALG_ES256,
  COSE_LABEL_ALG,
  COSE_LABEL_VDP,
  COSE_LABEL_VDS,
  VDP_INCLUSION_PROOFS,
  VDS_RFC9162_SHA256,
} from "./constants.js";
import { coseSign1, encodeCbor } from "./cose.js";
import { ProducerError } from "./errors.js";
import type { Ed25519Signer } from "./ed25519.js";
import type { P256Signer } from "./ecdsa-p256.js";
import { int, jsonObject, pyjsonBytes } from "./json-text.js";
import { Rfc9162Tree } from "./rfc9162.js";

export interface TransparencyService {
  readonly url: string;
  readonly signer: Ed25519Signer | P256Signer;
  /** Entries in the service's log once ours is registered. */
  readonly treeSize: number;
  /** Where our entry lands in that log. */
  readonly leafIndex: number;
  /** The CWT `iat` its receipt states, when it states one. */
  readonly iat?: number;
}

function fillerEntry(url: string, index: number): Uint8Array {
  return sha256(utf8(`a2a-evidence transparency service filler :: ${url} :: entry ${index}`));
}

/** The COSE Receipt for one entry: the RFC 9162 proof in the unprotected header, the root detached. */
export function receiptFor(
  signer: Pick<Ed25519Signer | P256Signer, "alg" | "sign">,
  treeSize: number,
  leafIndex: number,
  auditPath: readonly Uint8Array[],
  treeRoot: Uint8Array,
  iat?: number,
): Uint8Array {
  const inclusionProof = encodeCbor([treeSize, leafIndex, [...auditPath]]);
  return coseSign1({
    protectedHeader: [
      [COSE_LABEL_VDS, VDS_RFC9162_SHA256],
      [COSE_LABEL_ALG, signer.alg === "EdDSA" ? COSE_ALG_EDDSA : COSE_ALG_ES256],
      // CWT claims (label 15) with iat (claim 6): the time the service states it issued the receipt.
      ...(iat !== undefined ? [[15, new Map([[6, iat]])] as [number, Map<number, number>]] : []),
    ],
    unprotectedHeader: new Map([[COSE_LABEL_VDP, new Map([[VDP_INCLUSION_PROOFS, [inclusionProof]]])]]),
    payload: treeRoot,
    detached: true,
    sign: signer.sign,
  });
}

/**
 * Registers `entryHash` (hex) at `ts.leafIndex` of a `ts.treeSize`-entry log and returns the
 * WitnessRecord, as `cllCheckpoint.witnesses[]` carries it, with the receipt inside.
 */
export function register(ts: TransparencyService, entryHash: string): JsonObject {
  if (
    !Number.isSafeInteger(ts.treeSize) ||
    !Number.isSafeInteger(ts.leafIndex) ||
    ts.leafIndex < 0 ||
    ts.leafIndex >= ts.treeSize
  ) {
    throw new ProducerError(
      "PRODUCER_INDEX_OUT_OF_RANGE",
      `${ts.url}: leaf ${ts.leafIndex} is not in a log of ${ts.treeSize}`,
    );
  }
  const entries = Array.from({ length: ts.treeSize }, (_, i) =>
    i === ts.leafIndex ? (hexToBytes(entryHash) as Uint8Array) : fillerEntry(ts.url, i),
  );
  const tree = new Rfc9162Tree(entries);
  const receipt = receiptFor(ts.signer, ts.treeSize, ts.leafIndex, tree.auditPath(ts.leafIndex), tree.root(), ts.iat);
  return jsonObject({
    entry_hash: entryHash,
    leaf_index: int(ts.leafIndex),
    receipt_b64: bytesToBase64(receipt),
    tree_size: int(ts.treeSize),
    ts_url: ts.url,
  });
}

/**
 * A stub WitnessRecord, what CLL writes when no service confirmed the checkpoint: index and size
 * −1, `is_stub: true`, and a JSON placeholder (not COSE) in `receipt_b64`. It never counts.
 */
export function stubRecord(url: string, entryHash: string): JsonObject {
  const placeholder = jsonObject({ "cll-stub": true, crit: ["cll-stub"], entry_hash: entryHash, ts_url: url });
  return jsonObject({
    entry_hash: entryHash,
    is_stub: true,
    leaf_index: int(-1),
    receipt_b64: bytesToBase64(pyjsonBytes(placeholder)),
    tree_size: int(-1),
    ts_url: url,
  });
}
