/**
 * What the transcript's entries are computed from (docs/profile.md): the members a transition
 * entry has, the Task and context a Message names, a Message's text commitment, and the bytes a
 * transition commitment is the SHA-256 of. taskBinding judges with them; inspect shows them.
 */
import { JsonNumber, member, type JsonValue } from "../json/value.js";
import { pyjson } from "../canon/pyjson.js";
import { sha256HexOfText } from "../util/bytes.js";
import { TRANSITION_COMMITMENT_TAG } from "../profile.js";
import { textOfParts, type A2AMessage } from "../input/a2a.js";

/** Exactly these: anything else (a token, a credential, an authorization header) never belongs in a transcript. */
export const TRANSITION_MEMBERS = [
  "fromState",
  "kind",
  "messageId",
  "sequence",
  "toState",
  "transitionCommitment",
] as const;

/** The Task and context a Message names itself (ProtoJSON: camelCase or snake_case; absent is ""). */
export function messageTaskIds(m: A2AMessage): { taskId: string; contextId: string } {
  const pick = (camel: string, snake: string) => {
    const v = member(m.json, camel) ?? member(m.json, snake);
    return typeof v === "string" ? v : "";
  };
  return { taskId: pick("taskId", "task_id"), contextId: pick("contextId", "context_id") };
}

/** The SHA-256 text commitment of a Message: its text parts joined with "\n". */
export function partCommitmentOf(m: A2AMessage): string {
  return sha256HexOfText(textOfParts(m.parts).text);
}

/** The bytes a transition commitment is the SHA-256 of: pyjson of the ten-element array (docs/profile.md). */
export function transitionPreimage(
  task: { readonly id: string; readonly contextId: string },
  sequence: number,
  fromState: string,
  toState: string,
  messageId: string | null,
  message: A2AMessage | null,
): string {
  const ids = message ? messageTaskIds(message) : undefined;
  const preimage: JsonValue[] = [
    TRANSITION_COMMITMENT_TAG,
    task.id,
    task.contextId,
    new JsonNumber(String(sequence)),
    fromState,
    toState,
    messageId,
    ids ? ids.taskId : null,
    ids ? ids.contextId : null,
    message ? partCommitmentOf(message) : null,
  ];
  const r = pyjson(preimage);
  // Every element is a string, a safe integer or null: pyjson cannot refuse it.
  return r.ok ? r.value.text : "";
}
