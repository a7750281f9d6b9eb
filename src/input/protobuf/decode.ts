/**
 * Protobuf messages decoded into the ProtoJSON values the rest of the verifier reads (a2a-wire.md
 * §1.1): lowerCamelCase names, enums as their names, `bytes` as standard padded base64 of exactly
 * the bytes carried, `google.protobuf.Struct`/`Value` as plain JSON (numbers are the doubles the
 * wire holds), `Timestamp` as RFC 3339 in UTC with at least millisecond digits (what the A2A JS
 * SDK prints). Implicit-presence fields holding their default are left out, as ProtoJSON printers
 * do; oneof members and message fields are kept when set.
 *
 * Strict where protobuf parsers are lenient: a singular field or a oneof given twice (parsers keep
 * the last, or merge), a wrong wire type, a bool other than 0 or 1, an enum number the verifier
 * does not know, a Value with no kind, a double that is not finite, a Timestamp out of range, a
 * Struct key given twice, and nesting deeper than the JSON limit are faults. Unknown fields are
 * noted and skipped; inside committed content (Message, Part, Artifact) they are skipped too and
 * listed apart (`unseen`): the verifier cannot see what they carry, which makes the binding
 * INCONCLUSIVE (contract §3.1).
 */
import { joinPath } from "../../json/path.js";
import { JsonNumber, newJsonObject, type JsonObject, type JsonValue } from "../../json/value.js";
import type { EnumSpec, FieldSpec, MessageSpec } from "./schema.js";
import { UNSEEN_CAP, type UnseenField, type UnseenFields } from "./unseen.js";
import { ProtoFault, WIRE_I64, WIRE_LEN, WIRE_VARINT, wireTypeName, type Tag, WireReader } from "./wire.js";

const NOTE_CAP = 20;
/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the range a Timestamp may hold. */
const MIN_SECONDS = -62135596800n;
const MAX_SECONDS = 253402300799n;

export interface DecodeOptions {
  /** Input offset of the first byte (a frame inside a gRPC stream). */
  readonly base?: number;
  /** Path of the decoded message (e.g. `event[2]`); `$` by default. */
  readonly path?: string;
  /** JSON nesting depth cap; the decoded message is depth `depth` (1 by default). */
  readonly maxDepth: number;
  readonly depth?: number;
}

export interface Decoded {
  readonly value: JsonObject;
  /** Unknown fields skipped, one line each (capped), for the report. */
  readonly notes: string[];
  /** Unknown fields skipped inside committed content. */
  readonly unseen: UnseenFields;
}

class Decoder {
  readonly notes: string[] = [];
  readonly unseen: UnseenField[] = [];
  unseenCount = 0;
  private unknown = 0;
  constructor(
    readonly r: WireReader,
    readonly maxDepth: number,
  ) {}

  private deep(depth: number, path: string): void {
    if (depth > this.maxDepth) {
      throw this.r.fault(
        "INPUT_PROTOBUF_TOO_LARGE",
        `nesting is deeper than ${this.maxDepth} levels (the JSON limit)`,
        path,
      );
    }
  }

  private skipUnknown(tag: Tag, end: number, path: string, owner: string, committed: boolean): void {
    this.r.skip(tag, end, path);
    if (committed) {
      if (++this.unseenCount <= UNSEEN_CAP) {
        this.unseen.push({
          field: tag.field,
          wireType: wireTypeName(tag.wireType),
          owner,
          path,
          offset: this.r.offset(tag.at),
        });
      }
      return;
    }
    this.unknown++;
    if (this.unknown <= NOTE_CAP) {
      this.notes.push(
        `unknown protobuf field ${tag.field} (wire type ${wireTypeName(tag.wireType)}) in ${owner} at ${path} (byte ${this.r.offset(tag.at)}) was ignored`,
      );
    } else if (this.unknown === NOTE_CAP + 1) this.notes.push("further unknown protobuf fields were ignored");
  }

