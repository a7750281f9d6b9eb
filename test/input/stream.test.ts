import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from "../../src/input/stream/event.js";
import { foldStreamArray, isFoldedStream, type FoldedTaskStream } from "../../src/input/stream/fold.js";
import { foldStream, looksLikeStream, streamFraming } from "../../src/input/stream/framing.js";
import { streamNote, streamTask } from "../../src/input/stream/task.js";
import { streamClassified } from "../../src/input/classify.js";
import { isEventArray } from "../../src/input/decoded.js";
import { classifyValue, toInputValue } from "../../src/input/decode.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { toPlain, type JsonValue } from "../../src/json/value.js";
import type { Failure } from "../../src/result.js";
import { verify } from "../../src/verify.js";
import { isFailedInput, type VerifiedInput } from "../../src/report/model.js";
import { buildExchange } from "../../producer/exchange.js";
import { streamEvents, renderSse } from "../../producer/stream.js";
import { REPO_ROOT } from "../helpers/external.js";

const T = "task-1";
const C = "ctx-1";
const EXT = "https://agentactioncapsule.org/extensions/a2a-task-evidence/v1";

const task = (extra: Record<string, unknown> = {}) => ({
  task: { id: T, contextId: C, status: { state: "TASK_STATE_SUBMITTED" }, ...extra },
});
const status = (
  state: string | number,
  extra: Record<string, unknown> = {},
  statusExtra: Record<string, unknown> = {},
) => ({
  statusUpdate: { taskId: T, contextId: C, status: { state, ...statusExtra }, ...extra },
});
const artifact = (a: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  artifactUpdate: { taskId: T, contextId: C, artifact: a, ...extra },
});
const text = (t: string) => ({ text: t });
const message = (messageId: string, t: string, role = "ROLE_AGENT") => ({ messageId, role, parts: [text(t)] });
const rpc = (result: unknown, id: unknown = 7) => ({ jsonrpc: "2.0", id, result });
const done = status("TASK_STATE_COMPLETED");

const json = (e: unknown) => (typeof e === "string" ? e : JSON.stringify(e));
const sse = (...events: unknown[]) => events.map((e) => `data: ${json(e)}\n\n`).join("");
const ndjson = (...events: unknown[]) => events.map((e) => `${json(e)}\n`).join("");

function folded(input: string | Uint8Array): FoldedTaskStream {
  const r = foldStream(input);
  if (!r.ok) throw new Error(`${r.code} at ${r.path}: ${r.detail}`);
  if (r.value.kind !== "task") throw new Error("not a Task stream");
  return r.value;
}

function failure(input: string | Uint8Array, limits?: StreamLimits): Failure {
  const r = foldStream(input, limits);
  if (r.ok) throw new Error("expected the stream to be refused");
  return r;
}

/** The code, the path and the event named in the detail, in one comparable value. */
function refusal(
  input: string | Uint8Array,
  limits?: StreamLimits,
): { code: string; path: string | undefined; event: string | undefined } {
  const f = failure(input, limits);
  return { code: f.code, path: f.path, event: /event \d+/.exec(f.detail)?.[0] };
}

const plain = (v: JsonValue) => toPlain(v);

describe("sniffing", () => {
  it("recognises SSE by its first field or comment line, after a BOM or blank lines", () => {
    for (const s of [
      "data: {}\n\n",
      "event: x\n",
      "id: 1\n",
      "retry: 10\n",
      ": hi\n",
      "data\n\n",
      "\uFEFFdata: {}\n\n",
      "\r\n\ndata: {}\n\n",
      "id:1",
    ]) {
      expect(streamFraming(s), JSON.stringify(s)).toBe("sse");
      expect(looksLikeStream(s)).toBe(true);
    }
  });

  it("recognises NDJSON: a one-line object followed by a line that starts another", () => {
    expect(streamFraming('{"a":1}\n{"b":2}\n')).toBe("ndjson");
    expect(streamFraming('  {"a":1} \r\n\n  {"b":2}')).toBe("ndjson");
    expect(looksLikeStream(new Uint8Array(Buffer.from('{"a":1}\n{"b":2}')))).toBe(true);
  });

  it("takes a JSON array for the JSON-array framing, which is folded after the JSON parse", () => {
    expect(streamFraming(" [ {} ]")).toBe("json-array");
    expect(looksLikeStream("[{}]")).toBe(false);
  });

  it("never takes a JSON document for a stream", () => {
    for (const s of [
      '{"a":1}',
      '{"a":1}\n',
      '{\n  "a": {}\n}\n',
      '{"a":{"b":1}\n,"c":{}}',
      '{"a":1}\n,',
      "",
      "  ",
      "42",
      '"data: x"',
      "data-x",
      "events: 1\n",
      "\n",
    ]) {
      expect(streamFraming(s), JSON.stringify(s)).toBeUndefined();
      expect(looksLikeStream(s)).toBe(false);
    }
  });

  it("takes none of the shipped JSON vectors for SSE or NDJSON", () => {
    const dir = join(REPO_ROOT, "vectors");
    const inputs = readdirSync(dir)
      .filter((n) => !n.includes("."))
      .map((n) => join(dir, n, "input.json"));
    let read = 0;
    for (const path of inputs) {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(path);
      } catch {
        continue;
      }
      read++;
      expect(looksLikeStream(bytes), path).toBe(false);
    }
    expect(read).toBeGreaterThan(20);
  });
});

