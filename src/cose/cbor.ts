/**
 * Strict CBOR decoding for the trust boundary (log-and-receipts.md §1.3).
 *
 * A signature covers bytes, not values: if two encodings of one value were both accepted, what a
 * verifier checks and what another decoder reads could differ. So one data item is decoded and
 * everything else is refused: trailing bytes, indefinite lengths, non-minimal integers, lengths
 * and tag numbers, floats wider than their value needs (scitt-cose's canonical-length rule: the
 * value re-encoded canonically must have the received length), duplicate map keys, map keys
 * other than integers and text, invalid UTF-8, unknown tags, simple values other than false, true
 * and null, NaN and the infinities. Map key order is tolerated: it does not change the length.
 *
 * A direct decoder over the bytes, one pass, no intermediate tokens: COSE decoding sits on every
 * receipt and envelope of every bundle. Floats decode to `CborFloat`, never to a plain number, so
 * `1.0` can never pass for the integer 1; booleans stay booleans. Byte strings come back as copies
 * of exactly the received bytes.
 */
import type { CoseCode } from "../codes/cose.js";
import { fail, ok, type Result } from "../result.js";
import { concatBytes } from "../util/bytes.js";

/** A CBOR float, kept apart from integers so a typed reader can refuse it. */
export class CborFloat {
  constructor(readonly value: number) {}
}

/** A tagged item (only tags the caller accepts are decoded at all). */
export class CborTagged {
  constructor(
    readonly tag: number,
    readonly value: CborValue,
  ) {}
}

/** Map keys are limited to what COSE and CWT use for labels, and what a `Map` can compare. */
export type CborKey = number | bigint | string;
export type CborMap = Map<CborKey, CborValue>;
export type CborValue =
  number | bigint | string | boolean | null | Uint8Array | CborFloat | CborTagged | CborValue[] | CborMap;

export const COSE_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_DEPTH = 32;

export interface StrictCborOptions {
  /** Size cap in bytes; default 10 MiB (the COSE message cap of log-and-receipts.md §1.3). */
  readonly maxBytes?: number;
  /** Nesting cap; default 32, far above any structure this profile uses. */
  readonly maxDepth?: number;
  /** Tag numbers accepted (decoded to `CborTagged`); every other tag is refused. Default none. */
  readonly tags?: ReadonlyArray<number>;
}

/** Thrown inside the decoder to leave its recursion with a code and the offending offset. */
class CborReject extends Error {
  constructor(
    readonly code: CoseCode,
    detail: string,
    readonly offset: number,
  ) {
    super(detail);
  }
}

/** Made on first use: a run that decodes no CBOR text (or none at all) does not pay for it. */
let utf8: InstanceType<typeof TextDecoder> | undefined;
const F16 = new DataView(new ArrayBuffer(2));

/** Decodes exactly one strict CBOR data item; never throws. */
export function decodeStrictCbor(bytes: Uint8Array, options: StrictCborOptions = {}): Result<CborValue> {
  const maxBytes = options.maxBytes ?? COSE_MAX_BYTES;
  if (bytes.length > maxBytes) return fail("CBOR_TOO_LARGE", `${bytes.length} bytes exceeds the ${maxBytes}-byte cap`);
  const d = new Decoder(bytes, options.maxDepth ?? DEFAULT_MAX_DEPTH, options.tags ?? []);
  try {
    const value = d.item(0);
    if (d.pos < bytes.length)
      return fail("CBOR_TRAILING_BYTES", `${bytes.length - d.pos} byte(s) after the data item`, `@${d.pos}`);
    return ok(value);
  } catch (e) {
    if (e instanceof CborReject) return fail(e.code, e.message, `@${e.offset}`);
    return fail("CBOR_MALFORMED", e instanceof Error ? e.message : String(e), `@${d.pos}`);
  }
}

