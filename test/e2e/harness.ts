/**
 * One live Task, end to end: SendMessage (non-blocking, with the requirement and the extension
 * header) through an SDK client on one binding, GetTask polled to a terminal state, then GetTask
 * once more over each binding — every response kept as the exact bytes the server sent. A Task
 * that stops in INPUT_REQUIRED is fetched over each binding as it waits, then resumed with a
 * second Message on its taskId and contextId, and polled on to its end.
 */
import { Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { EXTENSION_URI } from "../../producer/constants.js";
import {
  BINDINGS,
  EXTENSION_HEADER,
  isGetTask,
  isSend,
  resumeRequest,
  sdkClient,
  sendRequest,
  Tap,
  type Binding,
  type RequirementJson,
  REFERENCE_REQUIREMENT,
} from "./client.js";
import type { LiveServer } from "./server.js";

/** Terminal states (a2a-wire.md §1.3): polling stops there. */
const TERMINAL = new Set(["TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"]);
const MAX_POLLS = 1000;
export const INPUT_REQUIRED = "TASK_STATE_INPUT_REQUIRED";

/** What was seen while a Task waited for input, and how it was resumed. */
export interface PausedRun {
  /** The exact GetTask response bytes of the paused Task, per binding. */
  readonly getTask: Readonly<Record<Binding, Uint8Array>>;
  /** The resuming Message's messageId. */
  readonly resumeMessageId: string;
  /** The exact bytes of the SendMessage request that resumed it, and of its response. */
  readonly resumeRequestBody: string;
  readonly resumeResponse: Uint8Array;
}

export interface LiveRun {
  readonly taskId: string;
  /** The first Task as the SDK client decoded it, in wire JSON. */
  readonly firstTask: Record<string, unknown>;
  /** The exact SendMessage response bytes (JSON-RPC envelope or REST body). */
  readonly sendResponse: Uint8Array;
  /** The `A2A-Extensions` header the SendMessage response carried. */
  readonly activatedHeader: string | undefined;
  /** The exact GetTask response bytes of the terminal Task, per binding. */
  readonly getTask: Readonly<Record<Binding, Uint8Array>>;
  /** Set when the Task paused for input on the way. */
  readonly paused?: PausedRun;
}

const pause = () => new Promise((r) => setTimeout(r, 10));

/** Polls GetTask until the Task is in one of `states` (default: a terminal state). */
export async function pollUntil(
  client: Client,
  id: string,
  states: ReadonlySet<string> = TERMINAL,
): Promise<Record<string, unknown>> {
  for (let i = 0; i < MAX_POLLS; i++) {
    const json = Task.toJSON(await client.getTask({ tenant: "", id })) as Record<string, unknown>;
    const state = (json.status as { state?: string } | undefined)?.state;
    if (state !== undefined && states.has(state)) return json;
    await pause();
  }
  throw new Error(`task ${id} did not reach ${[...states].join(" or ")} in ${MAX_POLLS} polls`);
}

export const pollToTerminal = (client: Client, id: string) => pollUntil(client, id);
const TERMINAL_OR_PAUSED = new Set([...TERMINAL, INPUT_REQUIRED]);

/** The exact GetTask response bytes over each binding (the last poll's, for the binding that polled). */
async function getTaskOverEach(
  clients: Record<Binding, Client>,
  taps: Record<Binding, Tap>,
  id: string,
  polled: Binding,
): Promise<Record<Binding, Uint8Array>> {
  const out = {} as Record<Binding, Uint8Array>;
  for (const b of BINDINGS) {
    if (b !== polled) await clients[b].getTask({ tenant: "", id });
    out[b] = await taps[b].last(isGetTask).body;
  }
  return out;
}

export async function runLiveTask(
  server: LiveServer,
  kind: string,
  sendBinding: Binding,
  /** `resumeWithoutContext`: the second Message names the Task by taskId alone (A2A lets it leave contextId out). */
  options: { text?: string; requirement?: RequirementJson; resumeText?: string; resumeWithoutContext?: boolean } = {},
): Promise<LiveRun> {
  const taps = Object.fromEntries(BINDINGS.map((b) => [b, new Tap()])) as Record<Binding, Tap>;
  const clients = Object.fromEntries(
    await Promise.all(BINDINGS.map(async (b) => [b, await sdkClient(server.baseUrl, b, { tap: taps[b] })] as const)),
  ) as Record<Binding, Client>;
  const sender = clients[sendBinding];
  const first = await sender.sendMessage(
    sendRequest(kind, options.text ?? "seal this exchange", options.requirement ?? REFERENCE_REQUIREMENT),
    EXTENSION_HEADER,
  );
  if ("messageId" in first) throw new Error(`kind ${kind} answered with a direct Message`);
  const send = taps[sendBinding].last(isSend);
  let paused: PausedRun | undefined;
  const settled = await pollUntil(sender, first.id, TERMINAL_OR_PAUSED);
  if ((settled.status as { state?: string }).state === INPUT_REQUIRED) {
    const waiting = await getTaskOverEach(clients, taps, first.id, sendBinding);
    const resume = resumeRequest(
      kind,
      { id: first.id, contextId: options.resumeWithoutContext ? "" : String(settled.contextId) },
      options.resumeText,
    );
    const resumed = await sender.sendMessage(resume, EXTENSION_HEADER);
    if ("messageId" in resumed) throw new Error(`kind ${kind} answered the resumption with a direct Message`);
    const exchange = taps[sendBinding].last(isSend);
    paused = {
      getTask: waiting,
      resumeMessageId: resume.message.messageId,
      resumeRequestBody: exchange.requestBody ?? "",
      resumeResponse: await exchange.body,
    };
    await pollToTerminal(sender, first.id);
  }
  return {
    taskId: first.id,
    firstTask: Task.toJSON(first) as Record<string, unknown>,
    sendResponse: await send.body,
    activatedHeader: send.responseHeaders["a2a-extensions"],
    getTask: await getTaskOverEach(clients, taps, first.id, sendBinding),
    ...(paused ? { paused } : {}),
  };
}

/** `metadata[EXT]` of a wire-JSON Task. */
export function extensionMetadata(task: Record<string, unknown>): Record<string, unknown> | undefined {
  return (task.metadata as Record<string, Record<string, unknown>> | undefined)?.[EXTENSION_URI];
}

export interface StreamEvent {
  readonly event: string;
  readonly payload: Record<string, unknown>;
}

/**
 * The StreamResponses of a raw SSE body: JSON-RPC frames carry `{jsonrpc, id, result}`, REST
 * frames the bare StreamResponse (a2a-wire.md §2.5). Only what this test needs; folding a stream
 * into a Task is the verifier's business, not the test's.
 */
export function streamEvents(body: Uint8Array): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (const frame of new TextDecoder().decode(body).split(/\r?\n\r?\n/)) {
    let event = "message";
    const data: string[] = [];
    for (const line of frame.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length === 0) continue;
    const json = JSON.parse(data.join("\n")) as Record<string, unknown>;
    out.push({ event, payload: (json.jsonrpc === "2.0" ? json.result : json) as Record<string, unknown> });
  }
  return out;
}
