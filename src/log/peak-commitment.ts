/**
 * The peak-list commitment of the CLL COSE wire form (log-and-receipts §3.6): the canonical CBOR
 * array of the peak hashes as 32-byte bstrs, tallest first — `0x80+n` then `58 20 ‖ peak` per peak.
 *
 * Only one encoding of a peak list is accepted. Indefinite lengths, non-minimal heads, elements
 * of another size and trailing bytes are refused, so a commitment's bytes and its peaks are in
 * one-to-one correspondence and a signature over them cannot be read two ways. The format is too
 * small to need a general CBOR decoder.
 */
import { fail, ok, type Result } from "../result.js";
import { bagPeaks } from "./mmr-hash.js";
import { mountains } from "./mmr-position.js";

const MAJOR_ARRAY = 0x80;
const ONE_BYTE_LENGTH = 24;
const INDEFINITE = 31;
/** A one-byte count covers every MMR below 2^50, which has at most 50 peaks. */
const MAX_PEAKS = 255;
/** The head of a 32-byte bstr: major type 2, additional information 24, length 32. */
const PEAK_HEAD_0 = 0x58;
const PEAK_HEAD_1 = 0x20;
const PEAK_ITEM = 2 + 32;

export function encodePeakCommitment(peakHashes: readonly Uint8Array[]): Result<Uint8Array> {
  const n = peakHashes.length;
  if (n > MAX_PEAKS) return fail("COMMITMENT_TOO_MANY_PEAKS", `${n} peaks; no MMR below 2^50 has more than 50`);
  const bad = peakHashes.findIndex((p) => p.length !== 32);
  if (bad >= 0)
    return fail("COMMITMENT_PEAK_MALFORMED", `peak ${bad} is ${(peakHashes[bad] as Uint8Array).length} bytes, not 32`);
  const head = n < ONE_BYTE_LENGTH ? [MAJOR_ARRAY + n] : [MAJOR_ARRAY + ONE_BYTE_LENGTH, n];
  const out = new Uint8Array(head.length + n * PEAK_ITEM);
  out.set(head, 0);
  peakHashes.forEach((p, i) => {
    const at = head.length + i * PEAK_ITEM;
    out[at] = PEAK_HEAD_0;
    out[at + 1] = PEAK_HEAD_1;
    out.set(p, at + 2);
  });
  return ok(out);
}

function readCount(bytes: Uint8Array): Result<{ count: number; offset: number }> {
  const first = bytes[0];
  if (first === undefined || first >> 5 !== MAJOR_ARRAY >> 5) {
    return fail("COMMITMENT_MALFORMED", "a peak-list commitment is a CBOR array", "byte 0");
  }
  const info = first & 0x1f;
  if (info < ONE_BYTE_LENGTH) return ok({ count: info, offset: 1 });
  if (info === INDEFINITE) return fail("COMMITMENT_INDEFINITE_LENGTH", "indefinite-length array (0x9f)", "byte 0");
  if (info !== ONE_BYTE_LENGTH) {
    // 25..27 announce 256 or more peaks when minimal; 28..30 are reserved in RFC 8949.
    const code = info <= 27 ? "COMMITMENT_TOO_MANY_PEAKS" : "COMMITMENT_MALFORMED";
    return fail(code, `array head 0x${first.toString(16)} is not a peak-list length`, "byte 0");
  }
  const count = bytes[1];
  if (count === undefined) return fail("COMMITMENT_MALFORMED", "truncated array head", "byte 1");
  if (count < ONE_BYTE_LENGTH)
    return fail("COMMITMENT_NOT_CANONICAL", `length ${count} must be encoded in the head byte`, "byte 1");
  return ok({ count, offset: 2 });
}

/** The peak hashes of a commitment, tallest first, or the reason its bytes are not canonical. */
export function decodePeakCommitment(bytes: Uint8Array): Result<Uint8Array[]> {
  const head = readCount(bytes);
  if (!head.ok) return head;
  const { count, offset } = head.value;
  // Checked before any allocation: the head is attacker-chosen.
  if (bytes.length < offset + count * PEAK_ITEM) {
    return fail("COMMITMENT_MALFORMED", `${count} peaks need ${offset + count * PEAK_ITEM} bytes, got ${bytes.length}`);
  }
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const at = offset + i * PEAK_ITEM;
    if (bytes[at] !== PEAK_HEAD_0 || bytes[at + 1] !== PEAK_HEAD_1) {
      return fail("COMMITMENT_PEAK_MALFORMED", `peak ${i} is not a 32-byte bstr (head 58 20)`, `byte ${at}`);
    }
    out.push(bytes.slice(at + 2, at + PEAK_ITEM));
  }
  const end = offset + count * PEAK_ITEM;
  if (bytes.length !== end)
    return fail("COMMITMENT_TRAILING_BYTES", `${bytes.length - end} bytes after the array`, `byte ${end}`);
  return ok(out);
}

/**
 * The bagged CLL root committed by a peak list for an MMR of `size` nodes: the list must hold
 * exactly as many peaks as that size has, or an attacker could drop or append a mountain.
 */
export function peakCommitmentRoot(bytes: Uint8Array, size: number): Result<Uint8Array> {
  const ms = mountains(size);
  if (!ms.ok) return ms;
  const decoded = decodePeakCommitment(bytes);
  if (!decoded.ok) return decoded;
  if (decoded.value.length !== ms.value.length) {
    return fail("COMMITMENT_PEAK_COUNT_MISMATCH", `${decoded.value.length} peaks, MMR(${size}) has ${ms.value.length}`);
  }
  return ok(bagPeaks(decoded.value));
}
