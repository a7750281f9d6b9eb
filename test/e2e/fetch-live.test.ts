/**
 * `fetch` against the live SDK server: GetTask saved over each binding, and send mode's capture,
 * both verified offline with the same property states the SDK client's own capture gets.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerFetchCommand } from "../../src/cli/fetch.js";
import { verify, isFailedInput, PROPERTY_NAMES, type Report } from "../../src/index.js";
import { valueBytesAt } from "../../src/net/span.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { producerTrust } from "../../producer/seal.js";
import { runCommand } from "../helpers/commands.js";
import { tempFile } from "../helpers/cli.js";
import { EXTENSION_HEADER, isSend, resumeRequest, sdkClient, sendRequest, Tap } from "./client.js";
import { KIND_EXPECTATIONS } from "./expectations.js";
import { INPUT_REQUIRED, pollToTerminal, pollUntil, runLiveTask } from "./harness.js";
import { E2E_AUTHORITY } from "./kinds.js";
import { INTERIM_PASSES, lifecycleChecks } from "./reports.js";
import { startLiveServer, type LiveServer } from "./server.js";

const TRUST = producerTrust({ authority: E2E_AUTHORITY });
const EXPECTED = KIND_EXPECTATIONS["one-shot"];

let server: LiveServer;
beforeAll(async () => {
  server = await startLiveServer();
});
afterAll(async () => {
  await server?.close();
});

const out = () => join(mkdtempSync(join(tmpdir(), "a2a-evidence-live-")), "saved.json");
const fetchCli = (args: string[]) => runCommand((p, ctx) => registerFetchCommand(p, ctx), ["fetch", ...args]);

function states(report: Report): Record<string, string> {
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(JSON.stringify(input ?? report.error));
  return Object.fromEntries(PROPERTY_NAMES.map((p) => [p, input.properties[p].state]));
}

describe("fetch against an @a2a-js/sdk server", () => {
  for (const [binding, flag] of [
    ["JSONRPC", "jsonrpc"],
    ["HTTP+JSON", "rest"],
  ] as const) {
    it(`GetTask over ${flag} saves the bytes the SDK client saw, and they verify`, async () => {
      const run = await runLiveTask(server, "one-shot", "JSONRPC");
      const file = out();
      const url = binding === "JSONRPC" ? server.jsonRpcUrl : server.restUrl;
      const r = await fetchCli(["--url", url, "--binding", flag, "--task-id", run.taskId, "-o", file]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      // The same Task bytes; over JSON-RPC only the envelope's request id differs.
      const task = (b: Uint8Array) => (binding === "JSONRPC" ? valueBytesAt(b, ["result"]) : b);
      expect(task(new Uint8Array(readFileSync(file)))).toEqual(task(run.getTask[binding]));
      const side = JSON.parse(readFileSync(`${file}.fetch.json`, "utf8"));
      // GetTask runs no executor, so the server echoes no activated extension (a2a-js-sdk.md §2.2).
      expect(side.exchanges[0]).toMatchObject({ status: 200, a2aExtensions: null });
      const report = verify({
        inputs: [{ source: file, data: readFileSync(file) }],
        firstTask: run.sendResponse,
        trust: TRUST,
        minEvidence: "EXTERNALLY_REGISTERED",
      });
      expect(states(report)).toEqual(EXPECTED?.properties);
      expect(report.policy.exitCode).toBe(0);
    });

    it(`--send over ${flag} (from the Agent Card) captures first and final Task, and the capture verifies`, async () => {
      const card = tempFile("card.json", JSON.stringify(server.card));
      const file = out();
      const r = await fetchCli([
        "--card",
        card,
        "--binding",
        flag,
        "--send",
        "--text",
        "seal this capture",
        "--min-evidence",
        "EXTERNALLY_REGISTERED",
        "--poll-interval",
        "10",
        "--polls",
        "1000",
        "-o",
        file,
      ]);
      // The card's interface of that binding, named: the only line on stderr.
      expect(r.stderr).toMatch(
        new RegExp(
          `^a2a-evidence: fetch: --card: calling supportedInterfaces\\[\\d+\\] \\(\\S+ 1\\.0\\) at \\S+ over ${flag}\\n$`,
        ),
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/reached TASK_STATE_COMPLETED/);
      // The SDK server's copies of the Message are that Message: recorded as sent, no mismatch.
      expect(Object.keys(JSON.parse(readFileSync(file, "utf8")))).toEqual(["request", "firstTask", "finalTask"]);
      const side = JSON.parse(readFileSync(`${file}.fetch.json`, "utf8"));
      expect(side.exchanges[0]).toMatchObject({ call: "SendMessage", status: 200, a2aExtensions: EXTENSION_URI });
      const report = verify({ inputs: [{ source: file, data: readFileSync(file) }], trust: TRUST });
      expect(report.inputs[0]).toMatchObject({ shape: "capture" });
      expect(states(report)).toEqual(EXPECTED?.properties);
      expect(report.inputs[0]).toMatchObject({
        evidenceLevel: { achieved: "EXTERNALLY_REGISTERED", negotiated: "EXTERNALLY_REGISTERED" },
      });
      expect(report.policy.exitCode).toBe(0);
    });
  }

  for (const [binding, flag] of [
    ["JSONRPC", "jsonrpc"],
    ["HTTP+JSON", "rest"],
  ] as const) {
    it(`GetTask over ${flag} of a Task waiting for input saves it pending (exit 3); once resumed, the fetched end verifies with it as --interim`, async () => {
      const tap = new Tap();
      const client = await sdkClient(server.baseUrl, binding, { tap });
      const first = await client.sendMessage(sendRequest("paused", "seal this exchange"), EXTENSION_HEADER);
      if ("messageId" in first) throw new Error("expected a Task");
      const sendResponse = await tap.last(isSend).body;
      const waiting = await pollUntil(client, first.id, new Set([INPUT_REQUIRED]));
      const url = binding === "JSONRPC" ? server.jsonRpcUrl : server.restUrl;
      const paused = out();
      const p = await fetchCli(["--url", url, "--binding", flag, "--task-id", first.id, "-o", paused]);
      expect(p.stderr).toBe("");
      expect(p.code).toBe(0);
      expect(p.stdout).toContain(`in ${INPUT_REQUIRED}`);
      const pending = verify({
        inputs: [{ source: paused, data: readFileSync(paused) }],
        firstTask: sendResponse,
        trust: TRUST,
        minEvidence: "EXTERNALLY_REGISTERED",
      });
      expect(pending.inputs[0]).toMatchObject({ error: { code: "INPUT_EVIDENCE_PENDING" }, exitCode: 3 });
      expect(pending.policy.exitCode).toBe(3);

      await client.sendMessage(
        resumeRequest("paused", { id: first.id, contextId: String(waiting.contextId) }),
        EXTENSION_HEADER,
      );
      await pollToTerminal(client, first.id);
      const final = out();
      expect((await fetchCli(["--url", url, "--binding", flag, "--task-id", first.id, "-o", final])).code).toBe(0);
      const report = verify({
        inputs: [{ source: final, data: readFileSync(final) }],
        firstTask: sendResponse,
        interim: [readFileSync(paused)],
        trust: TRUST,
        minEvidence: "EXTERNALLY_REGISTERED",
      });
      expect(states(report)).toEqual(KIND_EXPECTATIONS.paused?.properties);
      expect(report.policy.exitCode).toBe(0);
      const input = report.inputs[0];
      if (!input || isFailedInput(input)) throw new Error("not verified");
      expect(lifecycleChecks(input).filter((l) => l.startsWith("interim."))).toEqual(INTERIM_PASSES);
    });
  }

  it("an unknown Task id is the server's error, one line, exit 2, on each binding", async () => {
    const rpc = await fetchCli(["--url", server.jsonRpcUrl, "--binding", "jsonrpc", "--task-id", "nope", "-o", out()]);
    expect(rpc.code).toBe(2);
    expect(rpc.stderr).toMatch(/^a2a-evidence: fetch: NET_JSONRPC_ERROR: JSON-RPC error -32001: .*\(TASK_NOT_FOUND\)/);
    const rest = await fetchCli(["--url", server.restUrl, "--binding", "rest", "--task-id", "nope", "-o", out()]);
    expect(rest.code).toBe(2);
    expect(rest.stderr).toMatch(/^a2a-evidence: fetch: NET_HTTP_STATUS: HTTP 404 NOT_FOUND: .*\(TASK_NOT_FOUND\)/);
  });
});
