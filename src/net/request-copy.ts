/**
 * The Message a client sent is its own observation: the only part of a capture the server did not
 * write. A server's copy of it (the Message a Task's history begins with) must be that Message —
 * messageId, role, parts, extensions, metadata — to which the server may add only `contextId` and
 * `taskId`. A copy with a weaker requirement in its metadata, or another request altogether, is
 * named here, so that `fetch` reports it before anything is judged from the server's copy.
 *
 * The comparison is the one `verify` makes (transcript.request): a copy in proto field names, a
 * default value left out, or a number written otherwise (`60.0` for `60`) is the Message sent, so
 * `fetch` never reports as a mismatch a copy that `verify` finds equal.
 */
import { showValue } from "../json/diff.js";
import { isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import type { A2AMessage } from "../input/a2a.js";
import { readV1Message } from "../input/read.js";
import { sentDifference } from "../input/request.js";

/** Where the copy sits in the Task, and the first difference from the Message sent; undefined when they agree. */
export interface CopyDifference {
  /** `history[0]` (path inside the Task). */
  readonly at: string;
  /** What differs, e.g. `metadata["…"].minimumEvidence is "SIGNED_RECORD", sent "EXTERNALLY_REGISTERED"`. */
  readonly detail: string;
}

function sentMessage(sent: JsonObject): A2AMessage {
  const m = readV1Message(sent, "$");
  if (!m.ok) throw new Error(`the Message fetch sends is not an A2A Message: ${m.detail}`);
  return m.value;
}

/** The first difference between the Message sent and one server copy of it. */
export function messageDifference(sent: JsonObject, copy: JsonValue, at: string): CopyDifference | undefined {
  if (!isJsonObject(copy)) return { at, detail: `the copy is ${showValue(copy)}, not a Message` };
  const read = readV1Message(copy, at);
  if (!read.ok) return { at, detail: `the copy is not an A2A Message: ${read.detail}` };
  const d = sentDifference(sentMessage(sent), read.value);
  if (d === undefined) return undefined;
  const where = d.path === "$" ? "the Message" : d.path;
  return { at, detail: `${where} is ${showValue(d.right)}, sent ${showValue(d.left)}` };
}

/** The messageId of a history entry, under either ProtoJSON spelling. */
function messageIdOf(m: JsonValue): JsonValue | undefined {
  return isJsonObject(m) ? (member(m, "messageId") ?? member(m, "message_id")) : undefined;
}

/**
 * The server's copies of the sent Message in one Task: the Message its history begins with (the
 * request that started the Task), and, when the history may be cut (`historyLength`), every
 * Message that carries the sent messageId.
 */
export function taskCopyDifference(
  sent: JsonObject,
  task: JsonObject,
  options: { historyCut?: boolean } = {},
): CopyDifference | undefined {
  const history = member(task, "history");
  if (!Array.isArray(history) || history.length === 0) return undefined;
  const id = member(sent, "messageId");
  const indices = options.historyCut ? history.flatMap((m, i) => (messageIdOf(m) === id ? [i] : [])) : [0];
  for (const i of indices) {
    const d = messageDifference(sent, history[i] as JsonValue, `history[${i}]`);
    if (d) return d;
  }
  return undefined;
}
