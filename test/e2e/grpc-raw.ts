/**
 * A raw gRPC client of the live server: `@grpc/grpc-js` with identity (de)serializers, so each
 * answer is the exact protobuf bytes the server sent (the SDK's own gRPC client hands back decoded
 * objects only). Requests are built with the SDK's generated codecs. One Task of any kind is run
 * to its end: SendMessage (non-blocking) or SendStreamingMessage, GetTask polled, a pause answered
 * with the resuming Message; every answer kept as bytes.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import * as grpc from "@grpc/grpc-js";
import { GetTaskRequest, SendMessageRequest } from "@a2a-js/sdk";
import { A2AService } from "@a2a-js/sdk/server/grpc";
import type { Report } from "../../src/index.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { jsonText } from "../../producer/json-text.js";
import { REPO_ROOT } from "../helpers/external.js";
import { tempFile } from "../helpers/cli.js";
import { resumeRequest, sendRequest, type RequirementJson, REFERENCE_REQUIREMENT } from "./client.js";
import { MIN, TRUST } from "./reports.js";
import { startLiveServer, type LiveServer } from "./server.js";

const identity = (b: Buffer) => b;
/** COMPLETED, FAILED, CANCELED, REJECTED (a2a-wire.md §1.3). */
const TERMINAL = new Set([3, 4, 5, 7]);
const INPUT_REQUIRED = 6;
const MAX_POLLS = 1000;

/** The service parameters: the evidence extension, and A2A 1.0 (without it the SDK assumes 0.3). */
export function extensionMetadata(): grpc.Metadata {
  const m = new grpc.Metadata();
  m.set("a2a-extensions", EXTENSION_URI);
  m.set("a2a-version", "1.0");
  return m;
}

/** One gRPC frame per message, as the wire carries a server stream. */
export function grpcFrame(m: Uint8Array): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt32BE(m.length, 1);
  return Buffer.concat([header, m]);
}

export class RawGrpc {
  readonly client: grpc.Client;
  constructor(address: string) {
    this.client = new grpc.Client(address, grpc.credentials.createInsecure());
  }

  close(): void {
    this.client.close();
  }

  unary(method: string, request: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) =>
      this.client.makeUnaryRequest(
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
  serverStream(method: string, request: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const frames: Buffer[] = [];
      const call = this.client.makeServerStreamRequest(
        `/lf.a2a.v1.A2AService/${method}`,
        identity,
        identity,
        request,
        extensionMetadata(),
      );
      call.on("data", (m: Buffer) => frames.push(grpcFrame(m)));
      call.on("error", reject);
      call.on("end", () => resolve(Buffer.concat(frames)));
    });
  }

  getTask(id: string): Promise<Buffer> {
    return this.unary("GetTask", A2AService.getTask.requestSerialize(GetTaskRequest.fromJSON({ id })));
  }

  /** GetTask until the Task is terminal, or waiting for input when `orPaused`. */
  async poll(id: string, orPaused = false): Promise<Buffer> {
    for (let i = 0; i < MAX_POLLS; i++) {
      const b = await this.getTask(id);
      const state = A2AService.getTask.responseDeserialize(b).status?.state ?? 0;
      if (TERMINAL.has(state) || (orPaused && state === INPUT_REQUIRED)) return b;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`task ${id} did not end in ${MAX_POLLS} polls`);
  }
}

/** A SendMessageRequest's bytes (non-blocking unless streamed) from the SDK-form request. */
export function requestBytes(r: ReturnType<typeof sendRequest>, returnImmediately = true): Buffer {
  return A2AService.sendMessage.requestSerialize(
    SendMessageRequest.fromJSON({
      ...(SendMessageRequest.toJSON(r as never) as Record<string, unknown>),
      ...(returnImmediately ? { configuration: { returnImmediately: true } } : {}),
    }),
  );
}

