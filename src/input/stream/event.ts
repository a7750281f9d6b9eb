/**
 * What every part of a stream's reading shares: its framings, its limits, and how an event is named
 * in a diagnostic (its number from 1 in every framing, and its first line in the text framings).
 */
import { joinPath } from "../../json/path.js";
import { fail, type Failure } from "../../result.js";

/** `grpc`: StreamResponse messages in gRPC length-prefixed framing, decoded by ../protobuf. */
export type StreamFraming = "sse" | "ndjson" | "json-array" | "grpc";
export type StreamBinding = "jsonrpc" | "rest";

/** A framing, as the report's note on what was folded names it. */
export interface Framing {
  readonly name: string;
  /** What the input is: "an SSE stream". */
  readonly described: string;
  /** The binding the note names when the framing fixes it (gRPC); else the events' own, JSON-RPC or REST. */
  readonly binding?: string;
}

/** The framings read here and by ../protobuf; a new form's decoder may pass a Framing of its own. */
export const FRAMINGS: Readonly<Record<StreamFraming, Framing>> = {
  sse: { name: "sse", described: "an SSE stream" },
  ndjson: { name: "ndjson", described: "an NDJSON stream" },
  "json-array": { name: "json-array", described: "a JSON array of stream events" },
  grpc: { name: "grpc", described: "a gRPC stream of length-prefixed StreamResponse messages", binding: "gRPC" },
};

export interface StreamLimits {
  /** The whole input, in bytes (the verifier's input cap). */
  readonly maxBytes: number;
  /** One event's JSON, in bytes: the a2a-js SSE event cap (a2a-wire.md §2.5). */
  readonly maxEventBytes: number;
  readonly maxEvents: number;
  /** Nesting depth of one event's JSON, wrapper included. */
  readonly maxDepth: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxBytes: 16 * 1024 * 1024,
  maxEventBytes: 4 * 1024 * 1024,
  maxEvents: 100_000,
  maxDepth: 64,
};

/** Notes on single events, and the items one note lists, are capped at this many. */
export const NOTE_CAP = 20;

/** Where an event came from, for diagnostics: its number from 1, and its first line in text framings. */
export interface Where {
  readonly n: number;
  readonly line?: number;
}

export function label(w: Where): string {
  return w.line === undefined ? `event ${w.n}` : `event ${w.n} (line ${w.line})`;
}

/** `event[3]`, then the JSON path inside the event's JSON. Events are numbered from 1 in every framing. */
export function eventPath(w: Where, ...segments: (string | number)[]): string {
  return joinPath(`event[${w.n}]`, ...segments);
}

/** A path already formatted by the parser (`result.task`, `[0]`, `$`), placed under the event. */
export function underEvent(w: Where, formatted: string): string {
  if (formatted === "$" || formatted === "") return eventPath(w);
  return formatted.startsWith("[") ? `event[${w.n}]${formatted}` : `event[${w.n}].${formatted}`;
}

/** A failure from a shared reader, said of the event it is in. */
export function inEvent(w: Where, f: Failure): Failure {
  return fail(f.code, `${label(w)}: ${f.detail}`, f.path);
}

/** `and N more` after the first NOTE_CAP items. */
export function capped(items: readonly string[]): string[] {
  return items.length <= NOTE_CAP ? [...items] : [...items.slice(0, NOTE_CAP), `and ${items.length - NOTE_CAP} more`];
}
