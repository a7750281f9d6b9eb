/**
 * interim.observed on a paused Task copied while it is being resumed (docs/profile.md §3.3): an
 * a2a-js server appends the resuming Message to the stored Task's history before its state leaves
 * INPUT_REQUIRED, so the non-blocking resume response, a resumption stream's first event and a
 * GetTask in that window show "the pause + the resuming Message". That one Message is accepted
 * only as the Message the terminal record commits right after the cited pause; every other extra
 * Message is content the interim record does not record, and FAILs.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../../src/json/value.js";
import { verify } from "../../src/verify.js";
import { isFailedInput } from "../../src/report/model.js";
import { utf8 } from "../../src/util/bytes.js";
import { uuidFromLabel, type MessageSpec } from "../../producer/a2a.js";
import { buildExchange, buildPausedExchange } from "../../producer/exchange.js";
import { jsonText } from "../../producer/json-text.js";
import type { ExchangeOptions, TranscriptSpec } from "../../producer/options.js";
import { copy } from "../properties/harness.js";
import { agent, user } from "../helpers/messages.js";

const ASK = agent("win 1", "At 19:00 or 21:00?");
const RESUME = user("win 2", "21:00.");
const TRANSCRIPT: TranscriptSpec[] = [
  user("win 0", "Book a table for two tonight."),
  ASK,
  { transition: { from: "TASK_STATE_WORKING", to: "TASK_STATE_INPUT_REQUIRED" } },
  RESUME,
  { transition: { from: "TASK_STATE_INPUT_REQUIRED", to: "TASK_STATE_WORKING" } },
  agent("win 3", "Booked for 21:00."),
];
const BASE: ExchangeOptions = {
  envelope: "jsonrpc",
  taskId: uuidFromLabel("win task"),
  contextId: uuidFromLabel("win context"),
  transcript: TRANSCRIPT,
  artifacts: [{ artifactId: uuidFromLabel("win slots"), name: "slots", parts: ["19:00 free", "21:00 free"], after: 1 }],
  leavesBefore: 2,
  interim: [{ at: 2 }],
};

const terminal = buildExchange(BASE);
const pausedTask = buildPausedExchange({ ...BASE, envelope: "paused", transcript: TRANSCRIPT.slice(0, 3) }).pausedTask;
const finalHistory = terminal.finalTask.history as JsonObject[];
const messageOf = (spec: MessageSpec): JsonObject =>
  copy(finalHistory.find((m) => m.messageId === spec.messageId) as JsonObject);
const historyOf = (t: JsonObject) => t.history as JsonValue[];

/** The paused Task as a2a-js shows it in the resumption window: the pause, then the resuming Message. */
function inWindow(): JsonObject {
  const t = copy(pausedTask);
  historyOf(t).push(messageOf(RESUME));
  return t;
}

function observed(task: JsonObject, against = terminal) {
  const input = verify({
    inputs: [{ source: "t", data: against.input }],
    trust: against.trust,
    interim: [utf8(jsonText(task))],
  }).inputs[0];
  if (!input || isFailedInput(input)) throw new Error(JSON.stringify(input));
  return {
    check: input.properties.taskBinding.checks.find((c) => c.id === "interim.observed"),
    taskBinding: input.properties.taskBinding.state,
  };
}

describe("interim.observed in the resumption window", () => {
  it("PASSes the paused Task whose history ends with the resuming Message the terminal record commits, saying so", () => {
    const { check, taskBinding } = observed(inWindow());
    expect(check).toMatchObject({
      state: "PASS",
      detail: expect.stringMatching(
        /its last Message .* excepted: that is the resuming Message the terminal record commits at transcript\[3\]/,
      ),
    });
    expect(check?.detail).toContain(RESUME.messageId);
    expect(taskBinding).toBe("PASS");
  });

  it("the paused Task without it still PASSes, with no such note", () => {
    expect(observed(pausedTask).check).toMatchObject({ state: "PASS", detail: expect.not.stringMatching(/excepted/) });
  });

  const NOT_RECORDED = /is not in the interim record's transcript/;
  const cases: Array<[string, (t: JsonObject) => void]> = [
    [
      "the resuming Message with other text (not what the terminal record commits)",
      (t) => void ((historyOf(t).at(-1) as { parts: { text: string }[] }).parts[0]!.text = "19:00."),
    ],
    [
      "another trailing Message, not the committed one",
      (t) => void ((historyOf(t).at(-1) as JsonObject).messageId = uuidFromLabel("win other")),
    ],
    ["the resuming Message as the agent's", (t) => void ((historyOf(t).at(-1) as JsonObject).role = "ROLE_AGENT")],
    [
      "two trailing Messages: the resuming one and a copy under another id",
      (t) => void historyOf(t).push({ ...messageOf(RESUME), messageId: uuidFromLabel("win again") }),
    ],
    [
      "two trailing Messages: the resuming one, then the agent's answer",
      (t) => void historyOf(t).push(messageOf(TRANSCRIPT[5] as MessageSpec)),
    ],
    [
      "the agent's later answer alone, committed after the resumption",
      (t) => void historyOf(t).splice(-1, 1, messageOf(TRANSCRIPT[5] as MessageSpec)),
    ],
    [
      "the resuming Message before the agent's request (not trailing)",
      (t) => void historyOf(t).splice(1, 0, historyOf(t).pop() as JsonValue),
    ],
  ];
  it.each(cases)("FAILs %s", (_, change) => {
    const task = inWindow();
    change(task);
    const { check, taskBinding } = observed(task);
    expect(check).toMatchObject({ state: "FAIL" });
    expect(check?.detail).toMatch(/not in the interim record's transcript|out of order/);
    expect(taskBinding).toBe("FAIL");
  });

  it("FAILs the resuming Message when the terminal record does not cite the record: there is no pause to be right after", () => {
    const dropped = buildExchange({ ...BASE, interim: [] });
    const { check } = observed(inWindow(), dropped);
    expect(check).toMatchObject({ state: "FAIL", detail: expect.stringMatching(NOT_RECORDED) });
  });

  it("FAILs the resuming Message when the terminal record does not bind the transition out of the pause to it", () => {
    const unbound: TranscriptSpec[] = [
      ...TRANSCRIPT.slice(0, 4),
      { transition: { from: "TASK_STATE_INPUT_REQUIRED", to: "TASK_STATE_WORKING" }, bound: false },
      TRANSCRIPT[5] as TranscriptSpec,
    ];
    const { check } = observed(inWindow(), buildExchange({ ...BASE, transcript: unbound }));
    expect(check).toMatchObject({ state: "FAIL", detail: expect.stringMatching(NOT_RECORDED) });
  });
});
