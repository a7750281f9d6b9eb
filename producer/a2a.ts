/**
 * A2A v1.0 ProtoJSON shapes the producer emits (a2a-wire.md §1): Messages, Artifacts and Parts,
 * and the commitments the payload makes to them (content-binding.md §6): SHA-256 of the UTF-8 of
 * the text parts joined with "\n"; other parts take no part.
 */
import type { JsonObject } from "../src/json/value.js";
import { sha256Hex, utf8 } from "../src/util/bytes.js";
import type { Role } from "./constants.js";
import { jsonObject } from "./json-text.js";

/** A text part (a string), or a structured `data` part that commitments ignore. */
export type PartSpec = string | { readonly data: unknown; readonly mediaType?: string };

export interface MessageSpec {
  readonly messageId: string;
  readonly role: Role;
  readonly parts: readonly PartSpec[];
  /**
   * The Task and context the Message itself names, when not the exchange's own (a resumption
   * spliced in from another Task, for negatives).
   */
  readonly taskId?: string;
  readonly contextId?: string;
}

export interface ArtifactSpec {
  readonly artifactId: string;
  readonly name: string;
  readonly parts: readonly PartSpec[];
  /** Extension URIs the Artifact lists (a Traceability trace Artifact lists that extension). */
  readonly extensions?: readonly string[];
  /**
   * The transcript index after which the Artifact exists: an effect done before a pause at a later
   * index is on the paused Task and in the interim record sealed there. Absent: it is produced
   * after the whole transcript.
   */
  readonly after?: number;
}

/** A deterministic UUID-shaped id (version 4 layout) named by a label. */
export function uuidFromLabel(label: string): string {
  const h = sha256Hex(utf8(`a2a-evidence producer id: ${label}`));
  const variant = ((parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** partCommitment / contentCommitment: hex SHA-256 of the text parts joined with "\n". */
export function textCommitment(parts: readonly PartSpec[]): string {
  const texts = parts.filter((p): p is string => typeof p === "string");
  return sha256Hex(utf8(texts.join("\n")));
}

export function partJson(part: PartSpec): JsonObject {
  if (typeof part === "string") return jsonObject({ text: part });
  return jsonObject({ data: part.data, mediaType: part.mediaType ?? "application/json" });
}

export interface MessageContext {
  readonly taskId: string;
  readonly contextId: string;
  /** Extension URIs and metadata carried by the message (the request Message only). */
  readonly extensions?: readonly string[];
  readonly metadata?: JsonObject;
}

export function messageJson(spec: MessageSpec, ctx: MessageContext): JsonObject {
  return jsonObject({
    contextId: spec.contextId ?? ctx.contextId,
    extensions: ctx.extensions,
    messageId: spec.messageId,
    metadata: ctx.metadata,
    parts: spec.parts.map(partJson),
    role: spec.role,
    taskId: spec.taskId ?? ctx.taskId,
  });
}

export function artifactJson(spec: ArtifactSpec): JsonObject {
  return jsonObject({
    artifactId: spec.artifactId,
    extensions: spec.extensions,
    name: spec.name,
    parts: spec.parts.map(partJson),
  });
}