  message(spec: MessageSpec, end: number, path: string, depth: number, committed: boolean): JsonObject {
    this.deep(depth, path);
    const inside = committed || spec.committed === true;
    const values = new Map<number, JsonValue | JsonValue[]>();
    const oneofs = new Map<string, string>();
    while (this.r.pos < end) {
      const tag = this.r.tag(end, path);
      const f = spec.fields.get(tag.field);
      if (f === undefined) {
        this.skipUnknown(tag, end, path, spec.name, inside);
        continue;
      }
      const at = joinPath(path, f.name);
      this.expectWireType(tag, f, at);
      if (f.repeated) {
        const list = (values.get(tag.field) as JsonValue[] | undefined) ?? [];
        if (list.length === 0) this.deep(depth + 1, at);
        list.push(this.field(f, end, joinPath(at, list.length), depth + 2, inside));
        values.set(tag.field, list);
        continue;
      }
      if (values.has(tag.field)) {
        throw this.r.fault("INPUT_PROTOBUF_DUPLICATE", `singular field ${f.name} is given twice`, at, tag.at);
      }
      const other = f.oneof === undefined ? undefined : oneofs.get(f.oneof);
      if (other !== undefined) {
        throw this.r.fault(
          "INPUT_PROTOBUF_DUPLICATE",
          `oneof ${f.oneof} has a second member ${f.name} after ${other}`,
          at,
          tag.at,
        );
      }
      if (f.oneof !== undefined) oneofs.set(f.oneof, f.name);
      values.set(tag.field, this.field(f, end, at, depth + 1, inside));
    }
    return this.printed(spec, values);
  }

  /** The ProtoJSON object: fields in number order, implicit-presence defaults left out. */
  private printed(spec: MessageSpec, values: Map<number, JsonValue | JsonValue[]>): JsonObject {
    const out = newJsonObject();
    for (const [n, f] of spec.fields) {
      const v = values.get(n);
      if (v === undefined) continue;
      const isDefault = v === "" || v === false || (typeof f.type === "object" && "values" in f.type && v === null);
      if (isDefault && f.oneof === undefined) continue;
      out[f.name] = v;
    }
    return out;
  }

  private expectWireType(tag: Tag, f: FieldSpec, path: string): void {
    const t = f.type;
    const expected = t === "bool" || (typeof t === "object" && "values" in t) ? WIRE_VARINT : WIRE_LEN;
    if (tag.wireType !== expected) {
      throw this.r.fault(
        "INPUT_PROTOBUF_MALFORMED",
        `field ${f.name} (${tag.field}) has wire type ${wireTypeName(tag.wireType)}; its type needs ${wireTypeName(expected)}`,
        path,
        tag.at,
      );
    }
  }

  private field(f: FieldSpec, end: number, path: string, depth: number, committed: boolean): JsonValue {
    const t = f.type;
    if (typeof t === "object") {
      if ("values" in t) return this.enumValue(t, end, path);
      const stop = this.r.lengthPrefixed(end, path);
      return this.message(t, stop, path, depth, committed);
    }
    switch (t) {
      case "string":
        return this.r.string(end, path);
      case "bytes":
        return Buffer.from(this.r.bytesField(end, path)).toString("base64");
      case "bool":
        return this.bool(end, path);
      case "Struct":
        return this.struct(this.r.lengthPrefixed(end, path), path, depth, committed);
      case "Value":
        return this.value(this.r.lengthPrefixed(end, path), path, depth, committed);
      case "Timestamp":
        return this.timestamp(this.r.lengthPrefixed(end, path), path, committed);
    }
  }

  /** An enum's name; null for 0 (UNSPECIFIED, the default). An unknown number is a fault. */
  private enumValue(e: EnumSpec, end: number, path: string): JsonValue {
    const at = this.r.pos;
    const raw = BigInt.asIntN(32, this.r.varint(end, path));
    const n = Number(raw);
    const name = n >= 0 ? e.values[n] : undefined;
    if (name === undefined) {
      throw this.r.fault("INPUT_PROTOBUF_ENUM", `${e.name} has no value ${n} known to this verifier`, path, at);
    }
    return n === 0 ? null : name;
  }

  private bool(end: number, path: string): boolean {
    const at = this.r.pos;
    const v = this.r.varint(end, path);
    if (v > 1n) throw this.r.fault("INPUT_PROTOBUF_VALUE", `a bool holds ${v}, not 0 or 1`, path, at);
    return v === 1n;
  }

