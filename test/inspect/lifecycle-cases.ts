/**
 * Inputs beyond the shipped vectors that reach the lifecycle paths only `--interim` does: the
 * capture vectors' interim records passed as files instead, a terminal Task with the paused Task
 * its interim record came with (honest, and changed as interim.observed must catch), the paused
 * Task as a GetTask response and as an SSE stream, a record nobody cites, and a pending Task
 * with an earlier pause's record beside it. Built by the independent producer.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { utf8 } from "../../src/util/bytes.js";
import { uuidFromLabel, type MessageSpec } from "../../producer/a2a.js";
import { buildExchange, buildPausedExchange } from "../../producer/exchange.js";
import { jsonText } from "../../producer/json-text.js";
import type { ExchangeOptions, TranscriptSpec } from "../../producer/options.js";
import { REPO_ROOT } from "../helpers/external.js";
import { at, copy } from "../properties/harness.js";

export interface LifecycleCase {
  readonly name: string;
  /** The input's bytes, as a file holds them. */
  readonly data: Uint8Array;
  readonly trust?: Uint8Array;
  readonly interim?: readonly Uint8Array[];
}

const user = (label: string, text: string): MessageSpec => ({ messageId: uuidFromLabel(label), role: "ROLE_USER", parts: [text] });
const agent = (label: string, text: string): MessageSpec => ({ messageId: uuidFromLabel(label), role: "ROLE_AGENT", parts: [text] });
const TRANSCRIPT: TranscriptSpec[] = [
  user("inspect 0", "Send 100 EUR to Bob."),
  agent("inspect 1", "Confirm with your bank login."),
  { transition: { from: "TASK_STATE_WORKING", to: "TASK_STATE_AUTH_REQUIRED" } },
  { transition: { from: "TASK_STATE_AUTH_REQUIRED", to: "TASK_STATE_WORKING" }, bound: false },
  agent("inspect 2", "Sent."),
];
/** A Task with an effect done before its pause, so a paused Task has one to drop or change. */
const BASE: ExchangeOptions = {
  envelope: "jsonrpc",
  taskId: uuidFromLabel("inspect task"),
  contextId: uuidFromLabel("inspect context"),
  transcript: TRANSCRIPT,
  artifacts: [
    { artifactId: uuidFromLabel("inspect quote"), name: "quote", parts: ["100 EUR = 108 USD"], after: 0 },
    { artifactId: uuidFromLabel("inspect transfer"), name: "transfer", parts: ["100 EUR to Bob"], after: 4 },
  ],
  leavesBefore: 2,
  interim: [{ at: 2 }],
};
const PAUSED: ExchangeOptions = { ...BASE, envelope: "paused", transcript: TRANSCRIPT.slice(0, 3) };

const file = (v: JsonValue) => utf8(jsonText(v));

/** Every shipped capture vector with interim records, those records passed with --interim instead. */
function asInterimFiles(): LifecycleCase[] {
  const vectors = join(REPO_ROOT, "vectors");
  const out: LifecycleCase[] = [];
  for (const name of readdirSync(vectors).sort()) {
    const path = join(vectors, name, "input.json");
    if (!existsSync(path)) continue;
    const parsed = parseStrictJson(readFileSync(path));
    if (!parsed.ok || !isJsonObject(parsed.value) || !Array.isArray(parsed.value.interimBundles)) continue;
    const { interimBundles, ...rest } = parsed.value as JsonObject & { interimBundles: JsonValue[] };
    out.push({ name: `${name}, its interim records as --interim files`, data: file(rest as JsonObject), trust: readFileSync(join(vectors, name, "trust.json")), interim: interimBundles.map(file) });
  }
  return out;
}

export function lifecycleCases(): LifecycleCase[] {
  const terminal = buildExchange(BASE);
  const paused = buildPausedExchange(PAUSED);
  const pausedTask = paused.pausedTask;
  const changed = (name: string, change: (t: JsonObject) => void): LifecycleCase => {
    const task = copy(pausedTask);
    change(task);
    return { name: `--interim: the paused Task with ${name}`, data: file(terminal.input), trust: file(terminal.trust), interim: [file(task)] };
  };
  const first = copy(pausedTask);
  first.status = { state: "TASK_STATE_SUBMITTED" } as never;
  first.history = [copy((pausedTask.history as JsonValue[])[0] as JsonObject)] as never;
  delete first.artifacts;
  const ids = { taskId: pausedTask.id, contextId: pausedTask.contextId };
  const updates = (pausedTask.artifacts as JsonObject[]).map((a) => ({ artifactUpdate: { ...ids, artifact: copy(a) } }));
  const sse = [{ task: first }, ...updates, { statusUpdate: { ...ids, status: copy(at(pausedTask, "status")) } }]
    .map((e) => `data: ${jsonText(copy(e as never)).replace(/\n\s*/g, "")}\n\n`)
    .join("");
  const other = buildPausedExchange({ ...PAUSED, taskId: uuidFromLabel("inspect other task") }).interimBundles[0] as JsonObject;
  // GetTask with historyLength: the oldest Messages, the request among them, are not returned.
  const truncated = copy(terminal.input);
  at(truncated, "result").history = (at(truncated, "result").history as JsonValue[]).slice(2) as never;
  return [
    ...asInterimFiles(),
    { name: "--interim: the interim bundle", data: file(terminal.input), trust: file(terminal.trust), interim: [file(paused.interimBundles[0] as JsonObject)] },
    { name: "--interim: the paused Task's GetTask response", data: file(terminal.input), trust: file(terminal.trust), interim: [file(paused.input as JsonObject)] },
    { name: "--interim: the paused Task", data: file(terminal.input), trust: file(terminal.trust), interim: [file(pausedTask)] },
    { name: "--interim: the paused Task as an SSE stream", data: file(terminal.input), trust: file(terminal.trust), interim: [utf8(sse)] },
    { name: "--interim: a record of another Task beside the cited one", data: file(terminal.input), trust: file(terminal.trust), interim: [file(paused.interimBundles[0] as JsonObject), file(other)] },
    changed("an effect it does not record", (t) => void ((t.artifacts as JsonValue[]).unshift(copy(at(t, "artifacts", 0))), (at(t, "artifacts", 0).artifactId = "another-effect"))),
    changed("an effect with other content", (t) => void (at(t, "artifacts", 0, "parts", 0).text = "100 EUR = 200 USD")),
    changed("a Message it does not record", (t) => void ((t.history as JsonValue[]).push(copy(at(t, "history", 0))), (at(t, "history", 2).messageId = "another-message"))),
    changed("a Message with other content", (t) => void (at(t, "history", 1, "parts", 0).text = "Confirm by SMS.")),
    changed("Messages in another order", (t) => void (t.history as JsonValue[]).reverse()),
    changed("another state", (t) => void (at(t, "status").state = "TASK_STATE_INPUT_REQUIRED")),
    changed("another Task", (t) => void (t.id = "another-task")),
    { name: "a truncated history: the request a transition is bound to is not observed", data: file(truncated), trust: file(terminal.trust), interim: [file(paused.interimBundles[0] as JsonObject)] },
    { name: "a pending Task as a capture", data: file({ finalTask: pausedTask }), trust: file(paused.trust) },
    { name: "a pending Task, with another record given by --interim", data: file(paused.input), trust: file(paused.trust), interim: [file(other)] },
  ];
}
