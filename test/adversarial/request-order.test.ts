/**
 * §3: a capture's `requests` are the resuming Messages the client sent, in order — the client's own
 * observation of which answer it gave to which question. A server that shows and seals the client's
 * answers in another order (each Message unchanged, so every copy equals what was sent) has the
 * record say the client answered the first question with its second answer: the evidence
 * contradicts what the caller itself holds, and must not PASS.
 */
import { describe, expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { isFailedInput, type Report } from "../../src/report/model.js";
import { utf8 } from "../../src/util/bytes.js";
import type { JsonObject, JsonValue } from "../../src/json/value.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { uuidFromLabel, type MessageSpec } from "../../producer/a2a.js";
import { jsonObject, jsonText } from "../../producer/json-text.js";
import type { TranscriptSpec } from "../../producer/options.js";
import { agent, user } from "../helpers/messages.js";
import { arrayAt, copy, honest, objectAt } from "./harness.js";

const W = "TASK_STATE_WORKING" as const;
const IR = "TASK_STATE_INPUT_REQUIRED" as const;
const REQUEST: MessageSpec = user("order message 0", "Pay my two open invoices.");
const ASK_SMALL: MessageSpec = agent("order message 1", "Pay invoice 17 (10 EUR to Alice)?");
const ASK_LARGE: MessageSpec = agent("order message 3", "Pay invoice 18 (5000 EUR to Mallory)?");
const YES: MessageSpec = user("order answer yes", "Yes.");
const NO: MessageSpec = user("order answer no", "No.");
const DONE: MessageSpec = agent("order message 5", "Paid.");

/** The agent asks, the Task waits for input, the caller's answer resumes it. */
function pause(ask: MessageSpec, answer: MessageSpec): TranscriptSpec[] {
  return [ask, { transition: { from: W, to: IR } }, answer, { transition: { from: IR, to: W } }];
}

/** Two pauses for input; `first` answers the small invoice, `second` the large one. */
function twoPauses(first: MessageSpec, second: MessageSpec): TranscriptSpec[] {
  return [REQUEST, ...pause(ASK_SMALL, first), ...pause(ASK_LARGE, second), DONE];
}

/** What the client sent: the server's copy without the ids the server assigned. */
function sentCopy(serverCopy: JsonValue): JsonObject {
  const m = copy(serverCopy) as JsonObject;
  delete m.contextId;
  delete m.taskId;
  const requirement = m.metadata && objectAt(m, "metadata")[EXTENSION_URI];
  if (requirement) objectAt(m, "metadata", EXTENSION_URI).maximumRegistrationDelaySeconds = copy(60 as never);
  return m;
}

/** The server's capture of an exchange whose record has the answers in `recorded` order; the client sent YES, then NO. */
function run(recorded: [MessageSpec, MessageSpec]) {
  const e = honest({
    transcript: twoPauses(...recorded),
    taskId: uuidFromLabel("order task"),
    contextId: uuidFromLabel("order context"),
  });
  const history = arrayAt(e.finalTask, "history");
  const byText = (text: string) => history.find((m) => objectAt(m, "parts", 0).text === text) as JsonObject;
  const data = jsonObject({
    firstTask: copy(e.firstTask),
    finalTask: copy(e.finalTask),
    request: sentCopy(objectAt(e.firstTask, "history", 0)),
    requests: [sentCopy(byText("Yes.")), sentCopy(byText("No."))],
  });
  const report = verify({ inputs: [{ source: "attack", data }], trust: e.trust });
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`not verified: ${JSON.stringify(input)}`);
  return { taskBinding: input.properties.taskBinding, exitCode: report.policy.exitCode };
}

it("the honest order (the client said yes to the small invoice, then no to the large one) PASSes", () => {
  const { taskBinding, exitCode } = run([YES, NO]);
  expect(taskBinding.state).toBe("PASS");
  expect(exitCode).toBe(0);
});

it("§3 resuming Messages sealed in another order than the client sent them FAIL taskBinding (transcript.request), exit 1", () => {
  const { taskBinding, exitCode } = run([NO, YES]);
  const failed = taskBinding.checks.filter((c) => c.state === "FAIL").map((c) => c.id);
  expect(taskBinding.state).toBe("FAIL");
  expect(failed).toContain("transcript.request");
  expect(exitCode).toBe(1);
});

