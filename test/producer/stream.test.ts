import { describe, expect, it } from "vitest";
import { buildExchange } from "../../producer/exchange.js";
import { renderJsonArray, renderNdjson, renderSse, streamEvents } from "../../producer/stream.js";
import type { ExchangeOptions } from "../../producer/options.js";
import { foldStream } from "../../src/input/stream/framing.js";
import { streamCapture } from "../../src/input/stream/task.js";
import { jsonEquals, toPlain, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { PROPERTY_NAMES, isFailedInput, type Report } from "../../src/report/model.js";
import { verify, type InputData } from "../../src/verify.js";
import { at, obj } from "./oracle.js";
import { codeOf } from "./code-of.js";

const EXT = "https://agentactioncapsule.org/extensions/a2a-task-evidence/v1";

const WITH_AGENT_REPLY: ExchangeOptions = {
  transcript: [
    { messageId: "req-1", role: "ROLE_USER", parts: ["Translate 'évidence' to English."] },
    { messageId: "rep-1", role: "ROLE_AGENT", parts: ["On it — 翻訳中"] },
    { messageId: "rep-2", role: "ROLE_AGENT", parts: ["Done."] },
  ],
  artifacts: [
    { artifactId: "art-1", name: "translation", parts: ["evidence", "(noun)", "proof 😀"] },
    { artifactId: "art-2", name: "notes", parts: ["none"] },
  ],
};

const EXCHANGES: ReadonlyArray<readonly [string, ExchangeOptions]> = [
  ["the default exchange", {}],
  ["agent replies and chunked artifacts", WITH_AGENT_REPLY],
  ["a data part", { ...WITH_AGENT_REPLY, carrier: "data" }],
  ["the bundle inline in metadata", { ...WITH_AGENT_REPLY, carrier: "inline" }],
  [
    "a signed record only",
    { witnesses: [], requirement: { requirement: "PREFERRED", minimumEvidence: "SIGNED_RECORD" } },
  ],
  ["a payload naming another task", { tamper: { payload: (p) => void (p.taskId = "another-task") } }],
  [
    "a tampered bundle",
    { ...WITH_AGENT_REPLY, tamper: { bundle: (b) => void (obj(b, "taskEvidencePayload").tenantId = "x") } },
  ],
];

function renderings(events: JsonObject[]): ReadonlyArray<readonly [string, string]> {
  return [
    ["SSE, JSON-RPC", renderSse(events, { binding: "jsonrpc", jsonRpcId: "req-42" })],
    [
      "SSE, REST, CRLF, comments, ids, multi-line data",
      renderSse(events, { binding: "rest", lineEnd: "\r\n", comments: true, eventIds: true, multilineData: true }),
    ],
    ["NDJSON, JSON-RPC", renderNdjson(events, "jsonrpc")],
    ["NDJSON, REST", renderNdjson(events, "rest")],
    ["JSON array, JSON-RPC", renderJsonArray(events, "jsonrpc", 3)],
  ];
}

/** What the twin comparison looks at: every property's state, the evidence id, the level, the exit code. */
function outcome(report: Report) {
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(JSON.stringify(input));
  return {
    states: Object.fromEntries(PROPERTY_NAMES.map((p) => [p, input.properties[p].state])),
    evidenceId: input.evidenceId,
    level: input.evidenceLevel,
    exitCode: report.policy.exitCode,
  };
}

const verified = (data: InputData, trust: JsonObject) =>
  outcome(verify({ inputs: [{ source: "input", data }], trust }));

describe("a streamed exchange and its non-streamed twin", () => {
  for (const [what, options] of EXCHANGES) {
    describe(what, () => {
      const exchange = buildExchange(options);
      const events = streamEvents(exchange);
      for (const [framing, text] of renderings(events)) {
        it(`${framing}: folds to the final Task, and verifies exactly as GetTask and the capture do`, () => {
          const folded = foldStream(text);
          if (!folded.ok || folded.value.kind !== "task") throw new Error(JSON.stringify(folded));
          expect(jsonEquals(folded.value.task, exchange.finalTask)).toBe(true);
          expect(jsonEquals(folded.value.firstTask, exchange.firstTask)).toBe(true);
          expect(folded.value.events).toBe(events.length);

          const streamed = verified(folded.value.task, exchange.trust);
          expect(streamed).toEqual(verified(exchange.getTaskResponse, exchange.trust));
          const capture = verified(streamCapture(folded.value), exchange.trust);
          const twin = verified({ firstTask: exchange.firstTask, finalTask: exchange.finalTask }, exchange.trust);
          expect(capture).toEqual(twin);
          expect(capture.evidenceId).toBe(exchange.bundle.evidenceId);
        });
      }
    });
  }

  it("agrees on the honest default: every property as a capture shows it", () => {
    const exchange = buildExchange(WITH_AGENT_REPLY);
    const folded = foldStream(renderSse(streamEvents(exchange), { binding: "jsonrpc" }));
    if (!folded.ok || folded.value.kind !== "task") throw new Error("fold");
    const got = verified(streamCapture(folded.value), exchange.trust);
    expect(got.exitCode).toBe(0);
    expect(got.states.negotiation).toBe("PASS");
    expect(got.level.achieved).toBe("EXTERNALLY_REGISTERED");
  });
});

describe("streamEvents", () => {
  const exchange = buildExchange(WITH_AGENT_REPLY);
  const events = streamEvents(exchange);
  const kinds = events.map((e) => Object.keys(e)[0]);

  it("sends the first Task, one WORKING update per agent message, the chunks, the evidence and the terminal update, in that order", () => {
    expect(kinds).toEqual([
      "task",
      "statusUpdate",
      "statusUpdate",
      "artifactUpdate",
      "artifactUpdate",
      "artifactUpdate",
      "artifactUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    expect(at(events[0], "task", "status", "state")).toBe("TASK_STATE_SUBMITTED");
    expect(at(events[0], "task", "metadata", EXT, "evidenceAcceptance", "state")).toBe("ACCEPTED");
    expect(at(events[1], "statusUpdate", "status", "state")).toBe("TASK_STATE_WORKING");
    expect(at(events[1], "statusUpdate", "status", "message", "messageId")).toBe("rep-1");
    expect(at(events[2], "statusUpdate", "status", "message", "messageId")).toBe("rep-2");
    for (const e of events.slice(1)) {
      const update = obj(e, Object.keys(e)[0] as string);
      expect([update.taskId, update.contextId]).toEqual([exchange.finalTask.id, exchange.finalTask.contextId]);
    }
    expect(at(events[8], "statusUpdate", "status", "state")).toBe("TASK_STATE_COMPLETED");
    expect(jsonEquals(at(events[8], "statusUpdate", "metadata"), exchange.finalTask.metadata)).toBe(true);
  });

  it("chunks a content artifact by part, with append and lastChunk, and sends the evidence artifact whole", () => {
    const chunks = events.slice(3, 8).map((e) => toPlain(obj(e, "artifactUpdate")) as Record<string, unknown>);
    expect(chunks.map((c) => [(c.artifact as { artifactId: string }).artifactId, c.append, c.lastChunk])).toEqual([
      ["art-1", undefined, false],
      ["art-1", true, false],
      ["art-1", true, true],
      ["art-2", undefined, true],
      ["task-evidence-bundle", undefined, true],
    ]);
    expect(chunks[0]!.artifact).toEqual({ artifactId: "art-1", name: "translation", parts: [{ text: "evidence" }] });
    expect(chunks[1]!.artifact).toEqual({ artifactId: "art-1", parts: [{ text: "(noun)" }] });
    expect(jsonEquals(at(events[7], "artifactUpdate", "artifact"), at(exchange.finalTask, "artifacts", 2))).toBe(true);
  });

  it("sends one WORKING update without a message when the history has no agent message", () => {
    const plainEvents = streamEvents(buildExchange());
    expect(plainEvents.map((e) => Object.keys(e)[0])).toEqual([
      "task",
      "statusUpdate",
      "artifactUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    expect(toPlain(obj(plainEvents[1], "statusUpdate", "status") as JsonValue)).toEqual({
      state: "TASK_STATE_WORKING",
      timestamp: "2026-10-01T09:30:00.120000Z",
    });
  });

  it("refuses an exchange one stream cannot carry", () => {
    const multiTurn = buildExchange({
      transcript: [
        { messageId: "u1", role: "ROLE_USER", parts: ["a"] },
        { messageId: "u2", role: "ROLE_USER", parts: ["b"] },
      ],
    });
    expect(codeOf(() => streamEvents(multiTurn))).toBe("PRODUCER_INVALID_OPTION");
    const dropsKey = buildExchange({ tamper: { finalTask: (t) => void delete (t.metadata as JsonObject)[EXT] } });
    expect(codeOf(() => streamEvents(dropsKey))).toBe("PRODUCER_INVALID_OPTION");
    const withArtifact = buildExchange({ tamper: { firstTask: (t) => void (t.artifacts = []) } });
    expect(() => streamEvents(withArtifact)).not.toThrow();
    const firstWithArtifact = buildExchange({
      tamper: { firstTask: (t) => void (t.artifacts = [{ artifactId: "x", parts: [] }] as never) },
    });
    expect(codeOf(() => streamEvents(firstWithArtifact))).toBe("PRODUCER_INVALID_OPTION");
  });
});

describe("stream renderings", () => {
  const events = streamEvents(buildExchange());

  it("SSE: one data line per event, blank line after each; JSON-RPC framing with the request id", () => {
    const text = renderSse(events, { binding: "jsonrpc", jsonRpcId: 9 });
    const blocks = text.split("\n\n");
    expect(blocks.length).toBe(events.length + 1);
    expect(blocks[events.length]).toBe("");
    expect(blocks[0]!.startsWith('data: {"jsonrpc":"2.0","id":9,"result":{"task":{')).toBe(true);
    expect(blocks.every((b) => !b.includes("\n"))).toBe(true);
  });

  it("SSE with CRLF, a keep-alive comment, an id line and indented data", () => {
    const text = renderSse(events, {
      binding: "rest",
      lineEnd: "\r\n",
      comments: true,
      eventIds: true,
      multilineData: true,
    });
    expect(text.startsWith(': keep-alive\r\nid: 1\r\ndata: {\r\ndata:   "task": {\r\n')).toBe(true);
    expect(text.includes("\n") && !/[^\r]\n/.test(text)).toBe(true);
    expect(text.endsWith("data: }\r\n\r\n")).toBe(true);
  });

  it("NDJSON: one compact event per line; a JSON array of events", () => {
    const lines = renderNdjson(events, "rest").split("\n");
    expect(lines.length).toBe(events.length + 1);
    expect(lines[0]!.startsWith('{"task":{')).toBe(true);
    expect(renderJsonArray(events, "rest").startsWith('[\n  {\n    "task": {')).toBe(true);
  });
});
