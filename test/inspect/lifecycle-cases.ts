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
import { vectorInput } from "../helpers/vector-input.js";
import { at, copy } from "../properties/harness.js";
import { agent, user } from "../helpers/messages.js";

export interface LifecycleCase {
  readonly name: string;
  /** The input's bytes, as a file holds them. */
  readonly data: Uint8Array;
  readonly trust?: Uint8Array;
  readonly interim?: readonly Uint8Array[];
}

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

/** A pause for input, resumed by a Message that may name the Task and context differently. */
function resumedBy(resume: Partial<MessageSpec>): ExchangeOptions {
  const transcript: TranscriptSpec[] = [
    user("inspect input 0", "Book a table for two tonight."),
    agent("inspect input 1", "At 19:00 or 21:00?"),
    { transition: { from: "TASK_STATE_WORKING", to: "TASK_STATE_INPUT_REQUIRED" } },
    { ...user("inspect input 2", "21:00."), ...resume },
    { transition: { from: "TASK_STATE_INPUT_REQUIRED", to: "TASK_STATE_WORKING" } },
    agent("inspect input 3", "Booked for 21:00."),
  ];
  return {
    envelope: "jsonrpc",
    taskId: uuidFromLabel("inspect input task"),
    contextId: uuidFromLabel("inspect input context"),
    transcript,
    artifacts: [],
    leavesBefore: 1,
  };
}

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
    out.push({
      name: `${name}, its interim records as --interim files`,
      data: file(rest as JsonObject),
      trust: readFileSync(join(vectors, name, "trust.json")),
      interim: interimBundles.map(file),
    });
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
    return {
      name: `--interim: the paused Task with ${name}`,
      data: file(terminal.input),
      trust: file(terminal.trust),
      interim: [file(task)],
    };
  };
  const first = copy(pausedTask);
  first.status = { state: "TASK_STATE_SUBMITTED" } as never;
  first.history = [copy((pausedTask.history as JsonValue[])[0] as JsonObject)] as never;
  delete first.artifacts;
  const ids = { taskId: pausedTask.id, contextId: pausedTask.contextId };
  const updates = (pausedTask.artifacts as JsonObject[]).map((a) => ({
    artifactUpdate: { ...ids, artifact: copy(a) },
  }));
  const sse = [{ task: first }, ...updates, { statusUpdate: { ...ids, status: copy(at(pausedTask, "status")) } }]
    .map((e) => `data: ${jsonText(copy(e as never)).replace(/\n\s*/g, "")}\n\n`)
    .join("");
  const other = buildPausedExchange({ ...PAUSED, taskId: uuidFromLabel("inspect other task") })
    .interimBundles[0] as JsonObject;
  // GetTask with historyLength: the oldest Messages, the request among them, are not returned.
  const truncated = copy(terminal.input);
  at(truncated, "result").history = (at(truncated, "result").history as JsonValue[]).slice(2) as never;
  return [
    ...asInterimFiles(),
    {
      name: "--interim: the interim bundle",
      data: file(terminal.input),
      trust: file(terminal.trust),
      interim: [file(paused.interimBundles[0] as JsonObject)],
    },
    {
      name: "--interim: the paused Task's GetTask response",
      data: file(terminal.input),
      trust: file(terminal.trust),
      interim: [file(paused.input as JsonObject)],
    },
    {
      name: "--interim: the paused Task",
      data: file(terminal.input),
      trust: file(terminal.trust),
      interim: [file(pausedTask)],
    },
    {
      name: "--interim: the paused Task as an SSE stream",
      data: file(terminal.input),
      trust: file(terminal.trust),
      interim: [utf8(sse)],
    },
    {
      name: "--interim: a record of another Task beside the cited one",
      data: file(terminal.input),
      trust: file(terminal.trust),
      interim: [file(paused.interimBundles[0] as JsonObject), file(other)],
    },
    changed(
      "an effect it does not record",
      (t) =>
        void (
          (t.artifacts as JsonValue[]).unshift(copy(at(t, "artifacts", 0))),
          (at(t, "artifacts", 0).artifactId = "another-effect")
        ),
    ),
    changed("an effect with other content", (t) => void (at(t, "artifacts", 0, "parts", 0).text = "100 EUR = 200 USD")),
    changed(
      "a Message it does not record",
      (t) =>
        void (
          (t.history as JsonValue[]).push(copy(at(t, "history", 0))),
          (at(t, "history", 2).messageId = "another-message")
        ),
    ),
    changed("a Message with other content", (t) => void (at(t, "history", 1, "parts", 0).text = "Confirm by SMS.")),
    changed("Messages in another order", (t) => void (t.history as JsonValue[]).reverse()),
    changed("another state", (t) => void (at(t, "status").state = "TASK_STATE_INPUT_REQUIRED")),
    changed("another Task", (t) => void (t.id = "another-task")),
    {
      name: "a truncated history: the request a transition is bound to is not observed",
      data: file(truncated),
      trust: file(terminal.trust),
      interim: [file(paused.interimBundles[0] as JsonObject)],
    },
    {
      name: "a resuming Message that names the Task and no context",
      data: file(buildExchange(resumedBy({ contextId: "" })).input),
      trust: file(buildExchange(resumedBy({ contextId: "" })).trust),
    },
    {
      name: "a resuming Message that names the context and no Task",
      data: file(buildExchange(resumedBy({ taskId: "" })).input),
      trust: file(buildExchange(resumedBy({ taskId: "" })).trust),
    },
    { name: "a pending Task as a capture", data: file({ finalTask: pausedTask }), trust: file(paused.trust) },
    {
      name: "a pending Task, with another record given by --interim",
      data: file(paused.input),
      trust: file(paused.trust),
      interim: [file(other)],
    },
  ];
}

