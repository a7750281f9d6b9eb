/**
 * The relying-party gate (a2a-evidence/a2a-js) inside a real SDK client, against the live SDK
 * server: the honest agent's Tasks pass — one that pauses for input too, its interim record
 * verified with the terminal one; a silent downgrade, an agent that never accepts, one that
 * answers with a Message and one whose terminal record drops the interim record it showed at the
 * pause are each refused with an EvidencePolicyError naming the reason.
 */
import { describe, expect, it } from "vitest";
import { evidenceGate, SDK_OBJECT_NOTE } from "../../src/a2a-js/index.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import {
  BINDINGS,
  isSend,
  REFERENCE_REQUIREMENT,
  resumeRequest,
  sdkClient,
  sendRequest,
  Tap,
  asTapped,
  isGetTask,
  type Binding,
} from "./client.js";
import { onlyInput, refusal } from "../helpers/gate.js";
import { gatedClient, useLiveServer } from "./gated.js";
import { INPUT_REQUIRED, pollToTerminal, pollUntil } from "./harness.js";
import { INTERIM_PASSES, lifecycleChecks } from "./reports.js";

const live = useLiveServer();

const send = (kind: string) => sendRequest(kind, "seal this gated exchange", null);

/** Through the gated client: the Task sent, polled until it waits for input (passed through), resumed, polled on (the verdict). */
async function pauseAndResume(binding: Binding, kind: string) {
  const { client: c, tap, accepted } = await gatedClient(live(), binding);
  const first = await c.sendMessage(send(kind));
  if ("messageId" in first) throw new Error("expected a Task");
  const waiting = await pollUntil(c, first.id, new Set([INPUT_REQUIRED]));
  const acceptedWhilePaused = accepted.length;
  const resumed = await c.sendMessage(resumeRequest(kind, { id: first.id, contextId: String(waiting.contextId) }));
  const resumeBody = JSON.parse(tap.last(isSend).requestBody ?? "{}");
  return {
    c,
    first,
    accepted,
    acceptedWhilePaused,
    resumed,
    resumeMessage: resumeBody.params?.message ?? resumeBody.message,
  };
}

