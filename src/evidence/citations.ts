/**
 * The interim records a payload cites (docs/profile.md, v3.2 additions), read from the payload:
 * its transcript, the state a cited pause entered, why a citation is malformed or out of order,
 * an interim payload's effects, and an interim record's own citations. taskBinding judges the
 * citations with these; inspect shows them.
 */
import { listCapped, showValue } from "../json/diff.js";
import { asSafeInteger, isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { isHex64 } from "../util/bytes.js";
import { INTERRUPTED_TASK_STATES, TRANSITION_KIND } from "../profile.js";

export interface Citation {
  readonly evidenceId: string;
  readonly sequence: number;
  readonly subject: string;
}

const CITATION_MEMBERS = ["evidenceId", "sequence"];

export function transcriptOf(payload: JsonObject | undefined): readonly JsonValue[] {
  const t = payload ? member(payload, "transcript") : undefined;
  return Array.isArray(t) ? t : [];
}

export function stateAt(transcript: readonly JsonValue[], sequence: number): string {
  const s = member(transcript[sequence] as JsonObject, "toState");
  return typeof s === "string" ? s : "(unknown state)";
}

export function citationFault(
  c: JsonValue,
  transcript: readonly JsonValue[],
  earlier: readonly Citation[],
  citedSoFar: ReadonlySet<string>,
): string | undefined {
  if (!isJsonObject(c)) return "a citation is an object {evidenceId, sequence}";
  const keys = Object.keys(c);
  if (keys.length !== CITATION_MEMBERS.length || !CITATION_MEMBERS.every((m) => keys.includes(m))) {
    return `a citation has exactly the members evidenceId and sequence; this one has ${listCapped(keys)}`;
  }
  const evidenceId = member(c, "evidenceId");
  const sequence = asSafeInteger(member(c, "sequence"));
  if (!isHex64(evidenceId)) return `evidenceId ${showValue(evidenceId)} is not 64 lowercase hex`;
  if (sequence === undefined || sequence < 0)
    return `sequence ${showValue(member(c, "sequence"))} is not a transcript position`;
  const entry = transcript[sequence];
  const to = isJsonObject(entry) ? member(entry, "toState") : undefined;
  if (
    !isJsonObject(entry) ||
    member(entry, "kind") !== TRANSITION_KIND ||
    typeof to !== "string" ||
    !(INTERRUPTED_TASK_STATES as readonly string[]).includes(to)
  ) {
    return `sequence ${sequence} is not a transition into an interrupted state in the transcript: an interim record is sealed at a pause`;
  }
  const last = earlier[earlier.length - 1];
  if (last && sequence <= last.sequence)
    return `sequence ${sequence} does not follow the previous citation's ${last.sequence}: citations are in transcript order, one per pause`;
  if (citedSoFar.has(evidenceId)) return `evidenceId ${evidenceId} is cited twice`;
  return undefined;
}

/** An interim payload's effects by artifactId (the first entry of each id), or undefined when the member is not an array. */
export function effectsOf(payload: JsonObject | undefined): Map<string, JsonValue> | undefined {
  const list = payload ? member(payload, "nonEvidenceArtifacts") : undefined;
  if (!Array.isArray(list)) return undefined;
  const byId = new Map<string, JsonValue>();
  for (const a of list) {
    const id = isJsonObject(a) ? member(a, "artifactId") : undefined;
    if (typeof id === "string" && !byId.has(id)) byId.set(id, a);
  }
  return byId;
}

/** An interim record's own `interimEvidence`, read leniently for comparison; null when it is no list. */
export function ownCitations(
  own: JsonValue | undefined,
): { evidenceId: JsonValue | undefined; sequence: number | undefined }[] | null {
  if (own === undefined) return [];
  if (!Array.isArray(own)) return null;
  return own.map((x) => ({
    evidenceId: isJsonObject(x) ? member(x, "evidenceId") : x,
    sequence: isJsonObject(x) ? asSafeInteger(member(x, "sequence")) : undefined,
  }));
}

/** The record cites exactly the earlier pauses, in order: the prefix rule for citations. */
export function sameCitations(
  own: readonly { evidenceId: JsonValue | undefined; sequence: number | undefined }[] | null,
  before: readonly { evidenceId: string; sequence: number }[],
): boolean {
  return (
    own !== null &&
    own.length === before.length &&
    own.every((x, i) => x.evidenceId === before[i]?.evidenceId && x.sequence === before[i]?.sequence)
  );
}