/** One Task run over gRPC, every answer as bytes. */
export interface GrpcRun {
  readonly taskId: string;
  /** The binary SendMessageResponse (a first Task with the acceptance). */
  readonly sendResponse: Buffer;
  /** The terminal binary Task (GetTask). */
  readonly finalTask: Buffer;
  /** The binary Task while it waited for input, for a kind that pauses. */
  readonly pausedTask?: Buffer;
}

/** SendMessage (non-blocking) for one kind, GetTask to the end; a pause is answered and polled on. */
export async function runGrpcTask(
  raw: RawGrpc,
  kind: string,
  requirement: RequirementJson = REFERENCE_REQUIREMENT,
): Promise<GrpcRun> {
  const sendResponse = await raw.unary(
    "SendMessage",
    requestBytes(sendRequest(kind, "seal this over grpc", requirement)),
  );
  const first = A2AService.sendMessage.responseDeserialize(sendResponse);
  if (first.payload?.$case !== "task") throw new Error(`kind ${kind} did not answer with a Task`);
  const id = first.payload.value.id;
  const settled = await raw.poll(id, true);
  const task = A2AService.getTask.responseDeserialize(settled);
  if (task.status?.state !== INPUT_REQUIRED) return { taskId: id, sendResponse, finalTask: settled };
  await raw.unary("SendMessage", requestBytes(resumeRequest(kind, { id, contextId: task.contextId })));
  return { taskId: id, sendResponse, finalTask: await raw.poll(id), pausedTask: settled };
}

/** The Task a gRPC stream's first message carries. */
function firstStreamedTask(stream: Buffer) {
  const first = A2AService.sendStreamingMessage.responseDeserialize(stream.subarray(5, 5 + stream.readUInt32BE(1)));
  if (first.payload?.$case !== "task") throw new Error("the stream did not start with a Task");
  return first.payload.value;
}

/**
 * SendStreamingMessage for one kind: the whole stream, framed; the Task id from its first message.
 * A kind that pauses ends its first stream waiting for input: the resuming Message is streamed
 * too (`resumed`, whose first message is the stored Task with that Message appended).
 */
export async function streamGrpcTask(
  raw: RawGrpc,
  kind: string,
): Promise<{ taskId: string; stream: Buffer; resumed?: Buffer }> {
  const stream = await raw.serverStream(
    "SendStreamingMessage",
    requestBytes(sendRequest(kind, "seal this grpc stream"), false),
  );
  const task = firstStreamedTask(stream);
  const paused = A2AService.getTask.responseDeserialize(await raw.poll(task.id, true));
  if (paused.status?.state !== INPUT_REQUIRED) return { taskId: task.id, stream };
  const resume = requestBytes(resumeRequest(kind, { id: task.id, contextId: paused.contextId }), false);
  return { taskId: task.id, stream, resumed: await raw.serverStream("SendStreamingMessage", resume) };
}

/** The live server with its gRPC service, and a raw client of it, for the file's tests. */
export function useGrpcServer(): () => { server: LiveServer; raw: RawGrpc } {
  let live: { server: LiveServer; raw: RawGrpc } | undefined;
  beforeAll(async () => {
    const server = await startLiveServer({ grpc: true });
    live = { server, raw: new RawGrpc(server.grpcAddress as string) };
  });
  afterAll(async () => {
    live?.raw.close();
    await live?.server.close();
  });
  return () => {
    if (!live) throw new Error("the live server has not started");
    return live;
  };
}

/** The built CLI's JSON report over the files (the producer's trust, the requested minimum), nothing on stderr. */
export function builtVerify(
  files: readonly string[],
  extra: readonly string[] = [],
): { status: number | null; report: Report } {
  const trust = tempFile("trust.json", jsonText(TRUST));
  const bin = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
  const r = spawnSync(
    process.execPath,
    [bin, "verify", "--format", "json", "--trust", trust, "--min-evidence", MIN, ...extra, ...files],
    { encoding: "utf8" },
  );
  expect(r.stderr).toBe("");
  return { status: r.status, report: JSON.parse(r.stdout) as Report };
}
