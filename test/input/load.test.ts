import { describe, expect, it } from "vitest";
import { decodeJsonValue } from "../../src/input/document.js";
import { loadEvidence, loadTaskInput } from "../../src/input/load.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { fromPlain, type JsonValue } from "../../src/json/value.js";
import { EVIDENCE_MEDIA_TYPE, EXTENSION_URI } from "../../src/profile.js";

const bundle = { extensionVersion: "1", evidenceId: "00".repeat(32), taskEvidencePayload: { taskId: "t1" } };
const raw = Buffer.from(JSON.stringify(bundle)).toString("base64");

function task(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "t1",
    contextId: "c1",
    status: { state: "TASK_STATE_COMPLETED" },
    artifacts: [
      { artifactId: "a1", name: "response", parts: [{ text: "hi" }] },
      {
        artifactId: "task-evidence-bundle",
        extensions: [EXTENSION_URI],
        parts: [{ raw, mediaType: EVIDENCE_MEDIA_TYPE, filename: "task-evidence-bundle.json" }],
      },
    ],
    ...extra,
  };
}

/** As the input stage loads a parsed value: decoded first (an array is a stream's events). */
function load(v: unknown) {
  return loadEvidence(decodeJsonValue(fromPlain(v)));
}

function failure(v: unknown) {
  const r = load(v);
  if (r.ok) throw new Error("expected a failure");
  return r;
}

describe("input shapes", () => {
  it("reads a JSON-RPC GetTask response and locates the raw evidence part", () => {
    const r = load({ jsonrpc: "2.0", id: 1, result: task() });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.shape).toBe("jsonrpc-response");
    expect(r.value.bundles.map((b) => [b.location, b.carrier])).toEqual([["result.artifacts[1].parts[0].raw", "raw"]]);
    expect(r.value.observedTask?.id).toBe("t1");
  });

  it("reads a bare Task (REST body) and a {task} wrapper", () => {
    const bare = load(task());
    expect(bare.ok && bare.value.shape).toBe("task");
    expect(bare.ok && bare.value.bundles[0]?.location).toBe("artifacts[1].parts[0].raw");
    const wrapped = load({ task: task() });
    expect(wrapped.ok && wrapped.value.bundles[0]?.location).toBe("task.artifacts[1].parts[0].raw");
  });

  it("reads a capture, ignores its trustConfig, and orders exact bytes first", () => {
    const r = load({
      firstTask: task({ artifacts: [] }),
      finalTask: task(),
      evidenceBundle: bundle,
      trustConfig: { authorizedSigners: {} },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.shape).toBe("capture");
    expect(r.value.bundles.map((b) => b.carrier)).toEqual(["raw", "capture"]);
    expect(r.value.firstTask?.id).toBe("t1");
    expect(r.value.notes.join("\n")).toMatch(/trustConfig in the input is ignored/);
  });

  it("reads a bare bundle", () => {
    const r = load(bundle);
    expect(r.ok && r.value.shape).toBe("bundle");
    expect(r.ok && r.value.bundles[0]?.carrier).toBe("bare");
  });

  it("locates data parts and inline metadata, and reports every location", () => {
    const t = task({ metadata: { [EXTENSION_URI]: bundle } });
    (t.artifacts as Record<string, unknown>[])[1] = {
      artifactId: "task-evidence-bundle",
      extensions: [EXTENSION_URI],
      parts: [{ data: bundle, mediaType: EVIDENCE_MEDIA_TYPE }],
    };
    const r = load(t);
    expect(r.ok && r.value.bundles.map((b) => `${b.carrier}@${b.location}`)).toEqual([
      "data@artifacts[1].parts[0].data",
      `inline@metadata["${EXTENSION_URI}"]`,
    ]);
  });

  it("finds the evidence artifact by media type alone, and notes the missing extensions list", () => {
    const t = task();
    const a = (t.artifacts as Record<string, unknown>[])[1] as Record<string, unknown>;
    a.extensions = [];
    a.artifactId = "other";
    const r = load(t);
    expect(r.ok && r.value.bundles.length).toBe(1);
    expect(r.ok && r.value.notes.join("\n")).toMatch(/should agree/);
  });

  it("notes a url part and does not fetch it", () => {
    const t = task();
    (t.artifacts as Record<string, unknown>[])[1] = {
      artifactId: "task-evidence-bundle",
      extensions: [EXTENSION_URI],
      parts: [{ url: "https://example.invalid/bundle.json", mediaType: EVIDENCE_MEDIA_TYPE }],
    };
    const r = failure(t);
    expect(r.code).toBe("INPUT_NO_EVIDENCE");
  });
});

