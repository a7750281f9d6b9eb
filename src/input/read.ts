/**
 * Reading A2A v1.0 Tasks and Messages, refusing v0.3 shapes with a message that says so
 * (a2a-wire.md §3.3): a v0.3 Task read as v1.0 would silently lose its states and parts.
 */
import type { JsonValue } from "../json/value.js";
import { fail, ok, type Result } from "../result.js";
import { readMessage, readTask, type A2AMessage, type A2ATask } from "./a2a.js";
import { detectV03, detectV03Message } from "./v03.js";
import { traceNotes } from "./trace.js";

export function readV1Message(value: JsonValue, path: string): Result<A2AMessage> {
  const signals = detectV03Message(value, path);
  if (signals.length > 0) {
    return fail(
      "INPUT_A2A_V03",
      `input is an A2A v0.3 Message (evidence: ${signals.slice(0, 3).join("; ")}); this verifier checks A2A v1.0 wire shapes`,
      path,
    );
  }
  return readMessage(value, path, []);
}

export function readV1Task(value: JsonValue, path: string): Result<A2ATask> {
  const signals = detectV03(value, path);
  if (signals.length > 0) {
    return fail(
      "INPUT_A2A_V03",
      `input is an A2A v0.3 Task (evidence: ${signals.slice(0, 3).join("; ")}); this verifier checks A2A v1.0 wire shapes — re-fetch with header "A2A-Version: 1.0" (JSON-RPC method "GetTask", REST path without "/v1")`,
      path,
    );
  }
  const task = readTask(value, path);
  if (!task.ok) return task;
  const traces = traceNotes(task.value);
  return traces.length > 0 ? ok({ ...task.value, notes: [...task.value.notes, ...traces] }) : task;
}
