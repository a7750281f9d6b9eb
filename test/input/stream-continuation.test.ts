/**
 * A stream whose first Task already shows a later client turn (docs/inputs.md, streams): a
 * resumption stream (a second sendMessageStream on a paused Task) or a subscription joined after
 * one begins with the stored Task, past its acceptance — not SendMessage's first response. Its
 * acceptance is then not observed (negotiation INCONCLUSIVE, as for a bare GetTask) and
 * --first-task supplies it. A first response that shows no later client turn is still the first
 * response: already terminal or holding results, it still FAILs acceptance.beforeWork (§9.18).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../../src/json/value.js";
import { verify } from "../../src/verify.js";
import { isFailedInput, type Report } from "../../src/report/model.js";
import { utf8 } from "../../src/util/bytes.js";
import { laterClientTurn } from "../../src/input/stream/task.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { buildExchange } from "../../producer/exchange.js";
import { jsonText } from "../../producer/json-text.js";
import type { TranscriptSpec } from "../../producer/options.js";
import { EXT, copy } from "../properties/harness.js";
import { agent, user } from "../helpers/messages.js";

const TRANSCRIPT: TranscriptSpec[] = [
  user("cont 0", "Book a table for two tonight."),
  agent("cont 1", "At 19:00 or 21:00?"),
  { transition: { from: "TASK_STATE_WORKING", to: "TASK_STATE_INPUT_REQUIRED" } },
  user("cont 2", "21:00."),
  { transition: { from: "TASK_STATE_INPUT_REQUIRED", to: "TASK_STATE_WORKING" } },
  agent("cont 3", "Booked for 21:00."),
];
const e = buildExchange({
  envelope: "jsonrpc",
  taskId: uuidFromLabel("cont task"),
  contextId: uuidFromLabel("cont context"),
  transcript: TRANSCRIPT,
  artifacts: [
    { artifactId: uuidFromLabel("cont slots"), name: "slots", parts: ["19:00 free", "21:00 free"], after: 1 },
  ],
  leavesBefore: 2,
});
const final = e.finalTask;
const history = final.history as JsonObject[];

/** A REST-framed SSE stream: the first event's Task, then (unless it is terminal) the evidence Artifact and the status update that end it as the final Task. */
function stream(first: JsonObject): Uint8Array {
  const ids = { taskId: final.id as string, contextId: final.contextId as string };
  const evidence = (final.artifacts as JsonObject[]).find(
    (a) => a.artifactId !== uuidFromLabel("cont slots"),
  ) as JsonObject;
  const ends = (first.status as JsonObject).state === "TASK_STATE_COMPLETED";
  const events: JsonValue[] = [
    { task: first },
    ...(ends
      ? []
      : [
          { artifactUpdate: { ...ids, artifact: copy(evidence) } },
          {
            statusUpdate: {
              ...ids,
              status: copy(final.status as JsonObject),
              metadata: copy(final.metadata as JsonObject),
            },
          },
        ]),
  ];
  return utf8(events.map((ev) => `data: ${jsonText(ev).replace(/\n\s*/g, "")}\n\n`).join(""));
}

/** The stored Task as a2a-js sends it first on a resumption stream: waiting, the resuming Message appended, acceptance still shown. */
function stored(messages = 3): JsonObject {
  const t = copy(final);
  t.status = { state: "TASK_STATE_INPUT_REQUIRED" } as never;
  t.history = history.slice(0, messages).map(copy) as never;
  t.artifacts = (final.artifacts as JsonObject[])
    .filter((a) => a.artifactId === uuidFromLabel("cont slots"))
    .map(copy) as never;
  t.metadata = copy(e.firstTask.metadata as JsonObject);
  return t;
}

function negotiation(report: Report) {
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(JSON.stringify(input ?? report.error));
  return { ...input.properties.negotiation, notes: input.notes };
}
const checkOf = (n: ReturnType<typeof negotiation>, id: string) => n.checks.find((c) => c.id === id);

describe("laterClientTurn", () => {
  it("names a ROLE_USER Message after a ROLE_AGENT one, and nothing else", () => {
    const m = (role: string, messageId: string) => ({ role, messageId });
    expect(
      laterClientTurn({ history: [m("ROLE_USER", "a"), m("ROLE_AGENT", "b"), m("ROLE_USER", "c")] } as never),
    ).toBe("c");
    expect(
      laterClientTurn({ history: [m("ROLE_USER", "a"), m("ROLE_USER", "b"), m("ROLE_AGENT", "c")] } as never),
    ).toBeUndefined();
    expect(laterClientTurn({ history: [m("ROLE_AGENT", "a")] } as never)).toBeUndefined();
    expect(laterClientTurn({} as never)).toBeUndefined();
  });
});

