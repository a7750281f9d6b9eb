/**
 * `a2a-evidence fetch`: the only networked command. It saves what a live A2A server returns, as
 * the exact bytes received, for `verify` to judge offline:
 *
 *   - GetTask (`--task-id`): the raw response body (a JSON-RPC envelope, or the REST Task; over
 *     gRPC, the binary Task message);
 *   - send mode (`--send --text`): SendMessage, non-blocking, with the caller's evidence
 *     requirement; the first Task is recorded (only it shows the acceptance — GetTask never does),
 *     GetTask is polled a bounded number of times to a terminal state, and the capture
 *     `{"request": …, "firstTask": …, "finalTask": …}` is written: the Message as sent, then the
 *     two responses' own bytes (over gRPC, their ProtoJSON as the verifier reads them, with the
 *     binary answers saved beside it as `<file>.first.binpb` and `<file>.final.binpb`). A Task
 *     whose copy of that Message is another Message (a weaker
 *     requirement, another request) is saved all the same, reported, and exits 1.
 *
 * Beside the output, `<file>.fetch.json` records each exchange: URL, binding, headers sent
 * (credentials redacted), HTTP status, content type, the `A2A-Extensions` header received, size
 * and SHA-256. Exactly the URL given is contacted; a redirect is an error, never followed. Which
 * interface an Agent Card names, and how a URL is read for a binding: fetch-endpoint.ts.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { type Command, Option } from "commander";
import { parseStrictJson } from "../json/strict-json.js";
import { isJsonObject, member, type JsonObject } from "../json/value.js";
import { EVIDENCE_LEVELS, EXTENSION_URI, RECORD_PROFILE_V1, REQUIREMENTS } from "../profile.js";
import { fail, ok, type Result } from "../result.js";
import { DEFAULT_HTTP_LIMITS, type HttpDeps, type HttpLimits } from "../net/http.js";
import {
  getTask,
  isTerminalState,
  sendMessage,
  taskState,
  type Binding,
  type CallContext,
  type CallResult,
  type Endpoint,
  type ExchangeRecord,
} from "../net/a2a.js";
import { taskCopyDifference } from "../net/request-copy.js";
import { getTaskGrpc, readProto, sendMessageGrpc } from "../net/a2a-grpc.js";
import { messageBytes } from "../net/proto-write.js";
import { protoJsonText } from "../net/proto-json.js";
import { MESSAGE } from "../input/protobuf/schema.js";
import { TOOL_VERSION } from "../version.js";
import { printable } from "../util/printable.js";
import { onlyOnce, overwriteMessage, readFileAt, wrapHelp, type CliIo, type CommandContext } from "./io.js";
import { BINDINGS, endpointFromCard, FetchUsage, target, type CardChoice } from "./fetch-endpoint.js";

export interface FetchFlags {
  url?: string;
  binding?: string;
  card?: string;
  taskId?: string;
  send?: boolean;
  text?: string;
  requireEvidence: string;
  minEvidence: string;
  maxRegistrationDelay: string;
  tenant?: string;
  historyLength?: string;
  polls: string;
  pollInterval: string;
  connectTimeout: string;
  timeout: string;
  header: string[];
  output: string;
  quiet?: boolean;
}

/** What a test replaces: name resolution, the wait between polls, the new Message's id. */
export interface FetchDeps extends HttpDeps {
  readonly sleep?: (ms: number) => Promise<void>;
  readonly messageId?: () => string;
}

const MAX_POLLS = 1000;

function integer(value: string, name: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new FetchUsage(`${name}: expected an integer in ${min}..${max}, got "${value}"`);
  return Number(value);
}

function parseHeaders(list: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(h);
    if (!m) throw new FetchUsage(`--header: expected "Name: value", got "${h}"`);
    const name = m[1] as string;
    if (/^(a2a-version|a2a-extensions|content-type|content-length|host)$/i.test(name))
      throw new FetchUsage(`--header: ${name} is set by fetch itself`);
    out[name] = m[2] as string;
  }
  return out;
}

