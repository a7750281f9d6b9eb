/**
 * gRPC inputs (contract §3.1): what a gRPC client holds, detected by content.
 *
 *   - a binary `Task` (GetTask's answer);
 *   - a binary `SendMessageResponse` (`task` or `message`), read as its ProtoJSON `{"task": …}` or
 *     `{"message": …}` is;
 *   - a gRPC server stream: StreamResponse messages, each framed as 1 byte compressed flag (0),
 *     4 bytes big-endian length, the message; folded exactly like an SSE stream.
 *
 * A Task and a SendMessageResponse both start with field 1 (LEN). Both readings are tried; the one
 * that decodes and has what its message requires (a Task's `status`, a response's member) is
 * taken. When neither is taken, a reading's fault is reported (of two, the one that got further).
 */
import { hasMember, type JsonObject, type JsonValue } from "../../json/value.js";
import { DEFAULT_JSON_LIMITS } from "../../json/strict-json.js";
import { fail, ok, type Failure, type Result } from "../../result.js";
import { DEFAULT_STREAM_LIMITS, foldStreamArray, type FoldedStream, type StreamLimits } from "../stream/fold.js";
import { decodeMessage, ProtoFault, type Decoded } from "./decode.js";
import { SEND_MESSAGE_RESPONSE, STREAM_RESPONSE, TASK } from "./schema.js";
import { withBinaryNotes } from "./notes.js";
import { mergeUnseen, withUnseen, type UnseenFields } from "./unseen.js";

const DECODED: unique symbol = Symbol("a2a-evidence decoded protobuf");

/** A binary Task or SendMessageResponse, as the ProtoJSON value the JSON forms give. */
export interface DecodedProtobuf {
  readonly [DECODED]: true;
  readonly form: "task" | "send-message-response";
  /** The Task, or `{"task": …}` / `{"message": …}`. */
  readonly value: JsonObject;
  readonly notes: readonly string[];
}

export function isDecodedProtobuf(v: unknown): v is DecodedProtobuf {
  return typeof v === "object" && v !== null && (v as { [DECODED]?: unknown })[DECODED] === true;
}

const GRPC_HEADER = 5;