describe("folding a stream into the Task", () => {
  const exchange = buildExchange({
    transcript: [
      { messageId: "m0", role: "ROLE_USER", parts: ["quote please"] },
      { messageId: "m1", role: "ROLE_AGENT", parts: ["working on it"] },
    ],
    artifacts: [{ artifactId: "a0", name: "quote", parts: ["EUR/USD 1.08", "valid 30 s", "ref Q-1"] }],
  });
  const events = streamEvents(exchange);

  it("gives back the exchange's final Task from every framing and binding, and its first Task as sent", () => {
    const inputs: [string, string, string][] = [
      [renderSse(events, { binding: "jsonrpc" }), "sse", "jsonrpc"],
      [
        renderSse(events, { binding: "rest", lineEnd: "\r\n", comments: true, eventIds: true, multilineData: true }),
        "sse",
        "rest",
      ],
      [events.map((e) => `${JSON.stringify(plain(e))}\n`).join(""), "ndjson", "rest"],
      [JSON.stringify(events.map((e) => rpc(plain(e)))), "json-array", "jsonrpc"],
    ];
    for (const [input, framing, binding] of inputs) {
      const f = folded(input);
      expect([f.framing, f.binding, f.events]).toEqual([framing, binding, events.length]);
      expect(plain(f.task)).toEqual(plain(exchange.finalTask));
      expect(plain(f.firstTask)).toEqual(plain(exchange.firstTask));
      expect(f.notes).toEqual([]);
    }
  });

  it("folds an already parsed JSON array the same way", () => {
    const parsed = parseStrictJson(JSON.stringify(events.map((e) => plain(e))));
    if (!parsed.ok || !Array.isArray(parsed.value)) throw new Error("parse");
    const r = foldStreamArray(parsed.value);
    if (!r.ok || r.value.kind !== "task") throw new Error(JSON.stringify(r));
    expect(plain(r.value.task)).toEqual(plain(exchange.finalTask));
    expect(r.value.framing).toBe("json-array");
  });

  it("describes the fold in one note", () => {
    expect(streamNote(folded(renderSse(events, { binding: "jsonrpc" })))).toBe(
      `input is an SSE stream (JSON-RPC framing): ${events.length} events, folded into the Task`,
    );
  });

  it("accepts CR-only line ends, `event: message`, comments and `id:`-only blocks between events", () => {
    const body = [
      ": open",
      "id: 0",
      "",
      `event: message\rdata: ${json(task())}\r\r`,
      `:ping\n\ndata: ${json(done)}\n`,
      "",
    ].join("\n");
    const f = folded(body);
    expect(f.events).toBe(2);
    expect(plain(f.task.status as JsonValue)).toEqual({ state: "TASK_STATE_COMPLETED" });
  });

  it("joins the data lines of one event with a line feed", () => {
    const lines = JSON.stringify(task(), null, 2)
      .split("\n")
      .map((l) => `data:${l}`)
      .join("\n");
    expect(folded(`${lines}\n\n${sse(done)}`).events).toBe(2);
  });

  it("notes SSE fields it ignores", () => {
    expect(folded(`${sse(task())}foo: bar\n${sse(done)}`).notes).toEqual([
      "1 SSE line(s) with a field other than data, event, id or retry were ignored",
    ]);
  });

  it("replaces the status and merges status-update metadata into Task.metadata, top-level keys, the update winning", () => {
    const f = folded(
      sse(
        task({ metadata: { [EXT]: { evidenceStatus: "EVIDENCE_STATUS_PENDING" }, keep: 1 } }),
        status("TASK_STATE_WORKING", { metadata: { progress: "half" } }),
        status(
          "TASK_STATE_COMPLETED",
          { metadata: { [EXT]: { evidenceStatus: "EVIDENCE_STATUS_SIGNED_RECORD" } } },
          { timestamp: "2026-01-01T00:00:00Z" },
        ),
      ),
    );
    expect(plain(f.task.metadata as JsonValue)).toEqual({
      [EXT]: { evidenceStatus: "EVIDENCE_STATUS_SIGNED_RECORD" },
      keep: 1,
      progress: "half",
    });
    expect(plain(f.task.status as JsonValue)).toEqual({
      state: "TASK_STATE_COMPLETED",
      timestamp: "2026-01-01T00:00:00Z",
    });
    expect(plain(f.firstTask.metadata as JsonValue)).toEqual({
      [EXT]: { evidenceStatus: "EVIDENCE_STATUS_PENDING" },
      keep: 1,
    });
  });

  it("merges an artifact-update event's own metadata into Task.metadata (a2a-js 1.3.0)", () => {
    const f = folded(
      sse(task(), artifact({ artifactId: "a", parts: [text("x")] }, { metadata: { seen: true } }), done),
    );
    expect(plain(f.task.metadata as JsonValue)).toEqual({ seen: true });
  });

  it("appends each status message to the history once, and the same message again is one observation", () => {
    const m = message("m1", "hello");
    const f = folded(
      sse(
        task({ history: [message("m0", "hi", "ROLE_USER")] }),
        status("TASK_STATE_WORKING", {}, { message: m }),
        status("TASK_STATE_COMPLETED", {}, { message: m }),
      ),
    );
    expect((plain(f.task.history as JsonValue) as { messageId: string }[]).map((x) => x.messageId)).toEqual([
      "m0",
      "m1",
    ]);
    expect(f.notes).toEqual([]);
  });

  it("keeps a status message that reuses a history messageId with other content beside it, and says so", () => {
    const f = folded(
      sse(
        task({ history: [message("m0", "hi", "ROLE_USER")] }),
        status("TASK_STATE_COMPLETED", {}, { message: message("m0", "something else") }),
      ),
    );
    expect((plain(f.task.history as JsonValue) as { messageId: string }[]).map((x) => x.messageId)).toEqual([
      "m0",
      "m0",
    ]);
    expect(f.notes).toEqual([
      'event 2 (line 3): status message "m0" differs from the history entry with that messageId; both are kept',
    ]);
  });

  it("keeps the first Task's status message when its status is replaced: nothing shown vanishes", () => {
    const f = folded(
      sse(
        task({
          history: [message("m0", "hi", "ROLE_USER")],
          status: { state: "TASK_STATE_SUBMITTED", message: message("s0", "queued") },
        }),
        done,
      ),
    );
    expect((plain(f.task.history as JsonValue) as { messageId: string }[]).map((x) => x.messageId)).toEqual([
      "m0",
      "s0",
    ]);
    expect(f.notes).toEqual(['event 2 (line 3): the message "s0" of the status it replaces joins the history']);
    const terminalFirst = folded(
      sse(task({ status: { state: "TASK_STATE_COMPLETED", message: message("s0", "done") } })),
    );
    expect(terminalFirst.task.history).toBeUndefined();
  });

  it("adds a differing status message once, however many statuses show it", () => {
    const other = message("m0", "not what the user said");
    const f = folded(
      sse(
        task({ history: [message("m0", "hi", "ROLE_USER")] }),
        status("TASK_STATE_WORKING", {}, { message: other }),
        status("TASK_STATE_WORKING"),
        done,
      ),
    );
    expect(
      (plain(f.task.history as JsonValue) as { parts: { text: string }[] }[]).map((x) => x.parts[0]!.text),
    ).toEqual(["hi", "not what the user said"]);
    expect(f.notes).toHaveLength(1);
  });

  it("caps notes on single events at 20", () => {
    const forged = Array.from({ length: 25 }, (_, i) =>
      status("TASK_STATE_WORKING", {}, { message: message("m0", `forged ${i}`) }),
    );
    const f = folded(sse(task({ history: [message("m0", "hi", "ROLE_USER")] }), ...forged, done));
    expect(f.notes).toHaveLength(21);
    expect(f.notes[20]).toBe("and 5 more notes on events");
    expect((f.task.history as JsonValue[]).length).toBe(26);
  });

  it("lets a later Task extend the history the stream showed, never take it back", () => {
    const shown = [message("m0", "hi", "ROLE_USER"), message("m1", "hello")];
    const later = (history: unknown[]) => ({
      task: { id: T, contextId: C, status: { state: "TASK_STATE_COMPLETED" }, history },
    });
    const f = folded(
      sse(
        task({ history: [shown[0]] }),
        status("TASK_STATE_WORKING", {}, { message: shown[1] }),
        later([...shown, message("m2", "bye")]),
      ),
    );
    expect((plain(f.task.history as JsonValue) as { messageId: string }[]).map((x) => x.messageId)).toEqual([
      "m0",
      "m1",
      "m2",
    ]);
    const dropped = failure(
      sse(task({ history: [shown[0]] }), status("TASK_STATE_WORKING", {}, { message: shown[1] }), later([shown[0]])),
    );
    expect([dropped.code, dropped.path, dropped.detail]).toEqual([
      "INPUT_STREAM_MALFORMED",
      "event[3].task.history[1]",
      "event 3 (line 5): the later Task's history drops or changes history[1] the stream already showed",
    ]);
    const queued = folded(
      sse(
        task({ history: [shown[0]], status: { state: "TASK_STATE_SUBMITTED", message: message("s0", "queued") } }),
        later([shown[0]]),
      ),
    );
    expect((plain(queued.task.history as JsonValue) as { messageId: string }[]).map((x) => x.messageId)).toEqual([
      "m0",
      "s0",
    ]);
    expect(refusal(sse(task({ history: [shown[0]] }), later([message("m0", "changed", "ROLE_USER")])))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].task.history[0]",
      event: "event 2",
    });
  });

  it("adds artifacts, replaces one by artifactId, and appends chunks in order with their metadata merged", () => {
    const f = folded(
      sse(
        task(),
        artifact({ artifactId: "a", name: "first", parts: [text("old")] }),
        artifact({ artifactId: "b", parts: [text("b0")], metadata: { k: 1 } }, { lastChunk: false }),
        artifact({ artifactId: "a", name: "first", parts: [text("new")] }),
        artifact({ artifactId: "b", name: "", parts: [text("b1"), text("b2")], metadata: { j: 2 } }, { append: true }),
        artifact({ artifactId: "b", parts: [text("b3")] }, { append: true, lastChunk: true }),
        done,
      ),
    );
    expect(plain(f.task.artifacts as JsonValue)).toEqual([
      { artifactId: "a", name: "first", parts: [text("new")] },
      { artifactId: "b", parts: [text("b0"), text("b1"), text("b2"), text("b3")], metadata: { k: 1, j: 2 } },
    ]);
    expect(f.notes).toEqual(['event 4 (line 7): artifact "a" replaces the one an earlier event sent']);
    const same = artifact({ artifactId: "a", parts: [text("x")] });
    expect(folded(sse(task(), same, same, done)).notes).toEqual([]);
  });

  it("records an artifact whose last chunk never came", () => {
    const f = folded(
      sse(
        task(),
        artifact({ artifactId: "a", parts: [text("0")] }, { lastChunk: false }),
        artifact({ artifactId: "b", parts: [text("0")] }),
        artifact({ artifactId: "b", parts: [text("1")] }, { append: true }),
        done,
      ),
    );
    expect(f.notes).toEqual(['the stream ended before the last chunk (lastChunk) of artifact "a", "b"']);
  });

  it("ends at an interrupted state with a note: the Task is not terminal", () => {
    const f = folded(sse(task(), status("TASK_STATE_INPUT_REQUIRED")));
    expect(f.notes).toEqual([
      "the stream ends in the interrupted state TASK_STATE_INPUT_REQUIRED: the Task is not terminal",
    ]);
    expect(folded(sse(task(), status("TASK_STATE_AUTH_REQUIRED"), status("TASK_STATE_WORKING"), done)).events).toBe(4);
  });

  it("merges a later Task snapshot as the a2a-js ResultManager does", () => {
    const f = folded(
      sse(
        task({ history: [message("m0", "hi", "ROLE_USER")], metadata: { a: 1 } }),
        artifact({ artifactId: "x", parts: [text("x")] }),
        {
          task: {
            id: T,
            contextId: C,
            status: { state: "TASK_STATE_COMPLETED" },
            artifacts: [{ artifactId: "y", parts: [text("y")] }],
            metadata: { b: 2 },
          },
        },
      ),
    );
    expect(plain(f.task)).toEqual({
      id: T,
      contextId: C,
      status: { state: "TASK_STATE_COMPLETED" },
      artifacts: [
        { artifactId: "x", parts: [text("x")] },
        { artifactId: "y", parts: [text("y")] },
      ],
      metadata: { a: 1, b: 2 },
      history: [message("m0", "hi", "ROLE_USER")],
    });
    expect(f.notes).toEqual([
      "event 3 (line 5): a later Task was merged into the folded Task (history kept when its own is empty, artifacts merged by artifactId, metadata merged)",
    ]);
  });

  it("reads ProtoJSON's snake_case names and enum numbers", () => {
    const f = folded(
      ndjson(
        { task: { id: T, context_id: C, status: { state: 1 } } },
        {
          artifact_update: {
            task_id: T,
            context_id: C,
            artifact: { artifact_id: "a", parts: [text("0")] },
            last_chunk: false,
          },
        },
        {
          artifact_update: {
            task_id: T,
            context_id: C,
            artifact: { artifact_id: "a", parts: [text("1")] },
            append: true,
            last_chunk: true,
          },
        },
        { status_update: { task_id: T, context_id: C, status: { state: 3 } } },
      ),
    );
    expect(plain(f.task.artifacts as JsonValue)).toEqual([{ artifact_id: "a", parts: [text("0"), text("1")] }]);
    expect(f.notes).toEqual([]);
  });

  it("treats an absent contextId as the empty one (ProtoJSON), on the Task and on its events", () => {
    const noContext = { task: { id: T, status: { state: "TASK_STATE_SUBMITTED" } } };
    expect(
      folded(sse(noContext, { statusUpdate: { taskId: T, contextId: "", status: { state: "TASK_STATE_COMPLETED" } } }))
        .events,
    ).toBe(2);
  });

  it("reports a stream that is a direct Message reply as such: no Task to verify", () => {
    const r = foldStream(sse(rpc({ message: message("reply-1", "done") })));
    if (!r.ok || r.value.kind !== "message") throw new Error(JSON.stringify(r));
    expect(r.value.events).toBe(1);
    expect(streamNote(r.value)).toBe("input is an SSE stream (JSON-RPC framing): 1 event, a direct Message reply");
    const t = streamTask(r.value);
    expect(t.ok).toBe(false);
    expect(t).toMatchObject({ code: "INPUT_STREAM_MESSAGE", path: "event[1].result.message" });
    expect((t as Failure).detail).toContain('direct Message reply (messageId "reply-1")');
    expect(streamTask(folded(sse(task(), done)))).toMatchObject({ ok: true });
  });

  it("classifies a folded stream for the input stage: the folded Task observed, the first event's Task the first response", () => {
    const f = foldStream(sse(rpc(task()), rpc(done)));
    if (!f.ok) throw new Error("fold");
    expect(isFoldedStream(f.value)).toBe(true);
    const parsed = parseStrictJson(JSON.stringify({ kind: "task", framing: "sse", task: {}, firstTask: {} }));
    expect(parsed.ok && isFoldedStream(parsed.value)).toBe(false);
    expect(isFoldedStream(null)).toBe(false);
    const c = streamClassified(f.value);
    if (!c.ok) throw new Error("classify");
    expect(c.value.shape).toBe("stream");
    expect([c.value.finalTask.path, c.value.firstTask?.path]).toEqual(["$", "event[1].result.task"]);
    expect(plain(c.value.finalTask.value)).toEqual({ id: T, contextId: C, status: { state: "TASK_STATE_COMPLETED" } });
    expect(plain(c.value.firstTask?.value as never)).toEqual(task().task);
    expect(c.value.notes).toEqual(["input is an SSE stream (JSON-RPC framing): 2 events, folded into the Task"]);
    const rest = foldStream(ndjson(task(), done));
    if (!rest.ok) throw new Error("fold");
    expect((streamClassified(rest.value) as { value: { firstTask: { path: string } } }).value.firstTask.path).toBe(
      "event[1].task",
    );
    const events = parseStrictJson(JSON.stringify([task(), done]));
    if (!events.ok || !Array.isArray(events.value)) throw new Error("parse");
    const array = classifyValue(events.value);
    expect(array.ok && [array.value.firstTask?.path, array.value.notes[0]]).toEqual([
      "event[1].task",
      "input is a JSON array of stream events (REST framing): 2 events, folded into the Task",
    ]);
    expect(classifyValue([null])).toMatchObject({ ok: false, code: "INPUT_STREAM_MALFORMED", path: "event[1]" });
    const reply = foldStream(sse({ message: message("r", "hi") }));
    if (!reply.ok) throw new Error("fold");
    expect(streamClassified(reply.value)).toMatchObject({
      ok: false,
      code: "INPUT_STREAM_MESSAGE",
      path: "event[1].message",
    });
  });

  it("gives the input stage a folded stream for SSE and NDJSON, a folded JSON array, a parsed value for anything else", () => {
    const body = sse(task(), done);
    for (const data of [body, new Uint8Array(Buffer.from(body)), ndjson(task(), done)]) {
      const v = toInputValue(data);
      expect(v.ok && isFoldedStream(v.value)).toBe(true);
    }
    const array = toInputValue(JSON.stringify([task(), done]));
    expect(array.ok && isEventArray(array.value) && array.value.folded.ok).toBe(true);
    expect(toInputValue(JSON.stringify([null]))).toMatchObject({ ok: true, value: { folded: { ok: false } } });
    const value = parseStrictJson('{"a":1}');
    expect(toInputValue(value.ok ? value.value : null)).toEqual(value);
    expect(toInputValue('{"a":1,"a":2}')).toMatchObject({ ok: false, code: "JSON_DUPLICATE_MEMBER" });
    expect(toInputValue(sse(task()))).toMatchObject({ ok: false, code: "INPUT_STREAM_TRUNCATED", path: "event[1]" });
  });

  it("appends 20 000 chunks to one artifact in place", () => {
    const chunks = Array.from({ length: 20_000 }, (_, i) =>
      artifact({ artifactId: "big", parts: [text(String(i))] }, i === 0 ? {} : { append: true }),
    );
    const f = folded(ndjson(task(), ...chunks, done));
    const parts = (plain(f.task.artifacts as JsonValue) as { parts: { text: string }[] }[])[0]!.parts;
    expect(parts.length).toBe(20_000);
    expect(parts[19_999]).toEqual(text("19999"));
  });
});