describe("inputs that cannot be verified", () => {
  it("a JSON-RPC error response names the error", () => {
    const r = failure({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32001,
        message: "Task not found",
        data: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_FOUND" }],
      },
    });
    expect(r.code).toBe("INPUT_JSONRPC_ERROR");
    expect(r.detail).toMatch(/-32001: Task not found \(TASK_NOT_FOUND\)/);
  });

  it("a JSON-RPC request, a REST error and a ListTasks response are refused", () => {
    expect(failure({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "t1" } }).code).toBe(
      "INPUT_JSONRPC_REQUEST",
    );
    expect(failure({ error: { code: 404, status: "NOT_FOUND", message: "no task" } }).code).toBe("INPUT_REST_ERROR");
    expect(failure({ tasks: [], nextPageToken: "" }).code).toBe("INPUT_UNKNOWN_SHAPE");
    expect(failure({ hello: "world" }).code).toBe("INPUT_UNKNOWN_SHAPE");
    expect(failure([1, 2]).code).toBe("INPUT_STREAM_MALFORMED");
    expect(failure({ jsonrpc: "2.0", id: 1, result: { nope: true } }).code).toBe("INPUT_UNKNOWN_SHAPE");
  });

  it("a v0.3-shaped Task names the version and the signals", () => {
    const r = failure({ jsonrpc: "2.0", id: 1, result: { ...task(), kind: "task", status: { state: "completed" } } });
    expect(r.code).toBe("INPUT_A2A_V03");
    expect(r.detail).toMatch(/A2A v0\.3 Task/);
    expect(r.detail).toMatch(/"kind":"task" at result/);
    expect(r.detail).toMatch(/state "completed" at result\.status\.state/);
    expect(failure({ ...task(), status: { state: "TASK_STATE_CANCELLED" } }).code).toBe("INPUT_A2A_V03");
    expect(failure({ ...task(), history: [{ messageId: "m", role: "user", parts: [{ text: "x" }] }] }).code).toBe(
      "INPUT_A2A_V03",
    );
  });

  it("an artifact without the bundle exits as no evidence, naming the Task's stated status", () => {
    const t = task({
      metadata: {
        [EXTENSION_URI]: {
          evidenceStatus: "EVIDENCE_STATUS_FAILED",
          failureReason: "WITNESS_REQUIRED_NOT_CONFIRMED: down",
        },
      },
    });
    t.artifacts = [{ artifactId: "a1", parts: [{ text: "hi" }] }];
    const r = failure(t);
    expect(r.code).toBe("INPUT_NO_EVIDENCE");
    expect(r.detail).toMatch(/EVIDENCE_STATUS_FAILED \(WITNESS_REQUIRED_NOT_CONFIRMED: down\)/);
  });

  it("truncated or non-standard base64 is refused with the path of the part", () => {
    for (const bad of [raw.slice(0, -3), raw.replace(/=+$/, ""), `${raw.slice(0, 10)}*${raw.slice(11)}`]) {
      const t = task();
      ((t.artifacts as Record<string, unknown>[])[1] as { parts: Record<string, unknown>[] }).parts[0] = {
        raw: bad,
        mediaType: EVIDENCE_MEDIA_TYPE,
      };
      const r = failure(t);
      expect(r.code).toBe("INPUT_BUNDLE_BASE64");
      expect(r.path).toBe("artifacts[1].parts[0].raw");
    }
  });

  it("a raw part that is not strict JSON, or not an object, is refused", () => {
    const t = task();
    const parts = ((t.artifacts as Record<string, unknown>[])[1] as { parts: Record<string, unknown>[] }).parts;
    parts[0] = { raw: Buffer.from('{"a":1,"a":2}').toString("base64"), mediaType: EVIDENCE_MEDIA_TYPE };
    const dup = failure(t);
    expect(dup.code).toBe("INPUT_BUNDLE_NOT_JSON");
    expect(dup.detail).toMatch(/JSON_DUPLICATE_MEMBER/);
    parts[0] = { raw: Buffer.from("[1]").toString("base64"), mediaType: EVIDENCE_MEDIA_TYPE };
    expect(failure(t).code).toBe("INPUT_BUNDLE_NOT_OBJECT");
  });

  it("an oversized bundle is refused before it is parsed", () => {
    const big = Buffer.alloc(64, 0x20).toString("base64");
    const t = task();
    ((t.artifacts as Record<string, unknown>[])[1] as { parts: Record<string, unknown>[] }).parts[0] = {
      raw: big,
      mediaType: EVIDENCE_MEDIA_TYPE,
    };
    const r = loadEvidence(fromPlain(t), {}, { maxBundleBytes: 16 });
    expect(!r.ok && r.code).toBe("INPUT_BUNDLE_TOO_LARGE");
  });

  it("A2A wire violations are refused with their path", () => {
    const twoContents = task();
    ((twoContents.artifacts as Record<string, unknown>[])[0] as { parts: unknown[] }).parts = [
      { text: "a", data: { b: 1 } },
    ];
    const a = failure(twoContents);
    expect(a.code).toBe("INPUT_A2A_MALFORMED");
    expect(a.path).toBe("artifacts[0].parts[0]");
    const bothSpellings = task({ context_id: "c2" });
    const b = failure(bothSpellings);
    expect(b.code).toBe("INPUT_A2A_MALFORMED");
    expect(b.path).toBe("contextId");
    const nullData = task();
    ((nullData.artifacts as Record<string, unknown>[])[1] as { parts: unknown[] }).parts = [
      { data: null, mediaType: EVIDENCE_MEDIA_TYPE },
    ];
    expect(failure(nullData).code).toBe("INPUT_A2A_MALFORMED");
    expect(failure({ ...task(), status: { state: "TASK_STATE_DONE" } }).path).toBe("status.state");
  });

  it("accepts snake_case field names and numeric enums, with a note", () => {
    const t = task();
    delete t.contextId;
    t.context_id = "c1";
    t.status = { state: 3 };
    const r = load(t);
    expect(r.ok && r.value.observedTask?.contextId).toBe("c1");
    expect(r.ok && r.value.observedTask?.state).toBe("TASK_STATE_COMPLETED");
    expect(r.ok && r.value.notes.join("\n")).toMatch(/enum given as number 3/);
  });
});

describe("--task and --first-task inputs", () => {
  it("takes the final Task, and the first Task of a capture", () => {
    const r = loadTaskInput(fromPlain({ firstTask: task({ artifacts: [] }), finalTask: task() }), "task");
    expect(r.ok && r.value.task?.observedTask?.path).toBe("finalTask");
    expect(r.ok && r.value.firstTask?.path).toBe("firstTask");
    const first = loadTaskInput(fromPlain({ firstTask: task(), finalTask: task() }), "first-task");
    expect(first.ok && first.value.firstTask?.path).toBe("firstTask");
  });

  it("refuses an input without a Task", () => {
    const r = loadTaskInput(fromPlain(bundle) as JsonValue, "task");
    expect(!r.ok && r.code).toBe("INPUT_NOT_A_TASK");
  });

  it("parses the strict way, so duplicate members in a Task never reach location", () => {
    const r = parseStrictJson('{"id":"t1","id":"t2","status":{"state":"TASK_STATE_COMPLETED"}}');
    expect(!r.ok && r.code).toBe("JSON_DUPLICATE_MEMBER");
  });
});
