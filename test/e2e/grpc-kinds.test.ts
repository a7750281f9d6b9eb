/**
 * Every Task kind over gRPC, end to end: the live SDK server also serves `lf.a2a.v1.A2AService` on
 * 127.0.0.1; each kind is sent over gRPC (SendMessage, non-blocking; a kind that pauses is answered
 * with its resuming Message), `fetch --binding grpc` saves the terminal Task, and the built CLI
 * verifies four forms of that one Task — the JSON-RPC GetTask body, the REST GetTask body, the
 * binary Task `fetch` saved, and the gRPC stream of the same kind sent with SendStreamingMessage
 * (for a kind that pauses, the resuming Message's stream, with the first stream as its first Task) —
 * each with the row's property states and one evidenceId per Task across the bindings.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { registerFetchCommand } from "../../src/cli/fetch.js";
import type { Report, VerifiedInput } from "../../src/index.js";
import { tempFile } from "../helpers/cli.js";
import { runCommand } from "../helpers/commands.js";
import { KIND_EXPECTATIONS, type KindExpectation } from "./expectations.js";
import { builtVerify as cli, runGrpcTask, streamGrpcTask, useGrpcServer, type GrpcRun } from "./grpc-raw.js";
import { expectReport, INTERIM_PASSES, lifecycleChecks, verified } from "./reports.js";

const live = useGrpcServer();
const PAUSES = new Set(["paused"]);
const fetchCli = (args: string[]) => runCommand((p, ctx) => registerFetchCommand(p, ctx), ["fetch", ...args]);
const outFile = (name: string) => join(mkdtempSync(join(tmpdir(), "a2a-evidence-grpc-")), name);

/** The raw GetTask body over JSON-RPC or REST, as the server sent it. */
async function jsonGetTask(binding: "jsonrpc" | "rest", id: string): Promise<string> {
  const headers = { "content-type": "application/json", "A2A-Version": "1.0" };
  const r =
    binding === "jsonrpc"
      ? await fetch(live().server.jsonRpcUrl, {
          method: "POST",
          headers,
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id } }),
        })
      : await fetch(`${live().server.restUrl}/tasks/${encodeURIComponent(id)}`, { headers });
  expect(r.status).toBe(200);
  return r.text();
}

/** `fetch --binding grpc --task-id`: the saved file, checked to be GetTask's binary Task. */
async function fetchGrpc(id: string): Promise<string> {
  const file = outFile("task.binpb");
  const r = await fetchCli([
    "--url",
    `http://${live().server.grpcAddress}`,
    "--binding",
    "grpc",
    "--task-id",
    id,
    "-o",
    file,
  ]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return file;
}

/** Each input of a report, checked against the row; their evidence IDs. */
function expectEach(report: Report, expected: KindExpectation, count: number): VerifiedInput[] {
  expect(report.inputs).toHaveLength(count);
  return report.inputs.map((_, i) => expectReport({ ...report, inputs: [report.inputs[i] as never] }, expected));
}

for (const [kind, expected] of Object.entries(KIND_EXPECTATIONS)) {
  describe(`${kind} Task over gRPC`, () => {
    let run: GrpcRun;
    let fetched: string;
    beforeAll(async () => {
      run = await runGrpcTask(live().raw, kind);
      fetched = await fetchGrpc(run.taskId);
    });

    it("fetch --binding grpc saves GetTask's binary Task byte for byte", () => {
      expect(new Uint8Array(readFileSync(fetched))).toEqual(new Uint8Array(run.finalTask));
      const side = JSON.parse(readFileSync(`${fetched}.fetch.json`, "utf8"));
      expect(side).toMatchObject({ mode: "get", binding: "grpc" });
      expect(side.exchanges[0]).toMatchObject({
        call: "GetTask",
        status: 200,
        url: `http://${live().server.grpcAddress}/lf.a2a.v1.A2AService/GetTask`,
        bytes: run.finalTask.length,
      });
    });

    it("JSON-RPC, REST and the fetched binary Task verify with the row's states and one evidenceId", async () => {
      const jsonRpc = tempFile("task.json", await jsonGetTask("jsonrpc", run.taskId));
      const rest = tempFile("rest.json", await jsonGetTask("rest", run.taskId));
      const first = tempFile("first.binpb", run.sendResponse);
      const { status, report } = cli([jsonRpc, rest, fetched], ["--first-task", first]);
      expect(status).toBe(expected.exitCode);
      const inputs = expectEach(report, expected, 3);
      expect(inputs.map((i) => i.shape)).toEqual(["jsonrpc-response", "task", "task"]);
      expect(inputs[0]?.evidenceId).toMatch(/^[0-9a-f]{64}$/);
      expect(new Set(inputs.map((i) => i.evidenceId)).size).toBe(1);
    });

    if (PAUSES.has(kind)) {
      it("the paused binary Task, as --interim, is the interim record the terminal one cites", () => {
        expect(run.pausedTask).toBeDefined();
        const interim = tempFile("paused.binpb", run.pausedTask as Buffer);
        const first = tempFile("first.binpb", run.sendResponse);
        const { status, report } = cli([fetched], ["--first-task", first, "--interim", interim]);
        expect(status).toBe(expected.exitCode);
        const input = verified(report);
        expect(lifecycleChecks(input).filter((l) => l.startsWith("interim."))).toEqual(INTERIM_PASSES);
      });
    }

    it("its gRPC stream (SendStreamingMessage) verifies as the same Task fetched over gRPC and JSON-RPC does", async () => {
      const { taskId, stream, resumed } = await streamGrpcTask(live().raw, kind);
      expect(resumed !== undefined).toBe(PAUSES.has(kind));
      const streamFile = tempFile("stream.grpc", stream);
      // A Task that paused: the resumption stream carries it to its end, the first stream its first Task.
      const streamed = resumed
        ? cli([tempFile("resumed.grpc", resumed)], ["--first-task", streamFile])
        : cli([streamFile]);
      expect(streamed.status).toBe(expected.exitCode);
      const [overStream] = expectEach(streamed.report, expected, 1);
      expect(overStream?.shape).toBe("stream");
      const binary = await fetchGrpc(taskId);
      const jsonRpc = tempFile("task.json", await jsonGetTask("jsonrpc", taskId));
      const got = cli([binary, jsonRpc], ["--first-task", streamFile]);
      const ids = expectEach(got.report, expected, 2).map((i) => i.evidenceId);
      expect(ids).toEqual([overStream?.evidenceId, overStream?.evidenceId]);
    });
  });
}
