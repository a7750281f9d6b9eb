/**
 * The input stage's first step: an input's bytes (or an already parsed value) decoded, before any
 * classification, into a JSON value, a folded stream, a decoded document or a JSON array of events
 * with its fold (./decoded.ts). The forms are tried in the registry's order (./forms.ts); a JSON
 * document is the fallback.
 */
import type { JsonValue } from "../json/value.js";
import { ok, type Result } from "../result.js";
import { classifyInput, type Classified } from "./classify.js";
import type { InputData } from "./data.js";
import { isDecodedDocument, isEventArray, type InputValue } from "./decoded.js";
import { decodeJsonValue } from "./document.js";
import { INPUT_FORMS, JSON_DOCUMENT } from "./forms.js";
import type { FoldedStream } from "./stream/fold.js";

export type { InputValue } from "./decoded.js";

export function toInputValue(data: InputData): Result<InputValue> {
  if (typeof data === "string" || data instanceof Uint8Array) {
    const form = INPUT_FORMS.find((f) => f.detect(data)) ?? JSON_DOCUMENT;
    return form.decode(data);
  }
  return ok(decodeJsonValue(data));
}

/** The JSON value a decoded input stands for (a JSON array of events: the array); a folded stream as it is. */
export function asJsonInput(value: InputValue): JsonValue | FoldedStream {
  return isDecodedDocument(value) || isEventArray(value) ? value.value : value;
}

/** Classifies a parsed JSON value as an input: decoded first, so that an array is a stream's events. */
export function classifyValue(value: JsonValue): Result<Classified> {
  return classifyInput(decodeJsonValue(value));
}
