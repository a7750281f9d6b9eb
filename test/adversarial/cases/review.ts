/**
 * False PASSes on taskBinding, referenceConsistency, negotiation and the lifecycle checks: every
 * signature, digest and proof stays valid, and only what they do not cover changes — parts no
 * commitment names, a Message of another Task, the first Task's own copy of the first Message, an
 * acceptance shown without its requirement, reference members left out, an interim record that
 * dates an effect before the pause. Each case states the verdict the contract requires; a case
 * whose verdict is PASS records a decision that the change is not content (docs/properties.md).
 */
import { EXTENSION_URI } from "../../../producer/constants.js";
import { uuidFromLabel } from "../../../producer/a2a.js";
import { buildExchange, buildPausedExchange, type Exchange } from "../../../producer/exchange.js";
import { jsonText } from "../../../producer/json-text.js";
import type { ExchangeOptions, Tamper, TranscriptSpec } from "../../../producer/options.js";
import { fromPlain, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import { utf8 } from "../../../src/util/bytes.js";
import { expect } from "vitest";
import {
  arrayAt,
  attacked,
  copy,
  honest,
  obj,
  objectAt,
  reportJson,
  requestOf,
  type AdversarialCase,
} from "../harness.js";
import { agent, user } from "../../helpers/messages.js";

const history = (t: JsonObject): JsonValue[] => arrayAt(t, "history");
const parts = (o: JsonObject): JsonValue[] => arrayAt(o, "parts");

/** A quote Artifact with a structured part beside its text: what many A2A agents return. */
const WITH_DATA: ExchangeOptions = {
  artifacts: [
    {
      artifactId: uuidFromLabel("review quote"),
      name: "quote",
      parts: ["EUR/USD 1.0842", { data: { amount: "10000", rate: "1.0842" } }],
    },
  ],
};

/** The caller asked for EXTERNALLY_REGISTERED; the server delivers a SIGNED_RECORD and says so. */
const DOWNGRADED: ExchangeOptions = { witnesses: [], requirement: { minimumEvidence: "EXTERNALLY_REGISTERED" } };
const stripRequirement = (t: JsonObject): void => void delete objectAt(t, "history", 0).metadata;

// ---- the lifecycle: a Task that paused for input once, its interim record sealed at the pause ----

const PAUSE: TranscriptSpec[] = [
  user("review lc 0", "Book a table for two tonight."),
  agent("review lc 1", "At 19:00 or 21:00?"),
  { transition: { from: "TASK_STATE_WORKING", to: "TASK_STATE_INPUT_REQUIRED" } },
  user("review lc 2", "21:00."),
  { transition: { from: "TASK_STATE_INPUT_REQUIRED", to: "TASK_STATE_WORKING" } },
  agent("review lc 3", "Booked for 21:00."),
];
const BOOKING = {
  artifactId: uuidFromLabel("review lc booking"),
  name: "booking",
  parts: ["table for 2, 21:00"],
  after: 5,
};
const LIFECYCLE: ExchangeOptions = {
  envelope: "jsonrpc",
  taskId: uuidFromLabel("review lc task"),
  contextId: uuidFromLabel("review lc context"),
  transcript: PAUSE,
  artifacts: [
    { artifactId: uuidFromLabel("review lc slots"), name: "slots", parts: ["19:00 free", "21:00 free"], after: 1 },
    BOOKING,
  ],
  leavesBefore: 2,
  interim: [{ at: 2 }],
};

const W = "TASK_STATE_WORKING" as const;
const IR = "TASK_STATE_INPUT_REQUIRED" as const;
const AR = "TASK_STATE_AUTH_REQUIRED" as const;

/** Two pauses, an interim record at each, effects before each: the second record cites the first. */
export const TWO_PAUSES: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("sweep task"),
  contextId: uuidFromLabel("sweep context"),
  transcript: [
    user("sweep 0", "Move 500 EUR to savings."),
    agent("sweep 1", "From which account?"),
    { transition: { from: W, to: IR } },
    user("sweep 2", "Checking."),
    { transition: { from: IR, to: W } },
    agent("sweep 3", "Please confirm with your bank login."),
    { transition: { from: W, to: AR } },
    { transition: { from: AR, to: W }, bound: false },
    agent("sweep 4", "Done."),
  ] as TranscriptSpec[],
  artifacts: [
    { artifactId: uuidFromLabel("sweep accounts"), name: "accounts", parts: ["checking", "savings"], after: 1 },
    { artifactId: uuidFromLabel("sweep draft"), name: "draft", parts: ["500 EUR checking → savings"], after: 5 },
    { artifactId: uuidFromLabel("sweep receipt"), name: "receipt", parts: ["moved"], after: 8 },
  ],
  leavesBefore: 2,
  leavesAfter: 1,
  interim: [{ at: 2 }, { at: 6 }],
};

