/**
 * A2A v1.0 ProtoJSON shapes the producer emits (a2a-wire.md §1): Messages, Artifacts and Parts,
 * and the commitments the payload makes to them (content-binding.md §6): SHA-256 of the UTF-8 of
 * the text parts joined with "\n"; other parts take no part.
 */
import { fromPlain, type JsonObject, type JsonValue } from "../src/json/value.js";
import { sha256Hex, utf8 } from "../src/util/bytes.js";
import type { Role } from "./constants.js";
import { int, jcsDigestHex, jsonObject } from "./json-text.js";

/**
 * A text part (a string), a structured `data` part, a file's `raw` bytes (base64, as ProtoJSON
 * carries them) or a `url`. The v1 commitments ignore all but text; per-Part commitments
 * (part-commitments.md) cover each. A url Part with `resolved` bytes is committed RESOLVED to them,
 * without, NOT_RESOLVED.
 */
export type PartSpec =
  | string
  | { readonly data: unknown; readonly mediaType?: string }
  | { readonly raw: string; readonly mediaType?: string; readonly filename?: string }
  | { readonly url: string; readonly mediaType?: string; readonly resolved?: Uint8Array };

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
  if ("raw" in part) return jsonObject({ filename: part.filename, mediaType: part.mediaType, raw: part.raw });
  if ("url" in part) return jsonObject({ mediaType: part.mediaType, url: part.url });
  return jsonObject({ data: part.data, mediaType: part.mediaType ?? "application/json" });
}

/** A Part's committed mediaType: absent or "" is written null (part-commitments.md §2). */
function mediaTypeOrNull(mediaType: string | undefined): string | null {
  return mediaType === undefined || mediaType === "" ? null : mediaType;
}

/**
 * The per-Part commitments of a Message's or Artifact's parts, in order (part-commitments.md §2):
 * text by its UTF-8, data by the JCS of its value, raw by its bytes, length and mediaType, url by
 * its locator, mediaType and what it resolved to.
 */
export function partCommitments(parts: readonly PartSpec[]): JsonValue[] {
  return parts.map((part) => {
    if (typeof part === "string") return jsonObject({ digest: sha256Hex(utf8(part)), kind: "text" });
    if ("raw" in part) {
      const bytes = Buffer.from(part.raw, "base64");
      return jsonObject({
        digest: sha256Hex(bytes),
        kind: "raw",
        length: int(bytes.length),
        mediaType: mediaTypeOrNull(part.mediaType),
      });
    }
    if ("url" in part) {
      const common = { kind: "url", locator: sha256Hex(utf8(part.url)), mediaType: mediaTypeOrNull(part.mediaType) };
      return part.resolved === undefined
        ? jsonObject({ ...common, resolution: "NOT_RESOLVED" })
        : jsonObject({
            ...common,
            digest: sha256Hex(part.resolved),
            length: int(part.resolved.length),
            resolution: "RESOLVED",
          });
    }
    return jsonObject({ digest: jcsDigestHex(fromPlain(part.data)), kind: "data" });
  });
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
