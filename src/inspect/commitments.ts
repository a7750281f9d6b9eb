/**
 * The payload's commitments to the observed Task (content-binding.md §6): each transcript entry
 * with the observed Message of its messageId, and each committed artifact with the observed
 * content Artifact of its artifactId, each with the SHA-256 of the observed text (text parts
 * joined with "\n"). Matching is verify's (taskBinding): by id, the first observed item of an id,
 * content Artifacts only; an unmatched artifact gets at most three same-named ones as a hint.
 */
import { valueText } from "../json/diff.js";
import { hasMember, isJsonObject, member, type JsonValue } from "../json/value.js";
import { type A2AArtifact, type A2AMessage, type A2APart } from "../input/a2a.js";
import type { EvidenceContext } from "../evidence/context.js";
import { listed, observedText } from "./common.js";
import { traceRows } from "./traces.js";
import { transitionRow } from "./transitions.js";
import { partRows } from "../evidence/parts.js";
import type { Absent, ArtifactRow, CommitmentsSection, InspectOptions, ObservedText, TranscriptRow } from "./model.js";

function str(v: JsonValue | undefined): string | null {
  return v === undefined || v === null ? null : valueText(v);
}

/**
 * The string ids the payload's entries name (entries of another shape name none). A transition
 * entry repeats the messageId of the Message it is bound to: it does not commit that Message.
 */
function idsOf(entries: readonly JsonValue[], name: string): Set<string> {
  const ids = new Set<string>();
  for (const e of entries) {
    const id = isJsonObject(e) && !hasMember(e, "kind") ? member(e, name) : undefined;
    if (typeof id === "string") ids.add(id);
  }
  return ids;
}

function firstBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T> {
  const m = new Map<string, T>();
  for (const item of items) if (!m.has(key(item))) m.set(key(item), item);
  return m;
}

/**
 * Each committed artifact entry beside the observed content artifact with its artifactId, or —
 * when none has it — the observed artifacts that share its name (at most three a name).
 */
function artifactRowOf(
  content: readonly A2AArtifact[],
  artifacts: ReadonlyMap<string, A2AArtifact>,
  observed: (at: string, parts: readonly A2APart[]) => ObservedText,
): (e: JsonValue, index: number) => ArtifactRow {
  const byName = new Map<string, A2AArtifact[]>();
  for (const a of content) {
    if (a.name === undefined) continue;
    const list = byName.get(a.name) ?? [];
    if (list.length < 3) list.push(a);
    byName.set(a.name, list);
  }
  return (e: JsonValue, index: number): ArtifactRow => {
    const entry = isJsonObject(e) ? e : undefined;
    const id = entry ? member(entry, "artifactId") : undefined;
    const name = entry ? member(entry, "name") : undefined;
    const contentCommitment = entry ? str(member(entry, "contentCommitment")) : null;
    const a = typeof id === "string" ? artifacts.get(id) : undefined;
    const seen = a ? { ...observed(a.path, a.parts), name: a.name ?? null } : null;
    const sameName =
      !a && typeof name === "string"
        ? (byName.get(name) ?? []).map((s) => ({ ...observed(s.path, s.parts), artifactId: s.artifactId }))
        : [];
    const parts = a && entry ? partRows(a.parts, member(entry, "partCommitments")) : undefined;
    return {
      index,
      artifactId: str(id),
      name: str(name),
      contentCommitment,
      observed: seen,
      sameName,
      equal: seen !== null && seen.recomputed === contentCommitment,
      ...(parts ? { parts } : {}),
    };
  };
}

export function commitmentsSection(ctx: EvidenceContext, o: InspectOptions): CommitmentsSection | Absent {
  // Paths in a --task file are named as such, as verify names the locations of its bundles.
  const prefix = ctx.evidence.origin.observedTask === "--task" ? "--task:" : "";
  const observed = (at: string, parts: readonly A2APart[], _o: InspectOptions) => observedText(at, parts, prefix, o);
  const payload = ctx.payload;
  if (!payload) return { absent: "the bundle carries no taskEvidencePayload" };
  const task = ctx.observedTask;
  if (!task)
    return { absent: "no observed Task: inspect a GetTask response or Task, or pass the observed Task with --task" };

  const history = task.history ?? [];
  const messages = firstBy(history, (m) => m.messageId);
  const status = task.statusMessage && !messages.has(task.statusMessage.messageId) ? task.statusMessage : undefined;
  const transcriptValue = member(payload, "transcript");
  const transcript = Array.isArray(transcriptValue) ? transcriptValue : [];
  const committedMessages = idsOf(transcript, "messageId");
  const messageOf = (id: string): A2AMessage | undefined =>
    messages.get(id) ?? (status?.messageId === id ? status : undefined);

  const content = (task.artifacts ?? []).filter((a) => !ctx.evidence.evidenceArtifacts.has(a));
  const artifacts = firstBy(content, (a) => a.artifactId);
  const artifactsValue = member(payload, "nonEvidenceArtifacts");
  const committedArtifacts = Array.isArray(artifactsValue) ? artifactsValue : [];
  const committedIds = idsOf(committedArtifacts, "artifactId");

  const observedMessage = (m: A2AMessage) => ({ ...observed(m.path, m.parts, o), role: m.role });
  const transcriptRow = (e: JsonValue, index: number): TranscriptRow => {
    const entry = isJsonObject(e) ? e : undefined;
    if (entry && hasMember(entry, "kind")) return transitionRow(entry, index, task, messageOf, observedMessage, o);
    const id = entry ? member(entry, "messageId") : undefined;
    const partCommitment = entry ? str(member(entry, "partCommitment")) : null;
    const m = typeof id === "string" ? messageOf(id) : undefined;
    const seen = m ? observedMessage(m) : null;
    const parts = m && entry ? partRows(m.parts, member(entry, "partCommitments")) : undefined;
    return {
      index,
      kind: "message",
      messageId: str(id),
      role: entry ? str(member(entry, "role")) : null,
      partCommitment,
      observed: seen,
      equal: seen !== null && seen.recomputed === partCommitment,
      ...(parts ? { parts } : {}),
    };
  };

  const artifactRow = artifactRowOf(content, artifacts, (at, parts) => observed(at, parts, o));

  const uncommittedMessages = [...messages.values(), ...(status ? [status] : [])].filter(
    (m) => !committedMessages.has(m.messageId),
  );
  const uncommittedArtifacts = content.filter(
    (a) => !committedIds.has(a.artifactId) && artifacts.get(a.artifactId) === a,
  );
  return {
    observedTask: `${prefix}${task.path}`,
    transcript: listed(transcript, o, transcriptRow),
    uncommittedMessages: listed(uncommittedMessages, o, (m) => ({ ...observed(m.path, m.parts, o), id: m.messageId })),
    artifacts: listed(committedArtifacts, o, artifactRow),
    uncommittedArtifacts: listed(uncommittedArtifacts, o, (a) => ({
      ...observed(a.path, a.parts, o),
      id: a.artifactId,
    })),
    traces: traceRows(payload, task, prefix, o),
  };
}
