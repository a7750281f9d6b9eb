/**
 * What a stream showed beyond the Task it folds into (contract §9.28), verified from the stream's
 * own bytes with records the producer sealed (every signature valid):
 *   - an artifact version marked lastChunk and then replaced by other content: taskBinding
 *     INCONCLUSIVE, `stream.replaced`; a version never marked last replaced: nothing to say;
 *   - a pause the stream showed that the record leaves out: `transcript.transition` FAIL; the pauses
 *     an honest resumption stream shows are recorded: PASS.
 */
import { describe, expect, it } from "vitest";
import { toPlain, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { verify } from "../../src/verify.js";
import { isFailedInput, type VerifiedInput } from "../../src/report/model.js";
import { renderText } from "../../src/report/text.js";
import { makeStyle } from "../../src/report/style.js";
import { buildExchange, type Exchange } from "../../producer/exchange.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { streamEvents } from "../../producer/stream.js";
import type { TaskState } from "../../producer/constants.js";
import type { TransitionSpec } from "../../producer/options.js";
import { agent, user } from "../helpers/messages.js";

type Event = Record<string, unknown>;

/** An SSE body, REST framing: the events as plain JSON. */
const sse = (events: readonly Event[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");

function verifyReport(e: Exchange, events: readonly Event[]) {
  return verify({ inputs: [{ source: "stream", data: sse(events) }], trust: e.trust });
}

function verified(e: Exchange, events: readonly Event[]): VerifiedInput {
  const report = verifyReport(e, events);
  const r = report.inputs[0];
  if (!r || isFailedInput(r)) throw new Error(JSON.stringify(r ?? report.error));
  return r;
}

const states = (r: VerifiedInput, id: string) =>
  r.properties.taskBinding.checks.filter((c) => c.id === id).map((c) => `${c.subject ?? ""} ${c.state}`);

describe("an artifact shown as final, then replaced (stream.replaced)", () => {
  const artifactId = uuidFromLabel("shown artifact");
  const exchange = buildExchange({
    transcript: [user("shown message 0", "Triage incident 42."), agent("shown message 1", "Looking into it.")],
    artifacts: [{ artifactId, name: "triage", parts: ["escalate to on-call", "page the database team"] }],
  });
  const ids = { taskId: exchange.finalTask.id, contextId: exchange.finalTask.contextId };
  const events = streamEvents(exchange).map((e) => toPlain(e) as Event);
  const firstChunk = events.findIndex(
    (e) =>
      (e.artifactUpdate as { artifact?: { artifactId?: string } } | undefined)?.artifact?.artifactId === artifactId,
  );
  const shownFirst = (lastChunk: boolean | undefined): Event[] => [
    ...events.slice(0, firstChunk),
    {
      artifactUpdate: {
        ...ids,
        artifact: { artifactId, name: "triage", parts: [{ text: "no action needed, close the incident" }] },
        ...(lastChunk === undefined ? {} : { lastChunk }),
      },
    },
    ...events.slice(firstChunk),
  ];

  it("the stream as sent verifies: exit 0, no stream.replaced", () => {
    const r = verified(exchange, events);
    expect(r.exitCode).toBe(0);
    expect(states(r, "stream.replaced")).toEqual([]);
  });

  it("a version marked lastChunk replaced by the committed content: taskBinding INCONCLUSIVE (stream.replaced), exit 3", () => {
    const r = verified(exchange, shownFirst(true));
    expect(r.properties.taskBinding.state).toBe("INCONCLUSIVE");
    const deciding = r.properties.taskBinding.checks.find((c) => c.state === "INCONCLUSIVE");
    expect(deciding).toMatchObject({
      id: "stream.replaced",
      subject: `artifact ${artifactId}`,
      detail: expect.stringMatching(
        new RegExp(
          `^stream\\.replaced: the stream showed it as final \\(lastChunk, event ${firstChunk + 1}\\) and replaced it with other content at event ${firstChunk + 2}; the client saw content nothing commits to$`,
        ),
      ),
    });
    // The final version is bound as usual.
    expect(states(r, "artifact.binding")).toEqual(["nonEvidenceArtifacts[0] PASS"]);
    expect(r.exitCode).toBe(3);
    // The text report names the check that decided the state, without --verbose too.
    const text = renderText(verifyReport(exchange, shownFirst(true)), { verbose: false, style: makeStyle(false) });
    expect(text).toMatch(/stream\.replaced/);
  });

  it("a version never marked last, replaced: the stream was still writing it — exit 0", () => {
    for (const lastChunk of [false, undefined]) {
      const r = verified(exchange, shownFirst(lastChunk));
      expect(states(r, "stream.replaced")).toEqual([]);
      expect(r.properties.taskBinding.state).toBe("PASS");
      expect(r.exitCode).toBe(0);
    }
  });

  it("a version marked lastChunk sent again unchanged is one version: exit 0", () => {
    const again = events.slice(firstChunk).filter((e) => {
      const u = e.artifactUpdate as { artifact?: { artifactId?: string } } | undefined;
      return u?.artifact?.artifactId === artifactId;
    });
    expect(again.length).toBe(2);
    // The whole artifact in one event, marked last, then the same again.
    const whole = {
      artifactUpdate: {
        ...ids,
        artifact: toPlain((exchange.finalTask.artifacts as JsonValue[])[0] as JsonObject),
        lastChunk: true,
      },
    };
    const rest = events.filter((e) => !again.includes(e));
    const r = verified(exchange, [...rest.slice(0, firstChunk), whole, whole, ...rest.slice(firstChunk)]);
    expect(states(r, "stream.replaced")).toEqual([]);
    expect(r.exitCode).toBe(0);
  });
});

const W: TaskState = "TASK_STATE_WORKING";
const IR: TaskState = "TASK_STATE_INPUT_REQUIRED";
const transition = (from: TaskState, to: TaskState): TransitionSpec => ({ transition: { from, to } });

/** A Task with no pause: the request and the agent's reply, its stream as the producer sends it. */
function refund(label: string) {
  const exchange = buildExchange({
    transcript: [user(`${label} message 0`, "Refund order 7."), agent(`${label} message 1`, "Refunded.")],
    artifacts: [],
  });
  const ids = { taskId: exchange.finalTask.id, contextId: exchange.finalTask.contextId };
  return { exchange, ids, events: streamEvents(exchange).map((e) => toPlain(e) as Event) };
}

describe("a pause the stream showed (transcript.transition, subject stream)", () => {
  it("WORKING → INPUT_REQUIRED → WORKING with no resuming Message, against a record with no transition: FAIL, exit 1", () => {
    const { exchange, ids, events } = refund("pause");
    const paused: Event[] = [
      events[0] as Event,
      { statusUpdate: { ...ids, status: { state: W } } },
      { statusUpdate: { ...ids, status: { state: IR } } },
      ...events.slice(1),
    ];
    const honest = verified(exchange, events);
    expect(honest.exitCode).toBe(0);
    expect(states(honest, "transcript.transition")).toEqual([]);
    const r = verified(exchange, paused);
    expect(r.properties.taskBinding.state).toBe("FAIL");
    expect(r.properties.taskBinding.checks.filter((c) => c.state === "FAIL")).toMatchObject([
      {
        id: "transcript.transition",
        subject: "stream",
        detail: expect.stringMatching(
          /the stream showed WORKING → INPUT_REQUIRED \(event 3\), INPUT_REQUIRED → WORKING \(event 4\), which the transcript does not record \(it records no transition at all\)/,
        ),
      },
    ]);
    expect(r.exitCode).toBe(1);
  });

  it("an honest resumption stream shows the pause's end the record keeps: PASS, exit 0", () => {
    const REQUEST = user("resume message 0", "Book a table for two tonight.");
    const ASK = agent("resume message 1", "At 19:00 or 21:00?");
    const RESUME = user("resume message 2", "21:00.");
    const DONE = agent("resume message 3", "Booked for 21:00.");
    const booking = uuidFromLabel("resume artifact booking");
    const exchange = buildExchange({
      transcript: [REQUEST, ASK, transition(W, IR), RESUME, transition(IR, W), DONE],
      artifacts: [{ artifactId: booking, name: "booking", parts: ["table for 2, 21:00"], after: 5 }],
    });
    const final = toPlain(exchange.finalTask) as {
      id: string;
      contextId: string;
      history: Event[];
      artifacts: Event[];
      status: Event;
      metadata: Event;
    };
    const ids = { taskId: final.id, contextId: final.contextId };
    // a2a-js sends the stored Task, the resuming Message appended, as a resumption stream's first event.
    const stored = {
      id: final.id,
      contextId: final.contextId,
      status: { state: IR, message: final.history[1] },
      history: final.history.slice(0, 3),
    };
    const events: Event[] = [
      { task: stored },
      { statusUpdate: { ...ids, status: { state: W, message: final.history[3] } } },
      ...final.artifacts.map((a) => ({ artifactUpdate: { ...ids, artifact: a, lastChunk: true } })),
      { statusUpdate: { ...ids, status: final.status, metadata: final.metadata } },
    ];
    const r = verified(exchange, events);
    expect(states(r, "transcript.transition")).toEqual(["transcript[2] PASS", "transcript[4] PASS", "stream PASS"]);
    expect(r.properties.taskBinding.state).toBe("PASS");
    expect(r.exitCode).toBe(0);
  });

  it("a status message shown and later changed under its messageId FAILs (transcript.unambiguous)", () => {
    const { exchange, ids, events } = refund("changed");
    const reply = (exchange.finalTask.history as JsonValue[])[1] as JsonObject;
    const changed = { ...(toPlain(reply) as Event), parts: [{ text: "Refund refused." }] };
    const r = verified(exchange, [
      events[0] as Event,
      { statusUpdate: { ...ids, status: { state: W, message: changed } } },
      ...events.slice(1),
    ]);
    expect(r.properties.taskBinding.state).toBe("FAIL");
    expect(r.properties.taskBinding.checks.filter((c) => c.state === "FAIL").map((c) => c.id)).toContain(
      "transcript.unambiguous",
    );
    expect(r.exitCode).toBe(1);
  });
});
