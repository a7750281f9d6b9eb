/**
 * What an input is once decoded, before it is classified (./decode.ts): a JSON value, a folded
 * stream, a JSON document a decoder made from bytes that are no JSON text (a binary protobuf
 * message), or a JSON array of stream events with its fold. Each decoded kind but the plain JSON
 * value carries a symbol key, which no JSON parse can produce.
 */
import type { JsonValue } from "../json/value.js";
import type { Result } from "../result.js";
import type { FoldedStream } from "./stream/fold.js";

const DOCUMENT: unique symbol = Symbol("a2a-evidence decoded document");
const EVENTS: unique symbol = Symbol("a2a-evidence array of stream events");

/** A JSON document decoded from another encoding, with what the decoding noted. */
export interface DecodedDocument {
  readonly [DOCUMENT]: true;
  /** Which message the bytes were decoded as (e.g. `task`, `send-message-response`). */
  readonly form: string;
  /** The document, as the JSON forms of the same object give it. */
  readonly value: JsonValue;
  /** Notes the report carries before the classifier's. */
  readonly notes: readonly string[];
}

/**
 * A JSON array: the events of a stream, folded when decoded. A fault in the events is reported when
 * the input is classified, as a fault in any JSON document's content is: a caller that prefixes
 * what it reports of a classified input (--interim) prefixes this one too.
 */
export interface EventArray {
  readonly [EVENTS]: true;
  readonly value: JsonValue[];
  readonly folded: Result<FoldedStream>;
}

/** One input, decoded and ready to classify. */
export type InputValue = JsonValue | FoldedStream | DecodedDocument | EventArray;

export function decodedDocument(form: string, value: JsonValue, notes: readonly string[]): DecodedDocument {
  return { [DOCUMENT]: true, form, value, notes };
}

export function isDecodedDocument(v: unknown): v is DecodedDocument {
  return typeof v === "object" && v !== null && (v as { [DOCUMENT]?: unknown })[DOCUMENT] === true;
}

export function eventArray(value: JsonValue[], folded: Result<FoldedStream>): EventArray {
  return { [EVENTS]: true, value, folded };
}

export function isEventArray(v: unknown): v is EventArray {
  return typeof v === "object" && v !== null && (v as { [EVENTS]?: unknown })[EVENTS] === true;
}
