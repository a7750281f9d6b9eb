/**
 * The two requests `fetch --binding grpc` sends, written as protobuf by hand (the field numbers of
 * the official `a2a.proto`, package `lf.a2a.v1`, as src/input/protobuf/schema.ts reads them):
 *
 *   GetTaskRequest     { tenant = 1; id = 2; optional int32 history_length = 3 }
 *   SendMessageRequest { tenant = 1; Message message = 2; SendMessageConfiguration configuration = 3 }
 *   SendMessageConfiguration { bool return_immediately = 4 }
 *
 * The Message is written from the ProtoJSON value fetch builds (`messageId`, `role`, text `parts`
 * with `mediaType`, `metadata` as a `google.protobuf.Struct`, `extensions`), so that the request
 * the capture records is exactly the Message on the wire: fetch reads its own bytes back with the
 * strict protobuf reader and records what that gives.
 */
import { isJsonNumber, isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;

/** Appends protobuf fields to a growing list of chunks. */
class Writer {
  private readonly chunks: Uint8Array[] = [];

  private varint(n: number): void {
    const out: number[] = [];
    let v = n;
    while (v > 0x7f) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
    this.chunks.push(Uint8Array.from(out));
  }

  private tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  uint(field: number, n: number): this {
    this.tag(field, WIRE_VARINT);
    this.varint(n);
    return this;
  }

  bytes(field: number, b: Uint8Array): this {
    this.tag(field, WIRE_LEN);
    this.varint(b.length);
    this.chunks.push(b);
    return this;
  }

  string(field: number, s: string): this {
    return this.bytes(field, new TextEncoder().encode(s));
  }

  double(field: number, n: number): this {
    this.tag(field, WIRE_I64);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, n, true);
    this.chunks.push(b);
    return this;
  }

  finish(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.chunks));
  }
}

/**
 * `google.protobuf.Value`: null 1, number 2, string 3, bool 4, struct 5, list 6. A number is a
 * JsonNumber or, in a value built in code, a JavaScript number.
 */
function valueBytes(v: JsonValue | number): Uint8Array {
  const w = new Writer();
  if (v === null) w.uint(1, 0);
  else if (typeof v === "number") w.double(2, v);
  else if (isJsonNumber(v)) w.double(2, v.toNumber());
  else if (typeof v === "string") w.string(3, v);
  else if (typeof v === "boolean") w.uint(4, v ? 1 : 0);
  else if (Array.isArray(v)) {
    const list = new Writer();
    for (const item of v) list.bytes(1, valueBytes(item));
    w.bytes(6, list.finish());
  } else w.bytes(5, structBytes(v));
  return w.finish();
}

/** `google.protobuf.Struct`: map<string, Value> fields = 1, each entry { key = 1; value = 2 }. */
export function structBytes(o: JsonObject): Uint8Array {
  const w = new Writer();
  for (const key of Object.keys(o)) {
    const entry = new Writer()
      .string(1, key)
      .bytes(2, valueBytes(o[key] as JsonValue))
      .finish();
    w.bytes(1, entry);
  }
  return w.finish();
}

const ROLES: Record<string, number> = { ROLE_USER: 1, ROLE_AGENT: 2 };

function stringField(o: JsonObject, name: string): string | undefined {
  const v = member(o, name);
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw new TypeError(`${name} is not a string`);
  return v;
}

/** A text Part: text 1, metadata 5, filename 6, media_type 7. */
function partBytes(p: JsonValue): Uint8Array {
  if (!isJsonObject(p)) throw new TypeError("a Part is not an object");
  const text = stringField(p, "text");
  if (text === undefined) throw new TypeError("only text Parts are written");
  const w = new Writer().string(1, text);
  const mediaType = stringField(p, "mediaType");
  if (mediaType) w.string(7, mediaType);
  return w.finish();
}

/** Message: message_id 1, context_id 2, task_id 3, role 4, parts 5, metadata 6, extensions 7. */
export function messageBytes(m: JsonObject): Uint8Array {
  const w = new Writer();
  const fields: [number, string][] = [
    [1, "messageId"],
    [2, "contextId"],
    [3, "taskId"],
  ];
  for (const [n, name] of fields) {
    const s = stringField(m, name);
    if (s) w.string(n, s);
  }
  const role = stringField(m, "role");
  if (role !== undefined) {
    const n = ROLES[role];
    if (n === undefined) throw new TypeError(`unknown role ${role}`);
    w.uint(4, n);
  }
  const parts = member(m, "parts");
  for (const p of Array.isArray(parts) ? parts : []) w.bytes(5, partBytes(p));
  const metadata = member(m, "metadata");
  if (isJsonObject(metadata)) w.bytes(6, structBytes(metadata));
  const extensions = member(m, "extensions");
  for (const e of Array.isArray(extensions) ? extensions : []) {
    if (typeof e !== "string") throw new TypeError("an extension is not a string");
    w.string(7, e);
  }
  return w.finish();
}

export function getTaskRequestBytes(id: string, options: { tenant?: string; historyLength?: number } = {}): Uint8Array {
  const w = new Writer();
  if (options.tenant) w.string(1, options.tenant);
  w.string(2, id);
  if (options.historyLength !== undefined) w.uint(3, options.historyLength);
  return w.finish();
}

/** SendMessage, non-blocking: `configuration.returnImmediately` true. */
export function sendMessageRequestBytes(message: JsonObject, tenant?: string): Uint8Array {
  const w = new Writer();
  if (tenant) w.string(1, tenant);
  w.bytes(2, messageBytes(message));
  w.bytes(3, new Writer().uint(4, 1).finish());
  return w.finish();
}