class Decoder {
  pos = 0;
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly maxDepth: number,
    private readonly tags: ReadonlyArray<number>,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number, at: number, what: string): void {
    if (this.pos + n > this.bytes.length) throw new CborReject("CBOR_TRUNCATED", `not enough data for ${what}`, at);
  }

  /** The argument of an item head with additional information `info` (< 28), minimal or refused. */
  private argument(info: number, at: number): number | bigint {
    if (info < 24) return info;
    const v = this.view;
    let value: number | bigint;
    if (info === 24) {
      this.need(1, at, "the argument");
      value = v.getUint8(this.pos);
      this.pos += 1;
      if (value < 24) throw new CborReject("CBOR_NON_MINIMAL", "integer encoded with more bytes than necessary", at);
    } else if (info === 25) {
      this.need(2, at, "the argument");
      value = v.getUint16(this.pos);
      this.pos += 2;
      if (value < 0x100) throw new CborReject("CBOR_NON_MINIMAL", "integer encoded with more bytes than necessary", at);
    } else if (info === 26) {
      this.need(4, at, "the argument");
      value = v.getUint32(this.pos);
      this.pos += 4;
      if (value < 0x10000)
        throw new CborReject("CBOR_NON_MINIMAL", "integer encoded with more bytes than necessary", at);
    } else {
      this.need(8, at, "the argument");
      const big = v.getBigUint64(this.pos);
      this.pos += 8;
      if (big < 0x1_0000_0000n)
        throw new CborReject("CBOR_NON_MINIMAL", "integer encoded with more bytes than necessary", at);
      value = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
    }
    return value;
  }

  item(depth: number): CborValue {
    const at = this.pos;
    if (at >= this.bytes.length)
      throw new CborReject("CBOR_TRUNCATED", at === 0 ? "empty input" : "not enough data: an item is missing", at);
    const initial = this.bytes[at] as number;
    this.pos++;
    const major = initial >> 5;
    const info = initial & 31;
    // Break (0xff) or additional info 31 on strings, arrays and maps: indefinite length.
    if (initial === 0xff || (info === 31 && major >= 2 && major <= 5))
      throw new CborReject("CBOR_INDEFINITE_LENGTH", "indefinite-length item", at);
    if (major === 7) return this.simple(info, at);
    if (info >= 28) throw new CborReject("CBOR_MALFORMED", `reserved additional information ${info}`, at);
    const arg = this.argument(info, at);
    switch (major) {
      case 0:
        return arg;
      case 1:
        return typeof arg === "bigint" || arg >= Number.MAX_SAFE_INTEGER ? -1n - BigInt(arg) : -1 - arg;
      case 2: {
        const n = this.length(arg, at, "a byte string");
        // A copy, and a plain Uint8Array even when the input is a Buffer (whose slice is a view).
        const out = new Uint8Array(this.bytes.subarray(this.pos, this.pos + n));
        this.pos += n;
        return out;
      }
      case 3: {
        const n = this.length(arg, at, "a text string");
        const raw = this.bytes.subarray(this.pos, this.pos + n);
        this.pos += n;
        return text(raw, at);
      }
      case 4: {
        const n = this.length(arg, at, "an array", 1);
        if (n > 0) this.deeper(depth, at);
        const out: CborValue[] = new Array<CborValue>(n);
        for (let i = 0; i < n; i++) out[i] = this.item(depth + 1);
        return out;
      }
      case 5: {
        const n = this.length(arg, at, "a map", 2);
        if (n > 0) this.deeper(depth, at);
        const out: CborMap = new Map();
        for (let i = 0; i < n; i++) {
          const keyAt = this.pos;
          if (keyAt >= this.bytes.length) throw new CborReject("CBOR_TRUNCATED", "not enough entries in a map", keyAt);
          const keyMajor = (this.bytes[keyAt] as number) >> 5;
          if (keyMajor > 1 && keyMajor !== 3)
            throw new CborReject("CBOR_MAP_KEY_TYPE", `map key of major type ${keyMajor}`, keyAt);
          const key = this.item(depth + 1) as CborKey;
          if (out.has(key)) throw new CborReject("CBOR_DUPLICATE_KEY", `repeat map key ${String(key)}`, keyAt);
          out.set(key, this.item(depth + 1));
        }
        return out;
      }
      default: {
        // major 6: a tag
        if (typeof arg === "bigint" || !this.tags.includes(arg))
          throw new CborReject("CBOR_TAG_UNSUPPORTED", `tag ${String(arg)} is not accepted here`, at);
        this.deeper(depth, at);
        if (this.pos >= this.bytes.length) throw new CborReject("CBOR_TRUNCATED", "tag content missing", at);
        return new CborTagged(arg, this.item(depth + 1));
      }
    }
  }

  /** A length that fits what is left of the input (each entry takes at least `perEntry` bytes). */
  private length(arg: number | bigint, at: number, what: string, perEntry = 1): number {
    const left = this.bytes.length - this.pos;
    if (typeof arg === "bigint" || arg * perEntry > left)
      throw new CborReject("CBOR_TRUNCATED", `not enough data for ${what}`, at);
    return arg;
  }

  private deeper(depth: number, at: number): void {
    if (depth >= this.maxDepth) throw new CborReject("CBOR_TOO_DEEP", `nesting deeper than ${this.maxDepth}`, at);
  }

  private simple(info: number, at: number): CborValue {
    if (info === 20) return false;
    if (info === 21) return true;
    if (info === 22) return null;
    if (info === 23) throw new CborReject("CBOR_MALFORMED", "undefined is not accepted", at);
    if (info < 20 || info === 24) throw new CborReject("CBOR_MALFORMED", "simple values are not accepted", at);
    if (info > 27) throw new CborReject("CBOR_MALFORMED", `reserved additional information ${info}`, at);
    const width = info === 25 ? 2 : info === 26 ? 4 : 8;
    this.need(width, at, "a float");
    const value =
      width === 2
        ? float16(this.view.getUint16(this.pos))
        : width === 4
          ? this.view.getFloat32(this.pos)
          : this.view.getFloat64(this.pos);
    this.pos += width;
    if (!Number.isFinite(value)) throw new CborReject("CBOR_MALFORMED", `${String(value)} is not accepted`, at);
    // The canonical re-encoding of a float is its narrowest exact width: a wider one changes the length.
    const narrowest = fitsFloat16(value) ? 2 : Math.fround(value) === value ? 4 : 8;
    if (narrowest < width) {
      throw new CborReject(
        "CBOR_NOT_CANONICAL_LENGTH",
        `float ${value} takes ${width} bytes where ${narrowest} suffice: the canonical re-encoding is shorter than received`,
        at,
      );
    }
    return new CborFloat(value);
  }
}

