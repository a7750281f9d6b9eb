/** Byte helpers shared by every primitive: strict hex and base64, SHA-256, comparison. */
import { createHash } from "node:crypto";

const HEX64 = /^[0-9a-f]{64}$/;
const LOWER_HEX = /^(?:[0-9a-f]{2})*$/;

/** The profile's id grammar: exactly 64 lowercase hex characters, anchored, nothing else. */
export function isHex64(s: unknown): s is string {
  return typeof s === "string" && HEX64.test(s);
}

/** Lowercase, even-length hex to bytes; undefined for anything else (no prefixes, no case folding). */
export function hexToBytes(s: string): Uint8Array | undefined {
  if (!LOWER_HEX.test(s)) return undefined;
  return new Uint8Array(Buffer.from(s, "hex"));
}

export function bytesToHex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
}

export function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

export function sha256Hex(...parts: Uint8Array[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex");
}

export function utf8(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, "utf8"));
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/** 8-byte big-endian encoding of a non-negative safe integer. */
export function be64(n: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

/**
 * Standard base64 with padding, the form ProtoJSON prints for `bytes`. Node's decoder silently
 * skips characters outside the alphabet and accepts the URL-safe alphabet and missing padding, so
 * the text must be exactly what re-encoding the decoded bytes gives: that one comparison refuses
 * stray characters, whitespace, the URL-safe alphabet, missing padding and non-zero trailing bits
 * (two encodings of one byte string).
 */
export function base64ToBytesStrict(s: string): Uint8Array | undefined {
  const bytes = Buffer.from(s, "base64");
  if (bytes.toString("base64") !== s) return undefined;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function bytesToBase64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
}