describe("streams the verifier refuses (exit 2), naming the event and the path inside it", () => {
  it("refuses input that is no stream at all, and a stream with no events", () => {
    expect(refusal('{"a":1}')).toEqual({ code: "INPUT_STREAM_MALFORMED", path: "$", event: undefined });
    expect(refusal(": only a comment\n\n")).toEqual({ code: "INPUT_STREAM_TRUNCATED", path: "$", event: undefined });
    expect(refusal("[]")).toEqual({ code: "INPUT_STREAM_TRUNCATED", path: "$", event: undefined });
  });

  it("refuses a body that ends inside an event (no blank line, or no line break)", () => {
    expect(refusal(`${sse(task())}data: ${json(done)}\n`)).toEqual({
      code: "INPUT_STREAM_TRUNCATED",
      path: "event[2]",
      event: "event 2",
    });
    expect(refusal(`${sse(task())}data: ${json(done)}`)).toEqual({
      code: "INPUT_STREAM_TRUNCATED",
      path: "event[2]",
      event: "event 2",
    });
    expect(folded(`${sse(task(), done)}: trailing comment`).events).toBe(2);
  });

  it("refuses a stream that ends before a terminal or interrupted state: truncated, naming the last event", () => {
    const f = failure(sse(task(), status("TASK_STATE_WORKING"), artifact({ artifactId: "a", parts: [text("x")] })));
    expect([f.code, f.path]).toEqual(["INPUT_STREAM_TRUNCATED", "event[3]"]);
    expect(f.detail).toBe(
      "the stream ends at event 3 (line 5) in state TASK_STATE_WORKING, neither terminal nor interrupted: it was cut off before the Task finished (the verifier describes terminal Tasks)",
    );
    expect(refusal(sse(task()))).toEqual({ code: "INPUT_STREAM_TRUNCATED", path: "event[1]", event: "event 1" });
  });

  it("parses every event strictly: syntax, duplicate members, lossy numbers, UTF-8, depth", () => {
    expect(refusal(sse(task(), "{oops"))).toEqual({ code: "JSON_SYNTAX", path: "event[2]", event: "event 2" });
    expect(
      refusal(
        sse(
          task(),
          `{"statusUpdate":{"taskId":"${T}","contextId":"${C}","status":{"state":"TASK_STATE_COMPLETED","state":"TASK_STATE_FAILED"}}}`,
        ),
      ),
    ).toEqual({
      code: "JSON_DUPLICATE_MEMBER",
      path: "event[2].statusUpdate.status.state",
      event: "event 2",
    });
    expect(
      refusal(
        ndjson(
          rpc(task()),
          `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"${T}","contextId":"${C}","status":{"state":3}},"x":9007199254740993}}`,
        ),
      ),
    ).toEqual({
      code: "JSON_LOSSY_NUMBER",
      path: "event[2].result.x",
      event: "event 2",
    });
    const badUtf8 = Buffer.concat([
      Buffer.from(sse(task())),
      Buffer.from('data: {"a":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}\n\n'),
    ]);
    expect(refusal(new Uint8Array(badUtf8))).toEqual({ code: "JSON_INVALID_UTF8", path: "event[2]", event: "event 2" });
    expect(refusal(sse(task(), `${"[".repeat(70)}${"]".repeat(70)}`))).toMatchObject({
      code: "JSON_TOO_DEEP",
      event: "event 2",
    });
    expect(refusal(`[${json(task())}, {"a":1,"a":2}]`)).toEqual({
      code: "JSON_DUPLICATE_MEMBER",
      path: "event[2].a",
      event: "event 2",
    });
    expect(refusal(`[${json(task())}, [tru]]`)).toMatchObject({ code: "JSON_SYNTAX", event: "event 2" });
    expect(refusal("[tru]")).toMatchObject({ code: "JSON_SYNTAX", path: "event[1]" });
    expect(refusal(`[${json(task())}] trailing`)).toEqual({ code: "JSON_TRAILING_DATA", path: "$", event: undefined });
    expect(refusal("\uD800data: {}\n\n")).toEqual({ code: "JSON_LONE_SURROGATE", path: "$", event: undefined });
  });

  it("caps the input, each event and the number of events", () => {
    const small: StreamLimits = { ...DEFAULT_STREAM_LIMITS, maxEventBytes: 200, maxEvents: 3, maxBytes: 2000 };
    const big = status("TASK_STATE_WORKING", { metadata: { pad: "x".repeat(300) } });
    expect(refusal(sse(task(), big, done), small)).toEqual({
      code: "INPUT_STREAM_TOO_LARGE",
      path: "event[2]",
      event: "event 2",
    });
    expect(refusal(`${sse(task())}data: ${"1".repeat(150)}\ndata: ${"1".repeat(150)}\n\n`, small)).toEqual({
      code: "INPUT_STREAM_TOO_LARGE",
      path: "event[2]",
      event: "event 2",
    });
    expect(refusal(ndjson(task(), big, done), small)).toEqual({
      code: "INPUT_STREAM_TOO_LARGE",
      path: "event[2]",
      event: "event 2",
    });
    const four = [task(), status("TASK_STATE_WORKING"), status("TASK_STATE_WORKING"), done];
    expect(refusal(sse(...four), small)).toEqual({
      code: "INPUT_STREAM_TOO_LARGE",
      path: "event[4]",
      event: undefined,
    });
    expect(refusal(ndjson(...four), small)).toEqual({
      code: "INPUT_STREAM_TOO_LARGE",
      path: "event[4]",
      event: undefined,
    });
    expect(refusal(JSON.stringify(four), small)).toEqual({
      code: "INPUT_STREAM_TOO_LARGE",
      path: "$",
      event: undefined,
    });
    expect(
      refusal(sse(task(), status("TASK_STATE_WORKING", { metadata: { pad: "x".repeat(2000) } }), done), {
        ...small,
        maxEventBytes: 5000,
      }),
    ).toEqual({
      code: "INPUT_STREAM_TOO_LARGE",
      path: "$",
      event: undefined,
    });
    expect(DEFAULT_STREAM_LIMITS).toEqual({
      maxBytes: 16 * 1024 * 1024,
      maxEventBytes: 4 * 1024 * 1024,
      maxEvents: 100_000,
      maxDepth: 64,
    });
  });

  it("refuses events that are not StreamResponses in a JSON-RPC or REST framing", () => {
    expect(refusal(ndjson(task(), "[1]"))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2]",
      event: "event 2",
    });
    expect(refusal(sse({ jsonrpc: "1.0", id: 1, result: task() }))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].jsonrpc",
      event: "event 1",
    });
    expect(refusal(sse({ jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: {} }))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].method",
      event: "event 1",
    });
    expect(refusal(sse({ jsonrpc: "2.0", result: task() }))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].id",
      event: "event 1",
    });
    expect(refusal(ndjson(rpc(task()), { jsonrpc: "2.0", id: 7, result: [done] }))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].result",
      event: "event 2",
    });
    expect(refusal(ndjson(rpc(task()), done))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2]",
      event: "event 2",
    });
    expect(refusal(ndjson(task(), rpc(done)))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2]",
      event: "event 2",
    });
    expect(refusal(ndjson(task(), { ...done, ...artifact({ artifactId: "a", parts: [] }) }))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2]",
      event: "event 2",
    });
    expect(failure(ndjson(task(), { ...done, ...artifact({ artifactId: "a", parts: [] }) })).detail).toContain(
      "it has statusUpdate and artifactUpdate",
    );
    expect(refusal(ndjson(rpc(task()), rpc({ other: 1 })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].result",
      event: "event 2",
    });
    expect(refusal(ndjson(task(), { statusUpdate: done.statusUpdate, status_update: done.statusUpdate }))).toEqual({
      code: "INPUT_A2A_MALFORMED",
      path: "event[2].statusUpdate",
      event: "event 2",
    });
    expect(refusal(ndjson(rpc(task()), rpc({ statusUpdate: "done" })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].result.statusUpdate",
      event: "event 2",
    });
    expect(
      refusal(sse(task(), `{"kind":"status-update","taskId":"${T}","status":{"state":"completed"},"final":true}`)),
    ).toEqual({
      code: "INPUT_A2A_V03",
      path: "event[2].kind",
      event: "event 2",
    });
  });

  it("refuses an event for another JSON-RPC request", () => {
    const f = failure(ndjson(rpc(task(), 7), rpc(done, 8)));
    expect([f.code, f.path, f.detail]).toEqual([
      "INPUT_STREAM_FOREIGN_EVENT",
      "event[2].id",
      "event 2 (line 2) answers JSON-RPC request 8; the stream answers request 7",
    ]);
  });

  it("ends with the error a server sent: a JSON-RPC error, a REST error, an `event: error` frame", () => {
    const rpcError = {
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32001,
        message: "Task not found",
        data: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_FOUND" }],
      },
    };
    const f = failure(sse(rpc(task()), rpcError));
    expect([f.code, f.path]).toEqual(["INPUT_STREAM_ERROR", "event[2].error"]);
    expect(f.detail).toBe(
      'event 2 (line 3) is a JSON-RPC error: -32001 "Task not found" (TASK_NOT_FOUND); the stream ends without a Task',
    );
    expect(refusal(sse(task(), { ...done, error: { code: 13 } }))).toEqual({
      code: "INPUT_STREAM_ERROR",
      path: "event[2].error",
      event: "event 2",
    });
    expect(refusal(sse(task(), { error: { code: 500, status: "INTERNAL", message: "boom" } }))).toEqual({
      code: "INPUT_STREAM_ERROR",
      path: "event[2].error",
      event: "event 2",
    });
    const frame = failure(`${sse(task())}event: error\ndata: ${json(rpcError)}\n\n`);
    expect([frame.code, frame.path]).toEqual(["INPUT_STREAM_ERROR", "event[2]"]);
    expect(frame.detail).toContain("is an error event: -32001");
    expect(failure(`${sse(task())}event: error\ndata: not json\n\n`).detail).toBe(
      "event 2 (line 3) is an error event (not JSON); the stream ends without a Task",
    );
    expect(refusal(`${sse(task())}event: progress\ndata: {}\n\n`)).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2]",
      event: "event 2",
    });
  });

  it("refuses a stream that does not begin with the Task (or a Message), and Messages after it", () => {
    expect(refusal(sse(done))).toEqual({ code: "INPUT_STREAM_ORDER", path: "event[1].statusUpdate", event: "event 1" });
    expect(refusal(sse(rpc(artifact({ artifactId: "a", parts: [] }))))).toEqual({
      code: "INPUT_STREAM_ORDER",
      path: "event[1].result.artifactUpdate",
      event: "event 1",
    });
    expect(refusal(sse(task(), { message: message("m", "hi") }, done))).toEqual({
      code: "INPUT_STREAM_ORDER",
      path: "event[2].message",
      event: "event 2",
    });
    expect(refusal(sse({ message: message("m", "hi") }, done))).toEqual({
      code: "INPUT_STREAM_ORDER",
      path: "event[2]",
      event: "event 2",
    });
    expect(refusal(sse({ message: { role: "ROLE_AGENT", parts: [] } }))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].message.messageId",
      event: "event 1",
    });
  });

  it("refuses any event after a terminal state", () => {
    const f = failure(sse(task(), done, artifact({ artifactId: "late", parts: [text("changed my mind")] })));
    expect([f.code, f.path, f.detail]).toEqual([
      "INPUT_STREAM_ORDER",
      "event[3]",
      "event 3 (line 5) follows the terminal state TASK_STATE_COMPLETED (event 2); a stream closes at a terminal state",
    ]);
    expect(refusal(sse(task({ status: { state: "TASK_STATE_REJECTED" } }), done))).toEqual({
      code: "INPUT_STREAM_ORDER",
      path: "event[2]",
      event: "event 2",
    });
  });

  it("refuses a first Task the fold cannot read", () => {
    const v03 = failure(sse({ task: { kind: "task", id: T, contextId: C, status: { state: "submitted" } } }));
    expect([v03.code, v03.path]).toEqual(["INPUT_A2A_V03", "event[1].task"]);
    expect(v03.detail).toMatch(/^event 1 \(line 1\) is an A2A v0\.3 Task \(evidence: /);
    expect(refusal(sse(task(), { task: { id: T, contextId: C, status: { state: "completed" } } }))).toEqual({
      code: "INPUT_A2A_V03",
      path: "event[2].task",
      event: "event 2",
    });
    expect(refusal(sse({ task: { id: T } }))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task",
      event: "event 1",
    });
    expect(refusal(sse(task({ status: { state: "TASK_STATE_DONE" } })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.status.state",
      event: "event 1",
    });
    expect(refusal(sse(task({ status: {} })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.status.state",
      event: "event 1",
    });
    expect(refusal(sse(task({ status: { state: 9 } })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.status.state",
      event: "event 1",
    });
    expect(refusal(sse(task({ status: { state: "TASK_STATE_SUBMITTED" }, contextId: 5 })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.contextId",
      event: "event 1",
    });
    expect(refusal(sse(task({ contextId: C, context_id: C })))).toEqual({
      code: "INPUT_A2A_MALFORMED",
      path: "event[1].task.contextId",
      event: "event 1",
    });
    expect(refusal(sse(task({ artifacts: {} })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.artifacts",
      event: "event 1",
    });
    expect(refusal(sse(task({ artifacts: [{ parts: [] }] })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.artifacts[0].artifactId",
      event: "event 1",
    });
    expect(refusal(sse(task({ artifacts: [{ artifactId: "a" }] })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.artifacts[0].parts",
      event: "event 1",
    });
    expect(refusal(sse(task({ history: [{ role: "ROLE_USER", parts: [] }] })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.history[0].messageId",
      event: "event 1",
    });
    expect(refusal(sse(task({ history: ["hi"] })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.history[0]",
      event: "event 1",
    });
    expect(refusal(sse(task({ status: { state: "TASK_STATE_SUBMITTED", message: { parts: [] } } })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.status.message.messageId",
      event: "event 1",
    });
    expect(
      refusal(sse(task(), { task: { id: T, contextId: C, status: { state: "TASK_STATE_COMPLETED", message: 1 } } })),
    ).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].task.status.message",
      event: "event 2",
    });
    expect(refusal(sse(task({ metadata: [] })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.metadata",
      event: "event 1",
    });
    expect(refusal(sse(task({ history: {} })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.history",
      event: "event 1",
    });
    expect(refusal(sse(task({ history: [{ messageId: "m", message_id: "m" }] })))).toEqual({
      code: "INPUT_A2A_MALFORMED",
      path: "event[1].task.history[0].messageId",
      event: "event 1",
    });
    expect(refusal(sse(task({ status: { state: 0 } })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[1].task.status.state",
      event: "event 1",
    });
    expect(failure(sse(task({ status: { state: "TASK_STATE_UNSPECIFIED" } }))).detail).toBe(
      "event 1 (line 1): the status has no state",
    );
    expect(
      refusal(
        sse(
          task({
            status: { state: "TASK_STATE_SUBMITTED" },
            artifacts: [{ artifactId: "a", artifact_id: "a", parts: [] }],
          }),
        ),
      ),
    ).toEqual({
      code: "INPUT_A2A_MALFORMED",
      path: "event[1].task.artifacts[0].artifactId",
      event: "event 1",
    });
  });

  it("refuses events for another task or context", () => {
    const other = { statusUpdate: { taskId: "task-2", contextId: C, status: { state: "TASK_STATE_COMPLETED" } } };
    const f = failure(sse(task(), other));
    expect([f.code, f.path, f.detail]).toEqual([
      "INPUT_STREAM_FOREIGN_EVENT",
      "event[2].statusUpdate.taskId",
      'event 2 (line 3) is for task "task-2"; the stream\'s Task is "task-1"',
    ]);
    expect(
      refusal(
        sse(
          task(),
          { artifactUpdate: { taskId: T, contextId: "ctx-2", artifact: { artifactId: "a", parts: [] } } },
          done,
        ),
      ),
    ).toEqual({
      code: "INPUT_STREAM_FOREIGN_EVENT",
      path: "event[2].artifactUpdate.contextId",
      event: "event 2",
    });
    const noContext = failure(sse(task(), { statusUpdate: { taskId: T, status: { state: "TASK_STATE_COMPLETED" } } }));
    expect([noContext.code, noContext.path, noContext.detail]).toEqual([
      "INPUT_STREAM_FOREIGN_EVENT",
      "event[2].statusUpdate.contextId",
      'event 2 (line 3) is for no context; the stream\'s Task has context "ctx-1"',
    ]);
    expect(refusal(sse(task(), { statusUpdate: { contextId: C, status: { state: "TASK_STATE_COMPLETED" } } }))).toEqual(
      {
        code: "INPUT_STREAM_MALFORMED",
        path: "event[2].statusUpdate.taskId",
        event: "event 2",
      },
    );
    expect(
      refusal(sse(task(), { task: { id: "task-2", contextId: C, status: { state: "TASK_STATE_COMPLETED" } } })),
    ).toEqual({
      code: "INPUT_STREAM_FOREIGN_EVENT",
      path: "event[2].task.id",
      event: "event 2",
    });
    expect(
      refusal(sse(task(), { task: { id: T, contextId: "ctx-2", status: { state: "TASK_STATE_COMPLETED" } } })),
    ).toEqual({
      code: "INPUT_STREAM_FOREIGN_EVENT",
      path: "event[2].task.contextId",
      event: "event 2",
    });
  });

  it("refuses a later Task the fold cannot merge", () => {
    expect(refusal(sse(task(), { task: { id: T, contextId: C } }))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].task",
      event: "event 2",
    });
    const later = (extra: Record<string, unknown>) => ({
      task: { id: T, contextId: C, status: { state: "TASK_STATE_COMPLETED" }, ...extra },
    });
    expect(refusal(sse(task(), later({ status: { state: "DONE" } })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].task.status.state",
      event: "event 2",
    });
    expect(refusal(sse(task(), later({ metadata: 1 })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].task.metadata",
      event: "event 2",
    });
    expect(refusal(sse(task(), later({ artifacts: 1 })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].task.artifacts",
      event: "event 2",
    });
    expect(refusal(sse(task(), later({ history: 1 })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].task.history",
      event: "event 2",
    });
    expect(refusal(sse(task(), later({ artifacts: [{ artifactId: 1, parts: [] }] })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].task.artifacts[0].artifactId",
      event: "event 2",
    });
    expect(refusal(sse(task(), later({ history: [{ parts: [] }] })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].task.history[0].messageId",
      event: "event 2",
    });
    expect(refusal(sse(task(), later({ contextId: 1 })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].task.contextId",
      event: "event 2",
    });
  });

  it("refuses status updates the fold cannot read", () => {
    expect(
      refusal(
        sse(task(), {
          statusUpdate: { taskId: T, task_id: T, contextId: C, status: { state: "TASK_STATE_COMPLETED" } },
        }),
      ),
    ).toEqual({
      code: "INPUT_A2A_MALFORMED",
      path: "event[2].statusUpdate.taskId",
      event: "event 2",
    });
    expect(
      refusal(sse(task(), status("TASK_STATE_COMPLETED", {}, { message: { messageId: "m", message_id: "n" } }))),
    ).toEqual({
      code: "INPUT_A2A_MALFORMED",
      path: "event[2].statusUpdate.status.message.messageId",
      event: "event 2",
    });
    expect(refusal(sse(task(), { statusUpdate: { taskId: T, contextId: C } }))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].statusUpdate.status",
      event: "event 2",
    });
    expect(refusal(sse(task(), status("TASK_STATE_COMPLETED", { metadata: "x" })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].statusUpdate.metadata",
      event: "event 2",
    });
    expect(
      refusal(sse(task(), status("TASK_STATE_COMPLETED", {}, { message: { role: "ROLE_AGENT", parts: [] } }))),
    ).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].statusUpdate.status.message.messageId",
      event: "event 2",
    });
    expect(refusal(sse(task(), status("TASK_STATE_COMPLETED", {}, { message: [] })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].statusUpdate.status.message",
      event: "event 2",
    });
  });

  it("refuses artifact updates the fold cannot apply", () => {
    const a = (
      extra: Record<string, unknown>,
      art: Record<string, unknown> = { artifactId: "a", parts: [text("1")] },
    ) => artifact(art, extra);
    const start = artifact({ artifactId: "a", name: "report", parts: [text("0")] }, { lastChunk: false });
    expect(refusal(sse(task(), a({ append: "yes" })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].artifactUpdate.append",
      event: "event 2",
    });
    expect(refusal(sse(task(), a({ lastChunk: 1 })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].artifactUpdate.lastChunk",
      event: "event 2",
    });
    expect(refusal(sse(task(), { artifactUpdate: { taskId: T, contextId: C } }))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].artifactUpdate.artifact",
      event: "event 2",
    });
    expect(refusal(sse(task(), a({}, { artifactId: 5, parts: [] })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].artifactUpdate.artifact.artifactId",
      event: "event 2",
    });
    expect(refusal(sse(task(), a({}, { artifactId: "a", artifact_id: "a", parts: [] })))).toEqual({
      code: "INPUT_A2A_MALFORMED",
      path: "event[2].artifactUpdate.artifact.artifactId",
      event: "event 2",
    });
    expect(refusal(sse(task(), a({}, "x" as never)))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].artifactUpdate.artifact",
      event: "event 2",
    });
    expect(refusal(sse(task(), a({}, { artifactId: "a", parts: "0" })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].artifactUpdate.artifact.parts",
      event: "event 2",
    });
    expect(refusal(sse(task(), a({ metadata: 3 })))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].artifactUpdate.metadata",
      event: "event 2",
    });
    const unknown = failure(sse(task(), a({ append: true }), done));
    expect([unknown.code, unknown.path, unknown.detail]).toEqual([
      "INPUT_STREAM_ORDER",
      "event[2].artifactUpdate.artifact.artifactId",
      'event 2 (line 3) appends to artifact "a", which the stream has not sent',
    ]);
    const closed = failure(sse(task(), a({ lastChunk: true }), a({ append: true }), done));
    expect([closed.code, closed.path, closed.detail]).toEqual([
      "INPUT_STREAM_ORDER",
      "event[3].artifactUpdate.artifact.artifactId",
      'event 3 (line 5) appends to artifact "a" after its last chunk (event 2)',
    ]);
    expect(
      refusal(sse(task(), start, a({ append: true }, { artifactId: "a", name: "other", parts: [] }), done)),
    ).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[3].artifactUpdate.artifact.name",
      event: "event 3",
    });
    const named = folded(
      sse(
        task(),
        artifact({ artifactId: "a", parts: [text("0")] }),
        a({ append: true }, { artifactId: "a", name: "late name", parts: [text("1")] }),
        done,
      ),
    );
    expect(plain(named.task.artifacts as JsonValue)).toEqual([
      { artifactId: "a", name: "late name", parts: [text("0"), text("1")] },
    ]);
    expect(
      refusal(
        sse(
          task(),
          start,
          a({ append: true }, { artifactId: "a", description: "d", parts: [] }),
          a({ append: true }, { artifactId: "a", description: "e", parts: [] }),
          done,
        ),
      ),
    ).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[4].artifactUpdate.artifact.description",
      event: "event 4",
    });
    expect(
      refusal(
        sse(
          task(),
          start,
          a({ append: true }, { artifactId: "a", name: "report", extensions: ["urn:x"], parts: [] }),
          a({ append: true }, { artifactId: "a", extensions: ["urn:y"], parts: [] }),
          done,
        ),
      ),
    ).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[4].artifactUpdate.artifact.extensions",
      event: "event 4",
    });
    expect(
      folded(sse(task(), start, a({ append: true }, { artifactId: "a", extensions: ["urn:x"], parts: [] }), done))
        .events,
    ).toBe(4);
    expect(
      refusal(sse(task(), start, a({ append: true }, { artifactId: "a", parts: [], metadata: "m" }), done)),
    ).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[3].artifactUpdate.artifact.metadata",
      event: "event 3",
    });
    const twice = task({
      artifacts: [
        { artifactId: "a", parts: [text("x")] },
        { artifactId: "a", parts: [text("y")] },
      ],
    });
    expect(refusal(sse(twice, a({ append: true }), done))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].artifactUpdate.artifact.artifactId",
      event: "event 2",
    });
    expect(refusal(sse(twice, a({}), done))).toEqual({
      code: "INPUT_STREAM_MALFORMED",
      path: "event[2].artifactUpdate.artifact.artifactId",
      event: "event 2",
    });
  });
});

