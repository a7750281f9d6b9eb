import { describe, expect, it } from "vitest";
import { detectV03, detectV03Message } from "../../src/input/v03.js";
import { fromPlain } from "../../src/json/value.js";

describe("A2A v0.3 signals", () => {
  it("name every signal with its path", () => {
    const task = fromPlain({
      id: "t",
      kind: "task",
      status: {
        state: "completed",
        message: { messageId: "s", role: "agent", kind: "message", parts: [{ kind: "text", text: "x" }] },
      },
      history: [
        { messageId: "m0", role: "ROLE_USER", parts: [{ text: "a" }] },
        { messageId: "m1", role: "user", content: [] },
        { messageId: "m2", role: "ROLE_AGENT", parts: [{ text: "b" }, { file: { uri: "u" } }] },
      ],
      artifacts: [
        { artifactId: "a0", parts: [{ text: "c" }] },
        { artifactId: "a1", kind: "artifact-update", parts: [7, { kind: "data", data: {} }] },
      ],
    });
    expect(detectV03(task, "result")).toEqual([
      '"kind":"task" at result',
      'state "completed" at result.status.state',
      '"kind":"message" at result.status.message',
      'role "agent" at result.status.message.role',
      '"kind":"text" at result.status.message.parts[0]',
      'role "user" at result.history[1].role',
      'Message "content" instead of "parts" (v0.3 proto) at result.history[1]',
      'nested "file" part at result.history[2].parts[1]',
      '"kind":"artifact-update" at result.artifacts[1]',
      '"kind":"data" at result.artifacts[1].parts[1]',
    ]);
    expect(detectV03(fromPlain({ id: "t", status: { state: "TASK_STATE_CANCELLED" } }), "$")).toEqual([
      'state "TASK_STATE_CANCELLED" (v0.3 proto spelling) at status.state',
    ]);
  });

  it("find none in a v1.0 Task or Message", () => {
    const message = { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "a" }, { data: { kind: "task" } }] };
    expect(
      detectV03(
        fromPlain({ id: "t", status: { state: "TASK_STATE_COMPLETED", message }, history: [message], artifacts: [] }),
        "$",
      ),
    ).toEqual([]);
    expect(detectV03Message(fromPlain(message), "$")).toEqual([]);
    expect(detectV03Message(fromPlain({ ...message, role: "agent" }), "$")).toEqual(['role "agent" at role']);
    expect(detectV03Message(fromPlain({ ...message, kind: "message" }), "message")).toEqual([
      '"kind":"message" at message',
    ]);
  });
});
