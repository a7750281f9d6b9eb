/** Byte helpers shared by every primitive: strict hex and base64, SHA-256, comparison. */
import { hash } from "node:crypto";

const HEX64 = /^[0-9a-f]{64}$/;
const LOWER_HEX = /^(?:[0-9a-f]{2})*$/;

/** The profile's id grammar: exactly 64 lowercase hex characters, anchored, nothing else. */
export function isHex64(s: unknown): s is string {
  return typeof s === "string" && HEX64.test(s);
}

/** Each ASCII unit's value as a lowercase hex digit, -1 for any other unit. */
const HEX_DIGIT = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let c = 0; c < 10; c++) t[0x30 + c] = c;
  for (let c = 0; c < 6; c++) t[0x61 + c] = 10 + c;
  return t;
})();

/**
 * The bytes of an id in the profile's grammar (`isHex64`); undefined for anything else. Decoded
 * here, in one pass that also checks the grammar: a proof names dozens of these, and Node's hex
 * decoder (a call into C++ and a slice of its pool each) cost more than the checking.
 */
export function hex64ToBytes(s: unknown): Uint8Array | undefined {
  return typeof s === "string" && s.length === 64 ? decodeLowerHex(s) : undefined;
}

/** Up to this many characters, hex is decoded in one checked pass; longer text by Node. */
const SHORT_HEX = 256;
/** Where hex text of up to SHORT_HEX characters is written as UTF-8 before it is decoded. */
const hexUnits = new Uint8Array(SHORT_HEX);

/**
 * Lowercase hex of even length, at most SHORT_HEX characters, to bytes, checked as it is decoded;
 * undefined at any other unit. The text is first written as UTF-8 in one native call: reading a
 * byte array costs much less than `charCodeAt` on the parser's strings, which are views into the
 * input's text. Only whole characters are written; a unit outside ASCII becomes bytes above 0x7f
 * (a lone surrogate too), and no such byte is a hex digit. So every unit was written, as the one
 * byte it is, exactly when as many bytes as units were written and none is above 0x7f.
 */
function decodeLowerHex(s: string): Uint8Array | undefined {
  const m = s.length;
  if (UTF8_WRITE === undefined) return LOWER_HEX.test(s) ? new Uint8Array(Buffer.from(s, "hex")) : undefined;
  if (UTF8_WRITE.call(hexUnits, s, 0, m) !== m) return undefined;
  const n = m >>> 1;
  const out = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 2) {
    const a = hexUnits[j] as number;
    const b = hexUnits[j + 1] as number;
    const hi = a < 128 ? (HEX_DIGIT[a] as number) : -1;
    const lo = b < 128 ? (HEX_DIGIT[b] as number) : -1;
    if ((hi | lo) < 0) return undefined;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/**
 * Node's own conversions between bytes and text, called on a plain byte view.
 * `Buffer.from(view).toString("hex")` first makes a Buffer object for the view, which costs more
 * than the conversion: about twice as much in optimized code and four times before V8 optimizes
 * the caller, which is most of a run over a few hundred inputs. These methods of
 * `Buffer.prototype` take any Uint8Array; where a Node lacks one, the Buffer way is used.
 */
interface NodeSlices {
  hexSlice?: (this: Uint8Array, start: number, end: number) => string;
  latin1Slice?: (this: Uint8Array, start: number, end: number) => string;
  hexWrite?: (this: Uint8Array, text: string, offset: number, length: number) => number;
  utf8Write?: (this: Uint8Array, text: string, offset: number, length: number) => number;
}
const NODE = Buffer.prototype as unknown as NodeSlices;
const HEX_SLICE = typeof NODE.hexSlice === "function" ? NODE.hexSlice : undefined;
const LATIN1_SLICE = typeof NODE.latin1Slice === "function" ? NODE.latin1Slice : undefined;
const HEX_WRITE = typeof NODE.hexWrite === "function" ? NODE.hexWrite : undefined;
const UTF8_WRITE = typeof NODE.utf8Write === "function" ? NODE.utf8Write : undefined;

/** Lowercase, even-length hex to bytes; undefined for anything else (no prefixes, no case folding). */
export function hexToBytes(s: string): Uint8Array | undefined {
  if (typeof s !== "string" || s.length % 2 !== 0) return undefined;
  // Digests, keys and signatures: a check of the text and a call into C++ cost more than one pass.
  if (s.length <= SHORT_HEX) return decodeLowerHex(s);
  if (!LOWER_HEX.test(s)) return undefined;
  if (HEX_WRITE === undefined) return new Uint8Array(Buffer.from(s, "hex"));
  const out = new Uint8Array(s.length >>> 1);
  HEX_WRITE.call(out, s, 0, out.length);
  return out;
}

export function bytesToHex(b: Uint8Array): string {
  return HEX_SLICE ? HEX_SLICE.call(b, 0, b.length) : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
}

/** One character per byte (U+0000–U+00FF): a byte string as a string, for keys and comparisons. */
export function bytesToLatin1(b: Uint8Array): string {
  return LATIN1_SLICE
    ? LATIN1_SLICE.call(b, 0, b.length)
    : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");
}

/** Where small inputs of several parts are joined for one hash call, which reads them at once. */
const scratch = new Uint8Array(4096);
/** Views of the scratch buffer's first n bytes, by n, made once each: proofs hash a few sizes only. */
const scratchViews: Uint8Array[] = [];

/**
 * One buffer for the parts, in order, an absent one empty: Node's one-shot hash is much cheaper
 * than a Hash object per call. Parts that fit are copied into the scratch buffer (hashed before
 * anything else can use it), so the many small hashes of a proof (a prefix byte and two nodes)
 * allocate nothing; a single part is hashed where it is.
 */
function joined(a: Uint8Array, b?: Uint8Array, c?: Uint8Array, d?: Uint8Array): Uint8Array {
  if (b === undefined && c === undefined && d === undefined) return a;
  const size =
    a.length + (b === undefined ? 0 : b.length) + (c === undefined ? 0 : c.length) + (d === undefined ? 0 : d.length);
  const out = size > scratch.length ? new Uint8Array(size) : scratchView(size);
  out.set(a, 0);
  let o = a.length;
  if (b !== undefined) {
    out.set(b, o);
    o += b.length;
  }
  if (c !== undefined) {
    out.set(c, o);
    o += c.length;
  }
  if (d !== undefined) out.set(d, o);
  return out;
}

/** The scratch buffer's first `n` bytes, as a view made once per size. */
function scratchView(n: number): Uint8Array {
  return (scratchViews[n] ??= scratch.subarray(0, n));
}

/**
 * A digest's bytes from the digest as Node's one-shot hash gives it in latin1 (`binary`, one unit
 * per byte). Asked for a Buffer instead, `hash` spends more than half of its time on the name of
 * the output form, which its fast path recognises only for the text forms; this copy costs less.
 */
function latin1Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * SHA-256 of the concatenation `a ‖ b ‖ c ‖ d`, an absent part empty. Up to four parts as fixed
 * parameters, not a list: a proof's leaf, node and bagging hashes (dozens a bundle, most of them
 * before V8 optimizes the callers) would otherwise each make an array of their parts.
 */
