/**
 * JSON text of a value the strict protobuf reader gave: numbers by their lexeme (the doubles the
 * wire holds, as the reader wrote them), strings escaped as JSON.stringify escapes them, members in
 * the reader's order (field-number order, as ProtoJSON printers write). Parsed back strictly, the
 * text is the same value: what `verify` judges in a capture is what it judges in the binary file.
 */
import { JsonNumber, isJsonObject, type JsonValue } from "../json/value.js";

export function protoJsonText(v: JsonValue): string {
  if (v instanceof JsonNumber) return v.lexeme;
  if (Array.isArray(v)) return `[${v.map(protoJsonText).join(",")}]`;
  if (isJsonObject(v))
    return `{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}:${protoJsonText(v[k] as JsonValue)}`)
      .join(",")}}`;
  return JSON.stringify(v);
}
