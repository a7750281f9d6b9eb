/**
 * The relying-party gate inside an SDK client on the gRPC binding (`@a2a-js/sdk/client/grpc`),
 * against the live server's gRPC service on 127.0.0.1: the honest agent's one-shot, failed and
 * paused-then-resumed Tasks pass, with the verdict's evidenceId the one the binary Task `fetch
 * --binding grpc` saves gives; a silent downgrade, an agent that never accepts or accepts other
 * terms, a direct Message, a blocking send, and an answer that is another Task than asked for are
 * each refused with the reason they are refused for over JSON-RPC and REST.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SDK_OBJECT_NOTE, type EvidenceGateOptions } from "../../src/a2a-js/index.js";
import { registerFetchCommand } from "../../src/cli/fetch.js";
import { verify } from "../../src/index.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { onlyInput, refusal } from "../helpers/gate.js";
import { runCommand } from "../helpers/commands.js";
import { REFERENCE_REQUIREMENT, resumeRequest, sendRequest } from "./client.js";
import { keepingGate } from "./gated.js";
import { useGrpcServer } from "./grpc-raw.js";
import { GrpcTap, sdkGrpcClient } from "./grpc-sdk.js";
import { INPUT_REQUIRED, pollToTerminal, pollUntil } from "./harness.js";
import { INTERIM_PASSES, lifecycleChecks, MIN, TRUST } from "./reports.js";

type Json = Record<string, unknown>;

const live = useGrpcServer();

async function gated(options: Partial<EvidenceGateOptions> = {}, polling = true) {
  const { gate, accepted } = keepingGate(options);
  const tap = new GrpcTap();
  const client = await sdkGrpcClient(live().server.baseUrl, { tap, interceptors: [gate], polling });
  return { client, tap, accepted };
}

const send = (kind: string) => sendRequest(kind, "seal this gated grpc exchange", null);

/** The evidenceId of the binary Task `fetch --binding grpc` saves for this Task. */
async function fetchedEvidenceId(id: string): Promise<string | null> {
  const file = join(mkdtempSync(join(tmpdir(), "a2a-evidence-gate-grpc-")), "task.binpb");
  const args = ["--url", `http://${live().server.grpcAddress}`, "--binding", "grpc", "--task-id", id, "-o", file];
  const r = await runCommand((p, ctx) => registerFetchCommand(p, ctx), ["fetch", ...args]);
  expect(r.code).toBe(0);
  const report = verify({ inputs: [{ source: file, data: readFileSync(file) }], trust: TRUST, minEvidence: MIN });
  return onlyInput(report).evidenceId;
}

