/**
 * §3, §9.8: the caller's own word. A capture's `request` (and `requests`) is what the client sent;
 * the server's copies must be that Message, and the requirement is read from it. Without it,
 * the server's copies of the first Message must agree, whichever copy carries the requirement.
 */
import { expect } from "vitest";
import { isFailedInput, type Report, type VerifiedInput } from "../../../src/index.js";
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import { EXTENSION_URI } from "../../../producer/constants.js";
import { uuidFromLabel, type MessageSpec } from "../../../producer/a2a.js";
import { jsonObject } from "../../../producer/json-text.js";
import type { ExchangeOptions, TranscriptSpec } from "../../../producer/options.js";
import type { Exchange } from "../../../producer/exchange.js";
import { agent, user } from "../../helpers/messages.js";
import { arrayAt, copy, honest, objectAt, requestOf, type AdversarialCase } from "../harness.js";

/** What the client sent: the server's first copy without the ids the server assigned, the delay as a JS client writes it. */
function sentCopy(serverCopy: JsonValue, change: (m: JsonObject) => void = () => undefined): JsonObject {
  const m = copy(serverCopy) as JsonObject;
  delete m.contextId;
  delete m.taskId;
  const requirement = m.metadata && objectAt(m, "metadata")[EXTENSION_URI];
  if (requirement) objectAt(m, "metadata", EXTENSION_URI).maximumRegistrationDelaySeconds = copy(60 as never);
  change(m);
  return m;
}

/** The exchange's capture with the caller's own `request` (and `requests`) beside it. */
function captureWith(
  e: Exchange,
  sent: { request?: JsonObject; requests?: JsonObject[] },
  firstTask = true,
): JsonObject {
  return jsonObject({
    ...(firstTask ? { firstTask: copy(e.firstTask) } : {}),
    finalTask: copy(e.finalTask),
    ...sent,
  });
}

const input = (e: Exchange, data: JsonObject) => requestOf(e, { inputs: [{ source: "attack", data }] });

/** The requirement of a Message, to change it. */
const requirementOf = (m: JsonObject): JsonObject => objectAt(m, "metadata", EXTENSION_URI);

/** A server that builds everything around SIGNED_RECORD (no Transparency Service): its record is a signed record only. */
const SIGNED_ONLY: ExchangeOptions = {
  witnesses: [],
  priorCheckpoint: null,
  requirement: { minimumEvidence: "SIGNED_RECORD" },
};

/** The client asked for EXTERNALLY_REGISTERED; the server echoed, accepted and sealed SIGNED_RECORD. */
function weakerEcho(): Exchange & { request: JsonObject } {
  const e = honest(SIGNED_ONLY);
  const request = sentCopy(objectAt(e.firstTask, "history", 0), (m) => {
    requirementOf(m).minimumEvidence = "EXTERNALLY_REGISTERED";
  });
  return { ...e, request };
}

/** The client sent its own request; the server shows and seals another one (its own messageId and text). */
function anotherRequest(): Exchange & { request: JsonObject } {
  const e = honest();
  const request = sentCopy(objectAt(e.firstTask, "history", 0), (m) => {
    m.messageId = uuidFromLabel("the request the caller sent");
    objectAt(m, "parts", 0).text = "Quote EUR/USD for a 100 EUR transfer.";
  });
  return { ...e, request };
}

/** The terminal Task's copy of the first Message carries the requirement; the first Task's copy and the first Task carry none. */
function strippedFirstTask(e: Exchange): JsonObject {
  const first = copy(e.firstTask);
  const m = objectAt(first, "history", 0);
  delete m.metadata;
  delete m.extensions;
  delete first.metadata;
  return first;
}

const REQUEST: MessageSpec = user("rq message 0", "Book a table for two tonight.");
const ASK: MessageSpec = agent("rq message 1", "At 19:00 or 21:00?");
const RESUME: MessageSpec = user("rq message 2", "21:00.");
const DONE: MessageSpec = agent("rq message 3", "Booked for 21:00.");
const W = "TASK_STATE_WORKING" as const;
const IR = "TASK_STATE_INPUT_REQUIRED" as const;
const PAUSE: TranscriptSpec[] = [
  REQUEST,
  ASK,
  { transition: { from: W, to: IR } },
  RESUME,
  { transition: { from: IR, to: W } },
  DONE,
];