it("the swapped order names both Messages and their positions, in the record's transcript and in the Task's history", () => {
  const { taskBinding } = run([NO, YES]);
  const order = taskBinding.checks.filter((c) => c.id === "transcript.request" && c.state === "FAIL");
  const [yes, no] = [YES.messageId, NO.messageId];
  expect(order.map((c) => c.subject)).toEqual(["requests[1]", "requests[1]"]);
  expect(order[0]?.detail).toBe(
    `the caller sent requests[0] (message ${yes}) before requests[1] (message ${no}), but the record's transcript commits ${no} at transcript[3] before ${yes} at transcript[7]: the evidence has the caller's Messages in another order than it sent them (an answer given to one question shown as the answer to another)`,
  );
  expect(order[1]?.detail).toMatch(
    new RegExp(
      `the server's Task shows ${no} at finalTask\\.history\\[2\\] before ${yes} at finalTask\\.history\\[4\\]`,
    ),
  );
  // Each Message is what the caller sent: only the order is wrong.
  expect(
    taskBinding.checks.filter((c) => c.id === "transcript.request" && c.state === "PASS").map((c) => c.subject),
  ).toEqual(["request", "requests[0]", "requests[1]"]);
});

/** The server's copy of a Message in the terminal Task's history, if it took that Message. */
function serverCopyOf(e: ReturnType<typeof honest>, spec: MessageSpec): JsonObject | undefined {
  return arrayAt(e.finalTask, "history").find((m) => objectAt(m).messageId === spec.messageId) as JsonObject;
}

/** A Message the client sent and the server never took: no copy of it anywhere, nothing commits it. */
const notTaken = (m: MessageSpec): JsonObject =>
  jsonObject({ messageId: m.messageId, role: m.role, parts: [{ text: m.parts[0] as string }] });

interface Capture {
  readonly transcript: TranscriptSpec[];
  /**
   * The Messages the client sent, in order: the request (unless `request` is false), then the
   * resuming Messages; one the transcript does not hold is one the server never took.
   */
  readonly sent: readonly MessageSpec[];
  readonly request?: boolean;
  /** The terminal Task's history as the server shows it (default: all of it). */
  readonly history?: (history: JsonValue[]) => JsonValue[];
  readonly firstTask?: boolean;
}

function verified(report: Report) {
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`not verified: ${JSON.stringify(input ?? report.error)}`);
  const taskBinding = input.properties.taskBinding;
  const request = taskBinding.checks.filter((c) => c.id === "transcript.request");
  return { taskBinding, request, exitCode: report.policy.exitCode };
}

function verifyCapture(c: Capture) {
  const e = honest({
    transcript: c.transcript,
    taskId: uuidFromLabel("order task"),
    contextId: uuidFromLabel("order context"),
  });
  const sent = c.sent.map((m) => sentCopy(serverCopyOf(e, m) ?? notTaken(m)));
  const [request, ...requests] = c.request === false ? [undefined, ...sent] : sent;
  const finalTask = copy(e.finalTask);
  if (c.history) finalTask.history = c.history(arrayAt(finalTask, "history")) as never;
  const data = jsonObject({
    ...(c.firstTask === false ? {} : { firstTask: copy(e.firstTask) }),
    finalTask,
    ...(request ? { request } : {}),
    requests,
  });
  return verified(verify({ inputs: [{ source: "look-alike", data }], trust: e.trust }));
}

/** The ids of taskBinding's INCONCLUSIVE checks, once none of its checks FAILs. */
function doubts(r: ReturnType<typeof verifyCapture>): string[] {
  expect(r.taskBinding.checks.filter((c) => c.state === "FAIL")).toEqual([]);
  return r.taskBinding.checks.filter((c) => c.state === "INCONCLUSIVE").map((c) => c.id);
}

/** No order FAIL: every transcript.request check is the per-Message one, each in the state `states` gives (PASS by default). */
function noOrderFault(r: ReturnType<typeof verifyCapture>, states: Record<string, string> = {}) {
  expect(r.request.map((c) => `${c.subject} ${c.state}`)).toEqual(
    r.request.map((c) => `${c.subject} ${states[c.subject ?? ""] ?? "PASS"}`),
  );
  expect(r.request.filter((c) => /another order/.test(c.detail))).toEqual([]);
}