export function sha256(a: Uint8Array, b?: Uint8Array, c?: Uint8Array, d?: Uint8Array): Uint8Array {
  return latin1Bytes(hash("sha256", joined(a, b, c, d), "binary"));
}

/** `sha256` as lowercase hex. */
export function sha256Hex(a: Uint8Array, b?: Uint8Array, c?: Uint8Array, d?: Uint8Array): string {
  return hash("sha256", joined(a, b, c, d), "hex");
}

/** SHA-256 of a string's UTF-8 bytes (a lone surrogate becomes U+FFFD, as in `utf8`), in one native call. */
export function sha256HexOfText(s: string): string {
  return hash("sha256", s, "hex");
}

export function sha256OfText(s: string): Uint8Array {
  return latin1Bytes(hash("sha256", s, "binary"));
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
  // n is a safe integer (a size or an index): its high 32 bits are Math.floor(n / 2^32).
  const hi = Math.floor(n / 0x1_0000_0000);
  const lo = n >>> 0;
  out[0] = hi >>> 24;
  out[1] = (hi >>> 16) & 0xff;
  out[2] = (hi >>> 8) & 0xff;
  out[3] = hi & 0xff;
  out[4] = lo >>> 24;
  out[5] = (lo >>> 16) & 0xff;
  out[6] = (lo >>> 8) & 0xff;
  out[7] = lo & 0xff;
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

/**
 * A ProtoJSON `bytes` value as parsers read it (a2a-wire.md §1.1): the standard or the URL-safe
 * alphabet, padded or not. Strict all the same: one alphabet, padding only at the end and only to
 * a multiple of four, no stray characters, no non-zero trailing bits; anything else is undefined.
 */
export function protoJsonBytes(s: string): Uint8Array | undefined {
  const urlSafe = /[-_]/.test(s);
  if (urlSafe && /[+/]/.test(s)) return undefined;
  const body = s.replace(/=+$/, "");
  const padding = s.length - body.length;
  if (padding > 2 || (padding > 0 && s.length % 4 !== 0)) return undefined;
  if (!/^[A-Za-z0-9+/_-]*$/.test(body) || body.length % 4 === 1) return undefined;
  const standard = urlSafe ? body.replace(/-/g, "+").replace(/_/g, "/") : body;
  return base64ToBytesStrict(standard + "=".repeat((4 - (standard.length % 4)) % 4));
}

export function bytesToBase64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
}