for (const binding of BINDINGS) {
  describe(`the gate over ${binding}`, () => {
    for (const kind of ["one-shot", "failed"]) {
      it(`accepts the honest agent's ${kind} Task, after adding the requirement and the header itself`, async () => {
        const { client: c, tap, accepted } = await gatedClient(live(), binding);
        const first = await c.sendMessage(send(kind));
        if ("messageId" in first) throw new Error("expected a Task");
        const sent = tap.last(isSend);
        expect(sent.requestHeaders["a2a-extensions"]).toBe(EXTENSION_URI);
        const body = JSON.parse(sent.requestBody ?? "{}");
        const message = body.params?.message ?? body.message;
        expect(message.extensions).toEqual([EXTENSION_URI]);
        expect(message.metadata[EXTENSION_URI]).toEqual({ ...REFERENCE_REQUIREMENT });
        const final = await pollToTerminal(c, first.id);
        expect(final.status).toMatchObject({ state: kind === "failed" ? "TASK_STATE_FAILED" : "TASK_STATE_COMPLETED" });
        expect(accepted).toHaveLength(1);
        const input = onlyInput(accepted[0]?.report);
        expect(input.properties.negotiation.state).toBe("PASS");
        expect(input.evidenceLevel.achieved).toBe("EXTERNALLY_REGISTERED");
        expect(input.notes).toContain(SDK_OBJECT_NOTE);
        expect(accepted[0]?.report.policy).toEqual({
          require: ["negotiation"],
          minEvidence: "EXTERNALLY_REGISTERED",
          exitCode: 0,
        });
      });
    }

    it("refuses a getTask answered with another Task, though that Task's own evidence holds (TASK_MISMATCH)", async () => {
      const { client: c, tap, accepted } = await gatedClient(live(), binding);
      const a = await c.sendMessage(send("one-shot"));
      const b = await c.sendMessage(send("one-shot"));
      if ("messageId" in a || "messageId" in b) throw new Error("expected Tasks");
      // Both end (seen by a client without the gate, so the gate still follows both).
      const plain = await sdkClient(live().baseUrl, binding, { tap: new Tap() });
      await pollToTerminal(plain, a.id);
      await pollToTerminal(plain, b.id);
      tap.rewrite = (r) =>
        isGetTask(asTapped(r)) ? { ...r, url: r.url.replaceAll(a.id, b.id), body: r.body?.replaceAll(a.id, b.id) } : r;
      const e = await refusal(c.getTask({ tenant: "", id: a.id }));
      expect(e.reason).toBe("TASK_MISMATCH");
      expect(e.message).toBe(`TASK_MISMATCH: getTask asked for Task "${a.id}" and was answered with Task "${b.id}"`);
      expect(e.report).toBeUndefined();
      expect(accepted).toHaveLength(0);
      // The substitute itself is honest: asked for by its own id, it passes.
      tap.rewrite = undefined;
      await c.getTask({ tenant: "", id: b.id });
      expect(accepted).toHaveLength(1);
      expect(onlyInput(accepted[0]?.report).properties.negotiation.state).toBe("PASS");
    });

    it("refuses a new Message answered with the first response of an earlier one (TASK_MISMATCH)", async () => {
      const { client: c, tap, accepted } = await gatedClient(live(), binding);
      const a = await c.sendMessage(send("one-shot"));
      if ("messageId" in a) throw new Error("expected a Task");
      const replayed = new TextDecoder().decode(await tap.last(isSend).body);
      tap.answerWith = (r) => {
        if (!isSend(asTapped(r))) return undefined;
        const body = JSON.parse(replayed);
        // A JSON-RPC answer carries the id of the request it answers.
        if ("jsonrpc" in body) body.id = JSON.parse(r.body ?? "{}").id;
        return JSON.stringify(body);
      };
      const e = await refusal(c.sendMessage(send("one-shot")));
      expect(e.reason).toBe("TASK_MISMATCH");
      expect(e.message).toBe(
        `TASK_MISMATCH: sendMessage sent a Message that names no Task, and was answered with Task "${a.id}", which an earlier Message started`,
      );
      tap.answerWith = undefined;
      await pollToTerminal(c, a.id);
      expect(accepted).toHaveLength(1);
    });

    it("passes a Task waiting for input through, adds the same requirement to the resuming Message, and verifies the interim record it saw with the terminal one", async () => {
      const { c, first, accepted, acceptedWhilePaused, resumed, resumeMessage } = await pauseAndResume(
        binding,
        "paused",
      );
      expect(acceptedWhilePaused).toBe(0);
      expect("id" in resumed && resumed.id).toBe(first.id);
      expect(resumeMessage).toMatchObject({
        taskId: first.id,
        extensions: [EXTENSION_URI],
        metadata: { [EXTENSION_URI]: { ...REFERENCE_REQUIREMENT } },
      });
      const final = await pollToTerminal(c, first.id);
      expect(final.status).toMatchObject({ state: "TASK_STATE_COMPLETED" });
      expect(accepted).toHaveLength(1);
      expect(accepted[0]?.report.policy.exitCode).toBe(0);
      const input = onlyInput(accepted[0]?.report);
      expect(input.properties.negotiation.checks.find((ch) => ch.id === "requirement.unchanged")?.state).toBe("PASS");
      // One of each: the gate kept the paused Task once, however often it was polled.
      expect(lifecycleChecks(input).filter((l) => l.startsWith("interim."))).toEqual(INTERIM_PASSES);
      expect(lifecycleChecks(input).filter((l) => l.startsWith("transcript."))).toEqual([
        "transcript.transition PASS",
        "transcript.transition PASS",
        "transcript.resumption PASS",
      ]);
      expect(input.properties.taskBinding.checks.find((ch) => ch.id === "interim.observed")?.subject).toMatch(
        / at --interim\[0\]:artifacts\[1\]/,
      );
    });

    it("refuses a terminal record that drops the interim record shown at the pause (EVIDENCE_FAILED: interim.cited FAIL)", async () => {
      const { c, first, accepted, acceptedWhilePaused } = await pauseAndResume(binding, "paused-drops-interim");
      expect(acceptedWhilePaused).toBe(0);
      const e = await refusal(pollToTerminal(c, first.id));
      expect(e.reason).toBe("EVIDENCE_FAILED");
      expect(e.report?.policy.exitCode).toBe(1);
      const input = onlyInput(e.report);
      expect(input.properties.taskBinding.state).toBe("FAIL");
      const cited = input.properties.taskBinding.checks.filter((ch) => ch.id === "interim.cited");
      expect(cited.map((ch) => ch.state)).toEqual(["FAIL"]);
      expect(cited[0]?.detail).toMatch(/not cited/);
      expect(accepted).toHaveLength(0);
    });

    for (const lookWhilePaused of [true, false]) {
      it(`a paused Task over streams${lookWhilePaused ? ", with a gated getTask while it waits: its interim record is verified at the end" : " only: the resumption stream's first event is the paused Task with the resuming Message appended, whose interim record is verified at the end"}`, async () => {
        const { client: c, accepted } = await gatedClient(live(), binding);
        let taskId = "";
        let contextId = "";
        for await (const event of c.sendMessageStream(send("paused"))) {
          if (event.payload?.$case === "task") ({ id: taskId, contextId } = event.payload.value);
        }
        // The stream ends with the INPUT_REQUIRED status update: a Task only a getTask shows.
        if (lookWhilePaused) await c.getTask({ tenant: "", id: taskId });
        for await (const _ of c.sendMessageStream(resumeRequest("paused", { id: taskId, contextId }))) void _;
        expect(accepted).toHaveLength(0);
        await c.getTask({ tenant: "", id: taskId });
        expect(accepted).toHaveLength(1);
        expect(accepted[0]?.report.policy.exitCode).toBe(0);
        const input = onlyInput(accepted[0]?.report);
        expect(lifecycleChecks(input).filter((l) => l.startsWith("interim."))).toEqual(INTERIM_PASSES);
        // Only the copy from the resumption window shows the resuming Message, and says so.
        const observed = input.properties.taskBinding.checks.find((ch) => ch.id === "interim.observed")?.detail;
        if (lookWhilePaused) expect(observed).not.toMatch(/excepted/);
        else
          expect(observed).toMatch(
            /excepted: that is the resuming Message the terminal record commits at transcript\[3\]/,
          );
      });
    }

    it("refuses a silent downgrade at the terminal Task (EVIDENCE_FAILED: negotiation status.meetsMinimum FAIL)", async () => {
      const { client: c, accepted } = await gatedClient(live(), binding);
      const first = await c.sendMessage(send("silent-downgrade"));
      if ("messageId" in first) throw new Error("expected a Task");
      const e = await refusal(pollToTerminal(c, first.id));
      expect(e.reason).toBe("EVIDENCE_FAILED");
      expect(e.report?.policy.exitCode).toBe(1);
      const input = onlyInput(e.report);
      expect(input.properties.negotiation.state).toBe("FAIL");
      expect(input.properties.negotiation.checks.find((ch) => ch.state === "FAIL")?.id).toBe("status.meetsMinimum");
      expect(input.evidenceLevel).toEqual({
        achieved: "SIGNED_RECORD",
        claimed: "SIGNED_RECORD",
        negotiated: "EXTERNALLY_REGISTERED",
      });
      expect(e.task?.id).toBe(first.id);
      expect(accepted).toHaveLength(0);
    });

    it("refuses an agent that never accepts, on the first Task (NOT_ACCEPTED)", async () => {
      const e = await refusal((await gatedClient(live(), binding)).client.sendMessage(send("never-accepts")));
      expect(e.reason).toBe("NOT_ACCEPTED");
      expect(e.message).toMatch(/no evidenceAcceptance/);
      expect(e.report).toBeUndefined();
      expect(e.task?.status).toMatchObject({ state: "TASK_STATE_SUBMITTED" });
    });

    it("refuses an acceptance on other terms, on the first Task (ACCEPTANCE_TERMS)", async () => {
      const e = await refusal((await gatedClient(live(), binding)).client.sendMessage(send("lower-acceptance")));
      expect(e.reason).toBe("ACCEPTANCE_TERMS");
      expect(e.message).toMatch(/accepts minimumEvidence "SIGNED_RECORD", not the requested "EXTERNALLY_REGISTERED"/);
    });

    it("refuses a direct Message reply (DIRECT_MESSAGE)", async () => {
      const e = await refusal((await gatedClient(live(), binding)).client.sendMessage(send("message-reply")));
      expect(e.reason).toBe("DIRECT_MESSAGE");
      expect(e.task?.messageId).toMatch(/^reply-/);
    });

    it("refuses a blocking sendMessage before anything is sent (BLOCKING_MODE)", async () => {
      const { client, tap } = await gatedClient(live(), binding, {}, false);
      const e = await refusal(client.sendMessage(send("one-shot")));
      expect(e.reason).toBe("BLOCKING_MODE");
      expect(tap.exchanges.filter(isSend)).toHaveLength(0);
    });

    it("a stream: checks acceptance on the first task event; the gated getTask gives the verdict", async () => {
      const { client: c, accepted } = await gatedClient(live(), binding);
      let taskId = "";
      for await (const event of c.sendMessageStream(send("one-shot"))) {
        if (event.payload?.$case === "task") taskId = event.payload.value.id;
      }
      expect(accepted).toHaveLength(0);
      await c.getTask({ tenant: "", id: taskId });
      expect(accepted).toHaveLength(1);
      expect(accepted[0]?.report.policy.exitCode).toBe(0);
    });

    it("a stream from an agent that never accepts ends with NOT_ACCEPTED", async () => {
      const { client: c } = await gatedClient(live(), binding);
      const e = await refusal(
        (async () => {
          for await (const _ of c.sendMessageStream(send("never-accepts"))) void _;
        })(),
      );
      expect(e.reason).toBe("NOT_ACCEPTED");
    });
  });
}