function text(raw: Uint8Array, at: number): string {
  let ascii = true;
  for (let i = 0; i < raw.length; i++) {
    if ((raw[i] as number) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return String.fromCharCode.apply(null, raw as unknown as number[]);
  try {
    utf8 ??= new TextDecoder("utf-8", { fatal: true });
    return utf8.decode(raw);
  } catch {
    throw new CborReject("CBOR_INVALID_UTF8", "text string is not valid UTF-8", at);
  }
}

function float16(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac === 0 ? sign * Infinity : NaN;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Whether a finite value is exactly representable as an IEEE 754 half. */
function fitsFloat16(value: number): boolean {
  if (value === 0) return true;
  const a = Math.abs(value);
  return a <= 65504 && a >= 2 ** -24 && float16Exact(value);
}

function float16Exact(value: number): boolean {
  // Build the half's bits for the value, then read them back: equal only when nothing was rounded.
  const a = Math.abs(value);
  const exp = Math.floor(Math.log2(a));
  let bits: number;
  if (exp < -14) bits = Math.round(a / 2 ** -24);
  else bits = ((exp + 15) << 10) | Math.round((a / 2 ** exp - 1) * 1024);
  if (value < 0) bits |= 0x8000;
  F16.setUint16(0, bits);
  return float16(F16.getUint16(0)) === value;
}

// Typed readers: every field read from decoded CBOR goes through one of these, so a boolean, a
// float or a bigint can never stand in for an integer, nor text for bytes.

/** A short description of a decoded value for failure details: scalars by value, the rest by type. */
export function describeCbor(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "bigint") return String(v);
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (v instanceof Uint8Array) return `bstr(${v.length})`;
  if (v instanceof CborFloat) return `float ${v.value}`;
  if (v instanceof CborTagged) return `tag ${v.tag}`;
  if (v instanceof Map) return "map";
  return Array.isArray(v) ? "array" : typeof v;
}

function mismatch(expected: string, v: CborValue | undefined, path: string) {
  return fail("CBOR_TYPE_MISMATCH", `expected ${expected}, got ${describeCbor(v)}`, path);
}

/** A CBOR integer within ±(2^53 − 1). */
export function readInt(v: CborValue | undefined, path: string): Result<number> {
  if (typeof v === "bigint") return fail("CBOR_INTEGER_RANGE", `integer ${v} is beyond 2^53 - 1`, path);
  if (typeof v !== "number") return mismatch("integer", v, path);
  return ok(v);
}

/** A CBOR unsigned integer up to 2^53 − 1. */
export function readUint(v: CborValue | undefined, path: string): Result<number> {
  const n = readInt(v, path);
  if (n.ok && n.value < 0) return fail("CBOR_INTEGER_RANGE", `integer ${n.value} is negative`, path);
  return n;
}

export function readBytes(v: CborValue | undefined, path: string): Result<Uint8Array> {
  return v instanceof Uint8Array ? ok(v) : mismatch("bstr", v, path);
}

export function readText(v: CborValue | undefined, path: string): Result<string> {
  return typeof v === "string" ? ok(v) : mismatch("tstr", v, path);
}

export function readBool(v: CborValue | undefined, path: string): Result<boolean> {
  return typeof v === "boolean" ? ok(v) : mismatch("bool", v, path);
}

export function readArray(v: CborValue | undefined, path: string): Result<CborValue[]> {
  return Array.isArray(v) ? ok(v) : mismatch("array", v, path);
}

export function readMap(v: CborValue | undefined, path: string): Result<CborMap> {
  return v instanceof Map ? ok(v) : mismatch("map", v, path);
}

/** The head of a byte string of `n` bytes, in its shortest form. */
function bstrHead(n: number): Uint8Array {
  if (n < 24) return Uint8Array.of(0x40 | n);
  if (n < 0x100) return Uint8Array.of(0x58, n);
  if (n < 0x10000) return Uint8Array.of(0x59, n >> 8, n & 0xff);
  return Uint8Array.of(0x5a, n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/** `["Signature1", …]` as its array head and text string, the fixed start of every Sig_structure. */
const SIGNATURE1 = Uint8Array.of(0x84, 0x6a, ...new TextEncoder().encode("Signature1"));

/** RFC 9052 §4.4 Sig_structure for COSE_Sign1: ["Signature1", protected, external_aad, payload], deterministically encoded. */
export function encodeSigStructure(
  protectedBytes: Uint8Array,
  externalAad: Uint8Array,
  payload: Uint8Array,
): Uint8Array {
  return concatBytes(
    SIGNATURE1,
    bstrHead(protectedBytes.length),
    protectedBytes,
    bstrHead(externalAad.length),
    externalAad,
    bstrHead(payload.length),
    payload,
  );
}