/** The interface to call; from a card, also which entry it is and what the caller is told about the choice. */
async function resolveEndpoint(flags: FetchFlags): Promise<{ ep: Endpoint; card?: CardChoice }> {
  const binding = flags.binding === undefined ? undefined : BINDINGS[flags.binding];
  if (flags.binding !== undefined && !binding)
    throw new FetchUsage(`--binding: expected jsonrpc, rest or grpc, got "${flags.binding}"`);
  if (flags.card !== undefined && flags.url !== undefined) throw new FetchUsage("give --url or --card, not both");
  if (flags.card !== undefined) {
    const card = await endpointFromCard(flags.card, binding);
    const ep = card.endpoint;
    return { ep: flags.tenant !== undefined ? { ...ep, tenant: flags.tenant } : ep, card };
  }
  if (flags.url === undefined)
    throw new FetchUsage(
      "give the server: --url <interface URL> --binding jsonrpc|rest|grpc, or --card <Agent Card file>",
    );
  if (!binding) throw new FetchUsage("--url needs --binding jsonrpc|rest|grpc");
  const url = target(flags.url, binding, "--url");
  return { ep: { url, binding, ...(flags.tenant ? { tenant: flags.tenant } : {}) } };
}

function requirementMessage(flags: FetchFlags, messageId: string): JsonObject {
  if (!(REQUIREMENTS as readonly string[]).includes(flags.requireEvidence))
    throw new FetchUsage(`--require-evidence: expected REQUIRED or PREFERRED, got "${flags.requireEvidence}"`);
  if (!(EVIDENCE_LEVELS as readonly string[]).includes(flags.minEvidence))
    throw new FetchUsage(`--min-evidence: expected one of ${EVIDENCE_LEVELS.join(", ")}, got "${flags.minEvidence}"`);
  const delay = integer(flags.maxRegistrationDelay, "--max-registration-delay", 0, 86_400 * 365);
  if (flags.text === undefined) throw new FetchUsage("--send needs the message text: --text <text>");
  const requirement = {
    requirement: flags.requireEvidence,
    recordProfile: RECORD_PROFILE_V1,
    minimumEvidence: flags.minEvidence,
    deliveryModes: ["EVIDENCE_ARTIFACT"],
    maximumRegistrationDelaySeconds: delay,
    requireTask: true,
  };
  return {
    messageId,
    role: "ROLE_USER",
    parts: [{ text: flags.text, mediaType: "text/plain" }],
    extensions: [EXTENSION_URI],
    metadata: { [EXTENSION_URI]: requirement },
  } as unknown as JsonObject;
}

interface Saved {
  readonly bytes: Uint8Array;
  readonly exchanges: readonly ExchangeRecord[];
  readonly summary: string;
  readonly polls?: number;
  /** Where the server's copy of the Message sent differs from it (send mode): saved, then exit 1. */
  readonly mismatch?: string;
  /** gRPC send mode: each answer's exact protobuf bytes, written beside the capture (suffix → bytes). */
  readonly raw?: Readonly<Partial<Record<RawSuffix, Uint8Array>>>;
}

/** The files beside a gRPC capture: SendMessage's and the terminal GetTask's answers, exactly as sent. */
const RAW_SUFFIXES = { firstTask: ".first.binpb", finalTask: ".final.binpb" } as const;
type RawSuffix = keyof typeof RAW_SUFFIXES;

/** GetTask and SendMessage on the endpoint's binding. */
function callsFor(ep: Endpoint): { getTask: typeof getTask; sendMessage: typeof sendMessage } {
  return ep.binding === "grpc" ? { getTask: getTaskGrpc, sendMessage: sendMessageGrpc } : { getTask, sendMessage };
}

