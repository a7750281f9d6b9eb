/**
 * Local HTTP+JSON A2A servers on 127.0.0.1 that seal real evidence (the independent producer,
 * every signature valid) over a Task whose history shows the client's Message — as sent (honest),
 * with a weaker requirement in its metadata (weaker), or another request altogether (other), or as
 * sent but re-encoded the way a Python server writes it (reencoded: `60.0` for `60`) — the same
 * over gRPC (the @a2a-js/sdk service definition, answers as the SDK's codecs write them), and
 * the built CLI, run as a child process so that the servers in this process can answer it.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Message, Task } from "@a2a-js/sdk";
import { A2AService } from "@a2a-js/sdk/server/grpc";
import { EXTENSION_URI, RECORD_PROFILE } from "../../producer/constants.js";
import { plainJson, producerTrust, sealTaskEvidence, sealTimesAt } from "../../producer/seal.js";
import { REPO_ROOT } from "../helpers/external.js";

type Json = Record<string, unknown>;

export type CopyKind = "honest" | "weaker" | "other" | "reencoded";

const AUTHORITY = "request-copy.example";
/** No witness: the record reaches SIGNED_RECORD, which is what the weaker copy asks for. */
const SEAL = { authority: AUTHORITY, witnesses: [] } as const;
export const REQUEST_TRUST = producerTrust(SEAL);

export const BIN = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
export const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));

/** What the server shows as the Message it received. */
function shownMessage(kind: CopyKind, sent: Json): Json {
  if (kind === "honest" || kind === "reencoded") return sent;
  if (kind === "weaker") {
    const requirement = (sent.metadata as Json)[EXTENSION_URI] as Json;
    return { ...sent, metadata: { [EXTENSION_URI]: { ...requirement, minimumEvidence: "SIGNED_RECORD" } } };
  }
  return { ...sent, messageId: `other-${String(sent.messageId)}`, parts: [{ text: "post 500 EUR to ledger 9" }] };
}

/** The first and the terminal Task, sealed over the history the server shows. */
function tasks(kind: CopyKind, sent: Json): { first: Json; final: Json } {
  const id = "t-1";
  const contextId = "c-1";
  const shown = shownMessage(kind, sent);
  const copy = { ...shown, contextId, taskId: id };
  const requirement = (shown.metadata as Json)[EXTENSION_URI] as Json;
  const acceptance = {
    state: "ACCEPTED",
    recordProfile: RECORD_PROFILE,
    minimumEvidence: requirement.minimumEvidence,
    maximumRegistrationDelaySeconds: requirement.maximumRegistrationDelaySeconds,
  };
  const response = { artifactId: "response-t-1", name: "response", parts: [{ text: "DONE" }] };
  const sealed = sealTaskEvidence(
    { id, contextId, history: [copy], artifacts: [response] },
    { ...SEAL, ...sealTimesAt(new Date()), terminalState: "TASK_STATE_COMPLETED" },
  );
  return {
    first: {
      id,
      contextId,
      status: { state: "TASK_STATE_SUBMITTED" },
      history: [copy],
      metadata: { [EXTENSION_URI]: { evidenceAcceptance: acceptance, evidenceStatus: "EVIDENCE_STATUS_PENDING" } },
    },
    final: {
      id,
      contextId,
      status: { state: "TASK_STATE_COMPLETED" },
      history: [copy],
      artifacts: [response, plainJson(sealed.artifact)],
      metadata: { [EXTENSION_URI]: plainJson(sealed.reference) },
    },
  };
}

export interface RequestServer {
  readonly url: string;
  close(): Promise<void>;
}

/** An HTTP+JSON server at `<url>`: message:send answers with the first Task, GetTask with the terminal one. */
export async function startRequestServer(kind: CopyKind): Promise<RequestServer> {
  let made: { first: Json; final: Json } | undefined;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const reply = (status: number, value: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json" });
        const text = JSON.stringify(value);
        // A server whose JSON writes every number as a double: the same values, other lexemes.
        res.end(
          kind === "reencoded" ? text.replace(/("maximumRegistrationDelaySeconds":)(\d+)(?=[,}])/g, "$1$2.0") : text,
        );
      };
      if (req.method === "POST" && req.url?.endsWith("/message:send")) {
        made = tasks(kind, (JSON.parse(body) as { message: Json }).message);
        return reply(200, { task: made.first });
      }
      if (req.method === "GET" && made && req.url?.endsWith("/tasks/t-1")) return reply(200, made.final);
      reply(404, { error: { code: 404, status: "NOT_FOUND", message: "no such Task" } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/a2a`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The same server over gRPC on 127.0.0.1: SendMessage answers with the first Task, GetTask with
 * the terminal one; `url` is `http://127.0.0.1:<port>` (cleartext HTTP/2).
 */
export async function startGrpcRequestServer(kind: Exclude<CopyKind, "reencoded">): Promise<RequestServer> {
  let made: { first: Json; final: Json } | undefined;
  const server = new grpc.Server();
  type Unary = (call: grpc.ServerUnaryCall<never, never>, cb: grpc.sendUnaryData<unknown>) => void;
  const unimplemented: Unary = (_call, cb) => cb({ code: grpc.status.UNIMPLEMENTED, details: "not here" });
  const sendMessage: Unary = (call, cb) => {
    const request = call.request as { message: Parameters<typeof Message.toJSON>[0] };
    made = tasks(kind, Message.toJSON(request.message) as Json);
    cb(null, { payload: { $case: "task", value: Task.fromJSON(made.first) } });
  };
  const getTask: Unary = (call, cb) => {
    if (made && (call.request as { id: string }).id === "t-1") cb(null, Task.fromJSON(made.final));
    else cb({ code: grpc.status.NOT_FOUND, details: "no such Task" });
  };
  const handlers = Object.fromEntries(Object.keys(A2AService).map((k) => [k, unimplemented]));
  server.addService(A2AService, { ...handlers, sendMessage, getTask } as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { url: `http://127.0.0.1:${port}`, close: async () => server.forceShutdown() };
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built CLI in a child process (asynchronous: the servers answer from this process). */
export function runBuilt(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `fetch --send` against a server of this kind: the capture's path and the run. */
export async function fetchFrom(
  kind: CopyKind,
  minEvidence: string,
  binding: "rest" | "grpc" = "rest",
): Promise<{ capture: string; run: Run }> {
  const server =
    binding === "grpc" && kind !== "reencoded" ? await startGrpcRequestServer(kind) : await startRequestServer(kind);
  const capture = join(mkdtempSync(join(tmpdir(), "a2a-evidence-request-")), "capture.json");
  try {
    const run = await runBuilt([
      "fetch",
      ...["--url", server.url, "--binding", binding, "--send", "--text", "post 5 EUR to ledger 7"],
      ...["--min-evidence", minEvidence, "--poll-interval", "0", "-o", capture],
    ]);
    return { capture, run };
  } finally {
    await server.close();
  }
}

/** The trust file the servers' records verify under. */
export function trustFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), "a2a-evidence-request-trust-")), "trust.json");
  writeFileSync(path, JSON.stringify(plainJson(REQUEST_TRUST)));
  return path;
}
