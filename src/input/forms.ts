/**
 * The forms an input's bytes can take, detected by content, and what each becomes for the input
 * stage: an SSE body or NDJSON is folded (it is no JSON document); bytes that are no text at all
 * are decoded as protobuf (gRPC, contract §3.1); anything else is parsed strictly as JSON (a JSON
 * array of events is folded later, at classification).
 */
import type { JsonValue } from "../json/value.js";
import { ok, type Result } from "../result.js";
import { classify, type Classified } from "./classify.js";
import { toJsonValue, type InputData } from "./data.js";
import { decodeProtobufInput, isDecodedProtobuf, looksLikeProtobuf, type DecodedProtobuf } from "./protobuf/input.js";
import { foldStream, isFoldedStream, looksLikeStream, streamClassified, type FoldedStream } from "./stream.js";

/** One input, ready to classify. */
export type InputValue = JsonValue | FoldedStream | DecodedProtobuf;

interface Form {
  readonly detect: (b: Uint8Array | string) => boolean;
  readonly read: (b: Uint8Array | string) => Result<InputValue>;
}

/** Tried in order; the first whose `detect` holds reads the input. JSON is the fallback. */
const FORMS: readonly Form[] = [
  { detect: looksLikeStream, read: (b) => foldStream(b) },
  { detect: (b) => b instanceof Uint8Array && looksLikeProtobuf(b), read: (b) => decodeProtobufInput(b as Uint8Array) },
];

export function toInputValue(data: InputData): Result<InputValue> {
  if (typeof data === "string" || data instanceof Uint8Array) {
    const form = FORMS.find((f) => f.detect(data));
    if (form) return form.read(data);
  }
  return toJsonValue(data);
}

/** Classifies any input value: a folded stream, a decoded protobuf message or a JSON value. */
export function classifyInput(value: InputValue): Result<Classified> {
  if (isFoldedStream(value)) return streamClassified(value);
  if (isDecodedProtobuf(value)) {
    const c = classify(value.value);
    return c.ok ? ok({ ...c.value, notes: [...value.notes, ...c.value.notes] }) : c;
  }
  return classify(value);
}

/** The JSON value a decoded protobuf message stands for; any other input as it is. */
export function asJsonInput(value: InputValue): JsonValue | FoldedStream {
  return isDecodedProtobuf(value) ? value.value : value;
}
