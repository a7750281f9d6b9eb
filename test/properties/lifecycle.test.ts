/**
 * The v3.2 lifecycle rules (docs/profile.md), every FAIL path through verify() with the state and
 * the check that decided it, and the other properties left as they were:
 *   taskBinding      transcript.transition, transcript.resumption, interim.cited, interim.prefix,
 *                    trace.digest
 *   contentBinding   interim.content        producerSignature  interim.signature
 *   checkpointSignature interim.checkpoint  localInclusion     interim.inclusion, interim.log
 * The baseline is a capture of a Task that paused for input once, with its interim record under a
 * checkpoint of its own, supplied in the capture: every property at its honest state.
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { sha256Hex, utf8 } from "../../src/util/bytes.js";
import { uuidFromLabel, type MessageSpec } from "../../producer/a2a.js";
import { buildExchange, type Exchange } from "../../producer/exchange.js";
import type { ExchangeOptions, Tamper, TranscriptSpec, TransitionSpec } from "../../producer/options.js";
import type { TaskState } from "../../producer/constants.js";
import {
  EXT,
  at,
  baseline,
  check,
  checkOf,
  copy,
  expectDecided,
  statesOf,
  type Decision,
  type Presented,
  type States,
} from "./harness.js";
import { resignCheckpoint, signer } from "./resign.js";
import { PRODUCER, resealCapsule } from "../../producer/mutate.js";
import { producerEnvelopeOf } from "../../producer/capsule.js";
import { pyjsonDigestHex } from "../../producer/json-text.js";
import type { PropertyName } from "../../src/report/model.js";
import { agent, user } from "../helpers/messages.js";

const TRACE_KEY = "github.com/a2aproject/a2a-samples/extensions/traceability/v1/traceability";
const W: TaskState = "TASK_STATE_WORKING";
const IR: TaskState = "TASK_STATE_INPUT_REQUIRED";
const AR: TaskState = "TASK_STATE_AUTH_REQUIRED";

const transition = (from: TaskState, to: TaskState, bound = true): TransitionSpec => ({
  transition: { from, to },
  ...(bound ? {} : { bound: false }),
});

const REQUEST = user("lc message 0", "Book a table for two tonight.");
const ASK = agent("lc message 1", "At 19:00 or 21:00?");
const RESUME = user("lc message 2", "21:00.");
const DONE = agent("lc message 3", "Booked for 21:00.");
const PAUSE: TranscriptSpec[] = [REQUEST, ASK, transition(W, IR), RESUME, transition(IR, W), DONE];

const BASE: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("lc task"),
  contextId: uuidFromLabel("lc context"),
  transcript: PAUSE,
  artifacts: [
    { artifactId: uuidFromLabel("lc artifact slots"), name: "slots", parts: ["19:00 free", "21:00 free"], after: 1 },
    { artifactId: uuidFromLabel("lc artifact booking"), name: "booking", parts: ["table for 2, 21:00"], after: 5 },
  ],
  leavesBefore: 3,
  leavesAfter: 2,
  priorCheckpoint: { leafCount: 2 },
  witnesses: [{ url: "https://ts.a2a-evidence.example", treeSize: 9, leafIndex: 5 }],
  interim: [{ at: 2 }],
};

function exchange(options: ExchangeOptions = {}, tamper?: Tamper): Exchange {
  return buildExchange({ ...BASE, ...options, ...(tamper ? { tamper } : {}) });
}

/** Verifies, and asserts the deciding check and that only `property` (and `also`) left the baseline. */
function expectOnly(
  e: Exchange,
  property: PropertyName,
  decided: Decision,
  also: Partial<States> = {},
  presented: Presented = {},
) {
  const input = check(e, presented);
  expectDecided(input, property, decided);
  expect(statesOf(input)).toEqual(baseline({ [property]: decided.state, ...also }));
  return input;
}

const entry = (p: JsonObject, i: number) => at(p, "transcript", i);
const entries = (p: JsonObject) => p.transcript as JsonValue[];
const int = (n: number) => new JsonNumber(String(n));
function renumber(p: JsonObject): void {
  entries(p).forEach((_, i) => void (entry(p, i).sequence = int(i)));
}

describe("the lifecycle baseline", () => {
  it("is honest: every lifecycle check passes", () => {
    const input = check(exchange());
    expect(statesOf(input)).toEqual(baseline());
    const ids = (p: PropertyName) =>
      input.properties[p].checks
        .map((c) => `${c.id} ${c.state}`)
        .filter((l) => /^(interim|transcript\.(transition|resumption))/.test(l));
    expect(ids("taskBinding")).toEqual([
      "transcript.transition PASS",
      "transcript.transition PASS",
      "transcript.resumption PASS",
      "interim.cited PASS",
      "interim.prefix PASS",
    ]);
    expect(ids("contentBinding")).toEqual(["interim.content PASS"]);
    expect(ids("producerSignature")).toEqual(["interim.signature PASS"]);
    expect(ids("localInclusion")).toEqual(["interim.inclusion PASS", "interim.log PASS"]);
    expect(ids("checkpointSignature")).toEqual(["interim.checkpoint PASS"]);
  });

  it("a v3.1 record gets no lifecycle check at all", () => {
    const input = check(exchange({ transcript: [REQUEST, DONE], artifacts: [], interim: [] }));
    for (const p of [
      "taskBinding",
      "contentBinding",
      "producerSignature",
      "localInclusion",
      "checkpointSignature",
    ] as const) {
      expect(
        input.properties[p].checks.filter((c) => /^(interim|trace|transcript\.(transition|resumption))/.test(c.id)),
      ).toEqual([]);
    }
  });
});

