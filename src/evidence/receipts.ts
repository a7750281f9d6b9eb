/**
 * What a witness record (a Transparency Service stamp) carries, read before it is judged: its
 * receipt bytes, and whether it is a placeholder stamp, which never counts (log-and-receipts.md).
 */
import { isJsonObject, member, type JsonValue } from "../json/value.js";
import { base64ToBytesStrict } from "../util/bytes.js";

/** `receipt_b64` of a witness record, decoded; undefined when absent or not strict standard base64. */
export function receiptBytes(record: JsonValue): Uint8Array | undefined {
  const b64 = isJsonObject(record) ? member(record, "receipt_b64") : undefined;
  return typeof b64 === "string" ? base64ToBytesStrict(b64) : undefined;
}

/** A placeholder stamp, which never counts. */
export function isStub(record: JsonValue): boolean {
  return isStubWith(record, receiptBytes(record));
}

/** `isStub`, given the record's receipt as `receiptBytes` decoded it. */
export function isStubWith(record: JsonValue, bytes: Uint8Array | undefined): boolean {
  if (!isJsonObject(record)) return false;
  if (member(record, "is_stub") === true) return true;
  // The CLL stub placeholder is JSON {"cll-stub":true,"crit":["cll-stub"],…}, never CBOR.
  return bytes !== undefined && bytes[0] === 0x7b && Buffer.from(bytes).toString("latin1").includes('"cll-stub"');
}
