/**
 * What the client itself sent (contract §3): a capture's `request`, the Message that created the
 * Task, and `requests`, the resuming Messages, in order. They are the only part of a capture the
 * server did not write, so they are read as strictly as any A2A object, and one messageId names
 * one sent Message: a messageId given twice is an input error, not a choice of copies.
 */
import { joinPath } from "../json/path.js";
import { fail, ok, type Result } from "../result.js";
import type { A2AMessage } from "./a2a.js";
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
