/**
 * What a folded stream gives the input stage: the Task it folds into (a direct Message reply gives
 * none), the capture it amounts to, whether its first Task is a first response at all, and the
 * report's line on what was folded.
 */
import { isJsonObject, member, newJsonObject, type JsonObject } from "../../json/value.js";
import { fail, ok, type Result } from "../../result.js";
import type { FoldedStream, FoldedTaskStream } from "./fold.js";

/** The folded Task, or an input error for a stream that is a direct Message reply (no Task to verify). */
export function streamTask(folded: FoldedStream): Result<JsonObject> {
  if (folded.kind === "task") return ok(folded.task);
  const id = member(folded.message, "messageId");
  return fail(
    "INPUT_STREAM_MESSAGE",
    `the stream is a direct Message reply${typeof id === "string" ? ` (messageId ${JSON.stringify(id)})` : ""}, not a Task: it carries no Task evidence (pass it with --first-task for the negotiation checks)`,
    folded.binding === "jsonrpc" ? "event[1].result.message" : "event[1].message",
  );
}

/**
 * What a folded Task stream observed, as a capture: the first Task (SendMessage's first response,
 * with the acceptance) and the final Task. Verified as a capture, the stream's negotiation is
 * judged exactly as a recorded exchange's is.
 */
export function streamCapture(folded: FoldedTaskStream): JsonObject {
  const capture = newJsonObject();
  capture.firstTask = folded.firstTask;
  capture.finalTask = folded.task;
  return capture;
}

/** Where the first event's Task sits in the stream. */
export function firstTaskPath(folded: FoldedStream): string {
  return folded.binding === "jsonrpc" ? "event[1].result.task" : "event[1].task";
}

/**
 * The later client turn a stream's first Task already shows, if any: a ROLE_USER Message after a
 * ROLE_AGENT one. SendMessage's first response to a new Task answers the Task's first Message, so
 * it cannot hold a second client turn; a stream whose first Task does is a later request's stream
 * on an existing Task (a resumption: a2a-js sends the stored Task, with the resuming Message
 * appended, as its first event) or a subscription joined after one. Its first event is then the
 * stored Task, past its acceptance — not the first response (contract §9.18 judges that one).
 * A first response already terminal or holding results shows no such turn, and is still judged.
 */
export function laterClientTurn(task: JsonObject): string | undefined {
  const history = member(task, "history");
  let agentSpoke = false;
  for (const m of Array.isArray(history) ? history : []) {
    const role = isJsonObject(m) ? member(m, "role") : undefined;
    if (role === "ROLE_AGENT") agentSpoke = true;
    else if (role === "ROLE_USER" && agentSpoke) {
      const id = member(m as JsonObject, "messageId");
      return typeof id === "string" ? id : "(no messageId)";
    }
  }
  return undefined;
}

/** One line for the report: what was folded. */
export function streamNote(folded: FoldedStream): string {
  const { described, binding: fixed } = folded.framedAs;
  const binding = fixed ?? (folded.binding === "jsonrpc" ? "JSON-RPC" : "REST");
  const what = folded.kind === "task" ? "folded into the Task" : "a direct Message reply";
  return `input is ${described} (${binding} framing): ${folded.events} event${folded.events === 1 ? "" : "s"}, ${what}`;
}