  /** google.protobuf.Struct: `fields` (1) is a map<string, Value> of entries {key = 1, value = 2}. */
  private struct(end: number, path: string, depth: number, committed: boolean): JsonObject {
    this.deep(depth, path);
    const out = newJsonObject();
    while (this.r.pos < end) {
      const tag = this.r.tag(end, path);
      if (tag.field !== 1) {
        this.skipUnknown(tag, end, path, "google.protobuf.Struct", committed);
        continue;
      }
      this.expectLen(tag, "fields", path);
      const stop = this.r.lengthPrefixed(end, path);
      let key: string | undefined;
      let value: JsonValue | undefined;
      while (this.r.pos < stop) {
        const t = this.r.tag(stop, path);
        if (t.field === 1 && key === undefined) {
          this.expectLen(t, "key", path);
          key = this.r.string(stop, path);
        } else if (t.field === 2 && value === undefined) {
          this.expectLen(t, "value", path);
          value = this.value(this.r.lengthPrefixed(stop, path), joinPath(path, key ?? ""), depth + 1, committed);
        } else if (t.field === 1 || t.field === 2) {
          throw this.r.fault("INPUT_PROTOBUF_DUPLICATE", "a Struct entry gives its key or value twice", path, t.at);
        } else this.skipUnknown(t, stop, path, "a google.protobuf.Struct entry", committed);
      }
      const k = key ?? "";
      if (value === undefined) {
        throw this.r.fault(
          "INPUT_PROTOBUF_VALUE",
          `Struct member ${JSON.stringify(k)} has no value`,
          joinPath(path, k),
          tag.at,
        );
      }
      if (Object.prototype.hasOwnProperty.call(out, k)) {
        throw this.r.fault(
          "INPUT_PROTOBUF_DUPLICATE",
          `Struct member ${JSON.stringify(k)} is given twice`,
          joinPath(path, k),
          tag.at,
        );
      }
      out[k] = value;
    }
    return out;
  }

  private expectLen(tag: Tag, name: string, path: string): void {
    if (tag.wireType !== WIRE_LEN) {
      throw this.r.fault(
        "INPUT_PROTOBUF_MALFORMED",
        `field ${name} (${tag.field}) has wire type ${wireTypeName(tag.wireType)}; its type needs LEN`,
        path,
        tag.at,
      );
    }
  }

  /** google.protobuf.Value: exactly one of null (1), number (2), string (3), bool (4), struct (5), list (6). */
  private value(end: number, path: string, depth: number, committed: boolean): JsonValue {
    const start = this.r.pos;
    let out: JsonValue | undefined;
    while (this.r.pos < end) {
      const tag = this.r.tag(end, path);
      if (tag.field < 1 || tag.field > 6) {
        this.skipUnknown(tag, end, path, "google.protobuf.Value", committed);
        continue;
      }
      if (out !== undefined) {
        throw this.r.fault("INPUT_PROTOBUF_DUPLICATE", "a google.protobuf.Value sets its kind twice", path, tag.at);
      }
      const wire = tag.field === 1 || tag.field === 4 ? WIRE_VARINT : tag.field === 2 ? WIRE_I64 : WIRE_LEN;
      if (tag.wireType !== wire) {
        throw this.r.fault(
          "INPUT_PROTOBUF_MALFORMED",
          `google.protobuf.Value field ${tag.field} has wire type ${wireTypeName(tag.wireType)}; it needs ${wireTypeName(wire)}`,
          path,
          tag.at,
        );
      }
      out = this.valueKind(tag, end, path, depth, committed);
    }
    if (out === undefined) {
      throw this.r.fault("INPUT_PROTOBUF_VALUE", "a google.protobuf.Value has no kind set", path, start);
    }
    return out;
  }

