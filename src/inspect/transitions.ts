/**
 * A transcript's transition entries (docs/profile.md §2): each commitment recomputed as SHA-256 of
 * pyjson of the ten-element array, from the observed Task and the observed Message the entry is
 * bound to — by the preimage function taskBinding's `transcript.transition` hashes — and, for a
 * transition out of a pause bound to a resuming Message, the Task and context that Message names
 * (`transcript.resumption`). The chain rules (in, out, contiguity) are verify's to judge: the row
 * shows the entry as it stands, in its place.
 */
import { showValue } from "../json/diff.js";
import { hasMember, member, type JsonObject, type JsonValue } from "../json/value.js";
import type { A2AMessage, A2ATask } from "../input/a2a.js";
import { INTERRUPTED_TASK_STATES, TERMINAL_TASK_STATES, TRANSITION_KIND } from "../profile.js";
import { messageTaskIds, transitionPreimage, TRANSITION_MEMBERS } from "../evidence/transcript.js";
import { MAX_LISTED } from "../json/diff.js";
import { text } from "./common.js";
import type { InspectOptions, ObservedText, TranscriptRow, TransitionRow } from "./model.js";

const isInterrupted = (s: string) => (INTERRUPTED_TASK_STATES as readonly string[]).includes(s);
const isTerminal = (s: string) => (TERMINAL_TASK_STATES as readonly string[]).includes(s);

function str(v: JsonValue | undefined): string | null {
  return typeof v === "string" ? v : null;
}

export function transitionRow(
  entry: JsonObject,
  index: number,
  task: A2ATask,
  messageOf: (id: string) => A2AMessage | undefined,
  observed: (m: A2AMessage) => ObservedText & { readonly role: string },
  o: InspectOptions,
): TranscriptRow {
  const kind = member(entry, "kind");
  const from = member(entry, "fromState");
  const to = member(entry, "toState");
  const messageId = member(entry, "messageId");
  const commitment = str(member(entry, "transitionCommitment"));
  const message = typeof messageId === "string" ? messageOf(messageId) : undefined;
  const ids = { id: task.id, contextId: task.contextId ?? "" };
  const own = message ? messageTaskIds(message) : undefined;
  const extra = Object.keys(entry).filter((k) => !(TRANSITION_MEMBERS as readonly string[]).includes(k));
  const base: TransitionRow = {
    fromState: str(from),
    toState: str(to),
    transitionCommitment: commitment,
    missingMembers: TRANSITION_MEMBERS.filter((m) => !hasMember(entry, m)),
    extraMembers: extra.slice(0, MAX_LISTED),
    taskId: ids.id,
    contextId: ids.contextId,
    messageTaskId: own?.taskId ?? null,
    messageContextId: own?.contextId ?? null,
    preimage: null,
    recomputed: null,
    resumption: null,
  };
  const row = (transition: TransitionRow): TranscriptRow => ({
    index,
    kind: "transition",
    messageId: str(messageId),
    role: null,
    partCommitment: null,
    observed: message ? observed(message) : null,
    equal: transition.recomputed !== null && transition.recomputed === commitment,
    transition,
  });
  const stop = (detail: string) =>
    row({ ...base, failure: { detail, path: `taskEvidencePayload.transcript[${index}]` } });
  if (kind !== TRANSITION_KIND)
    return stop(`kind ${showValue(kind)} is not an entry kind of this profile: not a transition entry`);
  if (typeof from !== "string" || typeof to !== "string")
    return stop(`fromState ${showValue(from)} and toState ${showValue(to)} are not both strings: no preimage`);
  if (messageId !== null && typeof messageId !== "string")
    return stop(`messageId ${showValue(messageId)} is neither a string nor null: no preimage`);
  if (typeof messageId === "string" && !message) {
    return stop(
      `the bound Message ${messageId} is not in the observed history (history may be truncated): the commitment cannot be recomputed`,
    );
  }
  const preimage = text(transitionPreimage(ids, index, from, to, messageId, message ?? null), o);
  const resumes =
    message !== undefined &&
    own !== undefined &&
    isInterrupted(from) &&
    (to === "TASK_STATE_WORKING" || isTerminal(to));
  return row({
    ...base,
    preimage,
    recomputed: preimage.sha256,
    resumption: resumes
      ? {
          messageTaskId: own.taskId,
          messageContextId: own.contextId,
          taskId: ids.id,
          contextId: ids.contextId,
          sameTask: own.taskId === ids.id,
          sameContext: own.contextId === "" ? null : own.contextId === ids.contextId,
        }
      : null,
  });
}