describe("a stream that begins with the stored Task of a later turn", () => {
  it("is not taken as the first response: acceptance not observed (INCONCLUSIVE), no acceptance.beforeWork, a note saying why", () => {
    const n = negotiation(verify({ inputs: [{ source: "resumption", data: stream(stored()) }], trust: e.trust }));
    expect(n.state).toBe("INCONCLUSIVE");
    expect(checkOf(n, "acceptance.accepted")).toMatchObject({
      state: "INCONCLUSIVE",
      detail: expect.stringMatching(/acceptance not observed/),
    });
    expect(checkOf(n, "acceptance.beforeWork")).toBeUndefined();
    expect(n.notes.join("\n")).toMatch(
      new RegExp(
        `already shows a later client turn \\(Message ${uuidFromLabel("cont 2")} after the agent's\\).*--first-task`,
      ),
    );
  });

  it("takes --first-task beside it, and judges that first response: acceptance.beforeWork PASS", () => {
    const report = verify({
      inputs: [{ source: "resumption", data: stream(stored()) }],
      firstTask: utf8(jsonText({ task: e.firstTask })),
      trust: e.trust,
    });
    const n = negotiation(report);
    expect(checkOf(n, "acceptance.beforeWork")).toMatchObject({ state: "PASS" });
    expect(checkOf(n, "acceptance.accepted")?.state).toBe("PASS");
  });

  it("given as --first-task itself, is refused (exit 2): its first event is no first response", () => {
    const report = verify({
      inputs: [{ source: "final", data: e.input }],
      firstTask: stream(stored()),
      trust: e.trust,
    });
    expect([report.error?.code, report.error?.source, report.policy.exitCode]).toEqual([
      "INPUT_NOT_A_TASK",
      "--first-task",
      2,
    ]);
  });

  it("given as --first-task as a JSON array of the same events, is refused alike (exit 2), never taken for its final Task", () => {
    const sse = Buffer.from(stream(stored())).toString("utf8");
    const events = sse
      .split("\n\n")
      .filter((e) => e !== "")
      .map((e) => e.slice("data: ".length));
    const report = verify({
      inputs: [{ source: "final", data: e.input }],
      firstTask: utf8(`[${events.join(",")}]`),
      trust: e.trust,
    });
    expect([report.error?.code, report.error?.source, report.policy.exitCode]).toEqual([
      "INPUT_NOT_A_TASK",
      "--first-task",
      2,
    ]);
  });
});

describe("a stream whose first Task shows no later client turn is the first response, judged as such", () => {
  const cases: Array<[string, JsonObject]> = [
    ["already holding results, waiting for input after the agent's request", stored(2)],
    [
      "already terminal, with only the first Message",
      Object.assign(copy(final), {
        history: [copy(history[0] as JsonObject)],
        metadata: copy(e.firstTask.metadata as JsonObject),
      }),
    ],
    [
      "holding results with two client Messages before any agent turn",
      Object.assign(stored(1), { history: [copy(history[0] as JsonObject), { ...copy(history[2] as JsonObject) }] }),
    ],
  ];
  it.each(cases)("FAILs acceptance.beforeWork when it is %s, and refuses --first-task beside it", (_, first) => {
    const n = negotiation(verify({ inputs: [{ source: "stream", data: stream(first) }], trust: e.trust }));
    expect(n.state).toBe("FAIL");
    expect(checkOf(n, "acceptance.beforeWork")).toMatchObject({
      state: "FAIL",
      detail: expect.stringMatching(/accepted after the work was done/),
    });
    const report = verify({
      inputs: [{ source: "stream", data: stream(first) }],
      firstTask: utf8(jsonText({ task: e.firstTask })),
      trust: e.trust,
    });
    const input = report.inputs[0];
    expect(input && isFailedInput(input) && input.error.code).toBe("INPUT_CONFLICTING_TASK");
  });

  it("the fresh first Task of SendMessage's own stream PASSes acceptance.beforeWork", () => {
    const fresh = copy(e.firstTask);
    const n = negotiation(verify({ inputs: [{ source: "stream", data: stream(fresh) }], trust: e.trust }));
    expect(checkOf(n, "acceptance.beforeWork")?.state).toBe("PASS");
    expect((fresh.metadata as JsonObject)[EXT]).toBeDefined();
  });
});
