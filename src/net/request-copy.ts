/**
 * The Message a client sent is its own observation: the only part of a capture the server did not
 * write. A server's copy of it (the Message a Task's history begins with) must be that Message —
 * messageId, role, parts, extensions, metadata — to which the server may add only `contextId` and
 * `taskId`. A copy with a weaker requirement in its metadata, or another request altogether, is
 * named here, so that `fetch` reports it before anything is judged from the server's copy.
 */
import { firstDifference, showValue } from "../json/diff.js";
import { hasMember, isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";

/** Members a server adds to the Message it stores; the client's Message names neither. */
const ADDED_BY_SERVER = ["contextId", "taskId"] as const;

/** Where the copy sits in the Task, and the first difference from the Message sent; undefined when they agree. */
export interface CopyDifference {
  /** `history[0]` (path inside the Task). */
  readonly at: string;
  /** What differs, e.g. `metadata["…"].minimumEvidence is "SIGNED_RECORD", sent "EXTERNALLY_REGISTERED"`. */
  readonly detail: string;
}

function comparable(copy: JsonObject, sent: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(copy)) {
    if ((ADDED_BY_SERVER as readonly string[]).includes(k) && !hasMember(sent, k)) continue;
    out[k] = copy[k] as JsonValue;
  }
  return out;
}

/** The first difference between the Message sent and one server copy of it. */
export function messageDifference(sent: JsonObject, copy: JsonValue, at: string): CopyDifference | undefined {
  if (!isJsonObject(copy)) return { at, detail: `the copy is ${showValue(copy)}, not a Message` };
  const d = firstDifference(sent, comparable(copy, sent));
  if (d === undefined) return undefined;
  const where = d.path === "$" ? "the Message" : d.path;
  return { at, detail: `${where} is ${showValue(d.right)}, sent ${showValue(d.left)}` };
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
  const indices = options.historyCut
    ? history.flatMap((m, i) => (isJsonObject(m) && member(m, "messageId") === id ? [i] : []))
    : [0];
  for (const i of indices) {
    const d = messageDifference(sent, history[i] as JsonValue, `history[${i}]`);
    if (d) return d;
  }
  return undefined;
}
