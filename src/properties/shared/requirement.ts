/**
 * The caller's evidence requirement (a2a-wire.md §6.3): `metadata[<extension URI>]` of the Task's
 * first Message. The first Message is the first Task's first history entry, else the terminal
 * Task's; negotiation and the level report read it from here, so they cannot disagree on which
 * Message it is.
 */
import type { JsonValue } from "../../json/value.js";
import { extensionMetadata, type A2AMessage } from "../../input/a2a.js";
import type { EvidenceContext } from "./context.js";

export interface FirstMessage {
  readonly message: A2AMessage;
  /** Every copy of that Message in the input (history entries and status messages, by messageId). */
  readonly copies: readonly A2AMessage[];
}

export function findFirstMessage(ctx: EvidenceContext): FirstMessage | undefined {
  const first = ctx.firstTask?.history?.[0] ?? ctx.observedTask?.history?.[0];
  if (!first) return undefined;
  const copies: A2AMessage[] = [];
  // A paused Task given with --interim is observed too: its copy of the first Message must agree.
  const paused = (ctx.evidence.interimBundles ?? []).flatMap((b) => (b.pausedTask ? [b.pausedTask.task] : []));
  for (const task of [ctx.firstTask, ctx.observedTask, ...new Set(paused)]) {
    for (const m of task?.history ?? []) if (m.messageId === first.messageId) copies.push(m);
    if (task?.statusMessage?.messageId === first.messageId) copies.push(task.statusMessage);
  }
  return { message: first, copies };
}

export function requirementOf(m: A2AMessage | undefined): JsonValue | undefined {
  return extensionMetadata(m);
}
