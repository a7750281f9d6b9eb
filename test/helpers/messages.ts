/** A user or agent Message of one text part for a producer transcript, its id derived from a label. */
import { uuidFromLabel, type MessageSpec } from "../../producer/a2a.js";

export const user = (label: string, text: string): MessageSpec => ({
  messageId: uuidFromLabel(label),
  role: "ROLE_USER",
  parts: [text],
});

export const agent = (label: string, text: string): MessageSpec => ({
  messageId: uuidFromLabel(label),
  role: "ROLE_AGENT",
  parts: [text],
});
