/**
 * The gRPC binding end to end: the `@a2a-js/sdk` gRPC service (`@a2a-js/sdk/server/grpc` on
 * `@grpc/grpc-js`, 127.0.0.1, an ephemeral port) over the same request handler as the JSON-RPC
 * server. A raw grpc-js client with identity (de)serializers keeps the exact bytes of the
 * SendMessage, GetTask and SendStreamingMessage answers; the built CLI verifies them with the same
 * states and evidenceId as the same Task fetched over JSON-RPC.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as grpc from "@grpc/grpc-js";
import { GetTaskRequest, SendMessageRequest } from "@a2a-js/sdk";
import { A2AService } from "@a2a-js/sdk/server/grpc";
import type { Report } from "../../src/index.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { jsonText } from "../../producer/json-text.js";
import { REPO_ROOT } from "../helpers/external.js";
import { tempFile } from "../helpers/cli.js";
import { sendRequest } from "./client.js";
import { KIND_EXPECTATIONS } from "./expectations.js";
import { expectReport, MIN, TRUST } from "./reports.js";
import { startLiveServer, type LiveServer } from "./server.js";

const identity = (b: Buffer) => b;
/** COMPLETED, FAILED, CANCELED, REJECTED (a2a-wire.md §1.3). */
const TERMINAL = new Set([3, 4, 5, 7]);
const MAX_POLLS = 1000;

let server: LiveServer;
let client: grpc.Client;
beforeAll(async () => {
  server = await startLiveServer({ grpc: true });
  client = new grpc.Client(server.grpcAddress as string, grpc.credentials.createInsecure());
});
afterAll(async () => {
  client?.close();
  await server?.close();
});

/** The service parameters: the evidence extension, and A2A 1.0 (without it the SDK assumes 0.3). */
function extensionMetadata(): grpc.Metadata {
  const m = new grpc.Metadata();
  m.set("a2a-extensions", EXTENSION_URI);
  m.set("a2a-version", "1.0");
  return m;
}

function unary(method: string, request: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    client.makeUnaryRequest(
      `/lf.a2a.v1.A2AService/${method}`,
      identity,
      identity,
      request,
      extensionMetadata(),
      (e, b) => (e || !b ? reject(e ?? new Error("no answer")) : resolve(b)),
    ),
  );
}

/** The messages of a server stream, each framed as gRPC frames it on the wire. */
function serverStream(method: string, request: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const frames: Buffer[] = [];
    const call = client.makeServerStreamRequest(
      `/lf.a2a.v1.A2AService/${method}`,
      identity,
      identity,
      request,
      extensionMetadata(),
    );
    call.on("data", (m: Buffer) => {
      const header = Buffer.alloc(5);
      header.writeUInt32BE(m.length, 1);
      frames.push(header, m);
    });
    call.on("error", reject);
    call.on("end", () => resolve(Buffer.concat(frames)));
  });
}

/** A SendMessageRequest for the one-shot kind that returns at once (the first Task, with the acceptance). */
function sendMessageBytes(): Buffer {
  const r = sendRequest("one-shot", "seal this over grpc");
  return A2AService.sendMessage.requestSerialize(
    SendMessageRequest.fromJSON({
      ...(SendMessageRequest.toJSON(r as never) as Record<string, unknown>),
      configuration: { returnImmediately: true },
    }),
  );
}

const getTaskBytes = (id: string) =>
  unary("GetTask", A2AService.getTask.requestSerialize(GetTaskRequest.fromJSON({ id })));

async function terminalTask(id: string): Promise<Buffer> {
  for (let i = 0; i < MAX_POLLS; i++) {
    const b = await getTaskBytes(id);
    const state = A2AService.getTask.responseDeserialize(b).status?.state;
    if (TERMINAL.has(state ?? 0)) return b;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`task ${id} did not end in ${MAX_POLLS} polls`);
}

async function jsonRpcGetTask(id: string): Promise<string> {
  const r = await fetch(server.jsonRpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "A2A-Version": "1.0" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id } }),
  });
  return r.text();
}

/** The built CLI's JSON report of one input, with --first-task when given. */
function cli(
  name: string,
  data: Uint8Array | string,
  first?: Uint8Array | string,
): { status: number | null; report: Report } {
  const trust = tempFile("trust.json", jsonText(TRUST));
  const input = tempFile(name, data);
  const firstArgs = first === undefined ? [] : ["--first-task", tempFile(`first-${name}`, first)];
  const r = spawnSync(
    process.execPath,
    [
      join(REPO_ROOT, "bin", "a2a-evidence.cjs"),
      "verify",
      "--format",
      "json",
      "--trust",
      trust,
      "--min-evidence",
      MIN,
      ...firstArgs,
      input,
    ],
    { encoding: "utf8" },
  );
  expect(r.stderr).toBe("");
  return { status: r.status, report: JSON.parse(r.stdout) as Report };
}

const evidenceIdOf = (report: Report) => (report.inputs[0] as { evidenceId?: string }).evidenceId;

describe("a Task sent and fetched over gRPC", () => {
  const expected = KIND_EXPECTATIONS["one-shot"]!;
  let sendResponse: Buffer;
  let grpcTask: Buffer;
  let jsonTask: string;

  beforeAll(async () => {
    sendResponse = await unary("SendMessage", sendMessageBytes());
    const decoded = A2AService.sendMessage.responseDeserialize(sendResponse);
    if (decoded.payload?.$case !== "task") throw new Error("SendMessage did not answer with a Task");
    grpcTask = await terminalTask(decoded.payload.value.id);
    jsonTask = await jsonRpcGetTask(decoded.payload.value.id);
  });

  it("GetTask's binary Task, with SendMessage's binary answer as --first-task, verifies as the JSON-RPC Task does", () => {
    const overGrpc = cli("task.binpb", grpcTask, sendResponse);
    const overJsonRpc = cli("task.json", jsonTask, sendResponse);
    expect(overGrpc.status).toBe(expected.exitCode);
    expectReport(overGrpc.report, expected);
    expectReport(overJsonRpc.report, expected);
    expect(evidenceIdOf(overGrpc.report)).toMatch(/^[0-9a-f]{64}$/);
    expect(evidenceIdOf(overGrpc.report)).toBe(evidenceIdOf(overJsonRpc.report));
  });
});

describe("a Task streamed over gRPC (SendStreamingMessage)", () => {
  it("the length-prefixed StreamResponses fold and verify as GetTask's Task over JSON-RPC does", async () => {
    const expected = KIND_EXPECTATIONS["one-shot"]!;
    const stream = await serverStream("SendStreamingMessage", sendMessageBytes());
    const first = A2AService.sendStreamingMessage.responseDeserialize(stream.subarray(5, 5 + stream.readUInt32BE(1)));
    if (first.payload?.$case !== "task") throw new Error("the stream did not start with a Task");
    const overGrpc = cli("stream.grpc", stream);
    expect(overGrpc.status).toBe(expected.exitCode);
    expectReport(overGrpc.report, expected);
    const overJsonRpc = cli("task.json", await jsonRpcGetTask(first.payload.value.id), stream);
    expect(evidenceIdOf(overGrpc.report)).toBe(evidenceIdOf(overJsonRpc.report));
    expectReport(overJsonRpc.report, expected);
  });
});