/** The paused Task GetTask showed at the pause (it carries the interim bundle), with `tamper` applied when sealing. */
function pausedTask(tamper: Tamper = {}): JsonObject {
  return buildPausedExchange({ ...LIFECYCLE, envelope: "paused", transcript: PAUSE.slice(0, 3), tamper }).pausedTask;
}

/** The terminal GetTask response verified with `--interim <the paused Task>`. */
function withPaused(terminal: Exchange, paused: JsonObject) {
  return requestOf(terminal, { interim: [utf8(jsonText(paused))] });
}

/** The terminal record's commitment to the booking, which the Task made after it resumed. */
function bookingEntry(): JsonValue {
  const committed = arrayAt(objectAt(buildExchange(LIFECYCLE).bundle, "taskEvidencePayload"), "nonEvidenceArtifacts");
  return copy(committed.find((a) => (a as JsonObject).artifactId === BOOKING.artifactId) as JsonObject);
}

export const REVIEW_CASES: readonly AdversarialCase[] = [
  // Non-text parts: the profile commits to text only (content-binding.md §6).
  {
    name: "data part of a content artifact replaced",
    rule: "§4 taskBinding",
    attack:
      "the structured part of the quote Artifact (amount 10000 → 1000000) replaced after sealing; its text left as committed",
    request: () =>
      requestOf(
        attacked(
          {
            finalTask: (t) =>
              void ((parts(objectAt(t, "artifacts", 0))[1] as JsonObject).data = obj({
                amount: "1000000",
                rate: "1.0842",
              })),
          },
          WITH_DATA,
        ),
      ),
    expected: {
      exitCode: 3,
      property: "taskBinding",
      state: "INCONCLUSIVE",
      check: "artifact.binding",
      detail: /1 non-text part\(s\) \(data, raw or url\) that no commitment of this profile covers/,
      policyReason: /taskBinding/,
    },
  },
  {
    name: "file part added to the agent's reply",
    rule: "§4 taskBinding",
    attack: "a raw file part added to the agent's reply in the history after sealing (its text unchanged)",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) =>
            void parts(objectAt(t, "history", 1)).push(
              obj({ raw: "JVBERi0xLjQK", filename: "mandate.pdf", mediaType: "application/pdf" }),
            ),
        }),
      ),
    expected: {
      exitCode: 3,
      property: "taskBinding",
      state: "INCONCLUSIVE",
      check: "transcript.message",
      detail: /history message .*: .*1 non-text part/,
    },
  },
  {
    name: "url part as the whole content of an artifact",
    rule: "§4 taskBinding",
    attack: "an Artifact whose only part is a url: its commitment is SHA-256 of the empty text, whatever the url names",
    request: () =>
      requestOf(
        attacked(
          {
            finalTask: (t) =>
              void (parts(objectAt(t, "artifacts", 0))[0] = obj({
                url: "https://reports.example/q3.pdf",
                mediaType: "application/pdf",
              })),
          },
          {
            artifacts: [
              { artifactId: uuidFromLabel("review link"), name: "report", parts: [{ data: { placeholder: true } }] },
            ],
          },
        ),
      ),
    expected: { exitCode: 3, property: "taskBinding", state: "INCONCLUSIVE", check: "artifact.binding" },
  },
  {
    name: "labels of a text part changed (not content)",
    rule: "§4 taskBinding",
    attack:
      "a text part's mediaType, filename and metadata, an Artifact's description and metadata changed after sealing",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) => {
            const a = objectAt(t, "artifacts", 0);
            a.description = "refund approved";
            a.metadata = obj({ note: "changed" });
            Object.assign(
              parts(a)[0] as JsonObject,
              obj({ mediaType: "text/markdown", filename: "quote.md", metadata: { lang: "en" } }),
            );
          },
        }),
      ),
    // Decision (docs/properties.md, "Does not prove"): labels and extension data, not content.
    expected: { exitCode: 0, property: "taskBinding", state: "PASS" },
  },
  // A Message of another Task spliced into this history.
  ...(["taskId", "contextId"] as const).map((member): AdversarialCase => ({
    name: `history message naming another ${member === "taskId" ? "Task" : "context"}`,
    rule: "§4 taskBinding",
    attack: `the agent's reply in the history names another ${member}; its messageId, role and text are the committed ones`,
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) => void (objectAt(t, "history", 1)[member] = uuidFromLabel(`review another ${member}`)),
        }),
      ),
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "transcript.message",
      detail: /a Message of another Task spliced into this history/,
    },
  })),
  {
    name: "history message naming its Task under both spellings",
    rule: "§3 strict parsing",
    attack:
      "the agent's reply names this Task as taskId and another one as task_id: a reader that prefers the snake_case name sees a spliced Message",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) => void (objectAt(t, "history", 1).task_id = uuidFromLabel("review another task id")),
        }),
      ),
    expected: {
      exitCode: 2,
      more: (report) =>
        void expect(JSON.stringify(report.inputs[0])).toMatch(/both \\"taskId\\" and \\"task_id\\" are present/),
    },
  },
  {
    name: "duplicate member deep inside a data part",
    rule: "§3 strict parsing",
    attack:
      "the quote Artifact's data part holds the member amount twice (10000, then 1000000): JSON.parse and Python keep the last, other readers the first",
    request: () => {
      const e = honest(WITH_DATA);
      const text = jsonText(e.input).replace(/"amount":\s*"10000"/, '$&, "amount": "1000000"');
      expect(text).toContain('"amount": "1000000"');
      return { inputs: [{ source: "attack", data: utf8(text) }], trust: e.trust };
    },
    expected: {
      exitCode: 2,
      more: (report) => void expect(JSON.stringify(report.inputs[0])).toMatch(/JSON_DUPLICATE_MEMBER/),
    },
  },
  // §9.8: the requirement is read from the Task's first Message.
  {
    name: "requirement removed from the first Message",
    rule: "§9.8",
    attack:
      "the caller asked for EXTERNALLY_REGISTERED and got a SIGNED_RECORD; the server drops the requirement from both copies of the first Message and keeps its acceptance",
    request: () => requestOf(attacked({ finalTask: stripRequirement, firstTask: stripRequirement }, DOWNGRADED)),
    expected: {
      exitCode: 1,
      property: "negotiation",
      state: "FAIL",
      check: "acceptance.requested",
      detail:
        /shows evidenceAcceptance \(state \W+ACCEPTED\W+ minimumEvidence \W+EXTERNALLY_REGISTERED\W+ but the first Message .* carries no evidence requirement/,
    },
  },
  {
    name: "requirement moved under another extension key",
    rule: "§9.8",
    attack:
      "the requirement of both first-Message copies moved under the extension URI with a trailing slash, which no reader takes for it",
    request: () => {
      const move = (t: JsonObject) => {
        const m = objectAt(t, "history", 0, "metadata");
        m[`${EXTENSION_URI}/`] = m[EXTENSION_URI] as JsonValue;
        delete m[EXTENSION_URI];
      };
      return requestOf(attacked({ finalTask: move, firstTask: move }, DOWNGRADED));
    },
    expected: { exitCode: 1, property: "negotiation", state: "FAIL", check: "acceptance.requested" },
  },
  {
    name: "first Task opens with another first Message",
    rule: "§9.8",
    attack:
      "the first Task's first Message replaced by one with a new messageId and a PREFERRED SIGNED_RECORD requirement (accepted as such); the terminal history's copy loses its requirement",
    request: () =>
      requestOf(
        attacked(
          {
            finalTask: stripRequirement,
            firstTask: (t) => {
              const m = objectAt(t, "history", 0);
              m.messageId = uuidFromLabel("review fabricated first message");
              Object.assign(
                objectAt(m, "metadata", EXTENSION_URI),
                obj({ requirement: "PREFERRED", minimumEvidence: "SIGNED_RECORD" }),
              );
              objectAt(t, "metadata", EXTENSION_URI, "evidenceAcceptance").minimumEvidence = "SIGNED_RECORD";
            },
          },
          DOWNGRADED,
        ),
      ),
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "transcript.firstTask",
      detail: /missing from the transcript/,
    },
  },
  {
    name: "first Task opens with a later Message of the Task",
    rule: "§9.8",
    attack: "the first Task's history holds the agent's reply (committed at transcript[1]) instead of the request",
    request: () =>
      requestOf(
        attacked({ firstTask: (t) => void (history(t)[0] = copy(objectAt(honest().finalTask, "history", 1))) }),
      ),
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "transcript.firstTask",
      detail: /but the Task's first Message is/,
    },
  },
  {
    name: "acceptance removed, requirement kept (the other way)",
    rule: "§9.8",
    attack: "the REQUIRED requirement stays in the first Message; the first Task's acceptance is removed",
    request: () => requestOf(attacked({ firstTask: (t) => void delete t.metadata })),
    expected: { exitCode: 1, property: "negotiation", state: "FAIL", check: "acceptance.accepted" },
  },
  {
    name: "downgrade shown by a GetTask response alone",
    rule: "§6",
    attack:
      "the terminal Task alone (no first Task): the requirement asks for EXTERNALLY_REGISTERED, the record is a SIGNED_RECORD",
    request: () => requestOf(attacked({}, { ...DOWNGRADED, envelope: "jsonrpc" })),
    // Not a hole: the default bar is the negotiated minimum the first Message shows.
    expected: {
      exitCode: 3,
      property: "negotiation",
      state: "INCONCLUSIVE",
      check: "acceptance.accepted",
      policyReason: /EXTERNALLY_REGISTERED/,
    },
  },
  {
    name: "first Task of another Task beside a bare bundle",
    rule: "§9.8",
    attack: "a bare bundle verified with --first-task naming another Task's accepted first Task, negotiation required",
    request: () => {
      const e = honest();
      const other = honest({
        taskId: uuidFromLabel("review other task"),
        contextId: uuidFromLabel("review other context"),
      });
      return {
        inputs: [{ source: "attack", data: e.bundle }],
        trust: e.trust,
        firstTask: other.firstTask,
        minEvidence: "NONE",
        require: ["negotiation"],
      };
    },
    expected: {
      exitCode: 1,
      property: "negotiation",
      state: "FAIL",
      check: "acceptance.sameTask",
      detail: /is not the Task the record names/,
      more: (_, input) => {
        // §4: a check the caller could not feed is listed, never dropped.
        expect(input?.properties.referenceConsistency.checks.find((c) => c.id === "reference.task")?.state).toBe(
          "NOT_CHECKED",
        );
      },
    },
  },
  // §9.9: the reference the server owes, complete.
  ...(["terminalState", "coverageScope", "deliveryMode"] as const).map((member): AdversarialCase => ({
    name: `reference without ${member}`,
    rule: "§9.9",
    attack: `${member} left out of every copy of the TaskEvidenceReference (bundle, evidence Artifact, Task.metadata), so every copy agrees`,
    request: () => requestOf(attacked({ reference: (r) => void delete r[member] })),
    expected: {
      exitCode: 1,
      property: "referenceConsistency",
      state: "FAIL",
      check: "reference.bundle",
      detail: new RegExp(`lacks ${member}`),
    },
  })),
  {
    name: "inline reference without deliveryMode",
    rule: "§9.9",
    attack: "a bundle delivered inline in Task.metadata, whose reference (the only copy) leaves out deliveryMode",
    request: () => requestOf(attacked({ reference: (r) => void delete r.deliveryMode }, { carrier: "inline" })),
    expected: {
      exitCode: 1,
      property: "referenceConsistency",
      state: "FAIL",
      check: "reference.bundle",
      detail: /lacks deliveryMode/,
    },
  },
  {
    name: "one metadata copy without terminalState",
    rule: "§9.9",
    attack: "only the evidence Artifact's metadata copy of the reference leaves out terminalState",
    request: () =>
      requestOf(attacked({ reference: (r, where) => void (where === "artifact" && delete r.terminalState) })),
    // Not a hole: every copy must equal the bundle's own reference, member for member.
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "reference.artifact" },
  },
  {
    name: "FAILED reference naming the record without its digest",
    rule: "§9.9",
    attack:
      "an EVIDENCE_STATUS_FAILED reference that states the record's evidenceId but leaves out its coreManifestDigest, in every copy",
    request: () =>
      requestOf(
        attacked(
          { reference: (r) => void delete r.coreManifestDigest },
          {
            witnesses: [],
            requirement: { requirement: "PREFERRED", minimumEvidence: "SIGNED_RECORD" },
            evidenceStatus: "EVIDENCE_STATUS_FAILED",
            failureReason: "WITNESS_REQUIRED_NOT_CONFIRMED: the Transparency Service did not answer",
          },
        ),
      ),
    expected: {
      exitCode: 1,
      property: "referenceConsistency",
      state: "FAIL",
      check: "reference.bundle",
      detail: /taskEvidenceReference\.coreManifestDigest .* != bundle coreManifestDigest/,
    },
  },
  {
    name: "evidence Artifact missing from the terminal Task of a capture",
    rule: "§9.9",
    attack:
      "the capture keeps the bundle (evidenceBundle) but the terminal Task carries no evidence Artifact, while every reference says EVIDENCE_ARTIFACT",
    request: () => {
      const e = honest();
      const input = copy(e.input);
      arrayAt(input, "finalTask", "artifacts").pop();
      input.evidenceBundle = copy(e.bundle);
      return { inputs: [{ source: "attack", data: input }], trust: e.trust };
    },
    expected: {
      exitCode: 1,
      property: "referenceConsistency",
      state: "FAIL",
      check: "reference.deliveryMode",
      detail: /carries the bundle nowhere/,
    },
  },
  {
    name: "bare bundle with a --task that does not carry it",
    rule: "§9.16",
    attack: "a bare bundle verified with --task naming a Task whose evidence Artifact was removed",
    request: () => {
      const e = honest();
      const task = copy(e.finalTask);
      arrayAt(task, "artifacts").pop();
      return { inputs: [{ source: "attack", data: e.bundle }], trust: e.trust, task };
    },
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "reference.deliveryMode" },
  },
  {
    name: "reference under the extension URI in another case",
    rule: "§9.9",
    attack: "Task.metadata carries the reference only under the extension URI with an upper-case host",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) => {
            const md = objectAt(t, "metadata");
            md[EXTENSION_URI.replace("agentactioncapsule.org", "AgentActionCapsule.org")] = md[
              EXTENSION_URI
            ] as JsonValue;
            delete md[EXTENSION_URI];
          },
        }),
      ),
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "reference.task" },
  },
  {
    name: "task id in another Unicode normal form",
    rule: "§4 taskBinding",
    attack: "the payload seals the Task id in NFD while the Task shows it in NFC",
    request: () => {
      const nfc = "tâche-1";
      return requestOf(attacked({ payload: (p) => void (p.taskId = nfc.normalize("NFD")) }, { taskId: nfc }));
    },
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "task.id" },
  },
  // §7 lifecycle: interim records (docs/profile.md §3).
  {
    name: "effect dated before the pause",
    rule: "§4 taskBinding, profile §3",
    attack:
      "the interim record, re-issued, records the booking the Task made after it resumed; the terminal record commits the same booking, the paused Task never showed it",
    request: () => {
      const tamper: Tamper = { interimPayload: (p) => void arrayAt(p, "nonEvidenceArtifacts").push(bookingEntry()) };
      return withPaused(buildExchange({ ...LIFECYCLE, tamper }), pausedTask(tamper));
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "interim.observed",
      detail: /as done before the pause, but the paused Task it came with does not show them/,
    },
  },
  {
    name: "request shown at the pause differs from the one sealed",
    rule: "§4 taskBinding, profile §3",
    attack: "the paused Task shows the request only as status.message, with other text than the interim record commits",
    request: () => {
      const paused = copy(pausedTask());
      history(paused).splice(1, 1);
      (objectAt(paused, "status", "message", "parts", 0) as JsonObject).text =
        "At 19:00 or 23:00 (23:00 costs 500 EUR)?";
      return withPaused(buildExchange(LIFECYCLE), paused);
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "interim.observed",
      detail: /is not what the interim record commits at transcript\[1\]/,
    },
  },
  {
    name: "paused Task's status message disagreeing with its history copy",
    rule: "§4 taskBinding, profile §3",
    attack: "the paused Task's status.message keeps the request's messageId and shows other text than its history copy",
    request: () => {
      const paused = copy(pausedTask());
      (objectAt(paused, "status", "message", "parts", 0) as JsonObject).text = "At 23:00?";
      return withPaused(buildExchange(LIFECYCLE), paused);
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "interim.observed",
      detail: /one messageId, two observations/,
    },
  },
  {
    name: "effect shown at the pause under another name",
    rule: "§4 taskBinding, profile §3",
    attack: "the paused Task shows the effect done before the pause under another name than the interim record commits",
    request: () => {
      const paused = copy(pausedTask());
      objectAt(paused, "artifacts", 0).name = "slots (all taken)";
      return withPaused(buildExchange(LIFECYCLE), paused);
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "interim.observed",
      detail: /is named .* but the interim record commits it as/,
    },
  },
  {
    name: "paused Task's copy of the first Message with another requirement",
    rule: "§9.8",
    attack:
      "the paused Task given with --interim shows the first Message with a lower minimumEvidence than the terminal Task's copy",
    request: () => {
      const paused = copy(pausedTask());
      objectAt(paused, "history", 0, "metadata", EXTENSION_URI).minimumEvidence = "SIGNED_RECORD";
      return withPaused(
        buildExchange({ ...LIFECYCLE, requirement: { minimumEvidence: "EXTERNALLY_REGISTERED" } }),
        paused,
      );
    },
    expected: { exitCode: 1, property: "negotiation", state: "FAIL", check: "requirement.copiesAgree" },
  },
  {
    name: "paused Task's history message of another Task",
    rule: "§4 taskBinding, profile §3",
    attack: "the request in the paused Task's history names another Task",
    request: () => {
      const paused = copy(pausedTask());
      objectAt(paused, "history", 1).taskId = uuidFromLabel("review another paused task");
      delete objectAt(paused, "status").message;
      return withPaused(buildExchange(LIFECYCLE), paused);
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "interim.observed",
      detail: /spliced into this history/,
    },
  },
  {
    name: "data part in an effect shown at the pause",
    rule: "§4 taskBinding, profile §3",
    attack:
      "the effect done before the pause carries a data part beside its text: the paused Task matches the interim record's text commitment only",
    request: () => {
      const options: ExchangeOptions = {
        ...LIFECYCLE,
        artifacts: [
          {
            artifactId: uuidFromLabel("review lc slots"),
            name: "slots",
            parts: ["19:00 free", { data: { seats: "2" } }],
            after: 1,
          },
          BOOKING,
        ],
      };
      const paused = buildPausedExchange({ ...options, envelope: "paused", transcript: PAUSE.slice(0, 3) }).pausedTask;
      return withPaused(buildExchange(options), paused);
    },
    expected: {
      exitCode: 3,
      property: "taskBinding",
      state: "INCONCLUSIVE",
      check: "interim.observed",
      detail: /matches what it records; but it has 1 non-text part/,
    },
  },
  {
    name: "interim record without its effects list",
    rule: "§9.13, profile §3",
    attack:
      "the interim record at the first pause is sealed without nonEvidenceArtifacts, so no effect could be found missing from it",
    request: () =>
      requestOf(
        buildExchange({
          ...TWO_PAUSES,
          tamper: { interimPayload: (p, i) => void (i === 0 && delete p.nonEvidenceArtifacts) },
        }),
      ),
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "interim.prefix",
      detail: /its nonEvidenceArtifacts .* is not an array/,
    },
  },
  {
    name: "effect undone between two pauses",
    rule: "§4 taskBinding, profile §3.3",
    attack:
      "the record of the second pause leaves out the effect the record of the first pause recorded (the terminal record still commits it)",
    request: () =>
      requestOf(
        buildExchange({
          ...TWO_PAUSES,
          tamper: { interimPayload: (p, i) => void (i === 1 && (p.nonEvidenceArtifacts as JsonValue[]).splice(0, 1)) },
        }),
      ),
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "interim.prefix",
      detail: /the record of the earlier pause .* records artifact .* as done, but this one does not/,
    },
  },
  {
    name: "second interim record for the same pause",
    rule: "§4 taskBinding, profile §3",
    attack:
      "beside the cited interim record, another valid record of the same pause (sealed later, other effects) is supplied",
    request: () => {
      const e = buildExchange({ ...LIFECYCLE, envelope: "capture" });
      const second = buildExchange({
        ...LIFECYCLE,
        envelope: "capture",
        tamper: { interimPayload: (p) => void (p.sealTime = "2026-10-01T09:29:59.000000+00:00") },
      });
      const input = copy(e.input);
      arrayAt(input, "interimBundles").push(copy(second.interimBundles[0] as JsonObject));
      return { inputs: [{ source: "attack", data: input }], trust: e.trust };
    },
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "interim.cited",
      detail: /a dropped citation/,
      // The second record's checkpoint is of another history of the log: localInclusion cannot chain it (INCONCLUSIVE).
      intact: ["contentBinding", "producerSignature", "checkpointSignature"],
    },
  },
  {
    name: "citation moved to the resumption",
    rule: "§4 taskBinding, profile §3.2",
    attack:
      "the terminal payload cites its interim record at the transition out of the pause instead of the one into it",
    request: () =>
      requestOf(
        buildExchange({
          ...LIFECYCLE,
          envelope: "capture",
          tamper: { payload: (p) => void (objectAt(p, "interimEvidence", 0).sequence = fromPlain(4) as JsonValue) },
        }),
      ),
    expected: {
      exitCode: 1,
      property: "taskBinding",
      state: "FAIL",
      check: "interim.cited",
      detail: /is not a transition into an interrupted state/,
    },
  },
  {
    name: "interim record after the terminal one in the log",
    rule: "§4 localInclusion, profile §3.3",
    attack: "the interim record's leaf is appended after the terminal record's",
    request: () => requestOf(buildExchange({ ...LIFECYCLE, envelope: "capture", interim: [{ at: 2, leaf: "after" }] })),
    expected: { exitCode: 1, property: "localInclusion", state: "FAIL", check: "interim.log" },
  },
  {
    name: "gap in the middle of the history",
    rule: "§9.4",
    attack: "the agent's question removed from the terminal history; the Messages before and after it still show",
    request: () =>
      requestOf(
        buildExchange({ ...LIFECYCLE, interim: [], tamper: { finalTask: (t) => void history(t).splice(1, 1) } }),
      ),
    // Contract §9.4: a transcript entry the history does not show is INCONCLUSIVE, never PASS.
    expected: { exitCode: 3, property: "taskBinding", state: "INCONCLUSIVE", check: "transcript.unobserved" },
  },
  {
    name: "credential in the resuming Message",
    rule: "§4 taskBinding, profile §2.1",
    attack: "the resuming Message carries a bearer token in its metadata",
    request: () =>
      requestOf(
        buildExchange({
          ...LIFECYCLE,
          interim: [],
          tamper: {
            finalTask: (t) =>
              void (objectAt(t, "history", 2).metadata = obj({ authorization: "Bearer review-secret-token-7f3a" })),
          },
        }),
      ),
    // Not a hole: authorization is never judged, and nothing of it is committed or repeated.
    expected: {
      exitCode: 0,
      property: "taskBinding",
      state: "PASS",
      more: (report) => void expect(reportJson(report)).not.toContain("review-secret-token-7f3a"),
    },
  },
];