function isTextControl(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * True for bytes that are no JSON, SSE or NDJSON text: a first byte of 0x00 or 0x01 (a gRPC
 * frame's flag), another control byte, or a line feed (a Task's first tag, field 1 LEN, is 0x0a)
 * followed somewhere by a control byte no JSON or SSE text holds (a Task's `status` tag is 0x1a).
 */
export function looksLikeProtobuf(b: Uint8Array): boolean {
  const first = b[0];
  if (first === undefined) return false;
  if (first < 0x20 && !isTextControl(first)) return true;
  if (first !== 0x0a) return false;
  for (const c of b) if (c < 0x20 && !isTextControl(c)) return true;
  return false;
}

/** The fault with its byte offset in the message and its field path as the path: each said once. */
function faultFailure(f: ProtoFault): Failure {
  return fail(f.code, `at byte ${f.offset}: ${f.detail}`, f.path);
}

function attempt(b: Uint8Array, spec: typeof TASK): Decoded | ProtoFault {
  try {
    return decodeMessage(b, spec, { maxDepth: DEFAULT_JSON_LIMITS.maxDepth });
  } catch (e) {
    if (e instanceof ProtoFault) return e;
    throw e;
  }
}

/** A binary Task or SendMessageResponse. */
function decodeSingle(b: Uint8Array): Result<DecodedProtobuf> {
  const task = attempt(b, TASK);
  const response = attempt(b, SEND_MESSAGE_RESPONSE);
  const isTask = !(task instanceof ProtoFault) && hasMember(task.value, "status");
  const isResponse =
    !(response instanceof ProtoFault) && (hasMember(response.value, "task") || hasMember(response.value, "message"));
  if (isTask) {
    const t = task as Decoded;
    const decoded: DecodedProtobuf = {
      [DECODED]: true,
      form: "task",
      value: t.value,
      notes: ["input is a binary protobuf Task (gRPC GetTask answer)", ...t.notes],
    };
    return ok(withUnseen(decoded, t.unseen));
  }
  if (isResponse) {
    const r = response as Decoded;
    const decoded: DecodedProtobuf = {
      [DECODED]: true,
      form: "send-message-response",
      value: r.value,
      notes: ["input is a binary protobuf SendMessageResponse (gRPC SendMessage answer)", ...r.notes],
    };
    return ok(withUnseen(decoded, r.unseen));
  }
  // A reading that faulted is reported unless the other read some field it knows: bytes refused as
  // a Task are a malformed input, never "not an A2A input" (which --skip-unknown skips).
  const clean = [task, response].filter((r): r is Decoded => !(r instanceof ProtoFault));
  const faults = [task, response].filter((r): r is ProtoFault => r instanceof ProtoFault);
  const furthest = faults.reduce<ProtoFault | undefined>((a, f) => (a && a.offset >= f.offset ? a : f), undefined);
  if (furthest && !clean.some((d) => Object.keys(d.value).length > 0)) return faultFailure(furthest);
  return fail(
    "INPUT_UNKNOWN_SHAPE",
    "the binary input is neither an A2A Task (no status) nor a SendMessageResponse (no task or message member)",
    "$",
  );
}

function frameFailure(code: Failure["code"], detail: string, n: number, at: number): Failure {
  return fail(code, `at byte ${at}: ${detail}`, `event[${n}]`);
}

/** A gRPC server stream's messages, each decoded as a StreamResponse; folded like an SSE stream. */
export function decodeGrpcStream(b: Uint8Array, limits: StreamLimits = DEFAULT_STREAM_LIMITS): Result<FoldedStream> {
  if (b.length > limits.maxBytes)
    return fail("INPUT_STREAM_TOO_LARGE", `the input is ${b.length} bytes; the limit is ${limits.maxBytes}`, "$");
  const events: JsonValue[] = [];
  const notes: string[] = [];
  const unseen: (readonly [undefined, UnseenFields])[] = [];
  let pos = 0;
  while (pos < b.length) {
    const n = events.length + 1;
    if (n > limits.maxEvents)
      return frameFailure("INPUT_STREAM_TOO_LARGE", `the stream has more than ${limits.maxEvents} messages`, n, pos);
    if (b.length - pos < GRPC_HEADER)
      return frameFailure(
        "INPUT_STREAM_TRUNCATED",
        `the gRPC stream ends inside the 5-byte header of message ${n}`,
        n,
        pos,
      );
    const flag = b[pos] as number;
    if (flag === 1)
      return frameFailure(
        "INPUT_GRPC_COMPRESSED",
        `message ${n} is compressed (flag 1); only uncompressed messages are read`,
        n,
        pos,
      );
    if (flag !== 0)
      return frameFailure(
        "INPUT_PROTOBUF_MALFORMED",
        `message ${n} has flag byte ${flag}; a gRPC message's flag is 0 or 1`,
        n,
        pos,
      );
    const length = Buffer.from(b.buffer, b.byteOffset + pos + 1, 4).readUInt32BE(0);
    if (length > limits.maxEventBytes)
      return frameFailure(
        "INPUT_PROTOBUF_TOO_LARGE",
        `message ${n} announces ${length} bytes; one message is at most ${limits.maxEventBytes}`,
        n,
        pos + 1,
      );
    const start = pos + GRPC_HEADER;
    if (length > b.length - start)
      return frameFailure(
        "INPUT_STREAM_TRUNCATED",
        `message ${n} announces ${length} bytes; the stream ends after ${b.length - start}`,
        n,
        pos + 1,
      );
    try {
      const d = decodeMessage(b.subarray(start, start + length), STREAM_RESPONSE, {
        base: start,
        path: `event[${n}]`,
        maxDepth: limits.maxDepth,
      });
      events.push(d.value);
      notes.push(...d.notes);
      unseen.push([undefined, d.unseen]);
    } catch (e) {
      if (e instanceof ProtoFault) return faultFailure(e);
      throw e;
    }
    pos = start + length;
  }
  const folded = foldStreamArray(events, limits, "grpc");
  if (!folded.ok) return folded;
  const stream = withBinaryNotes(
    notes.length === 0 ? folded.value : { ...folded.value, notes: [...notes, ...folded.value.notes] },
    notes,
  );
  const u = mergeUnseen(unseen);
  return ok(u ? withUnseen(stream, u) : stream);
}

/** A binary input: a gRPC stream when it starts with a frame flag, else a Task or SendMessageResponse. */
export function decodeProtobufInput(b: Uint8Array): Result<DecodedProtobuf | FoldedStream> {
  if (b.length > DEFAULT_JSON_LIMITS.maxBytes)
    return fail(
      "INPUT_PROTOBUF_TOO_LARGE",
      `the input is ${b.length} bytes; the limit is ${DEFAULT_JSON_LIMITS.maxBytes}`,
      "$",
    );
  if (b[0] === 0 || b[0] === 1) return decodeGrpcStream(b);
  return decodeSingle(b);
}
