/**
 * §3: a capture's `requests` are the resuming Messages the client sent, in order — the client's own
 * observation of which answer it gave to which question. A server that shows and seals the client's
 * answers in another order (each Message unchanged, so every copy equals what was sent) has the
 * record say the client answered the first question with its second answer: the evidence
 * contradicts what the caller itself holds, and must not PASS.
 */
import { expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { isFailedInput } from "../../src/report/model.js";
import type { JsonObject, JsonValue } from "../../src/json/value.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { uuidFromLabel, type MessageSpec } from "../../producer/a2a.js";
import { jsonObject } from "../../producer/json-text.js";
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

/** Two pauses for input; `first` answers the small invoice, `second` the large one. */
function twoPauses(first: MessageSpec, second: MessageSpec): TranscriptSpec[] {
  return [
    REQUEST,
    ASK_SMALL,
    { transition: { from: W, to: IR } },
    first,
    { transition: { from: IR, to: W } },
    ASK_LARGE,
    { transition: { from: W, to: IR } },
    second,
    { transition: { from: IR, to: W } },
    DONE,
  ];
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
