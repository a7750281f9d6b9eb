/**
 * The gate judges the Task a call asked for, not whatever Task the server answers with: a getTask
 * or resubscribeTask answered with another Task, a Message naming its Task answered with another,
 * a stream that shows a second Task, and a new Message answered with a Task an earlier Message
 * started are each refused (TASK_MISMATCH) before anything is verified. The hooks are driven as
 * the SDK drives them: before() and after() of one call share its options object.
 */
import { describe, expect, it } from "vitest";
import { Task as TaskCodec } from "@a2a-js/sdk";
import type { AfterArgs, BeforeArgs } from "@a2a-js/sdk/client";
import { evidenceGate } from "../../src/a2a-js/index.js";
import { refusal } from "../helpers/gate.js";
import { EXTENSION_URI, RECORD_PROFILE_V1 } from "../../src/profile.js";
import { producerTrust } from "../../producer/seal.js";

const MINIMUM = "EXTERNALLY_REGISTERED";

function gate() {
  return evidenceGate({ requirement: { minimumEvidence: MINIMUM }, trust: producerTrust() });
}

/** A Task still working, showing the requirement accepted: what an honest first response is. */
function workingTask(id: string) {
  return TaskCodec.fromJSON({
    id,
    contextId: `ctx-${id}`,
    status: { state: "TASK_STATE_WORKING" },
    metadata: {
      [EXTENSION_URI]: {
        evidenceAcceptance: { state: "ACCEPTED", recordProfile: RECORD_PROFILE_V1, minimumEvidence: MINIMUM },
      },
    },
  });
}

function message(taskId = "") {
  return { messageId: `m-${taskId || "new"}`, role: "ROLE_USER", parts: [], taskId, contextId: "", extensions: [] };
}

type Call = { options: object };

async function call(g: ReturnType<typeof gate>, input: unknown): Promise<Call> {
  const args = { input, agentCard: {} } as unknown as BeforeArgs;
  await g.before(args);
  return { options: args.options as object };
}

async function answer(g: ReturnType<typeof gate>, c: Call, result: unknown): Promise<void> {
  await g.after({ result, agentCard: {}, options: c.options } as unknown as AfterArgs);
}

const send = (taskId = "") => ({
  method: "sendMessage",
  value: { message: message(taskId), configuration: { returnImmediately: true } },
});
const stream = (taskId = "") => ({ method: "sendMessageStream", value: { message: message(taskId) } });
const taskEvent = (method: string, id: string) => ({
  method,
  value: { payload: { $case: "task", value: workingTask(id) } },
});

describe("the gate refuses an answer that is another Task than the one asked for (TASK_MISMATCH)", () => {
  const calls = [
    {
      name: "getTask: asked for one Task, answered with another",
      input: { method: "getTask", value: { tenant: "", id: "task-a" } },
      first: 0,
      answer: (id: string) => ({ method: "getTask", value: workingTask(id) }),
    },
    {
      name: "resubscribeTask: an event of another Task",
      input: { method: "resubscribeTask", value: { tenant: "", id: "task-a" } },
      first: 1,
      answer: (id: string) => taskEvent("resubscribeTask", id),
    },
    {
      name: "sendMessage naming its Task (a resumption), answered with another Task",
      input: send("task-a"),
      first: 0,
      answer: (id: string) => ({ method: "sendMessage", value: workingTask(id) }),
    },
    {
      name: "sendMessageStream: a second Task after the stream's first",
      input: stream(),
      first: 2,
      answer: (id: string) => taskEvent("sendMessageStream", id),
    },
  ];
  for (const t of calls) {
    it(t.name, async () => {
      const g = gate();
      const c = await call(g, t.input);
      // The answers that are the Task asked for (or, on a stream naming none, its first) pass.
      for (let i = 0; i < t.first; i++) await expect(answer(g, c, t.answer("task-a"))).resolves.toBeUndefined();
      const e = await refusal(answer(g, c, t.answer("task-b")));
      expect(e.reason).toBe("TASK_MISMATCH");
      expect(e.message).toBe(
        `TASK_MISMATCH: ${t.input.method} asked for Task "task-a" and was answered with Task "task-b"`,
      );
      expect(e.task?.id).toBe("task-b");
    });
  }

  it("sendMessage naming no Task, answered with a Task an earlier Message started", async () => {
    const g = gate();
    const first = await call(g, send());
    await answer(g, first, { method: "sendMessage", value: workingTask("task-a") });
    const second = await call(g, send());
    const e = await refusal(answer(g, second, { method: "sendMessage", value: workingTask("task-a") }));
    expect(e.reason).toBe("TASK_MISMATCH");
    expect(e.message).toBe(
      'TASK_MISMATCH: sendMessage sent a Message that names no Task, and was answered with Task "task-a", which an earlier Message started',
    );
  });

  it("sendMessageStream: a second Task after the stream's first", async () => {
    const g = gate();
    const c = await call(g, stream());
    await answer(g, c, taskEvent("sendMessageStream", "task-a"));
    await answer(g, c, taskEvent("sendMessageStream", "task-a"));
    const e = await refusal(answer(g, c, taskEvent("sendMessageStream", "task-b")));
    expect(e.reason).toBe("TASK_MISMATCH");
    expect(e.message).toMatch(/sendMessageStream asked for Task "task-a" and was answered with Task "task-b"/);
  });

  it("passes each answer that is the Task asked for, and calls of other Tasks do not interfere", async () => {
    const g = gate();
    const passes = (c: Call, result: unknown) => expect(answer(g, c, result)).resolves.toBeUndefined();
    const a = await call(g, send());
    const b = await call(g, send());
    await passes(b, { method: "sendMessage", value: workingTask("task-b") });
    await passes(a, { method: "sendMessage", value: workingTask("task-a") });
    const pollA = await call(g, { method: "getTask", value: { tenant: "", id: "task-a" } });
    const pollB = await call(g, { method: "getTask", value: { tenant: "", id: "task-b" } });
    await passes(pollB, { method: "getTask", value: workingTask("task-b") });
    await passes(pollA, { method: "getTask", value: workingTask("task-a") });
    const resume = await call(g, stream("task-a"));
    await passes(resume, taskEvent("sendMessageStream", "task-a"));
    await passes(resume, taskEvent("sendMessageStream", "task-a"));
    // An empty taskId names no Task, as in the SDK's own Messages: the answer must be new.
    const fresh = await call(g, send(""));
    await passes(fresh, { method: "sendMessage", value: workingTask("task-c") });
  });
});