/** A Task that paused for input: the client's request and its resuming Message, as it sent them. */
function paused(changeResume: (m: JsonObject) => void = () => undefined): { e: Exchange; data: JsonObject } {
  const e = honest({ transcript: PAUSE, taskId: uuidFromLabel("rq task"), contextId: uuidFromLabel("rq context") });
  const history = arrayAt(e.finalTask, "history");
  const resume = history.find((m) => objectAt(m, "parts", 0).text === "21:00.") as JsonObject;
  return {
    e,
    data: captureWith(e, {
      request: sentCopy(objectAt(e.firstTask, "history", 0)),
      requests: [sentCopy(resume, changeResume)],
    }),
  };
}

function verifiedInput(report: Report): VerifiedInput {
  const first = report.inputs[0];
  if (!first || isFailedInput(first)) throw new Error(`the input was not verified: ${JSON.stringify(first)}`);
  return first;
}

/** The input was refused (exit 2) with this code, naming this path. */
const refusedAt =
  (code: string, path: string) =>
  (report: Report): void => {
    const first = report.inputs[0];
    if (!first || !isFailedInput(first)) throw new Error(`expected a refused input: ${JSON.stringify(first)}`);
    expect(first.error.code).toBe(code);
    expect(first.error.path).toBe(path);
  };