async function fetchOnce(
  ep: Endpoint,
  taskId: string,
  ctx: CallContext,
  historyLength: number | undefined,
): Promise<Result<Saved>> {
  const r = await callsFor(ep).getTask(ep, taskId, ctx, historyLength !== undefined ? { historyLength } : {});
  if (!r.ok) return r;
  return ok({
    bytes: r.value.body,
    exchanges: [r.value.record],
    summary: `Task ${taskId} in ${taskState(r.value.payload.value) ?? "no state"}`,
  });
}

const enc = new TextEncoder();

/**
 * A capture member: over JSON-RPC and REST the response's own bytes; over gRPC, whose answers are
 * protobuf, the ProtoJSON the verifier's strict protobuf reader gives for them (the raw bundle
 * bytes as carried; the binary answers themselves are saved beside the capture).
 */
function memberBytes(binding: Binding, answer: CallResult): Uint8Array {
  return binding === "grpc" ? enc.encode(protoJsonText(answer.payload.value)) : answer.payload.bytes;
}

/**
 * `{"request":<sent>,"firstTask":<bytes>,"finalTask":<bytes>}`: the Message as sent, then the
 * responses (a Message reply stands as firstTask).
 */
function captureBytes(
  binding: Binding,
  request: Uint8Array,
  first: CallResult,
  final: CallResult | undefined,
): Uint8Array {
  const parts: Uint8Array[] = [
    enc.encode('{"request":'),
    request,
    enc.encode(',"firstTask":'),
    memberBytes(binding, first),
  ];
  if (final) parts.push(enc.encode(',"finalTask":'), memberBytes(binding, final));
  parts.push(enc.encode("}\n"));
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * The Message as it goes on the wire, and its text for the capture's `request`: the JSON body's
 * own text, or over gRPC the Message's protobuf bytes read back by the strict reader, so the
 * request recorded is the one the server received.
 */
function sentRequest(binding: Binding, message: JsonObject): { text: Uint8Array; value: JsonObject } {
  let text = enc.encode(JSON.stringify(message));
  if (binding === "grpc") {
    const read = readProto(messageBytes(message), MESSAGE, "the Message fetch sends");
    if (!read.ok) throw new Error(read.detail);
    text = enc.encode(protoJsonText(read.value));
  }
  const sent = parseStrictJson(text);
  if (!sent.ok || !isJsonObject(sent.value)) throw new Error("the Message fetch builds is not strict JSON");
  return { text, value: sent.value };
}

/** What differs between the Message sent and the Task's copy of it, as one line; undefined when they agree. */
function copyMismatch(which: string, sent: JsonObject, answer: CallResult, historyCut: boolean): string | undefined {
  const d = taskCopyDifference(sent, answer.payload.value, { historyCut });
  return d && `${which}'s copy of the Message sent (${d.at}) is not that Message: ${d.detail}`;
}

/** The saved exchange: the capture, and over gRPC the answers' exact bytes beside it. */
function savedCapture(
  ep: Endpoint,
  request: Uint8Array,
  first: CallResult,
  final: CallResult | undefined,
  rest: Omit<Saved, "bytes" | "raw">,
): Saved {
  const raw =
    ep.binding === "grpc" ? { firstTask: first.body, ...(final ? { finalTask: final.body } : {}) } : undefined;
  return { ...rest, bytes: captureBytes(ep.binding, request, first, final), ...(raw ? { raw } : {}) };
}

/** Send mode's Message and poll bounds, checked before anything is sent (a usage error throws). */
interface SendPlan {
  readonly message: JsonObject;
  readonly sent: { text: Uint8Array; value: JsonObject };
  readonly polls: number;
  readonly interval: number;
}

function planSend(ep: Endpoint, flags: FetchFlags, deps: FetchDeps): SendPlan {
  const message = requirementMessage(flags, (deps.messageId ?? randomUUID)());
  return {
    message,
    sent: sentRequest(ep.binding, message),
    polls: integer(flags.polls, "--polls", 1, MAX_POLLS),
    interval: integer(flags.pollInterval, "--poll-interval", 0, 60_000),
  };
}

async function sendAndPoll(
  ep: Endpoint,
  { message, sent, polls, interval }: SendPlan,
  ctx: CallContext,
  deps: FetchDeps,
  historyLength: number | undefined,
): Promise<Result<Saved>> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const calls = callsFor(ep);
  const first = await calls.sendMessage(ep, message, ctx);
  if (!first.ok) return first;
  if (first.value.payload.kind === "message") {
    return ok(
      savedCapture(ep, sent.text, first.value, undefined, {
        exchanges: [first.value.record],
        summary: "the server answered with a direct Message, not a Task (no evidence to poll for)",
      }),
    );
  }
  const firstCopy = copyMismatch("the first Task", sent.value, first.value, false);
  const taskId = member(first.value.payload.value, "id") as string;
  let last: CallResult | undefined;
  for (let n = 1; n <= polls; n++) {
    if (n > 1) await sleep(interval);
    const r = await calls.getTask(ep, taskId, ctx, historyLength !== undefined ? { historyLength } : {});
    if (!r.ok) return r;
    last = r.value;
    const state = taskState(r.value.payload.value);
    if (isTerminalState(state)) {
      const mismatch = firstCopy ?? copyMismatch("the final Task", sent.value, r.value, historyLength !== undefined);
      return ok(
        savedCapture(ep, sent.text, first.value, r.value, {
          exchanges: [first.value.record, r.value.record],
          summary: `Task ${taskId} reached ${state} after ${n} GetTask poll${n === 1 ? "" : "s"}`,
          polls: n,
          ...(mismatch ? { mismatch } : {}),
        }),
      );
    }
    if (state === "TASK_STATE_INPUT_REQUIRED" || state === "TASK_STATE_AUTH_REQUIRED") {
      return fail("NET_NOT_TERMINAL", `Task ${taskId} is waiting (${state}); fetch captures one-shot Tasks only`);
    }
  }
  return fail(
    "NET_NOT_TERMINAL",
    `Task ${taskId} is still ${last ? (taskState(last.payload.value) ?? "without a state") : "unknown"} after ${polls} GetTask polls`,
  );
}