describe("transcript.transition FAIL paths", () => {
  const fail = (detail: string | RegExp, subject = "transcript[2]"): Decision => ({
    state: "FAIL",
    check: "transcript.transition",
    subject,
    detail,
  });
  const cases: Array<{ name: string; options?: ExchangeOptions; tamper?: Tamper; decided: Decision }> = [
    {
      name: "a member is missing",
      tamper: { payload: (p) => void delete entry(p, 2).transitionCommitment },
      decided: fail(/this one lacks transitionCommitment/),
    },
    {
      name: "an extra member (a credential never belongs in a transcript)",
      tamper: { payload: (p) => void (entry(p, 2).authorization = "Bearer eyJhbGciOi") },
      decided: fail(/also carries authorization \(nothing else — no credential/),
    },
    {
      name: "a state that is no TaskState name",
      tamper: { payload: (p) => void (entry(p, 2).toState = "input-required") },
      decided: fail(/must be A2A v1.0 TaskState names/),
    },
    {
      name: "messageId neither a string nor null",
      tamper: { payload: (p) => void (entry(p, 2).messageId = int(1)) },
      decided: fail(/neither a string nor null/),
    },
    {
      name: "a commitment that is not hex",
      tamper: { payload: (p) => void (entry(p, 2).transitionCommitment = "not hex") },
      decided: fail(/is not 64 lowercase hex/),
    },
    {
      name: "a transition the profile does not record (WORKING → COMPLETED)",
      tamper: { payload: (p) => void (entry(p, 4).fromState = W) },
      decided: fail(/WORKING → WORKING is not a transition into or out of an interrupted state/, "transcript[4]"),
    },
    {
      name: "a transition after the Task ended",
      options: {
        terminalState: "TASK_STATE_CANCELED",
        interim: [],
        transcript: [
          REQUEST,
          ASK,
          transition(W, IR),
          transition(IR, "TASK_STATE_CANCELED", false),
          transition(W, IR, false),
        ],
      },
      decided: fail(/comes after the Task ended/, "transcript[4]"),
    },
    {
      name: "a second pause before the first is left",
      options: {
        interim: [],
        transcript: [
          REQUEST,
          ASK,
          transition(W, IR),
          agent("lc again", "Still there?"),
          transition(W, AR),
          RESUME,
          transition(AR, W),
          DONE,
        ],
      },
      decided: fail(/while still paused in INPUT_REQUIRED since transcript\[2\]/, "transcript[4]"),
    },
    {
      name: "a pause from SUBMITTED after the Task resumed",
      options: {
        interim: [],
        transcript: [
          ...PAUSE.slice(0, 5),
          agent("lc more", "One more thing?"),
          transition("TASK_STATE_SUBMITTED", IR),
          user("lc yes", "yes"),
          transition(IR, W),
          DONE,
        ],
      },
      decided: fail(/a Task that already resumed pauses from WORKING, not SUBMITTED/, "transcript[6]"),
    },
    {
      name: "a transition into bound to no Message",
      tamper: { payload: (p) => void (entry(p, 2).messageId = null) },
      decided: fail(/is bound to no Message: the request for input is the Message entry right before it/),
    },
    {
      name: "a transition into bound to another Message than the entry before it",
      tamper: { payload: (p) => void (entry(p, 2).messageId = REQUEST.messageId) },
      decided: fail(/but the entry right before it \(transcript\[1\]\) is Message/),
    },
    {
      name: "the request is the client's, not the agent's",
      options: {
        interim: [],
        transcript: [REQUEST, user("lc user ask", "Hm?"), transition(W, IR), RESUME, transition(IR, W), DONE],
      },
      decided: fail(/has role "ROLE_USER", not ROLE_AGENT/),
    },
    {
      name: "a transition out without a transition into (reordered)",
      tamper: { payload: (p) => void (entries(p).splice(2, 1), renumber(p)) },
      decided: fail(/leaves INPUT_REQUIRED without a transition into it before/, "transcript[3]"),
    },
    {
      name: "a transition out of another state than the Task paused in",
      tamper: { payload: (p) => void (entry(p, 4).fromState = AR) },
      decided: fail(/leaves AUTH_REQUIRED, but the Task paused in INPUT_REQUIRED/, "transcript[4]"),
    },
    {
      name: "an end while paused in another state than the payload's",
      options: {
        interim: [],
        terminalState: "TASK_STATE_CANCELED",
        transcript: [REQUEST, ASK, transition(W, IR), transition(IR, "TASK_STATE_REJECTED", false)],
      },
      decided: fail(
        /ends the Task in REJECTED, but the payload's terminalState is "TASK_STATE_CANCELED"/,
        "transcript[3]",
      ),
    },
    {
      name: "an unbound transition out with entries between it and the transition in",
      options: { interim: [], transcript: [REQUEST, ASK, transition(W, IR), RESUME, transition(IR, W, false), DONE] },
      decided: fail(/lie between the transition in and out: a pause is contiguous/, "transcript[4]"),
    },
    {
      name: "INPUT_REQUIRED left to WORKING without a resuming Message (omitted resumption)",
      tamper: { payload: (p) => void (entries(p).splice(3, 1), renumber(p), (entry(p, 3).messageId = null)) },
      decided: fail(
        /without a resuming Message: INPUT_REQUIRED is left to WORKING only by the Message that supplies the input/,
        "transcript[3]",
      ),
    },
    {
      name: "an end while paused bound to a Message",
      options: {
        interim: [],
        terminalState: "TASK_STATE_CANCELED",
        transcript: [REQUEST, ASK, transition(W, IR), RESUME, transition(IR, "TASK_STATE_CANCELED")],
      },
      decided: fail(/a Task that ends while paused is bound to no Message/, "transcript[4]"),
    },
    {
      name: "a resuming Message that is not between the transitions",
      tamper: { payload: (p) => void (entry(p, 4).messageId = REQUEST.messageId) },
      decided: fail(
        /the resuming Message must be the one entry between the transition in \(transcript\[2\]\) and this one/,
        "transcript[4]",
      ),
    },
    {
      name: "the resuming Message is the agent's",
      options: {
        interim: [],
        transcript: [
          REQUEST,
          ASK,
          transition(W, IR),
          agent("lc agent resume", "I will decide."),
          transition(IR, W),
          DONE,
        ],
      },
      decided: fail(/has role "ROLE_AGENT", not ROLE_USER/, "transcript[4]"),
    },
    {
      name: "a commitment the observed Task does not recompute",
      tamper: { payload: (p) => void (entry(p, 4).transitionCommitment = sha256Hex(utf8("another"))) },
      decided: fail(
        /transitionCommitment [0-9a-f]{64} != [0-9a-f]{64} recomputed from the observed Task and Message/,
        "transcript[4]",
      ),
    },
    {
      name: "a terminal record whose transcript ends paused",
      tamper: { payload: (p) => void (entries(p).splice(4, 1), renumber(p)) },
      decided: fail(
        /ends paused in INPUT_REQUIRED \(transcript\[2\]\), but the record is of a Task in COMPLETED/,
        "transcript",
      ),
    },
  ];
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const e = exchange({ ...(c.tamper ? { interim: [] } : {}), ...c.options }, c.tamper);
    const input = check(e);
    expectDecided(input, "taskBinding", c.decided);
    // Only taskBinding judges the transcript against the Task: everything else is consistently sealed.
    expect(statesOf(input)).toEqual(baseline({ taskBinding: "FAIL" }));
  });

  it("a kind other than transition is a malformed transcript", () => {
    expectOnly(exchange({ interim: [] }, { payload: (p) => void (entry(p, 2).kind = "pause") }), "taskBinding", {
      state: "FAIL",
      check: "transcript.sequence",
      detail: 'transcript[2].kind "pause" is not an entry kind of this profile',
    });
  });

  // Contract §9.4: a transcript entry the history does not show is INCONCLUSIVE; only a resumption
  // taken out of the middle is an omission (transcript.resumption).
  it("a bound Message taken out of the middle of the history leaves the commitment INCONCLUSIVE, said as a gap", () => {
    const e = exchange({ interim: [] }, { finalTask: (t) => void (t.history as JsonValue[]).splice(1, 1) });
    const input = check(e);
    expect(checkOf(input, "taskBinding", "transcript.transition", "transcript[2]")).toMatchObject({
      state: "INCONCLUSIVE",
      detail: expect.stringMatching(/shows Messages committed before and after it \(a gap in the middle\)/),
    });
    expect(input.properties.taskBinding.state).toBe("INCONCLUSIVE");
    expect(input.exitCode).toBe(3);
  });

  it("a bound Message before the first one the history shows leaves the commitment INCONCLUSIVE (truncated)", () => {
    const e = exchange({ interim: [] }, { finalTask: (t) => void (t.history as JsonValue[]).splice(0, 2) });
    const input = check(e);
    expect(checkOf(input, "taskBinding", "transcript.transition", "transcript[2]")).toMatchObject({
      state: "INCONCLUSIVE",
      detail: expect.stringMatching(/truncated, not omitted/),
    });
    expect(input.properties.taskBinding.state).toBe("INCONCLUSIVE");
  });

  it("authorization is reported, never judged: an AUTH_REQUIRED pause completed out of band passes", () => {
    const input = check(
      exchange({
        interim: [],
        transcript: [REQUEST, agent("lc auth", "Sign in first."), transition(W, AR), transition(AR, W, false), DONE],
      }),
    );
    expect(statesOf(input)).toEqual(baseline());
    expect(checkOf(input, "taskBinding", "transcript.transition", "transcript[3]").detail).toMatch(
      /authorization is not judged here/,
    );
  });
});