describe("the gate over the SDK's gRPC client transport", () => {
  for (const kind of ["one-shot", "failed"]) {
    it(`accepts the honest agent's ${kind} Task, after adding the requirement and the a2a-extensions metadata itself`, async () => {
      const { client, tap, accepted } = await gated();
      const first = await client.sendMessage(send(kind));
      if ("messageId" in first) throw new Error("expected a Task");
      const sent = tap.last("SendMessage");
      expect(sent.metadata["a2a-extensions"]).toBe(EXTENSION_URI);
      const message = sent.request.message as Json;
      expect(message.extensions).toEqual([EXTENSION_URI]);
      expect((message.metadata as Json)[EXTENSION_URI]).toEqual({ ...REFERENCE_REQUIREMENT });
      const final = await pollToTerminal(client, first.id);
      expect(final.status).toMatchObject({ state: kind === "failed" ? "TASK_STATE_FAILED" : "TASK_STATE_COMPLETED" });
      expect(accepted).toHaveLength(1);
      const input = onlyInput(accepted[0]?.report);
      expect(input.properties.negotiation.state).toBe("PASS");
      expect(input.evidenceLevel.achieved).toBe("EXTERNALLY_REGISTERED");
      expect(input.notes).toContain(SDK_OBJECT_NOTE);
      expect(accepted[0]?.report.policy.exitCode).toBe(0);
      expect(Object.keys(accepted[0]?.capture ?? {})).toEqual(["request", "firstTask", "finalTask"]);
      expect(input.evidenceId).toBe(await fetchedEvidenceId(first.id));
    });
  }

  it("refuses a getTask answered with another Task, though that Task's own evidence holds (TASK_MISMATCH)", async () => {
    const { client, tap, accepted } = await gated();
    const a = await client.sendMessage(send("one-shot"));
    const b = await client.sendMessage(send("one-shot"));
    if ("messageId" in a || "messageId" in b) throw new Error("expected Tasks");
    // Both end (seen through the raw client, so the gate still follows both).
    await live().raw.poll(a.id);
    await live().raw.poll(b.id);
    tap.rewrite = (method, r) => (method === "GetTask" ? { ...r, id: b.id } : r);
    const e = await refusal(client.getTask({ tenant: "", id: a.id }));
    expect(e.reason).toBe("TASK_MISMATCH");
    expect(e.message).toBe(`TASK_MISMATCH: getTask asked for Task "${a.id}" and was answered with Task "${b.id}"`);
    expect(accepted).toHaveLength(0);
    tap.rewrite = undefined;
    await client.getTask({ tenant: "", id: b.id });
    expect(accepted).toHaveLength(1);
  });

  it("refuses a new Message answered with the first response of an earlier one (TASK_MISMATCH)", async () => {
    const { client, tap, accepted } = await gated();
    const a = await client.sendMessage(send("one-shot"));
    if ("messageId" in a) throw new Error("expected a Task");
    const replayed = tap.last("SendMessage").answers[0];
    tap.answerWith = (method, answer) => (method === "SendMessage" ? replayed : answer);
    const e = await refusal(client.sendMessage(send("one-shot")));
    expect(e.reason).toBe("TASK_MISMATCH");
    expect(e.message).toBe(
      `TASK_MISMATCH: sendMessage sent a Message that names no Task, and was answered with Task "${a.id}", which an earlier Message started`,
    );
    tap.answerWith = undefined;
    await pollToTerminal(client, a.id);
    expect(accepted).toHaveLength(1);
  });

  it("passes a Task waiting for input through, and verifies the interim record it saw with the terminal one", async () => {
    const { client, tap, accepted } = await gated();
    const first = await client.sendMessage(send("paused"));
    if ("messageId" in first) throw new Error("expected a Task");
    const waiting = await pollUntil(client, first.id, new Set([INPUT_REQUIRED]));
    expect(accepted).toHaveLength(0);
    await client.sendMessage(resumeRequest("paused", { id: first.id, contextId: String(waiting.contextId) }));
    const resumeMessage = tap.last("SendMessage").request.message as Json;
    expect(resumeMessage).toMatchObject({ taskId: first.id, extensions: [EXTENSION_URI] });
    const final = await pollToTerminal(client, first.id);
    expect(final.status).toMatchObject({ state: "TASK_STATE_COMPLETED" });
    expect(accepted).toHaveLength(1);
    const input = onlyInput(accepted[0]?.report);
    expect(accepted[0]?.report.policy.exitCode).toBe(0);
    expect(lifecycleChecks(input).filter((l) => l.startsWith("interim."))).toEqual(INTERIM_PASSES);
    expect(input.evidenceId).toBe(await fetchedEvidenceId(first.id));
  });

  it("a stream: checks acceptance on the first task event; the gated getTask gives the verdict", async () => {
    const { client, accepted } = await gated();
    let taskId = "";
    for await (const event of client.sendMessageStream(send("one-shot"))) {
      if (event.payload?.$case === "task") taskId = event.payload.value.id;
    }
    expect(accepted).toHaveLength(0);
    await client.getTask({ tenant: "", id: taskId });
    expect(accepted).toHaveLength(1);
    expect(accepted[0]?.report.policy.exitCode).toBe(0);
  });

  it("refuses a silent downgrade at the terminal Task (EVIDENCE_FAILED: negotiation status.meetsMinimum FAIL)", async () => {
    const { client, accepted } = await gated();
    const first = await client.sendMessage(send("silent-downgrade"));
    if ("messageId" in first) throw new Error("expected a Task");
    const e = await refusal(pollToTerminal(client, first.id));
    expect(e.reason).toBe("EVIDENCE_FAILED");
    expect(e.report?.policy.exitCode).toBe(1);
    const input = onlyInput(e.report);
    expect(input.properties.negotiation.checks.find((ch) => ch.state === "FAIL")?.id).toBe("status.meetsMinimum");
    expect(accepted).toHaveLength(0);
  });

  it("refuses an agent that never accepts (NOT_ACCEPTED), other terms (ACCEPTANCE_TERMS), a direct Message (DIRECT_MESSAGE)", async () => {
    const { client } = await gated();
    expect((await refusal(client.sendMessage(send("never-accepts")))).reason).toBe("NOT_ACCEPTED");
    expect((await refusal(client.sendMessage(send("lower-acceptance")))).reason).toBe("ACCEPTANCE_TERMS");
    expect((await refusal(client.sendMessage(send("message-reply")))).reason).toBe("DIRECT_MESSAGE");
  });

  it("refuses a blocking sendMessage before anything is sent (BLOCKING_MODE)", async () => {
    const { client, tap } = await gated({}, false);
    const e = await refusal(client.sendMessage(send("one-shot")));
    expect(e.reason).toBe("BLOCKING_MODE");
    expect(tap.exchanges.filter((x) => x.method === "SendMessage")).toHaveLength(0);
  });
});
