/**
 * End to end against the official SDK: an `@a2a-js/sdk` 1.3.0 server whose agent seals real
 * evidence with the independent producer, an SDK client that asks for it (REQUIRED), and the
 * verifier run offline on the exact bytes GetTask returned over JSON-RPC and over HTTP+JSON.
 * Loopback only. Each Task kind of ./kinds.ts with a row in ./expectations.ts is run from each
 * binding.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verify, PROPERTY_NAMES, type Report } from "../../src/index.js";
import { base64ToBytesStrict } from "../../src/util/bytes.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { jsonText } from "../../producer/json-text.js";
import { REPO_ROOT } from "../helpers/external.js";
import { tempFile } from "../helpers/cli.js";
import { BINDINGS, EXTENSION_HEADER, isSend, sdkClient, sendRequest, Tap, REFERENCE_REQUIREMENT } from "./client.js";
import { KIND_EXPECTATIONS, type KindExpectation } from "./expectations.js";
import { extensionMetadata, runLiveTask, streamEvents, type LiveRun } from "./harness.js";
import { expectReport, MIN, taskOf, text, TRUST, verified } from "./reports.js";
import { startLiveServer, type LiveServer } from "./server.js";

let server: LiveServer;
beforeAll(async () => {
  server = await startLiveServer();
});
afterAll(async () => {
  await server?.close();
});

for (const [kind, expected] of Object.entries(KIND_EXPECTATIONS)) {
  for (const sendBinding of BINDINGS) {
    describe(`${kind} Task, sent over ${sendBinding}`, () => {
      let run: LiveRun;
      beforeAll(async () => {
        run = await runLiveTask(server, kind, sendBinding);
      });

      it("the first Task shows the acceptance, and the server echoed the activated extension", () => {
        expect(run.activatedHeader).toBe(EXTENSION_URI);
        expect(run.firstTask.status).toMatchObject({ state: "TASK_STATE_SUBMITTED" });
        expect(extensionMetadata(run.firstTask)).toEqual({
          evidenceAcceptance: {
            state: "ACCEPTED",
            recordProfile: REFERENCE_REQUIREMENT.recordProfile,
            minimumEvidence: expected.acceptedMinimum,
            maximumRegistrationDelaySeconds: 60,
          },
          evidenceStatus: "EVIDENCE_STATUS_PENDING",
        });
      });

      it("GetTask over each binding verifies offline with every property as expected", () => {
        const ids = BINDINGS.map((b) => {
          const task = taskOf(run.getTask[b]);
          expect(task.id).toBe(run.taskId);
          expect(task.status).toMatchObject({ state: expected.taskState });
          const report = verify({
            inputs: [{ source: b, data: run.getTask[b] }],
            firstTask: run.sendResponse,
            trust: TRUST,
            minEvidence: MIN,
          });
          const input = expectReport(report, expected);
          expect(input.shape).toBe(b === "JSONRPC" ? "jsonrpc-response" : "task");
          // The evidence ID the report names is the one the Task's reference states.
          expect(input.evidenceId).toBe(extensionMetadata(task)?.evidenceId);
          return input.evidenceId;
        });
        expect(ids[0]).toMatch(/^[0-9a-f]{64}$/);
        expect(ids[1]).toBe(ids[0]);
      });

      it("the two bindings carry byte-identical evidence bundles", () => {
        const bundles = BINDINGS.map((b) => {
          const artifacts = taskOf(run.getTask[b]).artifacts as { extensions?: string[]; parts: { raw?: string }[] }[];
          const evidence = artifacts.filter((a) => a.extensions?.includes(EXTENSION_URI));
          expect(evidence).toHaveLength(1);
          return evidence[0]?.parts[0]?.raw;
        });
        expect(bundles[0]).toBeTypeOf("string");
        expect(bundles[1]).toBe(bundles[0]);
      });

      it("the SDK's bytes with one observed word changed fail taskBinding, and nothing else that passed", () => {
        const body = text(run.getTask["HTTP+JSON"]);
        const changed =
          kind === "failed"
            ? body.replace("upstream ledger refused", "upstream ledger accepted")
            : body.replace("SEAL THIS EXCHANGE", "SEAL THAT EXCHANGE");
        expect(changed).not.toBe(body);
        const report = verify({
          inputs: [{ source: "tampered", data: changed }],
          firstTask: run.sendResponse,
          trust: TRUST,
          minEvidence: MIN,
        });
        const input = verified(report);
        const failing = PROPERTY_NAMES.filter((p) => input.properties[p].state === "FAIL");
        expect(failing).toEqual(PROPERTY_NAMES.filter((p) => p === "taskBinding" || expected.properties[p] === "FAIL"));
        const check = input.properties.taskBinding.checks.find((c) => c.state === "FAIL");
        // The failure reason appears first as status.message (the history copy is left as it was).
        expect(check?.id).toBe(kind === "failed" ? "transcript.statusMessage" : "artifact.binding");
        expect(report.policy.exitCode).toBe(1);
      });

      it("without the first Task the acceptance is unobserved: negotiation INCONCLUSIVE", () => {
        const report = verify({
          inputs: [{ source: sendBinding, data: run.getTask[sendBinding] }],
          trust: TRUST,
          minEvidence: MIN,
        });
        expect(verified(report).properties.negotiation.state).toBe("INCONCLUSIVE");
        expect(verified(report).properties.negotiation.checks.map((c) => c.id)).toContain("acceptance.accepted");
      });
    });
  }
}

describe("the built CLI on saved bytes", () => {
  for (const kind of ["one-shot", "failed", "silent-downgrade"]) {
    it(`${kind}: verify --first-task over the saved REST GetTask body exits ${KIND_EXPECTATIONS[kind]?.exitCode}`, async () => {
      const expected = KIND_EXPECTATIONS[kind] as KindExpectation;
      const run = await runLiveTask(server, kind, "HTTP+JSON");
      const final = tempFile("final.json", run.getTask["HTTP+JSON"]);
      const first = tempFile("first.json", run.sendResponse);
      const trust = tempFile("trust.json", jsonText(TRUST));
      const bin = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
      const r = spawnSync(
        process.execPath,
        [bin, "verify", "--format", "json", "--trust", trust, "--first-task", first, "--min-evidence", MIN, final],
        { encoding: "utf8" },
      );
      expect(r.stderr).toBe("");
      expect(r.status).toBe(expected.exitCode);
      expectReport(JSON.parse(r.stdout) as Report, expected);
    });
  }
});

describe("a streamed Task (sendMessageStream)", () => {
  for (const binding of BINDINGS) {
    it(`over ${binding}: the SSE stream's evidence artifact and terminal status name the evidence ID GetTask verifies`, async () => {
      const tap = new Tap();
      const client = await sdkClient(server.baseUrl, binding, { tap });
      const seen: string[] = [];
      let taskId = "";
      for await (const event of client.sendMessageStream(
        sendRequest("one-shot", "seal this stream"),
        EXTENSION_HEADER,
      )) {
        seen.push(event.payload?.$case ?? "none");
        if (event.payload?.$case === "task") taskId = event.payload.value.id;
      }
      expect(seen).toEqual(["task", "statusUpdate", "artifactUpdate", "artifactUpdate", "statusUpdate"]);
      const exchange = tap.last(isSend);
      expect(exchange.responseHeaders["content-type"]).toMatch(/^text\/event-stream/);
      const events = streamEvents(await exchange.body);
      expect(events.map((e) => Object.keys(e.payload)[0])).toEqual(seen);

      const firstTask = events[0]?.payload.task as Record<string, unknown>;
      expect((extensionMetadata(firstTask)?.evidenceAcceptance as { state?: string } | undefined)?.state).toBe(
        "ACCEPTED",
      );
      const evidence = events
        .map(
          (e) =>
            e.payload.artifactUpdate as { artifact: { extensions?: string[]; parts: { raw?: string }[] } } | undefined,
        )
        .filter((u) => u?.artifact.extensions?.includes(EXTENSION_URI));
      expect(evidence).toHaveLength(1);
      const bundleBytes = base64ToBytesStrict(evidence[0]?.artifact.parts[0]?.raw ?? "");
      expect(bundleBytes).toBeDefined();
      const streamedId = (JSON.parse(text(bundleBytes as Uint8Array)) as { evidenceId: string }).evidenceId;
      const terminal = events[events.length - 1]?.payload.statusUpdate as Record<string, unknown>;
      expect(terminal.status).toMatchObject({ state: "TASK_STATE_COMPLETED" });
      expect(extensionMetadata(terminal)?.evidenceId).toBe(streamedId);

      // The same Task, fetched afterwards, verifies with that evidence ID; the stream's first task event is its first Task.
      await client.getTask({ tenant: "", id: taskId });
      const getTask = await tap.last(
        (t) => !isSend(t) && t.url.includes(binding === "JSONRPC" ? "/a2a/jsonrpc" : `/tasks/${taskId}`),
      ).body;
      const report = verify({
        inputs: [{ source: binding, data: getTask }],
        firstTask: JSON.stringify({ task: firstTask }),
        trust: TRUST,
        minEvidence: MIN,
      });
      expect(verified(report).evidenceId).toBe(streamedId);
      expectReport(report, KIND_EXPECTATIONS["one-shot"] as KindExpectation);
    });
  }
});