describe("the gate's policy is the caller's", () => {
  it("PREFERRED: an agent that never accepts passes; one that accepted and downgraded is still refused", async () => {
    const { client: c, accepted } = await gatedClient(live(), "HTTP+JSON", {
      requirement: {
        requirement: "PREFERRED",
        minimumEvidence: "EXTERNALLY_REGISTERED",
        maximumRegistrationDelaySeconds: 60,
      },
    });
    const ignored = await c.sendMessage(send("never-accepts"));
    if ("messageId" in ignored) throw new Error("expected a Task");
    await pollToTerminal(c, ignored.id);
    expect(accepted).toHaveLength(1);
    expect(accepted[0]?.report.inputs[0]).toMatchObject({ error: { code: "INPUT_NO_EVIDENCE" } });
    const downgraded = await c.sendMessage(send("silent-downgrade"));
    if ("messageId" in downgraded) throw new Error("expected a Task");
    expect((await refusal(pollToTerminal(c, downgraded.id))).reason).toBe("EVIDENCE_FAILED");
  });

  it("a Task this gate first meets when resuming it: the stored Task is no first response, so the acceptance is unobserved (POLICY_NOT_MET), not FAILed", async () => {
    const plain = await sdkClient(live().baseUrl, "JSONRPC", { tap: new Tap() });
    const first = await plain.sendMessage(sendRequest("paused", "sent without the gate"), {
      serviceParameters: { "A2A-Extensions": EXTENSION_URI },
    });
    if ("messageId" in first) throw new Error("expected a Task");
    const waiting = await pollUntil(plain, first.id, new Set([INPUT_REQUIRED]));
    const { client: c } = await gatedClient(live(), "JSONRPC");
    // The resume response shows the stored Task with the resuming Message already appended.
    const resumed = await c.sendMessage(
      resumeRequest("paused", { id: first.id, contextId: String(waiting.contextId) }),
    );
    if ("messageId" in resumed) throw new Error("expected a Task");
    const e = await refusal(pollToTerminal(c, first.id));
    expect(e.reason).toBe("POLICY_NOT_MET");
    const input = onlyInput(e.report);
    expect(input.properties.negotiation.state).toBe("INCONCLUSIVE");
    expect(input.properties.negotiation.checks.some((ch) => ch.id === "acceptance.beforeWork")).toBe(false);
    expect(input.properties.taskBinding.state).toBe("PASS");
    expect(e.report?.policy.exitCode).toBe(3);
  });

  it("a getTask of a Task this gate never saw sent: acceptance unobserved, POLICY_NOT_MET under REQUIRED", async () => {
    const plain = await sdkClient(live().baseUrl, "JSONRPC", { tap: new Tap() });
    const first = await plain.sendMessage(sendRequest("one-shot", "sent without the gate"), {
      serviceParameters: { "A2A-Extensions": EXTENSION_URI },
    });
    if ("messageId" in first) throw new Error("expected a Task");
    await pollToTerminal(plain, first.id);
    const e = await refusal((await gatedClient(live(), "JSONRPC")).client.getTask({ tenant: "", id: first.id }));
    expect(e.reason).toBe("POLICY_NOT_MET");
    expect(e.message).toMatch(/negotiation INCONCLUSIVE/);
    expect(e.report?.policy.exitCode).toBe(3);
  });

  it("an invalid trust file fails at construction, not at the first Task", () => {
    expect(() => evidenceGate({ requirement: { minimumEvidence: "SIGNED_RECORD" }, trust: '{"version":2}' })).toThrow(
      /trust configuration is invalid: TRUST_SCHEMA/,
    );
  });

  it("a message that already carries another requirement is a programming error", async () => {
    const { client: c } = await gatedClient(live(), "JSONRPC");
    await expect(
      c.sendMessage(sendRequest("one-shot", "x", { ...REFERENCE_REQUIREMENT, minimumEvidence: "SIGNED_RECORD" })),
    ).rejects.toThrow(/already carries a different evidence requirement/);
    // The same requirement, in another member order, is the gate's own: accepted.
    const { requireTask, ...rest } = REFERENCE_REQUIREMENT;
    const first = await c.sendMessage(sendRequest("one-shot", "x", { requireTask, ...rest }));
    expect("id" in first).toBe(true);
  });
});
