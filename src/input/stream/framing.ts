/**
 * Streamed Tasks as inputs (a2a-wire.md §1.7, §2.5, §2.7 step 1): the framings a client records a
 * stream in, read into events before any JSON parse of the whole. A client that streams
 * (SendStreamingMessage, SubscribeToTask) records an SSE body, NDJSON, or a JSON array of events.
 * Each event is a StreamResponse, bare (REST framing) or as the `result` of a JSON-RPC response
 * (JSON-RPC framing), folded by ./fold.ts.
 *
 * The sniffer tells the framing from the first bytes; the SSE and NDJSON readers split the body
 * into events and hand each to the strict parser (duplicate members, lossy numbers, depth); the
 * input, each event and the number of events are capped. An SSE body or NDJSON is no JSON document:
 * it is one input form of its own (../forms.ts). A JSON array of events is a JSON document, folded
 * once parsed (../document.ts); `foldStream` reads all three for callers that hold the bytes.
 */
import { parseStrictJson, type JsonParseResult } from "../../json/strict-json.js";
import type { JsonValue } from "../../json/value.js";
import { fail, ok, type Failure, type Result } from "../../result.js";
import {
  DEFAULT_STREAM_LIMITS,
  eventPath,
  FRAMINGS,
  label,
  underEvent,
  type StreamFraming,
  type StreamLimits,
  type Where,
} from "./event.js";
import { foldStreamArray, StreamFold, type FoldedStream } from "./fold.js";
import { describeError } from "./unwrap.js";

const LF = 0x0a;
const CR = 0x0d;
const SP = 0x20;
const TAB = 0x09;
const COLON = 0x3a;
const SSE_FIELD_NAMES = ["data", "event", "id", "retry"] as const;
const SSE_FIELDS = SSE_FIELD_NAMES.map((f) => Buffer.from(f, "latin1"));

function bytesOf(input: Uint8Array | string): Uint8Array | Failure {
  if (typeof input !== "string") return input;
  // TextEncoder would replace a lone surrogate with U+FFFD, silently changing the input.
  if (/[\uD800-\uDFFF]/u.test(input)) return fail("JSON_LONE_SURROGATE", "lone surrogate in the input text", "$");
  return new Uint8Array(Buffer.from(input, "utf8"));
}

function afterBom(b: Uint8Array): number {
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
}

function isJsonSpace(c: number | undefined): boolean {
  return c === SP || c === TAB || c === LF || c === CR;
}

/** True when an SSE field line (`data:`, `event:`, `id:`, `retry:`, or a bare field name) or a comment starts at `at`. */
function sseLineAt(b: Uint8Array, at: number): boolean {
  if (b[at] === COLON) return true;
  return SSE_FIELDS.some((name) => {
    for (let i = 0; i < name.length; i++) if (b[at + i] !== name[i]) return false;
    const next = b[at + name.length];
    return next === COLON || next === LF || next === CR || next === undefined;
  });
}

/**
 * The framing of a stream input, from its first bytes; undefined for anything else. Cheap: it
 * reads at most the first two lines. No JSON document starts with an SSE field or comment, and
 * none has a first line that is a whole object followed by a line that starts another value (after
 * a `}` token only `,` `}` `]` or the end may follow, and strings cannot span lines), so a JSON
 * document is never taken for NDJSON. A one-line NDJSON stream is a JSON document: `{"task": …}`.
 */
export function streamFraming(input: Uint8Array | string): StreamFraming | undefined {
  const b = bytesOf(input);
  if (!(b instanceof Uint8Array)) return undefined;
  const start = afterBom(b);
  let i = start;
  while (b[i] === LF || b[i] === CR) i++;
  if (i < b.length && sseLineAt(b, i)) return "sse";
  i = start;
  while (isJsonSpace(b[i])) i++;
  if (b[i] === 0x5b /* [ */) return "json-array";
  if (b[i] !== 0x7b /* { */) return undefined;
  // Buffer's indexOf is memchr; a typed array's walks element by element (one-line JSON: all of it).
  const eol = Buffer.from(b.buffer, b.byteOffset, b.byteLength).indexOf(LF, i);
  if (eol === -1) return undefined;
  let last = eol - 1;
  while (last > i && (b[last] === CR || b[last] === SP || b[last] === TAB)) last--;
  if (b[last] !== 0x7d /* } */) return undefined;
  let next = eol + 1;
  while (isJsonSpace(b[next])) next++;
  return b[next] === 0x7b || b[next] === 0x5b ? "ndjson" : undefined;
}

/** An SSE body or NDJSON: the inputs to fold before any JSON parse (a JSON array parses as JSON first). */
export function looksLikeStream(input: Uint8Array | string): boolean {
  const f = streamFraming(input);
  return f === "sse" || f === "ndjson";
}

type EventSink = (data: Uint8Array, w: Where, type: string) => Failure | undefined;

