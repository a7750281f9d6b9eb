/**
 * Strict CBOR decoding for the trust boundary (log-and-receipts.md §1.3), over cborg.
 *
 * A signature covers bytes, not values: if two encodings of one value were both accepted, what a
 * verifier checks and what another decoder reads could differ. So one data item is decoded and
 * everything else is refused: trailing bytes, indefinite lengths, non-minimal integers, lengths
 * and tag numbers, duplicate map keys, map keys other than integers and text, invalid UTF-8,
 * unknown tags. Finally the value is re-encoded canonically and must have the received length
 * (scitt-cose's rule): map key order is tolerated (it does not change the length), any other
 * re-encoding difference, such as a float wider than needed, is not.
 *
 * Floats decode to `CborFloat`, never to a plain number, so `1.0` can never pass for the integer 1;
 * booleans stay booleans. Byte strings come back as copies of exactly the received bytes.
 */
import { decodeFirst, encode, Tagged, Token, Tokenizer, Type, type DecodeOptions, type TagDecoder } from "cborg";
import type { CoseCode } from "../codes/cose.js";
import { fail, ok, type Result } from "../result.js";

/** A CBOR float, kept apart from integers so a typed reader can refuse it. */
export class CborFloat {
  constructor(readonly value: number) {}
}

export { Tagged as CborTagged };

/** Map keys are limited to what COSE and CWT use for labels, and what a `Map` can compare. */
export type CborKey = number | bigint | string;
export type CborMap = Map<CborKey, CborValue>;
export type CborValue =
  | number
  | bigint
  | string
  | boolean
  | null
  | Uint8Array
  | CborFloat
  | Tagged
  | CborValue[]
  | CborMap;

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

/** Decodes exactly one strict CBOR data item; never throws. */
export function decodeStrictCbor(bytes: Uint8Array, options: StrictCborOptions = {}): Result<CborValue> {
  const maxBytes = options.maxBytes ?? COSE_MAX_BYTES;
  if (bytes.length > maxBytes) return fail("CBOR_TOO_LARGE", `${bytes.length} bytes exceeds the ${maxBytes}-byte cap`);
  const tags = options.tags ?? [];
  const tagDecoders: { [tag: number]: TagDecoder } = {};
  for (const tag of tags) tagDecoders[tag] = Tagged.decoder(tag);
  const tokenizer = new StrictTokenizer(bytes, options.maxDepth ?? DEFAULT_MAX_DEPTH, new Set(tags));
  let value: CborValue;
  let canonicalLength: number;
  try {
    let rest: Uint8Array;
    [value, rest] = decodeFirst(bytes, { ...CBORG_OPTIONS, tags: tagDecoders, tokenizer }) as [CborValue, Uint8Array];
    if (rest.length > 0) {
      return fail("CBOR_TRAILING_BYTES", `${rest.length} byte(s) after the data item`, `@${bytes.length - rest.length}`);
    }
    canonicalLength = encode(value, { typeEncoders: { Object: encodeCborFloat } }).length;
  } catch (e) {
    return decodeFailure(e, tokenizer.pos());
  }
  if (canonicalLength !== bytes.length) {
    return fail("CBOR_NOT_CANONICAL_LENGTH", `canonical re-encoding is ${canonicalLength} bytes, received ${bytes.length}`);
  }
  return ok(value);
}

// cborg's own strictness is the first line; the tokenizer and the length rule above add the rest.
const CBORG_OPTIONS: DecodeOptions = {
  strict: true,
  useMaps: true,
  rejectDuplicateMapKeys: true,
  allowIndefinite: false,
  allowUndefined: false,
  allowNaN: false,
  allowInfinity: false,
  allowBigInt: true,
};

/** Thrown inside the tokenizer to leave cborg's recursion with a code of ours. */
class CborReject extends Error {
  constructor(
    readonly code: CoseCode,
    detail: string,
    readonly offset: number,
  ) {
    super(detail);
  }
}

// cborg reports its own refusals as plain Errors; these are the ones with a more precise code.
// The tests pin each mapping, so a reworded message in a future cborg fails loudly.
const CBORG_ERRORS: ReadonlyArray<readonly [RegExp, CoseCode]> = [
  [/more bytes than necessary/, "CBOR_NON_MINIMAL"],
  [/repeat map key/, "CBOR_DUPLICATE_KEY"],
  [/not enough data|not enough entries|did not find any content|tag content missing/, "CBOR_TRUNCATED"],
];