export const REQUEST_CASES: readonly AdversarialCase[] = [
  {
    name: "server echoes a weaker minimum than the caller sent",
    rule: "§3",
    attack:
      "the client asked for EXTERNALLY_REGISTERED; the server's copies say SIGNED_RECORD, it accepts that and seals a signed record only",
    request: () => {
      const e = weakerEcho();
      return input(e, captureWith(e, { request: e.request }));
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "transcript.request",
      detail: /the caller sent \\"EXTERNALLY_REGISTERED\\"/,
      more: (report) => {
        const n = verifiedInput(report).properties.negotiation;
        expect(n.state).toBe("FAIL");
        const failing = n.checks.filter((c) => c.state === "FAIL").map((c) => c.id);
        expect(failing).toEqual(expect.arrayContaining(["requirement.copiesAgree", "acceptance.terms"]));
        expect(verifiedInput(report).evidenceLevel.negotiated).toBe("EXTERNALLY_REGISTERED");
      },
    },
  },
  {
    name: "the same weaker echo without the caller's request",
    rule: "§3",
    attack:
      "(control) the same capture, no request recorded: the server's word is all there is, and it agrees with itself",
    request: () => {
      const e = weakerEcho();
      return input(e, captureWith(e, {}));
    },
    expected: {
      exitCode: 0,
      property: "negotiation",
      state: "PASS",
      check: "requirement.copiesAgree",
    },
  },
  {
    name: "server shows and seals another request",
    rule: "§3",
    attack:
      "the client sent one request; the first Task, the terminal Task and the record all show another (messageId, text)",
    request: () => {
      const e = anotherRequest();
      return input(e, captureWith(e, { request: e.request }));
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "transcript.request",
      detail: /the first Task opens with message .*not the request .*the caller sent/,
    },
  },
  {
    name: "another request sealed, no first Task",
    rule: "§3",
    attack: "as above, the capture holding only the terminal Task: the record's transcript opens with another request",
    request: () => {
      const e = anotherRequest();
      return input(e, captureWith(e, { request: e.request }, false));
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "transcript.request",
      detail: /transcript opens with message .*the evidence proves a request the caller never sent/,
    },
  },
  {
    name: "server copy changes the request's text",
    rule: "§3",
    attack: "the caller's request says one thing; the server's copies (same messageId) and the record say another",
    request: () => {
      const e = honest();
      const request = sentCopy(objectAt(e.firstTask, "history", 0), (m) => {
        objectAt(m, "parts", 0).text = "Quote EUR/USD for a 100 EUR transfer.";
      });
      return input(e, captureWith(e, { request }));
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "transcript.request",
      detail: /firstTask\.history\[0\] shows .* at parts\[0\]\.text/,
    },
  },
  {
    name: "server copy drops the contextId the caller sent",
    rule: "§3",
    attack: "the caller's request names a context; the server's copies name another",
    request: () => {
      const e = honest();
      const request = sentCopy(objectAt(e.firstTask, "history", 0), (m) => {
        m.contextId = "the caller's context";
      });
      return input(e, captureWith(e, { request }));
    },
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "transcript.request", detail: /contextId/ },
  },
  {
    name: "the caller's request, echoed faithfully",
    rule: "§3",
    attack:
      "(control) the server's copies equal the request but for the contextId and taskId it added and 60 written as 60.0",
    request: () => {
      const e = honest();
      return input(e, captureWith(e, { request: sentCopy(objectAt(e.firstTask, "history", 0)) }));
    },
    expected: {
      exitCode: 0,
      property: "taskBinding",
      state: "PASS",
      check: "transcript.request",
      more: (report) => {
        const n = verifiedInput(report).properties.negotiation;
        expect(n.state).toBe("PASS");
        expect(n.checks.find((c) => c.id === "requirement.copiesAgree")?.state).toBe("PASS");
      },
    },
  },
  {
    name: "the caller's request in proto names",
    rule: "§3",
    attack: "(control) the request recorded with ProtoJSON's proto field names and the role as a number",
    request: () => {
      const e = honest();
      const m = sentCopy(objectAt(e.firstTask, "history", 0));
      const proto = jsonObject({
        message_id: m.messageId,
        role: 1,
        parts: m.parts,
        metadata: m.metadata,
        extensions: m.extensions,
      });
      return input(e, captureWith(e, { request: proto }));
    },
    expected: { exitCode: 0, property: "taskBinding", state: "PASS", check: "transcript.request" },
  },
  {
    name: "resuming Message changed by the server",
    rule: "§3",
    attack: "the client resumed with one answer; the server's copy of that Message (and the record) show another",
    request: () => {
      const { e, data } = paused((m) => void (objectAt(m, "parts", 0).text = "19:00."));
      return input(e, data);
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "transcript.request",
      detail: /requests\[0\].*shows \\"21:00\.\\" at parts\[0\]\.text, the caller sent \\"19:00\.\\"/,
    },
  },
  {
    name: "resuming Message the evidence never shows",
    rule: "§3",
    attack: "the client recorded a resuming Message that neither the Task nor the record shows",
    request: () => {
      const { e, data } = paused();
      arrayAt(data, "requests").push(
        sentCopy(objectAt(e.firstTask, "history", 0), (m) => {
          m.messageId = uuidFromLabel("a resumption the server never took");
          delete m.metadata;
          delete m.extensions;
        }),
      );
      return input(e, data);
    },
    expected: {
      exitCode: 3,
      property: "taskBinding",
      state: "INCONCLUSIVE",
      check: "transcript.request",
      detail: /neither the Task nor the record shows the resuming Message/,
    },
  },
  {
    name: "the caller's request and resumption, echoed faithfully",
    rule: "§3",
    attack: "(control) a Task that paused for input, the request and the resuming Message equal to the server's copies",
    request: () => {
      const { e, data } = paused();
      return input(e, data);
    },
    expected: {
      exitCode: 0,
      property: "taskBinding",
      state: "PASS",
      check: "transcript.request",
      more: (report) => {
        const ids = verifiedInput(report).properties.taskBinding.checks.filter((c) => c.id === "transcript.request");
        expect(ids.map((c) => `${c.subject} ${c.state}`)).toEqual(["request PASS", "requests[0] PASS"]);
      },
    },
  },
  {
    name: "first Task by flag weaker than the caller's request",
    rule: "§3",
    attack:
      "a capture with the caller's request and no first Task, verified with --first-task naming a first Task whose copy of the request asks less",
    request: () => {
      const e = weakerEcho();
      return requestOf(e, {
        inputs: [{ source: "attack", data: captureWith(e, { request: e.request }, false) }],
        firstTask: e.firstTask,
      });
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "transcript.request",
      detail: /history\[0\] shows \\"SIGNED_RECORD\\"/,
    },
  },
  {
    name: "requirement only on the terminal Task's copy",
    rule: "§9.8",
    attack:
      "the terminal Task's copy of the first Message asks REQUIRED EXTERNALLY_REGISTERED; the first Task's copy asks nothing and the first Task accepts nothing; the record is a signed record",
    request: () => {
      const e = honest({ ...SIGNED_ONLY, requirement: { minimumEvidence: "EXTERNALLY_REGISTERED" } });
      return input(e, jsonObject({ firstTask: strippedFirstTask(e), finalTask: copy(e.finalTask) }));
    },
    expected: {
      exitCode: 1,
      property: "negotiation",
      state: "FAIL",
      check: "requirement.copiesAgree",
      more: (report) => {
        const v = verifiedInput(report);
        expect(v.properties.taskBinding.state).toBe("FAIL");
        expect(v.properties.taskBinding.checks.find((c) => c.state === "FAIL")?.id).toBe("transcript.request");
        expect(v.evidenceLevel.negotiated).toBe("EXTERNALLY_REGISTERED");
      },
    },
  },
  {
    name: "requirement only on the terminal Task's copy, first Task by flag",
    rule: "§9.8",
    attack: "as above, the GetTask response verified with --first-task naming the stripped first Task",
    request: () => {
      const e = honest({
        ...SIGNED_ONLY,
        requirement: { minimumEvidence: "EXTERNALLY_REGISTERED" },
        envelope: "jsonrpc",
      });
      return requestOf(e, { firstTask: strippedFirstTask(e) });
    },
    expected: {
      exitCode: 1,
      property: "negotiation",
      state: "FAIL",
      check: "requirement.copiesAgree",
      more: (report) =>
        expect(verifiedInput(report).properties.taskBinding.checks.find((c) => c.state === "FAIL")?.id).toBe(
          "transcript.request",
        ),
    },
  },
  {
    name: "requirement only on the first Task's copy",
    rule: "§9.8",
    attack: "the first Task's copy of the first Message carries the requirement; the terminal Task's copy does not",
    request: () => {
      const e = honest();
      const final = copy(e.finalTask);
      const m = objectAt(final, "history", 0);
      delete m.metadata;
      delete m.extensions;
      return input(e, jsonObject({ firstTask: copy(e.firstTask), finalTask: final }));
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "transcript.request",
      more: (report) => expect(verifiedInput(report).properties.negotiation.state).toBe("FAIL"),
    },
  },
  {
    name: "request that is not a Message",
    rule: "§3",
    attack: "the capture's request is a string",
    request: () => {
      const e = honest();
      return input(e, captureWith(e, { request: "hello" as never }));
    },
    expected: { exitCode: 2, more: refusedAt("INPUT_A2A_MALFORMED", "request") },
  },
  {
    name: "requests that is not an array",
    rule: "§3",
    attack: "the capture's requests is one Message, not an array",
    request: () => {
      const e = honest();
      return input(e, captureWith(e, { requests: sentCopy(objectAt(e.firstTask, "history", 0)) as never }));
    },
    expected: { exitCode: 2, more: refusedAt("INPUT_A2A_MALFORMED", "requests") },
  },
  {
    name: "a sent Message without its messageId",
    rule: "§3",
    attack: "requests[0] has no messageId",
    request: () => {
      const e = honest();
      const m = sentCopy(objectAt(e.firstTask, "history", 0), (x) => void delete x.messageId);
      return input(e, captureWith(e, { requests: [m] }));
    },
    expected: { exitCode: 2, more: refusedAt("INPUT_A2A_MALFORMED", "requests[0].messageId") },
  },
  {
    name: "a sent Message recorded twice",
    rule: "§3",
    attack: "requests[0] repeats the request's messageId with other text",
    request: () => {
      const e = honest();
      const request = sentCopy(objectAt(e.firstTask, "history", 0));
      const again = sentCopy(objectAt(e.firstTask, "history", 0), (m) => void (objectAt(m, "parts", 0).text = "other"));
      return input(e, captureWith(e, { request, requests: [again] }));
    },
    expected: { exitCode: 2, more: refusedAt("INPUT_A2A_MALFORMED", "requests[0].messageId") },
  },
  {
    name: "two records of what the caller sent",
    rule: "§9.16",
    attack: "a capture with its own request, verified with a --first-task capture that records another",
    request: () => {
      const e = anotherRequest();
      const data = jsonObject({ finalTask: copy(e.finalTask), request: e.request });
      const first = captureWith(e, { request: sentCopy(objectAt(e.firstTask, "history", 0)) });
      return requestOf(e, { inputs: [{ source: "attack", data }], firstTask: first });
    },
    expected: {
      exitCode: 2,
      more: (report) => {
        const first = report.inputs[0];
        if (!first || !isFailedInput(first)) throw new Error("expected a refused input");
        expect(first.error.code).toBe("INPUT_CONFLICTING_TASK");
      },
    },
  },
];