describe("transcript.resumption", () => {
  const resumptionFailures: [string, Partial<MessageSpec>, RegExp][] = [
    [
      "spliced in from another Task (consistently committed)",
      { taskId: uuidFromLabel("another task"), contextId: uuidFromLabel("another context") },
      /names Task "[0-9a-f-]+" in context "[0-9a-f-]+"/,
    ],
    // A Message without taskId starts a Task: it resumes none.
    ["naming this context but no Task", { taskId: "" }, /names Task "" in context "[0-9a-f-]+"/],
  ];
  for (const [what, ids, names] of resumptionFailures) {
    it(`FAILs a resumption ${what}`, () => {
      const resumed = { ...RESUME, ...ids };
      const input = expectOnly(
        exchange({ interim: [], transcript: PAUSE.map((t) => (t === RESUME ? resumed : t)) }),
        "taskBinding",
        {
          state: "FAIL",
          check: "transcript.resumption",
          subject: "transcript[4]",
          detail: new RegExp(`${names.source}, not this Task .*: a resumption spliced in from another Task`),
        },
      );
      expect(checkOf(input, "taskBinding", "transcript.transition", "transcript[4]").state).toBe("PASS");
    });
  }

  it("PASSes a resuming Message that names this Task and no context: A2A lets a Message continuing a Task leave contextId out", () => {
    const noContext = { ...RESUME, contextId: "" };
    const input = check(exchange({ interim: [], transcript: PAUSE.map((t) => (t === RESUME ? noContext : t)) }));
    expect(statesOf(input)).toEqual(baseline());
    expect(checkOf(input, "taskBinding", "transcript.resumption", "transcript[4]")).toMatchObject({
      state: "PASS",
      detail: expect.stringMatching(/it names no context: a Message continuing a Task may leave contextId out/),
    });
  });

  it("FAILs a resuming Message missing from a history that shows later Messages (omitted, not truncated)", () => {
    const e = exchange({ interim: [] }, { finalTask: (t) => void (t.history as JsonValue[]).splice(2, 1) });
    const input = check(e);
    expect(checkOf(input, "taskBinding", "transcript.resumption", "transcript[4]")).toMatchObject({
      state: "FAIL",
      detail: expect.stringMatching(/which shows Messages committed before and after it: the resumption was omitted/),
    });
    expect(input.exitCode).toBe(1);
  });

  // GetTask's historyLength keeps the most recent Messages (contract §9.23): a Task that paused,
  // read with historyLength 1, shows only its last Message. Nothing is missing from the middle.
  it("is INCONCLUSIVE, never FAIL, for a history of the last Message only (historyLength 1): exit 3", () => {
    const e = exchange({ interim: [] }, { finalTask: (t) => void (t.history as JsonValue[]).splice(0, 3) });
    const input = check(e);
    const ids = (id: string) => input.properties.taskBinding.checks.filter((c) => c.id === id).map((c) => c.state);
    expect(ids("transcript.resumption")).toEqual(["INCONCLUSIVE"]);
    expect(ids("transcript.transition")).toEqual(["INCONCLUSIVE", "INCONCLUSIVE"]);
    expect(checkOf(input, "taskBinding", "transcript.resumption", "transcript[4]").detail).toMatch(
      /truncated, not omitted/,
    );
    expect(input.properties.taskBinding.checks.filter((c) => c.state === "FAIL")).toEqual([]);
    expect(input.properties.taskBinding.state).toBe("INCONCLUSIVE");
    expect(input.exitCode).toBe(3);
  });

  it("is INCONCLUSIVE for a Task that paused twice read with historyLength 3: exit 3", () => {
    const ASK2 = agent("lc message 4", "Indoors or on the terrace?");
    const RESUME2 = user("lc message 5", "Terrace.");
    const DONE2 = agent("lc message 6", "Booked on the terrace for 21:00.");
    const twice: TranscriptSpec[] = [...PAUSE.slice(0, 5), ASK2, transition(W, IR), RESUME2, transition(IR, W), DONE2];
    const honest = check(exchange({ interim: [], transcript: twice, artifacts: [] }));
    expect(honest.exitCode).toBe(0);
    // history: REQUEST, ASK, RESUME, ASK2, RESUME2, DONE2; historyLength 3 keeps the last three.
    const e = exchange(
      { interim: [], transcript: twice, artifacts: [] },
      { finalTask: (t) => void (t.history as JsonValue[]).splice(0, 3) },
    );
    const input = check(e);
    const states = (id: string) =>
      input.properties.taskBinding.checks.filter((c) => c.id === id).map((c) => `${c.subject ?? ""} ${c.state}`);
    expect(states("transcript.resumption")).toEqual(["transcript[4] INCONCLUSIVE", "transcript[8] PASS"]);
    expect(input.properties.taskBinding.checks.filter((c) => c.state === "FAIL")).toEqual([]);
    expect(input.properties.taskBinding.state).toBe("INCONCLUSIVE");
    expect(input.exitCode).toBe(3);
  });

  it("a Message the first Task shows is observed there: the truncated history does not excuse it", () => {
    let removed: JsonValue[] = [];
    const tamper: Tamper = {
      finalTask: (t) => void (removed = (t.history as JsonValue[]).splice(0, 3)),
      firstTask: (t) => void (t.history = removed.slice(0, 2)),
    };
    const input = check(exchange({ interim: [] }, tamper));
    expect(checkOf(input, "taskBinding", "transcript.transition", "transcript[2]")).toMatchObject({
      state: "PASS",
      detail: expect.stringMatching(/bound to the request/),
    });
    expect(checkOf(input, "taskBinding", "transcript.resumption", "transcript[4]").state).toBe("INCONCLUSIVE");
  });

  it("is INCONCLUSIVE when the history ends before the resumption (truncated)", () => {
    const e = exchange({ interim: [] }, { finalTask: (t) => void (t.history as JsonValue[]).splice(2, 2) });
    const input = check(e);
    expect(checkOf(input, "taskBinding", "transcript.resumption", "transcript[4]").state).toBe("INCONCLUSIVE");
    expect(input.properties.taskBinding.state).toBe("INCONCLUSIVE");
  });
});

