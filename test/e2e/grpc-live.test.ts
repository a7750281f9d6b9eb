/**
 * The gRPC binding end to end: the `@a2a-js/sdk` gRPC service (`@a2a-js/sdk/server/grpc` on
 * `@grpc/grpc-js`, 127.0.0.1, an ephemeral port) over the same request handler as the JSON-RPC
 * server. A raw grpc-js client with identity (de)serializers keeps the exact bytes of the
 * SendMessage, GetTask and SendStreamingMessage answers; the built CLI verifies them with the same
 * states and evidenceId as the same Task fetched over JSON-RPC.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { A2AService } from "@a2a-js/sdk/server/grpc";
import type { Report } from "../../src/index.js";
import { tempFile } from "../helpers/cli.js";
import { sendRequest } from "./client.js";
import { KIND_EXPECTATIONS } from "./expectations.js";
import { builtVerify, requestBytes, useGrpcServer } from "./grpc-raw.js";
import { expectReport } from "./reports.js";

const live = useGrpcServer();

/** A SendMessageRequest for the one-shot kind that returns at once (the first Task, with the acceptance). */
const sendMessageBytes = () => requestBytes(sendRequest("one-shot", "seal this over grpc"));

async function jsonRpcGetTask(id: string): Promise<string> {
  const r = await fetch(live().server.jsonRpcUrl, {
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
  const firstArgs = first === undefined ? [] : ["--first-task", tempFile(`first-${name}`, first)];
  return builtVerify([tempFile(name, data)], firstArgs);
}

const evidenceIdOf = (report: Report) => (report.inputs[0] as { evidenceId?: string }).evidenceId;

describe("a Task sent and fetched over gRPC", () => {
  const expected = KIND_EXPECTATIONS["one-shot"]!;
  let sendResponse: Buffer;
  let grpcTask: Buffer;
  let jsonTask: string;

  beforeAll(async () => {
    sendResponse = await live().raw.unary("SendMessage", sendMessageBytes());
    const decoded = A2AService.sendMessage.responseDeserialize(sendResponse);
    if (decoded.payload?.$case !== "task") throw new Error("SendMessage did not answer with a Task");
    grpcTask = await live().raw.poll(decoded.payload.value.id);
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
    const stream = await live().raw.serverStream("SendStreamingMessage", sendMessageBytes());
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
