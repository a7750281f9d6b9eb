/**
 * Conformance vectors whose input is a stream: the exchange as a server streams it
 * (`producer/stream.ts`), written to `input.sse` or `input.ndjson` instead of `input.json`.
 *
 * A stream shows what GetTask alone cannot: its first event is the first Task, with the explicit
 * acceptance, so the negotiation is observable and every honest stream vector expects it PASS,
 * as a capture does. Each negative is one change to the stream of `valid-stream-sse-jsonrpc`,
 * made after every digest and signature, so only what the fold shows differs.
 */
import { isJsonObject, type JsonObject } from "../src/json/value.js";
import { uuidFromLabel } from "./a2a.js";
import type { Exchange } from "./exchange.js";
import { expectation } from "./expectations.js";
import type { ExchangeOptions } from "./options.js";
import { renderNdjson, renderSse, streamEvents, type SseOptions, type StreamBinding } from "./stream.js";
import type { VectorDefinition } from "./vectors.js";

export interface StreamRendering {
  readonly framing: "sse" | "ndjson";
  readonly binding: StreamBinding;
  /** SSE details: line ends, keep-alive comments, `id:` lines, multi-line data. */
  readonly sse?: Omit<SseOptions, "binding" | "jsonRpcId">;
  /** The one change a negative makes to the events, after the exchange is sealed. */
  readonly tamper?: (events: JsonObject[]) => void;
}

export interface StreamVectorDefinition extends VectorDefinition {
  readonly stream: StreamRendering;
}

export function isStreamVector(def: VectorDefinition): def is StreamVectorDefinition {
  return (def as Partial<StreamVectorDefinition>).stream !== undefined;
}

/** The input file of a stream vector: its name in the folder and its text. */
export function renderStreamInput(
  def: StreamVectorDefinition,
  exchange: Exchange,
  jsonRpcId: number | string,
): readonly [string, string] {
  const events = streamEvents(exchange);
  def.stream.tamper?.(events);
  const { framing, binding } = def.stream;
  return framing === "sse"
    ? ["input.sse", renderSse(events, { ...def.stream.sse, binding, jsonRpcId })]
    : ["input.ndjson", renderNdjson(events, binding, jsonRpcId)];
}

/** A user request, an agent reply the stream reports in a status update, and a three-part artifact sent in chunks. */
export const STREAM_BASE: ExchangeOptions = {
  taskId: uuidFromLabel("stream task"),
  contextId: uuidFromLabel("stream context"),
  transcript: [
    {
      messageId: uuidFromLabel("stream message 0"),
      role: "ROLE_USER",
      parts: ["Summarise the incident report in three lines."],
    },
    {
      messageId: uuidFromLabel("stream message 1"),
      role: "ROLE_AGENT",
      parts: ["Reading the report — summary follows as an artifact."],
    },
  ],
  artifacts: [
    {
      artifactId: uuidFromLabel("stream artifact 0"),
      name: "summary",
      parts: [
        "1. The 02:10 deploy exhausted the pool.",
        "2. Rollback at 02:25 restored service.",
        "3. Pool limits now alert at 80 %.",
      ],
    },
    { artifactId: uuidFromLabel("stream artifact 1"), name: "severity", parts: ["SEV-2"] },
  ],
  leavesBefore: 2,
  leavesAfter: 1,
  witnesses: [{ url: "https://ts.a2a-evidence.example", treeSize: 5, leafIndex: 2 }],
};

const HONEST_STREAM = expectation();

function artifactUpdates(events: readonly JsonObject[]): JsonObject[] {
  return events.map((e) => e.artifactUpdate).filter(isJsonObject);
}

export const STREAM_VECTORS: readonly StreamVectorDefinition[] = [
  {
    name: "valid-stream-sse-jsonrpc",
    description:
      "The exchange as SendStreamingMessage over JSON-RPC streams it (text/event-stream, one data line per event, as an a2a-js server writes it): the first Task with the acceptance, WORKING with the agent's message, a three-part artifact in three chunks (append, lastChunk), a one-part artifact, the evidence artifact in one event, COMPLETED with the evidence reference in its metadata.",
    mutation: null,
    options: STREAM_BASE,
    stream: { framing: "sse", binding: "jsonrpc" },
    expected: HONEST_STREAM,
  },
  {
    name: "valid-stream-sse-rest",
    description:
      "The same stream over the REST binding (bare StreamResponses), written with CRLF line ends, a keep-alive comment and an id line before each event, and each event's JSON indented over several data lines.",
    mutation: null,
    options: STREAM_BASE,
    stream: {
      framing: "sse",
      binding: "rest",
      sse: { lineEnd: "\r\n", comments: true, eventIds: true, multilineData: true },
    },
    expected: HONEST_STREAM,
  },
  {
    name: "valid-stream-ndjson",
    description:
      "The same stream as NDJSON, one JSON-RPC response per line, as a client that logs each event writes it.",
    mutation: null,
    options: STREAM_BASE,
    stream: { framing: "ndjson", binding: "jsonrpc" },
    expected: HONEST_STREAM,
  },
  {
    name: "neg-taskBinding-stream-dropped-chunk",
    description:
      "The stream of valid-stream-sse-jsonrpc without the second chunk of the summary artifact: the folded artifact lacks the text the payload commits to.",
    mutation: "the artifactUpdate event with the summary's second part (append: true) removed",
    options: STREAM_BASE,
    stream: {
      framing: "sse",
      binding: "jsonrpc",
      tamper: (events) => {
        const second = artifactUpdates(events).find((u) => u.append === true);
        events.splice(
          events.findIndex((e) => e.artifactUpdate === second),
          1,
        );
      },
    },
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-referenceConsistency-stream-final-metadata",
    description:
      "The stream of valid-stream-sse-jsonrpc whose terminal status update carries no metadata: the folded Task.metadata[EXT] is still the first Task's acceptance (PENDING), not the evidence reference.",
    mutation: "the terminal statusUpdate's metadata removed",
    options: STREAM_BASE,
    stream: {
      framing: "sse",
      binding: "jsonrpc",
      tamper: (events) => {
        const last = events[events.length - 1]?.statusUpdate;
        if (isJsonObject(last)) delete last.metadata;
      },
    },
    expected: expectation({ referenceConsistency: "FAIL", negotiation: "FAIL" }),
    note: "The server never stated its result on the Task: Task.metadata[EXT] keeps the acceptance object, so the terminal Task carries no reference copy and says PENDING (referenceConsistency), and its terminal status PENDING neither meets the accepted minimum nor is a typed failure (negotiation). This is also what a fold that ignores status-update metadata (a2a-js before 1.3.0) makes of an honest stream.",
  },
];
