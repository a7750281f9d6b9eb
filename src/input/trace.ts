/**
 * Traceability traces (a2a-wire.md §5; A2A Task Evidence §4.1): a `ResponseTrace` either sits in
 * a metadata map under the a2a-samples key (matched exactly: PEAC's unrelated URI also says
 * "traceability"), or is sent as an Artifact that lists the Traceability extension.
 *
 * A trace Artifact is content: it is committed like any other Artifact. A trace in metadata is
 * outside the payload's commitments, so it is informational unless the payload carries its digest
 * (docs/profile.md, v3.2 additions; taskBinding `trace.digest`). Either way the callee evidence IDs
 * its steps cite are listed — never fetched, never followed: a callee's record is the callee's to
 * show, and this verifier is offline.
 */
import { isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { listCapped, showValue } from "../json/diff.js";
import { parseStrictJson } from "../json/strict-json.js";
import { isHex64 } from "../util/bytes.js";
import { EXTENSION_URI, TRACEABILITY_METADATA_KEY, TRACEABILITY_URI } from "../profile.js";
import type { A2AArtifact, A2ATask } from "./a2a.js";

/** Where a trace in metadata sits: the holder the payload's `traceDigests` names it by. */
export interface MetadataTrace {
  readonly holder: "task" | "message" | "artifact";
  /** The Task's id, the Message's messageId or the Artifact's artifactId. */
  readonly id: string;
  readonly path: string;
  readonly value: JsonValue;
}

/** A callee evidence ID a trace step cites, with what names the callee. */
export interface CalleeCitation {
  readonly step: string;
  readonly callee: string;
  readonly evidenceId: string;
}

/** A trace nests callee traces (schema A `agent_invocation.response_trace`); deeper than this is not walked. */
const MAX_TRACE_DEPTH = 8;
/** Steps walked per trace, so a huge trace costs bounded work. */
const MAX_TRACE_STEPS = 10_000;

function either(o: JsonValue | undefined, camel: string, snake: string): JsonValue | undefined {
  if (!isJsonObject(o)) return undefined;
  return member(o, camel) ?? member(o, snake);
}

/** True for the value a Traceability key holds: an object with a trace id and a steps array (either schema). */
export function isTrace(v: JsonValue | undefined): boolean {
  return isJsonObject(v) && either(v, "traceId", "trace_id") !== undefined && Array.isArray(member(v, "steps"));
}

/** Every trace under the Traceability key in the Task's metadata maps: the Task's, each Message's, each Artifact's. */
export function metadataTraces(task: A2ATask): MetadataTrace[] {
  const out: MetadataTrace[] = [];
  const at = (holder: MetadataTrace["holder"], id: string, path: string, metadata: JsonObject | undefined) => {
    const v = metadata ? member(metadata, TRACEABILITY_METADATA_KEY) : undefined;
    if (v !== undefined && v !== null)
      out.push({ holder, id, path: joinPath(path, "metadata", TRACEABILITY_METADATA_KEY), value: v });
  };
  at("task", task.id, task.path, task.metadata);
  for (const m of task.history ?? []) at("message", m.messageId, m.path, m.metadata);
  if (task.statusMessage && !(task.history ?? []).some((m) => m.messageId === task.statusMessage?.messageId)) {
    at("message", task.statusMessage.messageId, task.statusMessage.path, task.statusMessage.metadata);
  }
  for (const a of task.artifacts ?? []) at("artifact", a.artifactId, a.path, a.metadata);
  return out;
}

/** Artifacts that are Traceability traces: they list the extension. */
export function traceArtifacts(task: A2ATask): A2AArtifact[] {
  return (task.artifacts ?? []).filter((a) => a.extensions.includes(TRACEABILITY_URI));
}

/**
 * The callee evidence IDs a trace cites: a step's `additional_attributes` (schema B) or
 * `additionalAttributes` (schema A) map holding the evidence extension's URI as a key, whose value
 * is the callee record's evidenceId (docs/profile.md). Nested callee traces are walked too.
 */
export function calleeCitations(trace: JsonValue, depth = 0, budget = { steps: MAX_TRACE_STEPS }): CalleeCitation[] {
  const out: CalleeCitation[] = [];
  const steps = isJsonObject(trace) ? member(trace, "steps") : undefined;
  if (!Array.isArray(steps) || depth > MAX_TRACE_DEPTH) return out;
  for (const step of steps) {
    if (--budget.steps < 0) break;
    if (!isJsonObject(step)) continue;
    const stepId = either(step, "stepId", "step_id");
    const invocation = either(either(step, "stepAction", "step_action"), "agentInvocation", "agent_invocation");
    const calleeName =
      either(invocation, "agentName", "agent_name") ??
      either(invocation, "agentUrl", "agent_url") ??
      member(step, "name");
    const attributes = either(step, "additionalAttributes", "additional_attributes");
    const cited = isJsonObject(attributes) ? member(attributes, EXTENSION_URI) : undefined;
    if (cited !== undefined) {
      out.push({
        step: typeof stepId === "string" ? stepId : showValue(stepId),
        callee: typeof calleeName === "string" ? calleeName : "(unnamed callee)",
        evidenceId: isHex64(cited) ? cited : `${showValue(cited)} (not an evidence ID)`,
      });
    }
    const nested = either(invocation, "responseTrace", "response_trace");
    if (nested !== undefined) out.push(...calleeCitations(nested, depth + 1, budget));
  }
  return out;
}

function traceLine(path: string, trace: JsonValue, kind: string): string {
  const id = either(trace, "traceId", "trace_id");
  const steps = isJsonObject(trace) ? member(trace, "steps") : undefined;
  const cited = calleeCitations(trace);
  const callees =
    cited.length > 0
      ? `; callee evidence cited (listed, never fetched or followed): ${listCapped(cited.map((c) => `step ${c.step} (${c.callee}) → ${c.evidenceId}`))}`
      : "";
  return `${path}: Traceability trace ${showValue(id)} with ${Array.isArray(steps) ? steps.length : 0} step(s), ${kind}${callees}`;
}

/** The report's notes on every trace the Task carries. */
export function traceNotes(task: A2ATask): string[] {
  const notes = metadataTraces(task).map((t) =>
    isTrace(t.value)
      ? traceLine(
          t.path,
          t.value,
          "in metadata: not covered by evidence unless the payload carries its digest (taskBinding trace.digest)",
        )
      : `${t.path}: holds no Traceability trace (no trace id and steps)`,
  );
  for (const a of traceArtifacts(task)) {
    const text = a.parts.find((p) => p.content === "text")?.text;
    const parsed = text === undefined ? undefined : parseStrictJson(text);
    notes.push(
      parsed?.ok && isTrace(parsed.value)
        ? traceLine(a.path, parsed.value, "a trace Artifact: content, committed like any other Artifact")
        : `${a.path}: lists the Traceability extension but its text part holds no JSON trace; it is content like any other Artifact`,
    );
  }
  return notes;
}