/** The files a gRPC capture's answers are written to, beside the output. */
function rawPaths(saved: Saved, output: string): Partial<Record<RawSuffix, string>> {
  return Object.fromEntries(Object.keys(saved.raw ?? {}).map((k) => [k, `${output}${RAW_SUFFIXES[k as RawSuffix]}`]));
}

/** Where the interface called came from, when an Agent Card named it: the file and the entry. */
type CardSource = { readonly file: string; readonly interface: string } | undefined;

function sidecar(ep: Endpoint, card: CardSource, mode: "get" | "send", saved: Saved, output: string): string {
  const doc = {
    sidecarVersion: 1,
    tool: { name: "a2a-evidence", version: TOOL_VERSION },
    mode,
    url: ep.url.href,
    binding: ep.binding,
    ...(ep.tenant ? { tenant: ep.tenant } : {}),
    ...(card ? { card } : {}),
    output,
    ...(saved.raw ? { rawAnswers: rawPaths(saved, output) } : {}),
    ...(saved.polls !== undefined ? { polls: saved.polls } : {}),
    exchanges: saved.exchanges,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Neither the output nor the files beside it may be the Agent Card file fetch reads (nor one another). */
function refuseOverwrite(flags: FetchFlags): void {
  const beside: [string, string][] = [[`${flags.output}.fetch.json`, "the sidecar"]];
  if (flags.send === true)
    for (const suffix of Object.values(RAW_SUFFIXES)) beside.push([`${flags.output}${suffix}`, "a gRPC answer"]);
  for (const [written, what] of [[flags.output, "the response"], ...beside] as const) {
    const read = readFileAt(written, [flags.card]);
    if (read !== undefined) throw new FetchUsage(overwriteMessage("-o", written, read, what));
  }
}

/** Writes the output, the gRPC answers beside it, and the sidecar. */
function writeSaved(ep: Endpoint, card: CardSource, flags: FetchFlags, saved: Saved): void {
  writeFileSync(flags.output, saved.bytes);
  const paths = rawPaths(saved, flags.output);
  for (const [k, path] of Object.entries(paths)) writeFileSync(path, saved.raw?.[k as RawSuffix] as Uint8Array);
  const mode = flags.send === true ? "send" : "get";
  writeFileSync(`${flags.output}.fetch.json`, sidecar(ep, card, mode, saved, flags.output));
}

export async function runFetch(flags: FetchFlags, io: CliIo, deps: FetchDeps = {}): Promise<number> {
  let ep: Endpoint;
  let card: CardSource;
  let saved: Result<Saved>;
  try {
    if ((flags.taskId === undefined) === (flags.send !== true))
      throw new FetchUsage(
        "give exactly one of --task-id <id> (GetTask) or --send --text <text> (SendMessage, then poll)",
      );
    if (flags.send !== true && flags.text !== undefined) throw new FetchUsage("--text is for --send");
    refuseOverwrite(flags);
    const resolved = await resolveEndpoint(flags);
    ep = resolved.ep;
    card = resolved.card && { file: flags.card as string, interface: resolved.card.entry };
    const limits: HttpLimits = {
      ...DEFAULT_HTTP_LIMITS,
      connectTimeoutMs: integer(flags.connectTimeout, "--connect-timeout", 1, 600_000),
      totalTimeoutMs: integer(flags.timeout, "--timeout", 1, 3_600_000),
    };
    const ctx: CallContext = { limits, deps, headers: parseHeaders(flags.header) };
    const historyLength =
      flags.historyLength !== undefined ? integer(flags.historyLength, "--history-length", 0, 1_000_000) : undefined;
    const plan = flags.send === true ? planSend(ep, flags, deps) : undefined;
    // Every option checked: say which of the card's interfaces is called, and over which binding.
    if (!flags.quiet)
      for (const line of resolved.card?.lines ?? []) io.stderr(`a2a-evidence: fetch: ${printable(line)}\n`);
    saved = plan
      ? await sendAndPoll(ep, plan, ctx, deps, historyLength)
      : await fetchOnce(ep, flags.taskId as string, ctx, historyLength);
  } catch (e) {
    if (!(e instanceof FetchUsage)) throw e;
    io.stderr(`a2a-evidence: fetch: ${printable(e.message)}\n`);
    return 2;
  }
  // What the server said (error messages, the Task id and state it assigned) is the server's text:
  // written to a terminal or a CI log, a control character or line break in it could rewrite the
  // screen or start a workflow command of its own.
  if (!saved.ok) {
    io.stderr(
      `a2a-evidence: fetch: ${saved.code}: ${printable(saved.detail)}${saved.path ? ` (at ${printable(saved.path)})` : ""}\n`,
    );
    return 2;
  }
  const sidecarPath = `${flags.output}.fetch.json`;
  try {
    writeSaved(ep, card, flags, saved.value);
  } catch (e) {
    io.stderr(
      `a2a-evidence: fetch: cannot write ${printable(flags.output)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`,
    );
    return 2;
  }
  if (!flags.quiet)
    io.stdout(
      `saved ${printable(flags.output)} (${saved.value.bytes.length} bytes over ${ep.binding}): ${printable(saved.value.summary)}; sidecar ${printable(sidecarPath)}\n`,
    );
  if (saved.value.mismatch === undefined) return 0;
  // Saved all the same: the capture's "request" is what was sent, so verify FAILs the server's copy.
  io.stderr(
    `a2a-evidence: fetch: ${printable(saved.value.mismatch)}; saved with the Message sent as "request" (verify FAILs it: taskBinding transcript.request)\n`,
  );
  return 1;
}

/** Every option but --header (repeatable) and the switches takes one value: a second would silently replace the first. */
const ONCE = [
  "--url",
  "--binding",
  "--card",
  "--tenant",
  "--task-id",
  "--text",
  "--require-evidence",
  "--min-evidence",
  "--max-registration-delay",
  "--history-length",
  "--polls",
  "--poll-interval",
  "--connect-timeout",
  "--timeout",
  "--output",
];

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Adds `fetch` to the program; its exit code goes to `ctx.setExit` (0 saved, 1 saved but the server's copy differs, 2 could not fetch). */
export function registerFetchCommand(program: Command, ctx: CommandContext, deps: FetchDeps = {}): Command {
  const command = program
    .command("fetch")
    .summary("capture a Task from a live server (networked)")
    .description(
      "the only networked command: GetTask (or SendMessage, then GetTask polled to a terminal state) from a live A2A server, saving the exact response bytes for verify",
    )
    .option("--url <url>", "the A2A interface URL, exactly (no redirect is followed)")
    .addOption(
      new Option("--binding <binding>", "the interface's protocol binding").choices(["jsonrpc", "rest", "grpc"]),
    )
    .option(
      "--card <file>",
      "take the URL and binding from this Agent Card file: its first interface, in the card's order, that fetch can call (A2A 1.x JSONRPC, HTTP+JSON or GRPC), named on stderr",
    )
    .option("--tenant <id>", "the tenant to address")
    .option("--task-id <id>", "GetTask this Task")
    .option(
      "--send",
      "SendMessage (non-blocking) with the evidence requirement, then poll GetTask; saves a capture {request, firstTask, finalTask}",
    )
    .option("--text <text>", "the message text for --send")
    .addOption(
      new Option("--require-evidence <requirement>", "the requirement --send states")
        .choices(["REQUIRED", "PREFERRED"])
        .default("REQUIRED"),
    )
    .addOption(
      new Option("--min-evidence <level>", "the minimum evidence level --send asks for")
        .choices([...EVIDENCE_LEVELS])
        .default("SIGNED_RECORD"),
    )
    .option("--max-registration-delay <seconds>", "maximumRegistrationDelaySeconds --send asks for", "60")
    .option("--history-length <n>", "historyLength for GetTask")
    .option("--polls <n>", "at most this many GetTask polls in --send mode", "60")
    .option("--poll-interval <ms>", "milliseconds between polls", "500")
    .option("--connect-timeout <ms>", "connect timeout per request", String(DEFAULT_HTTP_LIMITS.connectTimeoutMs))
    .option("--timeout <ms>", "total timeout per request", String(DEFAULT_HTTP_LIMITS.totalTimeoutMs))
    .option(
      "--header <header>",
      'an extra request header "Name: value" (repeatable; credential values are redacted in the sidecar)',
      collect,
      [],
    )
    .requiredOption(
      "-o, --output <file>",
      "write the response bytes (or the capture) here; the sidecar goes to <file>.fetch.json",
    )
    .option("-q, --quiet", "no summary line")
    .addHelpText(
      "after",
      wrapHelp(
        "\nSends A2A-Version: 1.0 and A2A-Extensions: <evidence extension> (gRPC metadata a2a-version, a2a-extensions over --binding grpc, whose --url is host:port for TLS or http://host:port for cleartext). Body cap 16 MiB. Exit codes: 0 saved · 1 saved, but the server's copy of the Message --send sent is another Message (a weaker requirement, another request) · 2 could not fetch (refused, DNS, timeout, redirect, non-2xx, JSON-RPC error, gRPC status, oversize or non-JSON body, no terminal state).",
      ),
    )
    .action(async (flags: FetchFlags) => {
      ctx.setExit(await runFetch(flags, ctx.io, deps));
    });
  onlyOnce(command, ONCE);
  return command;
}