describe("interim.cited and interim.prefix", () => {
  const cited = (detail: string | RegExp, subject?: string): Decision => ({
    state: "FAIL",
    check: "interim.cited",
    ...(subject ? { subject } : {}),
    detail,
  });
  const citation = (p: JsonObject) => at(p, "interimEvidence", 0);
  const cases: Array<{ name: string; options?: ExchangeOptions; tamper: Tamper; decided: Decision }> = [
    {
      name: "interimEvidence not an array",
      tamper: { payload: (p) => void (p.interimEvidence = "none") },
      decided: cited(/interimEvidence is not an array/),
    },
    {
      name: "a citation with another member",
      tamper: { payload: (p) => void (citation(p).state = IR) },
      decided: cited(
        /exactly the members evidenceId and sequence; this one has evidenceId, sequence, state/,
        "interimEvidence[0]",
      ),
    },
    {
      name: "a citation that is not an object",
      tamper: { payload: (p) => void ((p.interimEvidence as JsonValue[])[0] = "d805") },
      decided: cited("a citation is an object {evidenceId, sequence}", "interimEvidence[0]"),
    },
    {
      name: "a sequence that is no position",
      tamper: { payload: (p) => void (citation(p).sequence = int(-1)) },
      decided: cited("sequence -1 is not a transcript position", "interimEvidence[0]"),
    },
    {
      name: "an evidenceId that is not hex",
      tamper: { payload: (p) => void (citation(p).evidenceId = "D805") },
      decided: cited(/evidenceId "D805" is not 64 lowercase hex/, "interimEvidence[0]"),
    },
    {
      name: "a sequence that is not a transition into an interrupted state",
      tamper: { payload: (p) => void (citation(p).sequence = int(4)) },
      decided: cited(/sequence 4 is not a transition into an interrupted state/, "interimEvidence[0]"),
    },
    {
      name: "citations out of order",
      tamper: { payload: (p) => void (p.interimEvidence as JsonValue[]).push(copy(citation(p))) },
      decided: cited(/does not follow the previous citation's 2/, "interimEvidence[1]"),
    },
  ];
  it.each(cases.map((c) => [c.name, c] as const))("%s FAILs interim.cited", (_, c) => {
    const input = check(exchange(c.options, c.tamper));
    expectDecided(input, "taskBinding", c.decided);
    expect(statesOf(input)).toEqual(baseline({ taskBinding: "FAIL" }));
  });

  it("a supplied interim record the terminal payload does not cite is a dropped citation", () => {
    expectOnly(exchange({}, { payload: (p) => void delete p.interimEvidence }), "taskBinding", {
      state: "FAIL",
      check: "interim.cited",
      subject: expect.stringMatching(/^interim record [0-9a-f]{64} at interimBundles\[0\]$/) as never,
      detail: /is not cited by the terminal payload: a dropped citation/,
    });
  });

  it("an evidenceId cited twice FAILs", () => {
    const e = exchange(
      {
        interim: [{ at: 2 }, { at: 7 }],
        transcript: [
          ...PAUSE,
          agent("lc 2nd ask", "Window seat?"),
          transition(W, IR),
          user("lc 2nd", "yes"),
          transition(IR, W),
          agent("lc bye", "Done."),
        ],
      },
      {
        payload: (p) =>
          void (at(p, "interimEvidence", 1).evidenceId = at(p, "interimEvidence", 0).evidenceId as JsonValue),
      },
    );
    const input = check(e);
    expect(checkOf(input, "taskBinding", "interim.cited", "interimEvidence[1]")).toMatchObject({
      state: "FAIL",
      detail: expect.stringMatching(/is cited twice/),
    });
  });

  it("a supplied interim record without an evidenceId FAILs", () => {
    const input = check(exchange({}, { interimBundle: (b) => void delete b.evidenceId }));
    expect(
      input.properties.taskBinding.checks.find((c) => c.id === "interim.cited" && c.state === "FAIL")?.detail,
    ).toMatch(/carries no evidenceId: nothing can cite it/);
  });

  it("two different interim bundles with one evidenceId FAIL", () => {
    const e = exchange();
    const second = copy(at(e.input, "interimBundles", 0));
    at(second, "taskEvidencePayload").sealTime = "2026-10-01T09:20:59.000000+00:00";
    const input = check(e, {
      input: {
        ...(e.input as JsonObject),
        interimBundles: [...(e.input.interimBundles as JsonValue[]), second],
      } as never,
    });
    expect(
      input.properties.taskBinding.checks.find((c) => c.id === "interim.cited" && c.state === "FAIL")?.detail,
    ).toMatch(
      /two different interim bundles carry evidenceId .*: their taskEvidencePayload differ, so they are not two copies of one record/,
    );
    expect(input.exitCode).toBe(1);
  });

  // Contract §9.24, docs/profile.md §3.1: sealed under its own checkpoint at the pause, and re-issued
  // with the terminal record's checkpoint — one record, two forms, both supplied.
  it("one interim record in both its forms PASSes: two copies, each verified (exit 0)", () => {
    const e = exchange({ interim: [{ at: 2, checkpoint: "both" }] });
    const [own, reissued] = e.input.interimBundles as JsonObject[];
    expect(own?.evidenceId).toBe(reissued?.evidenceId);
    expect(at(own as JsonObject, "capsule")).toEqual(at(reissued as JsonObject, "capsule"));
    expect(at(own as JsonObject, "manifest")).not.toEqual(at(reissued as JsonObject, "manifest"));
    const input = check(e);
    expect(statesOf(input)).toEqual(baseline());
    expect(input.exitCode).toBe(0);
    const subject = `interim record ${String(own?.evidenceId)} at interimBundles[1]`;
    expect(checkOf(input, "taskBinding", "interim.cited", subject)).toMatchObject({
      state: "PASS",
      detail: expect.stringMatching(/two forms of one interim record .*each form is verified/),
    });
    // Each form is verified by the properties that own its rules.
    for (const [p, id] of [
      ["contentBinding", "interim.content"],
      ["producerSignature", "interim.signature"],
      ["checkpointSignature", "interim.checkpoint"],
      ["localInclusion", "interim.inclusion"],
      ["localInclusion", "interim.log"],
    ] as const) {
      expect(input.properties[p].checks.filter((c) => c.id === id).map((c) => c.state)).toEqual(["PASS", "PASS"]);
    }
  });

  it("two forms whose capsules differ under one evidenceId FAIL", () => {
    // The re-issued form (assembled first) sealed again with another capsule: every signature valid.
    let calls = 0;
    const e = exchange(
      { interim: [{ at: 2, checkpoint: "both" }] },
      {
        interimBundle: (b) => {
          if (calls++ > 0) return;
          const capsule = at(b, "capsule");
          capsule.timestamp = "2026-10-01T09:20:11.000000Z";
          resealCapsule(capsule, PRODUCER);
          const manifest = at(b, "manifest");
          manifest.producerEnvelope = producerEnvelopeOf(capsule);
          b.coreManifestDigest = pyjsonDigestHex(manifest);
        },
      },
    );
    const changed = (e.input.interimBundles as JsonObject[])[1] as JsonObject;
    const input = check(e);
    expect(
      checkOf(
        input,
        "producerSignature",
        "interim.signature",
        `interim record ${String(changed.evidenceId)} at interimBundles[1]`,
      ).state,
    ).toBe("PASS");
    expect(
      checkOf(
        input,
        "taskBinding",
        "interim.cited",
        `interim record ${String(changed.evidenceId)} at interimBundles[1]`,
      ),
    ).toMatchObject({
      state: "FAIL",
      detail: expect.stringMatching(/their capsule differ, so they are not two copies of one record/),
    });
    expect(input.exitCode).toBe(1);
  });

  it("a citation whose record is not supplied is listed, NOT_CHECKED, and taskBinding stays PASS", () => {
    const input = expectOnly(exchange({ interim: [{ at: 2, supplied: false }] }), "taskBinding", {
      state: "PASS",
      check: "task.id",
    });
    expect(checkOf(input, "taskBinding", "interim.cited", "interimEvidence[0]")).toMatchObject({
      state: "NOT_CHECKED",
      detail: expect.stringMatching(/is cited but not supplied: pass it .* with --interim/),
    });
    // No record, no record checks.
    expect(input.properties.contentBinding.checks.some((c) => c.id === "interim.content")).toBe(false);
  });

  const prefix = (detail: RegExp): Decision => ({
    state: "FAIL",
    check: "interim.prefix",
    subject: expect.stringMatching(/^interim record /) as never,
    detail,
  });
  const prefixCases: Array<{ name: string; tamper: Tamper; decided: Decision }> = [
    {
      name: "another record profile",
      tamper: { interimBundle: (b) => void (b.recordProfile = "https://example.com/profiles/other/v9") },
      decided: prefix(/its recordProfile "https:\/\/example\.com\/profiles\/other\/v9" is not the terminal record's/),
    },
    {
      name: "another extension version",
      tamper: { interimBundle: (b) => void (b.extensionVersion = "2") },
      decided: prefix(/its extensionVersion "2" is not the terminal record's "1"/),
    },
    {
      name: "another context",
      tamper: { interimPayload: (p) => void (p.contextId = uuidFromLabel("another context")) },
      decided: prefix(/its contextId .* the record of another Task/),
    },
    {
      name: "another Task",
      tamper: { interimPayload: (p) => void (p.taskId = uuidFromLabel("another task")) },
      decided: prefix(/its taskId .* the record of another Task/),
    },
    {
      name: "another tenant",
      tamper: { interimPayload: (p) => void (p.tenantId = "tenant-b") },
      decided: prefix(/its tenantId "tenant-b" is not the terminal record's null: the record of another tenant/),
    },
    {
      name: "another authority",
      tamper: { interimPayload: (p) => void (p.authority = "someone-else.example") },
      decided: prefix(/the record of another authority/),
    },
    {
      name: "another capture policy",
      tamper: { interimPayload: (p) => void (p.capturePolicyId = "other-policy") },
      decided: prefix(/the record of another capture policy/),
    },
    {
      name: "a transcript beyond the pause",
      tamper: { interimPayload: (p) => void entries(p).push(copy(entry(p, 2))) },
      decided: prefix(/its transcript has 4 entries; sealed at transcript\[2\] it holds exactly the 3 entries/),
    },
    {
      name: "a transcript that tells another story",
      tamper: { interimPayload: (p) => void (entry(p, 0).partCommitment = sha256Hex(utf8("Book a table for four."))) },
      decided: prefix(/its transcript\[0\] differs from the terminal record's at partCommitment/),
    },
    {
      name: "citing interim records it should not",
      tamper: {
        interimPayload: (p) =>
          void (p.interimEvidence = [{ evidenceId: sha256Hex(utf8("x")), sequence: int(2) }] as never),
      },
      decided: prefix(/not exactly the 0 interim record\(s\) the terminal record cites before transcript\[2\]/),
    },
  ];
  it.each(prefixCases.map((c) => [c.name, c] as const))("an interim record of %s FAILs interim.prefix", (name, c) => {
    const input = check(exchange({}, c.tamper));
    expectDecided(input, "taskBinding", c.decided);
    // The changed effect is also not the observed Task's artifact: artifact.binding FAILs too, in the same property.
    expect(statesOf(input)).toEqual(baseline({ taskBinding: "FAIL" }));
    void name;
  });

  it("an interim record sealed in another state than its transition entered FAILs interim.prefix", () => {
    // The capsule commits to the state it was sealed in, so contentBinding sees the payload disagree with it too.
    const input = check(exchange({}, { interimPayload: (p) => void (p.terminalState = AR) }));
    expect(checkOf(input, "taskBinding", "interim.prefix").detail).toMatch(
      /it was sealed in "TASK_STATE_AUTH_REQUIRED", but the transition at transcript\[2\] enters TASK_STATE_INPUT_REQUIRED/,
    );
    expect(statesOf(input)).toEqual(baseline({ taskBinding: "FAIL", contentBinding: "FAIL" }));
  });

  it("an effect the terminal record commits with other content FAILs interim.prefix (and artifact.binding)", () => {
    const input = check(
      exchange(
        {},
        { payload: (p) => void (at(p, "nonEvidenceArtifacts", 0).contentCommitment = sha256Hex(utf8("19:00 taken"))) },
      ),
    );
    expect(checkOf(input, "taskBinding", "interim.prefix").detail).toMatch(
      /records artifact .* as done before the pause, but the terminal record commits it with other content/,
    );
    expect(statesOf(input)).toEqual(baseline({ taskBinding: "FAIL" }));
  });

  it("an interim record without a payload FAILs interim.prefix (and interim.content)", () => {
    const input = check(exchange({}, { interimBundle: (b) => void delete b.taskEvidencePayload }));
    expect(input.properties.taskBinding.checks.find((c) => c.id === "interim.prefix")?.detail).toBe(
      "the interim record carries no taskEvidencePayload",
    );
    expect(checkOf(input, "contentBinding", "interim.content").detail).toMatch(/carries nothing for this property/);
  });

  it("interim checks run without an observed Task: a dropped citation FAILs a bare bundle too", () => {
    const e = exchange({}, { payload: (p) => void delete p.interimEvidence });
    const input = check(e, { input: { evidenceBundle: e.bundle, interimBundles: e.input.interimBundles } as never });
    expectDecided(input, "taskBinding", {
      state: "FAIL",
      check: "interim.cited",
      subject: expect.stringMatching(/^interim record/) as never,
    });
    expect(checkOf(input, "taskBinding", "task.observed").state).toBe("NOT_CHECKED");
  });

  it("without an observed Task a cited, supplied interim record does not make taskBinding PASS", () => {
    const e = exchange();
    const input = check(e, { input: { evidenceBundle: e.bundle, interimBundles: e.input.interimBundles } as never });
    expect(input.properties.taskBinding.state).toBe("NOT_CHECKED");
  });
});

describe("interim records as records", () => {
  it("contentBinding: an interim bundle changed in transit FAILs interim.content", () => {
    expectOnly(
      exchange(
        {},
        { interimBundle: (b) => void (at(b, "taskEvidencePayload").sealTime = "2026-10-01T09:20:11.250000+00:00") },
      ),
      "contentBinding",
      {
        state: "FAIL",
        check: "interim.content",
        subject: expect.stringMatching(/^interim record /) as never,
        detail: /recomputed evidenceId [0-9a-f]{64} != claimed/,
      },
    );
  });

  it("producerSignature: an interim record signed by another key is the wrong issuer", () => {
    expectOnly(exchange({ interim: [{ at: 2, producerKeyLabel: "another producer" }] }), "producerSignature", {
      state: "FAIL",
      check: "interim.signature",
      subject: expect.stringMatching(/^interim record /) as never,
      detail: /not by the terminal record's producer key .*: the wrong issuer/,
    });
  });

  it("producerSignature: an interim record whose envelope is broken FAILs its own checks", () => {
    const input = check(exchange({}, { interimBundle: (b) => void (at(b, "capsule").operator = "someone else") }));
    expectDecided(input, "producerSignature", {
      state: "FAIL",
      check: "interim.signature",
      subject: expect.stringMatching(/^interim record /) as never,
    });
  });

  it("checkpointSignature: an interim checkpoint changed after signing FAILs interim.checkpoint", () => {
    expectOnly(
      exchange({}, { interimManifest: (m) => void (at(m, "cllCheckpoint").timestamp = "2026-10-01T09:20:11.254107Z") }),
      "checkpointSignature",
      {
        state: "FAIL",
        check: "interim.checkpoint",
        subject: expect.stringMatching(/^interim record /) as never,
        detail: /checkpoint signature does not verify/,
      },
    );
  });

  it("checkpointSignature: an interim checkpoint signed by another key FAILs interim.checkpoint", () => {
    const other = {
      interimManifest: (m: JsonObject) => resignCheckpoint(at(m, "cllCheckpoint"), {}, signer("another log key")),
    };
    const input = check(exchange({}, other));
    expectDecided(input, "checkpointSignature", {
      state: "FAIL",
      check: "interim.checkpoint",
      subject: expect.stringMatching(/^interim record /) as never,
      detail: /not by [0-9a-f]{64}, which signs the terminal record's: not the same log's checkpoint/,
    });
  });

  it("localInclusion: an interim inclusion proof that does not fold FAILs interim.inclusion", () => {
    const input = check(
      exchange(
        {},
        {
          interimManifest: (m) =>
            void ((at(m, "localInclusionProof").witness as JsonValue[])[0] = sha256Hex(utf8("x"))),
        },
      ),
    );
    expectDecided(input, "localInclusion", {
      state: "FAIL",
      check: "interim.inclusion",
      subject: expect.stringMatching(/^interim record /) as never,
    });
  });

  const log = (detail: RegExp, state: "FAIL" | "INCONCLUSIVE" = "FAIL"): Decision => ({
    state,
    check: "interim.log",
    subject: expect.stringMatching(/^interim record /) as never,
    detail,
  });
  it("localInclusion: an interim record of another log", () => {
    expectOnly(
      exchange({ interim: [{ at: 2, otherLog: true }] }),
      "localInclusion",
      log(/not in the terminal record's log [0-9a-f]{64}: a record of another log/),
    );
  });
  it("localInclusion: an interim record at a later leaf", () => {
    expectOnly(
      exchange({ interim: [{ at: 2, leaf: "after" }] }),
      "localInclusion",
      log(/at leaf \d+, not before the terminal record's leaf \d+/),
    );
  });
  it("localInclusion: an interim checkpoint later than the terminal one", () => {
    const input = check(exchange({}, { interimManifest: (m) => void (at(m, "cllCheckpoint").mmr_size = int(99)) }));
    expect(checkOf(input, "localInclusion", "interim.log")).toMatchObject({
      state: "FAIL",
      detail: expect.stringMatching(/is later than the terminal record's/),
    });
  });
  it("localInclusion: an interim checkpoint with the terminal size and another root (two histories)", () => {
    const e = exchange(
      { interim: [{ at: 2, checkpoint: "final" }] },
      { interimManifest: (m) => void (at(m, "cllCheckpoint").root = sha256Hex(utf8("another root"))) },
    );
    expect(checkOf(check(e), "localInclusion", "interim.log")).toMatchObject({
      state: "FAIL",
      detail: expect.stringMatching(/two histories at one size/),
    });
  });
  it("localInclusion: an earlier interim checkpoint with no consistency proof to the terminal one is INCONCLUSIVE", () => {
    const e = exchange({}, { manifest: (m) => void ((m.priorCheckpoint = null), (m.consistencyProof = null)) });
    const input = check(e);
    expect(checkOf(input, "localInclusion", "interim.log")).toMatchObject({
      state: "INCONCLUSIVE",
      detail: expect.stringMatching(/no consistency proof carried by these records leads from mmr_size/),
    });
    expect(input.properties.localInclusion.state).toBe("INCONCLUSIVE");
  });
  it("localInclusion: a consistency step that does not verify FAILs", () => {
    const e = exchange(
      {},
      { manifest: (m) => void ((at(m, "consistencyProof").new_peaks as JsonValue[])[0] = sha256Hex(utf8("x"))) },
    );
    expect(checkOf(check(e), "localInclusion", "interim.log")).toMatchObject({
      state: "FAIL",
      detail: expect.stringMatching(/the consistency proof from mmr_size \d+ to \d+ does not verify/),
    });
  });
  it("localInclusion: a malformed interim checkpoint is not compared (NOT_CHECKED), its own property FAILs", () => {
    const input = check(exchange({}, { interimManifest: (m) => void (at(m, "cllCheckpoint").kind = "other") }));
    expect(checkOf(input, "localInclusion", "interim.log").state).toBe("NOT_CHECKED");
    expect(input.properties.checkpointSignature.state).toBe("FAIL");
  });
  it("an interim record's PASS never stands in for a terminal record that carries nothing for the property", () => {
    const input = check(exchange({}, { manifest: (m) => void (m.localInclusionProof = null) }));
    expect(input.properties.localInclusion.state).toBe("NOT_PRESENT");
    expect(checkOf(input, "localInclusion", "interim.inclusion")).toMatchObject({
      state: "NOT_CHECKED",
      detail: expect.stringMatching(/^not counted, the terminal record being NOT_PRESENT here \(PASS: /),
    });
  });

  it("the consistency chain is followed across several pauses", () => {
    const transcript = [
      ...PAUSE.slice(0, 5),
      agent("lc 2nd ask", "Window seat?"),
      transition(W, IR),
      user("lc 2nd", "yes"),
      transition(IR, W),
      DONE,
    ];
    const input = check(exchange({ transcript, interim: [{ at: 2 }, { at: 6 }] }));
    expect(statesOf(input)).toEqual(baseline());
    expect(
      input.properties.localInclusion.checks
        .filter((c) => c.id === "interim.log")
        .map((c) => c.detail.replace(/.*\(consistency /, "")),
    ).toEqual([expect.stringMatching(/^\d+ → \d+ → \d+\)$/), expect.stringMatching(/^\d+ → \d+\)$/)]);
  });
});

describe("trace.digest", () => {
  const TRACE = {
    trace_id: "trace-1",
    steps: [
      {
        step_id: "s1",
        call_type: "TOOL",
        name: "fx",
        latency: 12,
        additional_attributes: { [EXT]: sha256Hex(utf8("callee")) },
      },
    ],
  };
  const traced = (tamper?: Tamper, digested = true) =>
    exchange({ interim: [], traceMetadata: { trace: TRACE, digested } }, tamper);
  const digestOf = (p: JsonObject) => at(p, "traceDigests", 0);

  it("PASSes a digested trace and lists its callee evidence, never following it", () => {
    const input = check(traced());
    expect(statesOf(input)).toEqual(baseline());
    const c = checkOf(input, "taskBinding", "trace.digest");
    expect(c).toMatchObject({
      state: "PASS",
      detail: expect.stringMatching(
        new RegExp(`callee evidence cited \\(listed, never fetched or followed\\): fx → ${sha256Hex(utf8("callee"))}`),
      ),
    });
    expect(input.notes.some((n) => n.includes('Traceability trace "trace-1" with 1 step(s), in metadata'))).toBe(true);
  });

  it("reports an undigested trace as informational (NOT_PRESENT), taskBinding PASS", () => {
    const input = check(traced(undefined, false));
    expect(checkOf(input, "taskBinding", "trace.digest")).toMatchObject({
      state: "NOT_PRESENT",
      detail: expect.stringMatching(/is informational, not covered by evidence/),
    });
    expect(input.properties.taskBinding.state).toBe("PASS");
  });

  const cases: Array<{ name: string; tamper: Tamper; decided: Decision }> = [
    {
      name: "a trace changed after sealing",
      tamper: { finalTask: (t) => void (at(t, "metadata", TRACE_KEY, "steps", 0).latency = int(13)) },
      decided: {
        state: "FAIL",
        check: "trace.digest",
        subject: "traceDigests[0]",
        detail: /changed since it was sealed/,
      },
    },
    {
      name: "a committed trace the Task no longer carries",
      tamper: { finalTask: (t) => void delete at(t, "metadata")[TRACE_KEY] },
      decided: {
        state: "FAIL",
        check: "trace.digest",
        subject: "traceDigests[0]",
        detail: /which the observed Task carries without one/,
      },
    },
    {
      name: "traceDigests not an array",
      tamper: { payload: (p) => void (p.traceDigests = {}) },
      decided: { state: "FAIL", check: "trace.digest", detail: /traceDigests is not an array/ },
    },
    {
      name: "an entry with another member",
      tamper: { payload: (p) => void (digestOf(p).path = "x") },
      decided: {
        state: "FAIL",
        check: "trace.digest",
        subject: "traceDigests[0]",
        detail: /exactly the members holder, id and traceDigest/,
      },
    },
    {
      name: "a trace on another Task",
      tamper: { payload: (p) => void (digestOf(p).id = "another-task") },
      decided: {
        state: "FAIL",
        check: "trace.digest",
        subject: "traceDigests[0]",
        detail: /a Traceability trace on Task another-task, not on this Task/,
      },
    },
    {
      name: "an unknown holder",
      tamper: { payload: (p) => void (digestOf(p).holder = "status") },
      decided: {
        state: "FAIL",
        check: "trace.digest",
        subject: "traceDigests[0]",
        detail: /holder "status" is not one of task, message, artifact/,
      },
    },
    {
      name: "an id that is not a string",
      tamper: { payload: (p) => void (digestOf(p).id = int(1)) },
      decided: { state: "FAIL", check: "trace.digest", subject: "traceDigests[0]", detail: /id 1 is not a string/ },
    },
    {
      name: "a digest that is not hex",
      tamper: { payload: (p) => void (digestOf(p).traceDigest = "x") },
      decided: {
        state: "FAIL",
        check: "trace.digest",
        subject: "traceDigests[0]",
        detail: /traceDigest "x" is not 64 lowercase hex/,
      },
    },
  ];
  it.each(cases.map((c) => [c.name, c] as const))("%s FAILs trace.digest", (_, c) => {
    const input = check(traced(c.tamper));
    expectDecided(input, "taskBinding", c.decided);
    expect(statesOf(input)).toEqual(baseline({ taskBinding: "FAIL" }));
  });

  it("a holder the Task does not show is INCONCLUSIVE", () => {
    const input = check(
      traced({ payload: (p) => void Object.assign(digestOf(p), { holder: "message", id: "not-in-history" }) }),
    );
    expect(
      input.properties.taskBinding.checks.find((c) => c.id === "trace.digest" && c.subject === "traceDigests[0]")
        ?.state,
    ).toBe("INCONCLUSIVE");
  });

  it("a trace a Struct widened (12 → 12.0) is INCONCLUSIVE, never PASS", () => {
    const input = check(
      traced({ finalTask: (t) => void (at(t, "metadata", TRACE_KEY, "steps", 0).latency = new JsonNumber("12.0")) }),
    );
    expect(checkOf(input, "taskBinding", "trace.digest", "traceDigests[0]")).toMatchObject({
      state: "INCONCLUSIVE",
      detail: expect.stringMatching(/narrowed back to integers/),
    });
  });
});
