/**
 * cosignature/v1 (c2sp.org/tlog-cosignature v1.0.x, signature type 0x04): a witness's timestamped
 * Ed25519 signature over a checkpoint note.
 *
 *   line signature  keyID(4) ‖ be64(timestamp) ‖ Ed25519 signature(64)   — 76 bytes on the line
 *   signed message  "cosignature/v1" LF "time " <decimal timestamp> LF ‖ note text
 *
 * The message commits to the timestamp but not to the cosigner's name or key ID: a line can be
 * relabelled with another name and a recomputed key ID and still verify under the same key. The
 * trust file therefore refuses one key pinned for two witnesses, and the quorum counts witnesses,
 * never lines.
 *
 * The timestamp is the witness's claim of when it cosigned, never a proof of time: it is reported,
 * and compared only with a time the caller gives (`--at`).
 */
import type { KeyObject } from "node:crypto";
import { verifyEd25519 } from "../crypto/ed25519.js";
import { fail, ok, type Result } from "../result.js";
import { utf8 } from "../util/bytes.js";

/** Bytes after the key ID: u64 timestamp and a 64-byte signature. */
export const TIMESTAMPED_SIGNATURE_LENGTH = 72;
/** tlog-cosignature: the timestamp MUST be at most 2^63 − 1. */
const TIMESTAMP_LIMIT = 2n ** 63n;

export interface TimestampedSignature {
  /** POSIX seconds, as the witness claims them. */
  readonly timestamp: bigint;
  readonly signature: Uint8Array;
}

/** The signature bytes of a line (after its key ID), under a pinned cosignature/v1 key. */
export function parseTimestampedSignature(bytes: Uint8Array): Result<TimestampedSignature> {
  if (bytes.length !== TIMESTAMPED_SIGNATURE_LENGTH) {
    return fail(
      "COSIGNATURE_MALFORMED",
      `a cosignature/v1 line carries 76 bytes (key ID, timestamp, signature); this one ${bytes.length + 4}`,
    );
  }
  const timestamp = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0);
  // tlog-witness requires a non-zero timestamp; the spec caps it at 2^63 − 1.
  if (timestamp === 0n || timestamp >= TIMESTAMP_LIMIT) {
    return fail("COSIGNATURE_TIMESTAMP_INVALID", `timestamp ${timestamp} is outside 1 … 2^63 − 1`);
  }
  return ok({ timestamp, signature: bytes.slice(8) });
}

/** "cosignature/v1\ntime <T>\n" ‖ note: built as bytes, the note taken exactly as rendered. */
export function cosignedMessage(noteText: string, timestamp: bigint): Uint8Array {
  return utf8(`cosignature/v1\ntime ${timestamp.toString()}\n${noteText}`);
}

export function verifyCosignature(noteText: string, signed: TimestampedSignature, key: KeyObject): boolean {
  return verifyEd25519(key, cosignedMessage(noteText, signed.timestamp), signed.signature);
}