const MUTATION_VALUES: unknown[] = [
  null,
  0,
  2,
  -1,
  1.5,
  "",
  "x",
  [],
  {},
  true,
  "a".repeat(64),
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_WORKING",
  "transition",
];

/**
 * A fixed-seed walk of one to three changes each — a member removed, replaced by a value of
 * another type or a neighbouring one, an array entry repeated or moved — anywhere in a lifecycle
 * input: the Task, the terminal bundle (re-encoded in its raw part, nothing re-signed), an interim
 * record, an --interim file. The bases are the lifecycle vectors and the --interim cases above;
 * streams are left to the fuzz suite, which changes them event by event.
 */
export function changedLifecycleCases(runs: number, startSeed: number): LifecycleCase[] {
  let seed = startSeed;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const paths = (v: unknown, p: (string | number)[] = [], out: (string | number)[][] = []) => {
    out.push(p);
    if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) paths(x, [...p, Array.isArray(v) ? Number(k) : k], out);
    return out;
  };
  const change = (root: Record<string, unknown>): void => {
    const all = paths(root).filter((p) => p.length > 1);
    const path = all[rnd(all.length)] as (string | number)[];
    let parent = root as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const k = path[path.length - 1] as string | number;
    const op = rnd(4);
    if (op === 0 && !Array.isArray(parent)) delete parent[k];
    else if (op === 1 && Array.isArray(parent)) parent.push(structuredClone(parent[k as number]));
    else if (op === 2 && Array.isArray(parent) && parent.length > 1) {
      const j = rnd(parent.length);
      [parent[k as number], parent[j]] = [parent[j], parent[k as number]];
    } else parent[k] = structuredClone(MUTATION_VALUES[rnd(MUTATION_VALUES.length)]);
  };
  const vectors = join(REPO_ROOT, "vectors");
  const bases: LifecycleCase[] = [
    ...readdirSync(vectors)
      .filter(
        (n) =>
          /lifecycle|interim|transition|resumption|trace|pending/.test(n) && existsSync(join(vectors, n, "input.json")),
      )
      .sort()
      .map((name) => ({
        name,
        data: vectorInput(join(vectors, name)) as Uint8Array,
        trust: readFileSync(join(vectors, name, "trust.json")),
      })),
    ...lifecycleCases().filter((c) => c.interim !== undefined && c.interim.every((f) => f[0] === 0x7b)),
  ];
  const decode = (d: Uint8Array) => JSON.parse(Buffer.from(d).toString("utf8"));
  const out: LifecycleCase[] = [];
  for (let i = 0; i < runs; i++) {
    const base = bases[rnd(bases.length)] as LifecycleCase;
    const input = decode(base.data) as Record<string, unknown>;
    const task = ((input.finalTask ?? input.result ?? input) as { artifacts?: { parts?: { raw?: unknown }[] }[] })
      .artifacts;
    const part = task?.map((a) => a.parts?.[0]).find((p) => typeof p?.raw === "string");
    const root: Record<string, unknown> = {
      input,
      ...(part ? { bundle: decode(Buffer.from(part.raw as string, "base64")) } : {}),
      interim: (base.interim ?? []).map(decode),
    };
    for (let m = 0, n = 1 + rnd(3); m < n; m++) change(root);
    if (part && typeof part === "object" && root.bundle !== undefined)
      part.raw = Buffer.from(JSON.stringify(root.bundle)).toString("base64");
    if (root.input === undefined || !Array.isArray(root.interim)) continue;
    const interim = (root.interim as unknown[]).map((x) => utf8(JSON.stringify(x) ?? "null"));
    out.push({
      name: `${base.name} #${i}`,
      data: utf8(JSON.stringify(root.input)),
      ...(base.trust ? { trust: base.trust } : {}),
      ...(interim.length > 0 ? { interim } : {}),
    });
  }
  return out;
}
