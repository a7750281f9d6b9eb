/**
 * Transition entries (docs/profile.md, "v3.2 additions to aac-cll-scitt/v1"): a transition into or
 * out of an interrupted state sits in the transcript at its own sequence position, between the
 * Message entries, and commits to the Task, its position, the two states and the Message it is
 * bound to:
 *
 *   transitionCommitment = hex(SHA-256(pyjson([
 *     "a2a-task-evidence/transition/v1", taskId, contextId, sequence, fromState, toState,
 *     messageId, message.taskId, message.contextId, partCommitment])))
 *
 * with the last four null for a transition bound to no Message. Written here from the profile's
 * text, apart from the verifier's reading of it.
 */
import type { JsonValue } from "../src/json/value.js";
import { partCommitments, textCommitment, type MessageSpec } from "./a2a.js";
import { TRANSITION_COMMITMENT_TAG } from "./constants.js";
import { ProducerError } from "./errors.js";
import { int, jsonObject, pyjsonDigestHex } from "./json-text.js";
import { isTransition, type TranscriptSpec } from "./options.js";

/** The Task a commitment is computed for. */
export interface TaskIds {
  readonly taskId: string;
  readonly contextId: string;
}

/** The Message a transition at `index` is bound to: the entry before it, unless `bound` is false. */
export function boundMessage(specs: readonly TranscriptSpec[], index: number): MessageSpec | null {
  const t = specs[index];
  if (t === undefined || !isTransition(t))
    throw new ProducerError("PRODUCER_INVALID_OPTION", `transcript[${index}] is not a transition`);
  if (t.bound === false) return null;
  const before = specs[index - 1];
  if (before === undefined || isTransition(before)) {
    throw new ProducerError(
      "PRODUCER_INVALID_OPTION",
      `transcript[${index}] is bound to the entry before it, which is not a Message`,
    );
  }
  return before;
}

export function transitionCommitment(
  ids: TaskIds,
  sequence: number,
  from: string,
  to: string,
  message: MessageSpec | null,
): string {
  const preimage: JsonValue[] = [
    TRANSITION_COMMITMENT_TAG,
    ids.taskId,
    ids.contextId,
    int(sequence),
    from,
    to,
    message === null ? null : message.messageId,
    message === null ? null : (message.taskId ?? ids.taskId),
    message === null ? null : (message.contextId ?? ids.contextId),
    message === null ? null : textCommitment(message.parts),
  ];
  return pyjsonDigestHex(preimage);
}

/** The payload's transcript: Message entries as in v3.1, transition entries where the Task paused or resumed. */
export function transcriptEntries(ids: TaskIds, specs: readonly TranscriptSpec[], perPart = false): JsonValue[] {
  return specs.map((t, sequence) => {
    if (!isTransition(t)) {
      return jsonObject({
        messageId: t.messageId,
        partCommitment: textCommitment(t.parts),
        ...(perPart ? { partCommitments: partCommitments(t.parts) } : {}),
        role: t.role,
        sequence: int(sequence),
      });
    }
    const message = boundMessage(specs, sequence);
    return jsonObject({
      fromState: t.transition.from,
      kind: "transition",
      messageId: message === null ? null : message.messageId,
      sequence: int(sequence),
      toState: t.transition.to,
      transitionCommitment: transitionCommitment(ids, sequence, t.transition.from, t.transition.to, message),
    });
  });
}