function decodeFailure(e: unknown, offset: number) {
  if (e instanceof CborReject) return fail(e.code, e.message, `@${e.offset}`);
  const message = messageOf(e);
  const known = CBORG_ERRORS.find(([pattern]) => pattern.test(message));
  return fail(known ? known[1] : "CBOR_MALFORMED", message, `@${offset}`);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function encodeCborFloat(value: unknown): Token | null {
  return value instanceof CborFloat ? new Token(Type.float, value.value) : null;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const NON_ASCII = /[^\x00-\x7f]/;

interface OpenItem {
  readonly isMap: boolean;
  readonly total: number;
  consumed: number;
}

/**
 * Wraps cborg's tokenizer to see every token in order: it tracks the open containers (for the
 * depth cap and to know which items are map keys) and applies the rules cborg lacks.
 */
class StrictTokenizer {
  private readonly inner: InstanceType<typeof Tokenizer>;
  private readonly open: OpenItem[] = [];

  constructor(
    private readonly data: Uint8Array,
    private readonly maxDepth: number,
    private readonly tags: ReadonlySet<number>,
  ) {
    this.inner = new Tokenizer(data, CBORG_OPTIONS);
  }

  done(): boolean {
    return this.inner.done();
  }

  pos(): number {
    return this.inner.pos();
  }

  next(): Token {
    const offset = this.inner.pos();
    const initial = this.data[offset] as number;
    // Break (0xff) or additional info 31 on strings, arrays and maps: indefinite length.
    if (initial === 0xff || ((initial & 31) === 31 && initial >= 0x40 && initial < 0xc0)) {
      throw new CborReject("CBOR_INDEFINITE_LENGTH", "indefinite-length item", offset);
    }
    const token = this.inner.next();
    const parent = this.open[this.open.length - 1];
    if (parent !== undefined) {
      if (parent.isMap && parent.consumed % 2 === 0 && !isLabelToken(token)) {
        throw new CborReject("CBOR_MAP_KEY_TYPE", `map key of type ${token.type.name}`, offset);
      }
      parent.consumed++;
    }
    const result = this.check(token, offset);
    this.closeCompleted();
    return result;
  }

  private check(token: Token, offset: number): Token {
    const type = token.type;
    if (Type.equals(type, Type.string)) {
      if (NON_ASCII.test(token.value as string)) this.checkUtf8(token, offset);
      return token;
    }
    if (Type.equals(type, Type.float)) return new Token(Type.float, new CborFloat(token.value as number), token.encodedLength);
    if (Type.equals(type, Type.tag) && !this.tags.has(token.value as number)) {
      throw new CborReject("CBOR_TAG_UNSUPPORTED", `tag ${String(token.value)} is not accepted here`, offset);
    }
    const children = Type.equals(type, Type.tag)
      ? 1
      : Type.equals(type, Type.array)
        ? (token.value as number)
        : Type.equals(type, Type.map)
          ? 2 * (token.value as number)
          : 0;
    if (children > 0) {
      if (this.open.length >= this.maxDepth) {
        throw new CborReject("CBOR_TOO_DEEP", `nesting deeper than ${this.maxDepth}`, offset);
      }
      this.open.push({ isMap: Type.equals(type, Type.map), total: children, consumed: 0 });
    }
    return token;
  }

  /** cborg decodes text leniently (U+FFFD for bad bytes); the received bytes must be valid UTF-8. */
  private checkUtf8(token: Token, offset: number): void {
    const length = token.encodedLength ?? 0;
    const raw = this.data.subarray(offset + headerLength(this.data[offset] as number), offset + length);
    try {
      UTF8.decode(raw);
    } catch {
      throw new CborReject("CBOR_INVALID_UTF8", "text string is not valid UTF-8", offset);
    }
  }

  private closeCompleted(): void {
    let top = this.open[this.open.length - 1];
    while (top !== undefined && top.consumed === top.total) {
      this.open.pop();
      top = this.open[this.open.length - 1];
    }
  }
}

function isLabelToken(token: Token): boolean {
  return Type.equals(token.type, Type.uint) || Type.equals(token.type, Type.negint) || Type.equals(token.type, Type.string);
}

/** Length of an item's head (initial byte plus argument), from its additional information. */
function headerLength(initial: number): number {
  const info = initial & 31;
  return info < 24 ? 1 : 1 + (1 << (info - 24));
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
  if (v instanceof Tagged) return `tag ${v.tag}`;
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
