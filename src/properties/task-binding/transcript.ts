/**
 * The payload's transcript, with the v3.2 transition entries (docs/profile.md, "v3.2 additions to
 * aac-cll-scitt/v1"; A2A Task Evidence §8.1, §12): Message entries as in v3.1, and an entry for
 * every transition into or out of an interrupted state, at its own sequence position.
 *
 * A pause reads, in contiguous sequence: the agent's request (a Message entry), the transition
 * into INPUT_REQUIRED or AUTH_REQUIRED bound to it, the resuming Message (its messageId and its
 * Task/context binding), the transition out bound to that. Each transition commits to the Task,
 * its position, both states and the bound Message as observed:
 *
 *   transitionCommitment = hex(SHA-256(pyjson(["a2a-task-evidence/transition/v1", taskId,
 *     contextId, sequence, fromState, toState, messageId, message.taskId, message.contextId,
 *     partCommitment])))
 *
 * so an omitted, reordered, substituted or spliced resumption breaks a rule or a commitment.
 */
import { showValue } from "../../json/diff.js";
import { asSafeInteger, hasMember, isJsonObject, member, type JsonObject, type JsonValue } from "../../json/value.js";
import { joinPath } from "../../json/path.js";
import { TRANSITION_KIND } from "../../profile.js";
import type { A2AMessage } from "../../input/a2a.js";
import { messageTaskIds } from "../../evidence/transcript.js";

export { messageTaskIds, partCommitmentOf, transitionPreimage, TRANSITION_MEMBERS } from "../../evidence/transcript.js";

export interface MessageEntry {
  readonly kind: "message";
  readonly index: number;
  readonly messageId: string;
  readonly role: JsonValue;
  readonly partCommitment: JsonValue;
  /** Per-Part commitments (part-commitments.md), when the entry carries them. */
  readonly partCommitments?: JsonValue;
}

export interface TransitionEntry {
  readonly kind: "transition";
  readonly index: number;
  readonly json: JsonObject;
}

export type TranscriptEntry = MessageEntry | TransitionEntry;

const MESSAGE_MEMBERS = ["messageId", "role", "partCommitment", "sequence"] as const;

/**
 * The transcript's entries, or its first structural fault (contract §9.13: a missing member is a
 * FAIL): every entry an object numbered by its position, a Message entry with its four members and
 * a messageId no other Message entry has, a transition entry marked `kind: "transition"` (its own
 * members are `transcript.transition`'s to judge).
 */
export function readTranscript(transcript: readonly JsonValue[]): { entries: TranscriptEntry[]; fault?: string } {
  const entries: TranscriptEntry[] = [];
  const seen = new Set<string>();
  for (const [i, e] of transcript.entries()) {
    const at = joinPath("transcript", i);
    if (!isJsonObject(e)) return { entries, fault: `${at} is not an object` };
    if (asSafeInteger(member(e, "sequence")) !== i)
      return { entries, fault: `${at}.sequence is ${showValue(member(e, "sequence"))}, expected ${i}` };
    if (hasMember(e, "kind")) {
      if (member(e, "kind") !== TRANSITION_KIND)
        return { entries, fault: `${at}.kind ${showValue(member(e, "kind"))} is not an entry kind of this profile` };
      entries.push({ kind: "transition", index: i, json: e });
      continue;
    }
    const missing = MESSAGE_MEMBERS.filter((m) => !hasMember(e, m));
    if (missing.length > 0) return { entries, fault: `${at} lacks ${missing.join(", ")}` };
    const messageId = member(e, "messageId");
    if (typeof messageId !== "string") return { entries, fault: `${at}.messageId is not a string` };
    if (seen.has(messageId)) return { entries, fault: `${at}: messageId ${messageId} appears twice` };
    seen.add(messageId);
    entries.push({
      kind: "message",
      index: i,
      messageId,
      role: member(e, "role") as JsonValue,
      partCommitment: member(e, "partCommitment") as JsonValue,
      ...(hasMember(e, "partCommitments") ? { partCommitments: member(e, "partCommitments") as JsonValue } : {}),
    });
  }
  return { entries };
}

/**
 * The profile commits to text only (content-binding.md §6): a data, raw or url part could be
 * replaced after sealing and every commitment would still match, so a matching text commitment
 * cannot establish that the payload describes a Message or Artifact that has such parts.
 */
export function uncoveredParts(n: number): string {
  return `${n} non-text part(s) (data, raw or url) that no commitment of this profile covers: their content is not bound and could be replaced without any commitment changing`;
}

/**
 * A Message that names a Task or context other than the one whose history holds it belongs to
 * that other Task (spliced in): its content can be committed consistently, its place cannot.
 * An absent id names nothing (a client's first Message carries none).
 */
export function foreignIds(
  m: A2AMessage,
  task: { readonly id: string; readonly contextId?: string },
): string | undefined {
  const ids = messageTaskIds(m);
  const contextId = task.contextId ?? "";
  if ((ids.taskId !== "" && ids.taskId !== task.id) || (ids.contextId !== "" && ids.contextId !== contextId)) {
    return `message ${m.messageId} names Task ${showValue(ids.taskId)} in context ${showValue(ids.contextId)}, not this Task ${task.id} (context ${showValue(contextId)}): a Message of another Task spliced into this history`;
  }
  return undefined;
}
