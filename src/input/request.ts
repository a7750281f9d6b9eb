/**
 * What the client itself sent (contract §3): a capture's `request`, the Message that created the
 * Task, and `requests`, the resuming Messages, in order. They are the only part of a capture the
 * server did not write, so they are read as strictly as any A2A object, and one messageId names
 * one sent Message: a messageId given twice is an input error, not a choice of copies.
 */
import { firstDifference, type Difference } from "../json/diff.js";
import { joinPath } from "../json/path.js";
import { JsonNumber, isJsonObject, member, newJsonObject, type JsonObject, type JsonValue } from "../json/value.js";
import { sameDecimal } from "../json/strict-json.js";
import { fail, ok, type Result } from "../result.js";
import { bytesToBase64, protoJsonBytes } from "../util/bytes.js";
import type { A2AMessage, A2APart } from "./a2a.js";
import type { Found } from "./classify.js";
import { readV1Message } from "./read.js";

/** The Messages the client sent, as the capture recorded them. */
export interface SentMessages {
  readonly request?: A2AMessage;
  readonly requests: readonly A2AMessage[];
}

export function readSentMessages(found: {
  readonly request?: Found;
  readonly requests?: Found[];
}): Result<SentMessages> {
  const sent: A2AMessage[] = [];
  const seen = new Map<string, string>();
  for (const f of [...(found.request ? [found.request] : []), ...(found.requests ?? [])]) {
    const m = readV1Message(f.value, f.path);
    if (!m.ok) return m;
    const earlier = seen.get(m.value.messageId);
    if (earlier !== undefined) {
      return fail(
        "INPUT_A2A_MALFORMED",
        `messageId ${JSON.stringify(m.value.messageId)} is already the messageId of ${earlier}: each Message the client sent has its own`,
        joinPath(f.path, "messageId"),
      );
    }
    seen.set(m.value.messageId, f.path);
    sent.push(m.value);
  }
  return found.request ? ok({ request: sent[0] as A2AMessage, requests: sent.slice(1) }) : ok({ requests: sent });
}

/** ProtoJSON writes a field at its default value as absent: these are absence (a2a-wire.md §1.1). */
function isDefault(v: JsonValue | undefined): boolean {
  return (
    v === undefined ||
    v === null ||
    v === "" ||
    v === false ||
    (v instanceof JsonNumber && v.toNumber() === 0) ||
    (Array.isArray(v) && v.length === 0) ||
    (isJsonObject(v) && Object.keys(v).length === 0)
  );
}

const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** An object's members under their JSON names, defaults left out (the proto name is the same field). */
function protoView(
  json: JsonObject,
  replace: (name: string, value: JsonValue) => JsonValue = (_, value) => value,
): JsonObject {
  const out = newJsonObject();
  for (const [name, value] of Object.entries(json)) {
    const key = camel(name);
    const v = replace(key, value);
    if (!isDefault(v)) out[key] = v;
  }
  return out;
}

/**
 * A Part as a value to compare. Its content is a oneof member, set whatever its value: `data` is a
 * google.protobuf.Value, in which `{}`, `[]`, `""` and `false` are values, not absence; `raw` is
 * bytes, which ProtoJSON may spell in either base64 alphabet, padded or not.
 */
function partView(p: A2APart, json: JsonValue | undefined): JsonObject {
  const view = protoView(isJsonObject(json) ? json : newJsonObject());
  const bytes = p.raw === undefined ? undefined : protoJsonBytes(p.raw);
  view[p.content] = bytes ? bytesToBase64(bytes) : ((p.raw ?? p.text ?? p.url ?? p.data) as JsonValue);
  view.content = p.content;
  return view;
}

/** A Message as a value to compare: role by name (ROLE_UNSPECIFIED, the enum's 0, is absent), each Part by `partView`. */
function messageView(m: A2AMessage): JsonObject {
  const parts = member(m.json, "parts");
  return protoView(m.json, (key, value) => {
    if (key === "role") return m.role === "ROLE_UNSPECIFIED" ? null : m.role;
    if (key !== "parts" || !Array.isArray(parts)) return value;
    return m.parts.map((p, i) => partView(p, parts[i]));
  });
}

/**
 * One number, however written: what a server's re-encoding may change and nothing more. A number
 * in a google.protobuf.Struct is a double, which a JSON binding may print as `60.0` and a binary
 * one decodes as `60`; a value that is not an integer is compared exactly (`sameDecimal`).
 */
export const sameValue = (a: JsonNumber, b: JsonNumber): boolean => sameDecimal(a.lexeme, b.lexeme);

/** How a server copy differs from the Message the client sent, or undefined when it is that Message. */
export function sentDifference(sent: A2AMessage, copy: A2AMessage): Difference | undefined {
  const s = messageView(sent);
  const c = messageView(copy);
  // The server assigns the Task and context: a copy may add them, never change the ones sent.
  for (const id of ["taskId", "contextId"]) if (!(id in s)) delete c[id];
  return firstDifference(s, c, "$", sameValue);
}

/**
 * How two server copies of one Message differ, or undefined when they are one Message: compared as
 * `sentDifference` compares, where either copy may leave out the Task and context ids the other
 * shows (a foreign id is `transcript.message`'s FAIL).
 */
export function copyDifference(a: A2AMessage, b: A2AMessage): Difference | undefined {
  const x = messageView(a);
  const y = messageView(b);
  for (const id of ["taskId", "contextId"]) {
    if (id in x && id in y) continue;
    delete x[id];
    delete y[id];
  }
  return firstDifference(x, y, "$", sameValue);
}

/** Where server copies of one Message first disagree: a copy against the first one. */
export interface CopiesDisagreement {
  readonly reference: A2AMessage;
  readonly copy: A2AMessage;
  readonly difference: Difference;
}

/**
 * The first copy that is not the same Message as the first copy (`copyDifference`: whichever
 * binding each came in, ProtoJSON's spellings are no difference), or undefined when all agree.
 */
export function disagreeingCopy(copies: readonly A2AMessage[]): CopiesDisagreement | undefined {
  const [reference, ...rest] = copies;
  if (!reference) return undefined;
  for (const copy of rest) {
    const difference = copyDifference(reference, copy);
    if (difference) return { reference, copy, difference };
  }
  return undefined;
}