/** No order FAIL, taskBinding PASS, exit 0. */
function passes(r: ReturnType<typeof verifyCapture>) {
  noOrderFault(r);
  expect(r.taskBinding.state).toBe("PASS");
  expect(r.exitCode).toBe(0);
}

/** A resuming Message the client sent that the server never took. */
const LOST: MessageSpec = user("order answer lost", "Maybe.");

describe("honest look-alikes keep their verdict", () => {
  it("a terminal history truncated at its start (the server dropped the early turns)", () => {
    const r = verifyCapture({ transcript: twoPauses(YES, NO), sent: [REQUEST, YES, NO], history: (h) => h.slice(2) });
    noOrderFault(r);
    expect(r.request.map((c) => c.subject)).toEqual(["request", "requests[0]", "requests[1]"]);
    // The turns no Task shows are what keeps it from PASS, as for any history a server cut short.
    expect(doubts(r)).toEqual(["transcript.transition", "transcript.unobserved"]);
    expect(r.exitCode).toBe(3);
  });

  it("(control) the same truncated history with the answers swapped FAILs, in the transcript and in the history", () => {
    const r = verifyCapture({ transcript: twoPauses(NO, YES), sent: [REQUEST, YES, NO], history: (h) => h.slice(2) });
    const failed = r.request.filter((c) => c.state === "FAIL");
    expect(failed.map((c) => c.detail)).toEqual([
      expect.stringContaining("the record's transcript commits"),
      expect.stringContaining("the server's Task shows"),
    ]);
    expect(failed[1]?.detail).toMatch(/finalTask\.history\[0\] before .* at finalTask\.history\[2\]/);
    expect(r.exitCode).toBe(1);
  });

  it("the request shown nowhere (no first Task, a terminal history that starts later): it is judged against the record", () => {
    const r = verifyCapture({
      transcript: twoPauses(YES, NO),
      sent: [REQUEST, YES, NO],
      history: (h) => h.slice(1),
      firstTask: false,
    });
    noOrderFault(r);
    expect(r.request[0]?.detail).toMatch(
      /the server shows no copy of message .* the record commits it at transcript\[0\]/,
    );
    expect(doubts(r)).toEqual(["transcript.unobserved"]);
    expect(r.exitCode).toBe(3);
  });

  it("a resuming Message the server never took, between two it did, is left out of the order (INCONCLUSIVE, exit 3, as before)", () => {
    const r = verifyCapture({ transcript: twoPauses(YES, NO), sent: [REQUEST, YES, LOST, NO] });
    noOrderFault(r, { "requests[1]": "INCONCLUSIVE" });
    expect(doubts(r)).toEqual(["transcript.request"]);
    expect(r.exitCode).toBe(3);
  });

  it("(control) the same with the answers on either side of it swapped FAILs: the Message left out hides nothing", () => {
    const r = verifyCapture({ transcript: twoPauses(NO, YES), sent: [REQUEST, YES, LOST, NO] });
    const failed = r.request.filter((c) => c.state === "FAIL");
    expect(failed.map((c) => c.subject)).toEqual(["requests[2]", "requests[2]"]);
    expect(failed[0]?.detail).toMatch(/the caller sent requests\[0\] .* before requests\[2\]/);
    expect(r.exitCode).toBe(1);
  });

  it("resuming Messages recorded without the request, in the order sent", () => {
    passes(verifyCapture({ transcript: twoPauses(YES, NO), sent: [YES, NO], request: false }));
  });

  it("(control) resuming Messages recorded without the request, sealed swapped, FAIL", () => {
    const r = verifyCapture({ transcript: twoPauses(NO, YES), sent: [YES, NO], request: false });
    expect(r.request.filter((c) => c.state === "FAIL").map((c) => c.subject)).toEqual(["requests[1]", "requests[1]"]);
    expect(r.exitCode).toBe(1);
  });

  it("one follow-up only", () => {
    passes(verifyCapture({ transcript: [REQUEST, ...pause(ASK_SMALL, YES), DONE], sent: [REQUEST, YES] }));
  });

  it("the agent's Messages interleaved between the caller's, several in a row", () => {
    const transcript: TranscriptSpec[] = [
      REQUEST,
      agent("order agent a", "Looking up your invoices."),
      ...pause(ASK_SMALL, YES),
      agent("order agent b", "Paid invoice 17."),
      agent("order agent c", "Invoice 18 is unusually large."),
      ...pause(ASK_LARGE, NO),
      DONE,
    ];
    passes(verifyCapture({ transcript, sent: [REQUEST, YES, NO] }));
  });

  it("the same text sent twice under two messageIds, in the order sent", () => {
    const AGAIN = user("order answer yes again", "Yes.");
    passes(verifyCapture({ transcript: twoPauses(YES, AGAIN), sent: [REQUEST, YES, AGAIN] }));
  });

  it("the same text sent twice, its two messageIds sealed swapped, FAILs: the order is the messageIds'", () => {
    const AGAIN = user("order answer yes again", "Yes.");
    const r = verifyCapture({ transcript: twoPauses(AGAIN, YES), sent: [REQUEST, YES, AGAIN] });
    expect(r.request.filter((c) => c.state === "FAIL").map((c) => c.subject)).toEqual(["requests[1]", "requests[1]"]);
    expect(r.exitCode).toBe(1);
  });
});