  private valueKind(tag: Tag, end: number, path: string, depth: number, committed: boolean): JsonValue {
    const at = this.r.pos;
    switch (tag.field) {
      case 1: {
        if (this.r.varint(end, path) !== 0n)
          throw this.r.fault("INPUT_PROTOBUF_ENUM", "NullValue has no value other than 0", path, at);
        return null;
      }
      case 2: {
        const d = this.r.double(end, path);
        if (!Number.isFinite(d))
          throw this.r.fault("INPUT_PROTOBUF_VALUE", `a number is ${d}, which JSON cannot carry`, path, at);
        return new JsonNumber(String(d));
      }
      case 3:
        return this.r.string(end, path);
      case 4:
        return this.bool(end, path);
      case 5:
        return this.struct(this.r.lengthPrefixed(end, path), path, depth, committed);
      default:
        return this.list(this.r.lengthPrefixed(end, path), path, depth, committed);
    }
  }

  /** google.protobuf.ListValue: `values` (1), repeated Value. */
  private list(end: number, path: string, depth: number, committed: boolean): JsonValue[] {
    this.deep(depth, path);
    const out: JsonValue[] = [];
    while (this.r.pos < end) {
      const tag = this.r.tag(end, path);
      if (tag.field !== 1) {
        this.skipUnknown(tag, end, path, "google.protobuf.ListValue", committed);
        continue;
      }
      this.expectLen(tag, "values", path);
      out.push(this.value(this.r.lengthPrefixed(end, path), joinPath(path, out.length), depth + 1, committed));
    }
    return out;
  }

  /** google.protobuf.Timestamp {seconds = 1 (int64), nanos = 2 (int32)} as RFC 3339 UTC. */
  private timestamp(end: number, path: string, committed: boolean): string {
    const start = this.r.pos;
    let seconds: bigint | undefined;
    let nanos: bigint | undefined;
    while (this.r.pos < end) {
      const tag = this.r.tag(end, path);
      if (tag.field !== 1 && tag.field !== 2) {
        this.skipUnknown(tag, end, path, "google.protobuf.Timestamp", committed);
        continue;
      }
      if (tag.wireType !== WIRE_VARINT) {
        throw this.r.fault(
          "INPUT_PROTOBUF_MALFORMED",
          `Timestamp field ${tag.field} has wire type ${wireTypeName(tag.wireType)}; it needs VARINT`,
          path,
          tag.at,
        );
      }
      if ((tag.field === 1 ? seconds : nanos) !== undefined)
        throw this.r.fault("INPUT_PROTOBUF_DUPLICATE", `Timestamp field ${tag.field} is given twice`, path, tag.at);
      const v = this.r.varint(end, path);
      if (tag.field === 1) seconds = BigInt.asIntN(64, v);
      else nanos = BigInt.asIntN(32, v);
    }
    const s = seconds ?? 0n;
    const ns = nanos ?? 0n;
    if (s < MIN_SECONDS || s > MAX_SECONDS || ns < 0n || ns > 999_999_999n) {
      throw this.r.fault(
        "INPUT_PROTOBUF_VALUE",
        `a Timestamp (seconds ${s}, nanos ${ns}) is outside 0001-01-01..9999-12-31 or its nanos outside 0..999999999`,
        path,
        start,
      );
    }
    return rfc3339(Number(s), Number(ns));
  }
}

/** RFC 3339 in UTC, with 3, 6 or 9 fractional digits: as few as hold the nanos, never fewer than 3. */
function rfc3339(seconds: number, nanos: number): string {
  const whole = new Date(seconds * 1000).toISOString().slice(0, 19);
  const digits = String(nanos).padStart(9, "0");
  const fraction = nanos % 1_000_000 === 0 ? digits.slice(0, 3) : nanos % 1000 === 0 ? digits.slice(0, 6) : digits;
  return `${whole}.${fraction}Z`;
}

/** Decodes one whole message; a fault is thrown as a `ProtoFault`. */
export function decodeMessage(bytes: Uint8Array, spec: MessageSpec, options: DecodeOptions): Decoded {
  const d = new Decoder(new WireReader(bytes, options.base ?? 0), options.maxDepth);
  const value = d.message(spec, bytes.length, options.path ?? "$", options.depth ?? 1, false);
  return { value, notes: d.notes, unseen: { fields: d.unseen, count: d.unseenCount } };
}

export { ProtoFault };
