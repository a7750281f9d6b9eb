/**
 * The protobuf wire format, read strictly (contract §3.1): every read is bounded by the end of
 * the message it belongs to, and every fault is a `ProtoFault` naming the byte offset in the
 * input. Varints are at most 10 bytes (the tenth carries at most one bit); groups (wire types 3
 * and 4) and the reserved wire types 6 and 7 are refused; field number 0 is refused.
 */
import type { InputCode } from "../../codes/input.js";

export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_I32 = 5;

/** A decoding fault: the code, what is wrong, the byte offset in the input and the field path. */
export class ProtoFault {
  constructor(
    readonly code: InputCode,
    readonly detail: string,
    readonly offset: number,
    readonly path: string,
  ) {}
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export interface Tag {
  readonly field: number;
  readonly wireType: number;
  /** Where the tag starts. */
  readonly at: number;
}

/**
 * A cursor over one input. `base` is the input offset of `bytes[0]`, so a frame read out of a
 * gRPC stream reports offsets in the whole file.
 */
export class WireReader {
  pos = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly base = 0,
  ) {}

  offset(at = this.pos): number {
    return this.base + at;
  }

  fault(code: InputCode, detail: string, path: string, at = this.pos): ProtoFault {
    return new ProtoFault(code, detail, this.offset(at), path);
  }

  /** A varint as a bigint (any 64-bit value), bounded by `end`. */
  varint(end: number, path: string): bigint {
    const start = this.pos;
    let result = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= end) {
        throw this.fault("INPUT_PROTOBUF_MALFORMED", "a varint is cut off by the end of its message", path, start);
      }
      const b = this.bytes[this.pos++] as number;
      if (i === 9 && b > 1) {
        throw this.fault("INPUT_PROTOBUF_MALFORMED", "a varint is longer than 64 bits", path, start);
      }
      result |= BigInt(b & 0x7f) << BigInt(7 * i);
      if ((b & 0x80) === 0) return result;
    }
    throw this.fault("INPUT_PROTOBUF_MALFORMED", "a varint is longer than 10 bytes", path, start);
  }

  /** A varint that must fit in 32 unsigned bits (tags, lengths). */
  uint32(end: number, path: string, what: string): number {
    const start = this.pos;
    const v = this.varint(end, path);
    if (v > 0xffffffffn) throw this.fault("INPUT_PROTOBUF_MALFORMED", `${what} does not fit in 32 bits`, path, start);
    return Number(v);
  }

  tag(end: number, path: string): Tag {
    const at = this.pos;
    const t = this.uint32(end, path, "a field tag");
    const field = t >>> 3;
    const wireType = t & 7;
    if (field === 0) throw this.fault("INPUT_PROTOBUF_MALFORMED", "field number 0 is not a valid field", path, at);
    if (wireType !== WIRE_VARINT && wireType !== WIRE_I64 && wireType !== WIRE_LEN && wireType !== WIRE_I32) {
      throw this.fault(
        "INPUT_PROTOBUF_MALFORMED",
        `field ${field} has wire type ${wireType}, which proto3 messages do not use (groups or reserved)`,
        path,
        at,
      );
    }
    return { field, wireType, at };
  }

  /** A length prefix, and the end of the bytes it announces, which must lie within `end`. */
  lengthPrefixed(end: number, path: string): number {
    const at = this.pos;
    const n = this.uint32(end, path, "a length");
    if (n > end - this.pos) {
      throw this.fault(
        "INPUT_PROTOBUF_MALFORMED",
        `a length of ${n} bytes runs past the end of its message (${end - this.pos} bytes left)`,
        path,
        at,
      );
    }
    return this.pos + n;
  }

  fixed(size: 4 | 8, end: number, path: string): Uint8Array {
    if (size > end - this.pos) {
      throw this.fault("INPUT_PROTOBUF_MALFORMED", `a ${size}-byte value is cut off by the end of its message`, path);
    }
    const out = this.bytes.subarray(this.pos, this.pos + size);
    this.pos += size;
    return out;
  }

  double(end: number, path: string): number {
    const b = this.fixed(8, end, path);
    return new DataView(b.buffer, b.byteOffset, 8).getFloat64(0, true);
  }

  /** A length-prefixed field's bytes (a view, not a copy). */
  bytesField(end: number, path: string): Uint8Array {
    const stop = this.lengthPrefixed(end, path);
    const out = this.bytes.subarray(this.pos, stop);
    this.pos = stop;
    return out;
  }

  string(end: number, path: string): string {
    const at = this.pos;
    const b = this.bytesField(end, path);
    try {
      return utf8.decode(b);
    } catch {
      throw this.fault("INPUT_PROTOBUF_UTF8", "a string field is not valid UTF-8", path, at);
    }
  }

  /** Skips an unknown field's value. */
  skip(tag: Tag, end: number, path: string): void {
    if (tag.wireType === WIRE_VARINT) this.varint(end, path);
    else if (tag.wireType === WIRE_I64) this.fixed(8, end, path);
    else if (tag.wireType === WIRE_I32) this.fixed(4, end, path);
    else this.pos = this.lengthPrefixed(end, path);
  }
}

export function wireTypeName(t: number): string {
  return t === WIRE_VARINT
    ? "VARINT"
    : t === WIRE_I64
      ? "I64"
      : t === WIRE_LEN
        ? "LEN"
        : t === WIRE_I32
          ? "I32"
          : `${t}`;
}
