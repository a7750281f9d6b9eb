import { describe, expect, it } from "vitest";
import { readTask } from "../../src/input/a2a.js";
import { fromPlain } from "../../src/json/value.js";

const message = { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "a" }] };
const task = (extra: Record<string, unknown> = {}) =>
  fromPlain({ id: "t", status: { state: "TASK_STATE_COMPLETED" }, ...extra });

function failure(extra: Record<string, unknown>): unknown {
  const r = readTask(task(extra), "result");
  return r.ok ? "read" : [r.code, r.detail, r.path];
}

describe("reading an A2A Task", () => {
  it("refuses a field under both of its names, whatever the field's type", () => {
    expect(failure({ contextId: "c", context_id: "c" })).toEqual([
      "INPUT_A2A_MALFORMED",
      'both "contextId" and "context_id" are present',
      "result.contextId",
    ]);
    expect(failure({ history: [{ ...message, messageId: undefined, message_id: "m" }] })).toBe("read");
    expect(failure({ history: [{ ...message, message_id: "m" }] })).toEqual([
      "INPUT_A2A_MALFORMED",
      'both "messageId" and "message_id" are present',
      "result.history[0].messageId",
    ]);
    expect(
      failure({ artifacts: [{ artifactId: "a", parts: [{ text: "x", mediaType: "t", media_type: "t" }] }] }),
    ).toEqual([
      "INPUT_A2A_MALFORMED",
      'both "mediaType" and "media_type" are present',
      "result.artifacts[0].parts[0].mediaType",
    ]);
    expect(failure({ artifacts: [{ artifactId: "a", parts: [], metadata: {}, extensions: ["x"] }] })).toBe("read");
    expect(failure({ artifacts: [{ artifactId: "a", parts: [{ text: "x", metadata: 1 }] }] })).toEqual([
      "INPUT_A2A_MALFORMED",
      '"metadata" must be an object',
      "result.artifacts[0].parts[0].metadata",
    ]);
    expect(failure({ history: "x" })).toEqual(["INPUT_A2A_MALFORMED", '"history" must be an array', "result.history"]);
    expect(failure({ history: [{ ...message, role: 7 }] })).toEqual([
      "INPUT_A2A_MALFORMED",
      '"role" must be an enum name',
      "result.history[0].role",
    ]);
  });

  it("gives each read object its members in one order, optional ones only when present", () => {
    const r = readTask(
      task({
        contextId: "c",
        metadata: { k: 1 },
        history: [{ ...message, metadata: { k: 2 }, extensions: ["e"] }, message],
        artifacts: [
          { artifactId: "a", name: "n", parts: [{ text: "x" }] },
          { artifactId: "b", parts: [] },
        ],
      }),
      "result",
    );
    if (!r.ok) throw new Error(r.detail);
    expect(Object.keys(r.value)).toEqual([
      "path",
      "id",
      "contextId",
      "state",
      "history",
      "artifacts",
      "metadata",
      "notes",
    ]);
    expect(Object.keys(r.value.history?.[0] ?? {})).toEqual([
      "path",
      "json",
      "messageId",
      "role",
      "parts",
      "metadata",
      "extensions",
    ]);
    expect(Object.keys(r.value.history?.[1] ?? {})).toEqual([
      "path",
      "json",
      "messageId",
      "role",
      "parts",
      "extensions",
    ]);
    expect(Object.keys(r.value.artifacts?.[0] ?? {})).toEqual(["path", "artifactId", "name", "parts", "extensions"]);
    expect(Object.keys(r.value.artifacts?.[1] ?? {})).toEqual(["path", "artifactId", "parts", "extensions"]);
    expect(Object.keys(readTask(task(), "$").ok ? (readTask(task(), "$") as { value: object }).value : {})).toEqual([
      "path",
      "id",
      "state",
      "notes",
    ]);
  });
});
