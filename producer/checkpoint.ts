/**
 * CLL checkpoints (log-and-receipts.md §4): the signed record of the producer's MMR at one size.
 *
 * The signing body is pyjson of exactly nine fields; the Ed25519 signature is over the 64 ASCII
 * characters of the body's SHA-256 hex — not the raw digest, not the body (§4.2, pitfall 1).
 * A Transparency Service registers `entry_hash` = SHA-256(raw digest), so a receipt binds every
 * signed field of the checkpoint.
 */
import type { JsonObject } from "../src/json/value.js";
import { bytesToHex, hexToBytes, sha256Hex, utf8 } from "../src/util/bytes.js";
import type { Ed25519Signer } from "./ed25519.js";
import { int, jsonObject, pyjsonDigestHex } from "./json-text.js";

export interface CheckpointFields {
  readonly logId: string;
  readonly mmrSize: number;
  readonly root: string;
  /** The previous checkpoint's mmr_size; 0 for a log's first checkpoint. */
  readonly prevSize: number;
  /** The previous checkpoint's root; "" for a log's first checkpoint. */
  readonly prevRoot: string;
  readonly timestamp: string;
}

/** The nine signed fields, in the JSON shape of `manifest.cllCheckpoint`. */
export function checkpointSigningFields(fields: CheckpointFields, keyIdHex: string): JsonObject {
  return jsonObject({
    key_id: keyIdHex,
    kind: "mmr_checkpoint",
    log_id: fields.logId,
    mmr_size: int(fields.mmrSize),
    prev_root: fields.prevRoot,
    prev_size: int(fields.prevSize),
    root: fields.root,
    timestamp: fields.timestamp,
    v: int(1),
  });
}

const SIGNED_FIELDS = ["key_id", "kind", "log_id", "mmr_size", "prev_root", "prev_size", "root", "timestamp", "v"];

/** digest_hex = hex SHA-256 of pyjson of the nine signed fields; `signature`, `witnesses` are not signed. */
export function checkpointDigestHex(checkpoint: JsonObject): string {
  return pyjsonDigestHex(jsonObject(Object.fromEntries(SIGNED_FIELDS.map((name) => [name, checkpoint[name]]))));
}

/** entry_hash = SHA-256(bytes.fromhex(digest_hex)) = SHA-256(SHA-256(body)). */
export function entryHashOf(digestHex: string): string {
  return sha256Hex(hexToBytes(digestHex) as Uint8Array);
}

export interface SignedCheckpoint {
  /** The checkpoint JSON with `signature`; `witnesses` are added once registered. */
  readonly checkpoint: JsonObject;
  readonly digestHex: string;
  readonly entryHash: string;
}

export function signCheckpoint(fields: CheckpointFields, signer: Ed25519Signer): SignedCheckpoint {
  const checkpoint = checkpointSigningFields(fields, signer.publicKeyHex);
  const digestHex = checkpointDigestHex(checkpoint);
  checkpoint.signature = bytesToHex(signer.sign(utf8(digestHex)));
  return { checkpoint, digestHex, entryHash: entryHashOf(digestHex) };
}