/**
 * The client resumed with a second sendMessageStream: the stream opens with the stored Task (the
 * history up to the resuming Message just sent), then the status back to working, the evidence
 * Artifact and the final status
 * with the agent's last Message. The first response is SendMessage's, given with --first-task as
 * the client's capture of the exchange, which also records what it sent.
 */
function viaStream(recorded: [MessageSpec, MessageSpec]) {
  const e = honest({
    transcript: twoPauses(...recorded),
    taskId: uuidFromLabel("order task"),
    contextId: uuidFromLabel("order context"),
  });
  const final = e.finalTask;
  const history = arrayAt(final, "history");
  const ids = { taskId: final.id as string, contextId: final.contextId as string };
  const stored = copy(final);
  stored.status = jsonObject({ state: IR });
  stored.history = history.slice(0, 5).map((m) => copy(m)) as never;
  stored.artifacts = arrayAt(final, "artifacts")
    .filter((a) => objectAt(a).name === "quote")
    .map((a) => copy(a)) as never;
  stored.metadata = copy(objectAt(e.firstTask, "metadata"));
  const evidence = arrayAt(final, "artifacts").find((a) => objectAt(a).name !== "quote") as JsonObject;
  const status = copy(objectAt(final, "status"));
  status.message = copy(history[5] as JsonObject);
  const events: JsonValue[] = [
    { task: stored },
    { statusUpdate: { ...ids, status: { state: W } } },
    { artifactUpdate: { ...ids, artifact: copy(evidence) } },
    { statusUpdate: { ...ids, status, metadata: copy(objectAt(final, "metadata")) } },
  ];
  const sse = utf8(events.map((ev) => `data: ${jsonText(ev).replace(/\n\s*/g, "")}\n\n`).join(""));
  const byId = (spec: MessageSpec) => sentCopy(serverCopyOf(e, spec) as JsonObject);
  const first = jsonObject({
    firstTask: copy(e.firstTask),
    finalTask: copy(final),
    request: byId(REQUEST),
    requests: [byId(YES), byId(NO)],
  });
  return verified(
    verify({ inputs: [{ source: "stream", data: sse }], firstTask: utf8(jsonText(first)), trust: e.trust }),
  );
}

describe("a resumption stream, what was sent recorded beside its first response", () => {
  it("in the order sent PASSes", () => {
    passes(viaStream([YES, NO]));
  });

  it("with the answers swapped FAILs transcript.request, exit 1", () => {
    const r = viaStream([NO, YES]);
    const failed = r.taskBinding.checks.filter((c) => c.state === "FAIL");
    expect(failed.map((c) => `${c.id} ${c.subject}`)).toEqual([
      "transcript.request requests[1]",
      "transcript.request requests[1]",
    ]);
    expect(failed[1]?.detail).toMatch(/the server's Task shows .* at history\[2\] before .* at history\[4\]/);
    expect(r.exitCode).toBe(1);
  });
});