describe("what the fold shows the properties", () => {
  const exchange = buildExchange({
    transcript: [
      { messageId: "m0", role: "ROLE_USER", parts: ["quote please"] },
      { messageId: "m1", role: "ROLE_AGENT", parts: ["working on it"] },
    ],
    artifacts: [{ artifactId: "a0", name: "quote", parts: ["EUR/USD 1.08", "valid 30 s"] }],
  });
  const events = streamEvents(exchange).map((e) => plain(e) as Record<string, unknown>);
  const verified = (input: string): VerifiedInput => {
    const f = folded(input);
    const report = verify({ inputs: [{ source: "stream", data: f.task }], trust: exchange.trust });
    const r = report.inputs[0];
    if (!r || isFailedInput(r)) throw new Error(JSON.stringify(r));
    return r;
  };
  const failing = (r: VerifiedInput, property: "taskBinding") =>
    r.properties[property].checks.filter((c) => c.state === "FAIL").map((c) => c.id);

  it("a dropped chunk leaves the artifact short of what the payload commits to: taskBinding FAILs", () => {
    const dropped = events.filter((e) => !((e.artifactUpdate as { append?: boolean } | undefined)?.append === true));
    expect(dropped.length).toBe(events.length - 1);
    const r = verified(sse(...dropped));
    expect(r.properties.taskBinding.state).toBe("FAIL");
    expect(failing(r, "taskBinding")).toEqual(["artifact.binding"]);
  });

  it("a status message that reuses the request's messageId with other content reaches taskBinding: FAIL", () => {
    const ids = { taskId: exchange.finalTask.id, contextId: exchange.finalTask.contextId };
    const forged = {
      statusUpdate: {
        ...ids,
        status: {
          state: "TASK_STATE_WORKING",
          message: message("m0", "quote please, and wire the money", "ROLE_USER"),
        },
      },
    };
    const r = verified(sse(events[0], forged, ...events.slice(1)));
    expect(r.properties.taskBinding.state).toBe("FAIL");
    // Two copies of the first Message that disagree (§9.8), one messageId twice (§9.13).
    expect(failing(r, "taskBinding")).toEqual(["transcript.unambiguous", "transcript.request"]);
  });
});
