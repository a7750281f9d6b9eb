/**
 * §9.13: one messageId, one Message. The server shows a Message in several places (the first
 * Task's history and the terminal Task's); with data, raw or url Parts that the v1 record does not
 * commit, two copies can differ where no commitment would see it, and
 * `--insecure-accept-uncommitted-parts` accepted the record as if the observation were one.
 */
import { expect } from "vitest";
import { JsonNumber, fromPlain, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import type { PartSpec } from "../../../producer/a2a.js";
import type { ExchangeOptions } from "../../../producer/options.js";
import { ARTIFACT_0, MESSAGE_0, MESSAGE_1 } from "../../properties/harness.js";
import { honest, objectAt, requestOf, type AdversarialCase } from "../harness.js";

/** A v1 record (no partCommitments) whose agent Message carries a data Part. */
const WITH_DATA: ExchangeOptions = {
  transcript: [
    { messageId: MESSAGE_0, role: "ROLE_USER", parts: ["Pay the supplier invoice."] },
    {
      messageId: MESSAGE_1,
      role: "ROLE_AGENT",
      parts: ["Payment order ready.", { data: { amount: 500, currency: "EUR" } }] as PartSpec[],
    },
  ],
  artifacts: [{ artifactId: ARTIFACT_0, name: "order", parts: ["order 17"] }],
};

/** The honest exchange, its first Task also showing the agent Message, changed by `change`. */
function firstTaskShows(change: (m: JsonObject) => void, acceptUncommitted = true) {
  const e = honest(WITH_DATA);
  const copy = fromPlain(objectAt(e.finalTask, "history", 1)) as JsonObject;
  change(copy);
  const data = fromPlain(e.input) as JsonObject;
  (objectAt(data, "firstTask").history as JsonValue[]).push(copy);
  return requestOf(e, {
    inputs: [{ source: "attack", data }],
    ...(acceptUncommitted ? { acceptUncommittedParts: true } : {}),
  });
}

const dataOf = (m: JsonObject): JsonObject => objectAt(m, "parts", 1, "data");

export const COPIES_CASES: readonly AdversarialCase[] = [
  {
    name: "first Task shows the agent Message with another data Part, parts accepted uncommitted",
    rule: "§9.13",
    attack:
      "the first Task's copy of a v1 agent Message says amount 5, the terminal Task's 500: same text, same partCommitment",
    request: () => firstTaskShows((m) => void (dataOf(m).amount = new JsonNumber("5"))),
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "transcript.unambiguous",
      detail: /shown twice with different content: .*parts\[1\]\.data\.amount.*one messageId, two observations/,
    },
  },
  {
    name: "first Task shows the agent Message with another data Part",
    rule: "§9.13",
    attack: "the same two copies without the opt-in: a FAIL, not a doubt about uncommitted parts",
    request: () => firstTaskShows((m) => void (dataOf(m).amount = new JsonNumber("5")), false),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "transcript.unambiguous" },
  },
  {
    name: "first Task shows the agent Message as the terminal Task does",
    rule: "§9.13",
    attack:
      "(control) the first Task's copy is the same Message, written otherwise (500.0, ids left out): accepted uncommitted, exit 0",
    request: () =>
      firstTaskShows((m) => {
        dataOf(m).amount = new JsonNumber("500.0");
        delete m.taskId;
        delete m.contextId;
      }),
    expected: {
      exitCode: 0,
      property: "taskBinding",
      state: "INCONCLUSIVE",
      check: "transcript.firstTask",
      more: (_report, input) => {
        const checks = input?.properties.taskBinding.checks ?? [];
        expect(checks.filter((c) => c.state === "FAIL")).toEqual([]);
        expect(checks.filter((c) => c.state === "INCONCLUSIVE").map((c) => c.code)).toEqual([
          "PART_NOT_COMMITTED",
          "PART_NOT_COMMITTED",
        ]);
      },
    },
  },
];
