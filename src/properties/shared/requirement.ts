/**
 * The caller's evidence requirement (a2a-wire.md §6.3; contract §9.8): `metadata[<extension URI>]`
 * of the Message the client sent to create the Task. When the input records that Message itself
 * (a capture's `request`), the requirement is read from it, never from a server copy; otherwise
 * from the Task's first Message: the first Task's first history entry, else the terminal Task's.
 * Negotiation and the level report read it from here, so they cannot disagree on which Message it
 * is, and the level asked for is the strongest any copy or the request shows, never the weakest.
 */
import { memberAt, type JsonValue } from "../../json/value.js";
import { EVIDENCE_LEVELS, levelRank, type EvidenceLevel } from "../../profile.js";
import { extensionMetadata, type A2AMessage } from "../../input/a2a.js";
import type { EvidenceContext } from "../../evidence/context.js";
import { serverCopies } from "../task-binding/request.js";

export interface FirstMessage {
  /** The Message the requirement is read from: the caller's `request`, else the Task's first Message. */
  readonly message: A2AMessage;
  /** True when `message` is the caller's own `request`, not a server copy. */
  readonly sent: boolean;
  /** Every copy the server shows of that Message (history entries and status messages, by messageId). */
  readonly copies: readonly A2AMessage[];
}

export function findFirstMessage(ctx: EvidenceContext): FirstMessage | undefined {
  const request = ctx.evidence.request;
  if (request) return { message: request, sent: true, copies: serverCopies(ctx, request.messageId) };
  const first = ctx.firstTask?.history?.[0] ?? ctx.observedTask?.history?.[0];
  if (!first) return undefined;
  return { message: first, sent: false, copies: serverCopies(ctx, first.messageId) };
}

export function requirementOf(m: A2AMessage | undefined): JsonValue | undefined {
  return extensionMetadata(m);
}

/** The strongest known `minimumEvidence` the request or any copy of the first Message shows. */
export function strongestMinimum(first: FirstMessage | undefined): EvidenceLevel | undefined {
  let strongest: EvidenceLevel | undefined;
  for (const m of first ? [first.message, ...first.copies] : []) {
    const level = memberAt(requirementOf(m), "minimumEvidence");
    if (typeof level !== "string" || !(EVIDENCE_LEVELS as readonly string[]).includes(level)) continue;
    if (strongest === undefined || levelRank(level as EvidenceLevel) > levelRank(strongest))
      strongest = level as EvidenceLevel;
  }
  return strongest;
}
