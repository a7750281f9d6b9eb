/**
 * The stream a server sends for one exchange (a2a-wire.md §1.7, §2.5; a2a-js-sdk.md §2.3, §5.3),
 * and its wire forms.
 *
 * Events, in order: the first Task (SUBMITTED, with the explicit acceptance); a WORKING status
 * update for each agent message of the history (the SDKs append a status message to the history);
 * each content artifact in one event per part — the first without `append`, the others with
 * `append: true`, the last with `lastChunk: true`; the evidence artifact in one event; and the
 * terminal status update whose metadata carries the evidence reference (the SDKs merge it into
 * Task.metadata, where it replaces the acceptance, a2a-wire.md §6.5). Folding them by the rules of
 * a2a-wire.md §2.5 gives back the exchange's final Task, so a streamed exchange and its GetTask
 * twin describe one Task.
 *
 * Built from the exchange's first and final Task, after their tamper hooks, so a negative's change
 * reaches the stream too. The producer does not use the verifier's fold.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "../src/json/value.js";
import type { Exchange } from "./exchange.js";
import { EVIDENCE_ARTIFACT_ID } from "./constants.js";
import { ProducerError } from "./errors.js";
import { copyObject, jsonObject, jsonText } from "./json-text.js";

/** When the agent messages are reported: before the work completes. */
const WORKING_TIMESTAMP = "2026-10-01T09:30:00.120000Z";

function objectMember(o: JsonObject, name: string): JsonObject | undefined {
  const v = o[name];
  return isJsonObject(v) ? v : undefined;
}

function arrayMember(o: JsonObject, name: string): JsonValue[] {
  const v = o[name];
  return Array.isArray(v) ? v : [];
}

/** The StreamResponses of the exchange, in the order a server sends them. */
export function streamEvents(exchange: Exchange): JsonObject[] {
  const { firstTask, finalTask } = exchange;
  const taskId = finalTask.id as string;
  const contextId = finalTask.contextId as string;
  const ids = { taskId, contextId };
  const history = arrayMember(finalTask, "history");
  if (arrayMember(firstTask, "history").length !== 1 || arrayMember(firstTask, "artifacts").length !== 0) {
    throw new ProducerError(
      "PRODUCER_INVALID_OPTION",
      "a streamed first Task carries the request message and no artifact",
    );
  }
  const firstMetadata = objectMember(firstTask, "metadata") ?? {};
  const finalMetadata = objectMember(finalTask, "metadata") ?? {};
  // Metadata merges key by key: a key only the first Task has would survive into the folded Task.
  const stale = Object.keys(firstMetadata).filter((k) => !(k in finalMetadata));
  if (stale.length > 0)
    throw new ProducerError(
      "PRODUCER_INVALID_OPTION",
      `the final Task drops metadata key ${stale[0]}, which no status update can remove`,
    );

  const events: JsonObject[] = [jsonObject({ task: copyObject(firstTask) })];
  const agentMessages = history.slice(1);
  for (const message of agentMessages) {
    if (!isJsonObject(message) || message.role !== "ROLE_AGENT") {
      throw new ProducerError(
        "PRODUCER_INVALID_OPTION",
        "one stream answers one request: history after the first message must be agent messages",
      );
    }
    events.push(
      jsonObject({
        statusUpdate: {
          ...ids,
          status: { message: copyObject(message), state: "TASK_STATE_WORKING", timestamp: WORKING_TIMESTAMP },
        },
      }),
    );
  }
  if (agentMessages.length === 0) {
    events.push(
      jsonObject({ statusUpdate: { ...ids, status: { state: "TASK_STATE_WORKING", timestamp: WORKING_TIMESTAMP } } }),
    );
  }
  for (const artifact of arrayMember(finalTask, "artifacts")) {
    if (!isJsonObject(artifact)) throw new ProducerError("PRODUCER_INVALID_OPTION", "an artifact is not an object");
    if (artifact.artifactId === EVIDENCE_ARTIFACT_ID) {
      events.push(jsonObject({ artifactUpdate: { ...ids, artifact: copyObject(artifact), lastChunk: true } }));
      continue;
    }
    const parts = arrayMember(artifact, "parts");
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      // The first chunk carries the artifact's name; the others only its id and the next part.
      const chunk =
        i === 0 ? { ...copyObject(artifact), parts: [part] } : { artifactId: artifact.artifactId, parts: [part] };
      events.push(
        jsonObject({
          artifactUpdate: { ...ids, artifact: chunk, ...(i > 0 ? { append: true } : {}), lastChunk: last },
        }),
      );
    });
  }
  events.push(
    jsonObject({
      statusUpdate: {
        ...ids,
        metadata: copyObject(finalMetadata),
        status: copyObject(objectMember(finalTask, "status") ?? {}),
      },
    }),
  );
  return events;
}

export type StreamBinding = "jsonrpc" | "rest";

export interface SseOptions {
  readonly binding: StreamBinding;
  readonly jsonRpcId?: number | string;
  /** "\n" (a2a-js) or "\r\n" (Python servers). */
  readonly lineEnd?: "\n" | "\r\n";
  /** A keep-alive comment before the first event and between the others. */
  readonly comments?: boolean;
  /** An `id:` line per event. */
  readonly eventIds?: boolean;
  /** The JSON indented over several `data:` lines instead of one. */
  readonly multilineData?: boolean;
}

function framed(event: JsonObject, binding: StreamBinding, jsonRpcId: number | string): JsonObject {
  return binding === "jsonrpc" ? jsonObject({ jsonrpc: "2.0", id: jsonRpcId, result: event }) : event;
}

/** A `text/event-stream` body. */
export function renderSse(events: readonly JsonObject[], options: SseOptions): string {
  const eol = options.lineEnd ?? "\n";
  const out: string[] = [];
  events.forEach((event, i) => {
    if (options.comments) out.push(`: keep-alive${eol}`);
    if (options.eventIds) out.push(`id: ${i + 1}${eol}`);
    const value = framed(event, options.binding, options.jsonRpcId ?? 1);
    const lines = options.multilineData
      ? jsonText(value, { sortKeys: false }).trimEnd().split("\n")
      : [jsonText(value, { sortKeys: false, compact: true })];
    for (const line of lines) out.push(`data: ${line}${eol}`);
    out.push(eol);
  });
  return out.join("");
}

/** One event per line. */
export function renderNdjson(
  events: readonly JsonObject[],
  binding: StreamBinding,
  jsonRpcId: number | string = 1,
): string {
  return events.map((e) => `${jsonText(framed(e, binding, jsonRpcId), { sortKeys: false, compact: true })}\n`).join("");
}

/** A JSON array of events, indented like the other vector files. */
export function renderJsonArray(
  events: readonly JsonObject[],
  binding: StreamBinding,
  jsonRpcId: number | string = 1,
): string {
  return jsonText(
    events.map((e) => framed(e, binding, jsonRpcId)),
    { sortKeys: false },
  );
}