/** An SSE field name: one of the four the event-stream rules define, or "" for any other. */
function fieldName(name: Uint8Array): string {
  for (const [i, known] of SSE_FIELDS.entries()) {
    if (known.length === name.length && known.every((c, k) => name[k] === c)) return SSE_FIELD_NAMES[i] as string;
  }
  return "";
}

function joinLines(chunks: readonly Uint8Array[]): Uint8Array {
  let total = chunks.length - 1;
  for (const c of chunks) total += c.length;
  const out = new Uint8Array(total);
  let o = 0;
  for (const [i, c] of chunks.entries()) {
    if (i > 0) out[o++] = LF;
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** The SSE event being read: its data lines, its type, the line it starts on; dispatched at a blank line. */
class SseEvent {
  /** Events dispatched so far. */
  n = 0;
  pieces: Uint8Array[] = [];
  /** The line the event's first field is on (0: none yet). */
  line = 0;
  unknownFields = 0;
  private size = 0;
  private type = "";

  constructor(
    private readonly limits: StreamLimits,
    private readonly sink: EventSink,
  ) {}

  /** One field line (not a comment): `data` accumulates, `event` sets the type, `id` and `retry` carry nothing the fold needs. */
  field(text: Uint8Array, line: number): Failure | undefined {
    const colon = text.indexOf(COLON);
    const name = fieldName(colon === -1 ? text : text.subarray(0, colon));
    let value = colon === -1 ? new Uint8Array(0) : text.subarray(colon + 1);
    if (value[0] === SP) value = value.subarray(1);
    if (this.line === 0) this.line = line;
    if (name === "data") {
      this.size += value.length + (this.pieces.length > 0 ? 1 : 0);
      if (this.size > this.limits.maxEventBytes) {
        return fail(
          "INPUT_STREAM_TOO_LARGE",
          `event ${this.n + 1} (line ${this.line}) exceeds ${this.limits.maxEventBytes} bytes; one event is at most that`,
          `event[${this.n + 1}]`,
        );
      }
      this.pieces.push(value);
    } else if (name === "event") {
      this.type = Buffer.from(value).toString("utf8");
    } else if (name === "") {
      this.unknownFields++;
    }
    return undefined;
  }

  dispatch(): Failure | undefined {
    const chunks = this.pieces;
    const eventType = this.type;
    const w = { n: this.n + 1, line: this.line };
    this.pieces = [];
    this.type = "";
    this.size = 0;
    this.line = 0;
    // An event with no data line is not dispatched (the event-stream rules).
    if (chunks.length === 0) return undefined;
    this.n++;
    if (this.n > this.limits.maxEvents)
      return fail("INPUT_STREAM_TOO_LARGE", `the stream has more than ${this.limits.maxEvents} events`, eventPath(w));
    const data = chunks.length === 1 ? (chunks[0] as Uint8Array) : joinLines(chunks);
    return this.sink(data, w, eventType === "" ? "message" : eventType);
  }
}

/**
 * Splits an SSE body into events (the WHATWG event-stream rules): lines end with CRLF, LF or CR;
 * `data` lines accumulate, joined with LF; `event` sets the type; `id` and `retry` carry nothing
 * the fold needs; lines starting with ':' are comments (keep-alives); a blank line dispatches.
 * Works on bytes: line breaks are ASCII and never inside a UTF-8 sequence, and each event's bytes
 * go to the strict parser, which checks their UTF-8.
 */
function readSse(b: Uint8Array, limits: StreamLimits, sink: EventSink, notes: string[]): Failure | undefined {
  const event = new SseEvent(limits, sink);
  let pos = afterBom(b);
  let line = 0;
  let nextLf = -2;
  let nextCr = -2;
  while (pos < b.length) {
    if (nextLf !== -1 && nextLf < pos) nextLf = b.indexOf(LF, pos);
    if (nextCr !== -1 && nextCr < pos) nextCr = b.indexOf(CR, pos);
    let end: number;
    let after: number;
    if (nextLf === -1 && nextCr === -1) {
      // A last line without a line break is not processed (the event-stream rules); unless it is a
      // comment, the body stopped inside an event.
      if (b[pos] === COLON && event.pieces.length === 0) break;
      return fail(
        "INPUT_STREAM_TRUNCATED",
        `the SSE body ends inside line ${line + 1}, which has no line break: the stream was cut off inside event ${event.n + 1}`,
        `event[${event.n + 1}]`,
      );
    } else if (nextCr === -1 || (nextLf !== -1 && nextLf < nextCr)) {
      end = nextLf;
      after = nextLf + 1;
    } else {
      end = nextCr;
      after = b[nextCr + 1] === LF ? nextCr + 2 : nextCr + 1;
    }
    line++;
    const r = end === pos ? event.dispatch() : b[pos] !== COLON ? event.field(b.subarray(pos, end), line) : undefined;
    if (r) return r;
    pos = after;
  }
  if (event.pieces.length > 0) {
    // The event-stream rules discard an event the body ends inside: a client never saw it.
    return fail(
      "INPUT_STREAM_TRUNCATED",
      `event ${event.n + 1} (line ${event.line}) is not ended by a blank line: the stream was cut off inside it`,
      `event[${event.n + 1}]`,
    );
  }
  if (event.unknownFields > 0)
    notes.push(`${event.unknownFields} SSE line(s) with a field other than data, event, id or retry were ignored`);
  return undefined;
}

/** NDJSON: one event per line (LF, optionally CRLF); blank lines carry nothing. */
function readNdjson(b: Uint8Array, limits: StreamLimits, sink: EventSink): Failure | undefined {
  let pos = afterBom(b);
  let line = 0;
  let n = 0;
  while (pos < b.length) {
    const lf = b.indexOf(LF, pos);
    const end = lf === -1 ? b.length : lf;
    line++;
    let first = pos;
    while (first < end && isJsonSpace(b[first])) first++;
    if (first < end) {
      n++;
      const w = { n, line };
      if (n > limits.maxEvents)
        return fail("INPUT_STREAM_TOO_LARGE", `the stream has more than ${limits.maxEvents} events`, eventPath(w));
      const r = sink(b.subarray(pos, end), w, "message");
      if (r) return r;
    }
    pos = end + 1;
  }
  return undefined;
}

function parseEvent(data: Uint8Array, w: Where, limits: StreamLimits): Result<JsonValue> {
  if (data.length > limits.maxEventBytes) {
    return fail(
      "INPUT_STREAM_TOO_LARGE",
      `${label(w)} is ${data.length} bytes; one event is at most ${limits.maxEventBytes}`,
      eventPath(w),
    );
  }
  const r: JsonParseResult = parseStrictJson(data, { maxBytes: limits.maxEventBytes, maxDepth: limits.maxDepth });
  return r.ok ? ok(r.value) : fail(r.code, `${label(w)}: ${r.detail}`, underEvent(w, r.path));
}

/** One event's data, parsed and folded; an `event: error` frame ends the stream with its error. */
function sinkInto(fold: StreamFold, limits: StreamLimits): EventSink {
  return (data, w, type) => {
    if (type === "error") {
      const parsed = parseStrictJson(data, { maxBytes: limits.maxEventBytes, maxDepth: limits.maxDepth });
      const said = parsed.ok ? describeError(parsed.value) : " (not JSON)";
      return fail(
        "INPUT_STREAM_ERROR",
        `${label(w)} is an error event${said}; the stream ends without a Task`,
        eventPath(w),
      );
    }
    if (type !== "message") {
      return fail(
        "INPUT_STREAM_MALFORMED",
        `${label(w)} has event type ${JSON.stringify(type)}; an A2A stream carries data events and "error" events only`,
        eventPath(w),
      );
    }
    const v = parseEvent(data, w, limits);
    return v.ok ? fold.apply(v.value, w) : v;
  };
}

/** A JSON array of events parsed whole (one level deeper than an event), its faults placed under the event. */
function foldJsonArray(b: Uint8Array, limits: StreamLimits): Result<FoldedStream> {
  // The array adds one level above each event.
  const parsed = parseStrictJson(b, { maxBytes: limits.maxBytes, maxDepth: limits.maxDepth + 1 });
  if (!parsed.ok) {
    const m = /^\[(\d+)\]/.exec(parsed.path);
    if (!m) return fail(parsed.code, parsed.detail, parsed.path);
    const w = { n: Number(m[1]) + 1 };
    return fail(
      parsed.code,
      `${label(w)}: ${parsed.detail}`,
      underEvent(w, parsed.path.slice(m[0].length).replace(/^\./, "")),
    );
  }
  // The framing saw '[' first, so what parsed is an array.
  return foldStreamArray(parsed.value as JsonValue[], limits);
}

/** Folds a stream input (SSE, NDJSON or a JSON array of events) into the Task it describes. */
export function foldStream(
  input: Uint8Array | string,
  limits: StreamLimits = DEFAULT_STREAM_LIMITS,
): Result<FoldedStream> {
  const b = bytesOf(input);
  if (!(b instanceof Uint8Array)) return b;
  if (b.length > limits.maxBytes)
    return fail("INPUT_STREAM_TOO_LARGE", `the input is ${b.length} bytes; the limit is ${limits.maxBytes}`, "$");
  const framing = streamFraming(b);
  if (framing === undefined) {
    return fail("INPUT_STREAM_MALFORMED", "the input is not an SSE body, NDJSON or a JSON array of stream events", "$");
  }
  if (framing === "json-array") return foldJsonArray(b, limits);
  const fold = new StreamFold();
  const notes: string[] = [];
  const sink = sinkInto(fold, limits);
  const r = framing === "sse" ? readSse(b, limits, sink, notes) : readNdjson(b, limits, sink);
  if (r) return r;
  const folded = fold.finish(FRAMINGS[framing]);
  if (!folded.ok || notes.length === 0) return folded;
  return ok({ ...folded.value, notes: [...notes, ...folded.value.notes] });
}
