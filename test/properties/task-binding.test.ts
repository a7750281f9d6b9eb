/**
 * taskBinding: the payload against the observed Task — task.id, task.contextId,
 * task.terminalState, task.authority, task.tenant, artifact.binding, artifacts.coverage,
 * transcript.sequence, transcript.message and transcript.unobserved — every branch through verify().
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { sha256Hex, utf8 } from "../../src/util/bytes.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import {
  ARTIFACT_0,
  EXT,
  MESSAGE_0,
  MESSAGE_1,
  at,
  baseline,
  capture,
  check,
  checkOf,
  checkStates,
  expectCase,
  expectDecided,
  statesOf,
  tampered,
  type Case,
} from "./harness.js";

const MEDIA_TYPE = "application/vnd.agentactioncapsule.a2a-task-evidence+json";
const OTHER_ID = uuidFromLabel("an artifact the Task never had");

const artifacts = (p: JsonObject) => p.nonEvidenceArtifacts as JsonValue[];
const transcript = (p: JsonObject) => p.transcript as JsonValue[];
const entry = (p: JsonObject, i: number) => at(p, "transcript", i);
const claimed = (p: JsonObject) => at(p, "nonEvidenceArtifacts", 0);
const historyMessage = (id: string) => `history message ${id}`;

describe("taskBinding FAIL paths", () => {
  const cases: Case[] = [
    {
      name: "payload names another taskId",
      tamper: { payload: (p) => void (p.taskId = uuidFromLabel("another task")) },
      decided: { state: "FAIL", check: "task.id", detail: /payload taskId "[0-9a-f-]+" != observed Task id/ },
    },
    {
      name: "payload names another contextId",
      tamper: { payload: (p) => void (p.contextId = uuidFromLabel("another context")) },
      decided: { state: "FAIL", check: "task.contextId" },
    },
    {
      name: "observed Task not in a terminal state",
      tamper: { finalTask: (t) => void (at(t, "status").state = "TASK_STATE_WORKING") },
      decided: { state: "FAIL", check: "task.terminalState", detail: /in TASK_STATE_WORKING, not a terminal state/ },
      // The server's references state TASK_STATE_COMPLETED, which the Task contradicts.
      also: { referenceConsistency: "FAIL" },
    },
    {
      name: "observed Task in another terminal state",
      tamper: { finalTask: (t) => void (at(t, "status").state = "TASK_STATE_CANCELED") },
      decided: {
        state: "FAIL",
        check: "task.terminalState",
        detail: 'payload terminalState "TASK_STATE_COMPLETED" != observed Task state TASK_STATE_CANCELED',
      },
      also: { referenceConsistency: "FAIL" },
    },
    {
      name: "--authority names another authority",
      presented: { request: { authority: "someone-else.example" } },
      decided: {
        state: "FAIL",
        check: "task.authority",
        detail: /payload authority "a2a-evidence-producer\.example" != --authority "someone-else\.example"/,
      },
    },
    {
      name: "--tenant names a tenant the payload does not",
      presented: { request: { tenant: "tenant-b" } },
      decided: { state: "FAIL", check: "task.tenant", detail: 'payload tenantId null != --tenant "tenant-b"' },
    },
    {
      name: "nonEvidenceArtifacts not an array",
      tamper: { payload: (p) => void (p.nonEvidenceArtifacts = null) },
      decided: {
        state: "FAIL",
        check: "artifact.binding",
        detail: "taskEvidencePayload.nonEvidenceArtifacts is not an array",
      },
    },
    {
      name: "artifact entry not an object",
      tamper: { payload: (p) => void (artifacts(p)[0] = "quote") },
      decided: {
        state: "FAIL",
        check: "artifact.binding",
        subject: "nonEvidenceArtifacts[0]",
        detail: "nonEvidenceArtifacts[0]: entry is not an object",
      },
    },
    {
      name: "artifactId not a string",
      tamper: { payload: (p) => void (claimed(p).artifactId = new JsonNumber("0")) },
      decided: {
        state: "FAIL",
        check: "artifact.binding",
        subject: "nonEvidenceArtifacts[0]",
        detail: /artifactId is not a string/,
      },
    },
    {
      name: "artifactId committed twice",
      tamper: { payload: (p) => void artifacts(p).push({ ...claimed(p) }) },
      decided: {
        state: "FAIL",
        check: "artifact.binding",
        subject: "nonEvidenceArtifacts[1]",
        detail: /is committed twice/,
      },
    },
    {
      name: "artifactId not observed; a same-named artifact's content matches (the reference vector's defect)",
      tamper: { payload: (p) => void (claimed(p).artifactId = "quote") },
      decided: {
        state: "FAIL",
        check: "artifact.binding",
        subject: "nonEvidenceArtifacts[0]",
        detail: `payload artifactId "quote" is not an artifact of the observed Task; the observed artifact ${ARTIFACT_0} has the same name "quote" and its content matches the commitment`,
      },
    },
    {
      name: "artifactId not observed; a same-named artifact's content differs (a forgery)",
      tamper: {
        payload: (p) => {
          claimed(p).artifactId = OTHER_ID;
          claimed(p).contentCommitment = sha256Hex(utf8("EUR/USD 1.0900"));
        },
      },
      decided: {
        state: "FAIL",
        check: "artifact.binding",
        subject: "nonEvidenceArtifacts[0]",
        detail: /has the same name "quote" and its content does not match the commitment$/,
      },
    },
    {
      name: "artifactId not observed and no artifact has its name",
      tamper: {
        payload: (p) => {
          claimed(p).artifactId = OTHER_ID;
          claimed(p).name = "invoice";
        },
      },
      decided: {
        state: "FAIL",
        check: "artifact.binding",
        subject: "nonEvidenceArtifacts[0]",
        detail: /; no observed artifact has that name either$/,
      },
    },
    {
      name: "artifact name differs from the observed one",
      tamper: { payload: (p) => void (claimed(p).name = "offer") },
      decided: {
        state: "FAIL",
        check: "artifact.binding",
        subject: "nonEvidenceArtifacts[0]",
        detail: /payload name "offer" != observed name "quote"/,
      },
    },
    {
      name: "artifact contentCommitment differs from the observed text",
      tamper: {
        payload: (p) => void (claimed(p).contentCommitment = sha256Hex(utf8("EUR/USD 1.0900\nvalid until 09:30:30Z"))),
      },
      decided: {
        state: "FAIL",
        check: "artifact.binding",
        subject: "nonEvidenceArtifacts[0]",
        detail: /contentCommitment "[0-9a-f]{64}" != SHA-256 of the observed text/,
      },
    },
    {
      name: "an observed artifact not committed in the payload",
      tamper: {
        finalTask: (t) =>
          void (t.artifacts as JsonValue[]).unshift({
            artifactId: "late",
            name: "appendix",
            parts: [{ text: "added later" }],
          }),
      },
      decided: {
        state: "FAIL",
        check: "artifacts.coverage",
        detail: 'observed artifact(s) not committed in the payload: late (name "appendix")',
      },
    },
    {
      name: "transcript not an array",
      tamper: { payload: (p) => void (p.transcript = {}) },
      decided: {
        state: "FAIL",
        check: "transcript.sequence",
        detail: "taskEvidencePayload.transcript is not an array",
      },
    },
    {
      name: "transcript entry not an object",
      tamper: { payload: (p) => void (transcript(p)[1] = "message") },
      decided: { state: "FAIL", check: "transcript.sequence", detail: "transcript[1] is not an object" },
    },
    {
      name: "sequence numbers not contiguous from 0",
      tamper: { payload: (p) => void (entry(p, 1).sequence = new JsonNumber("2")) },
      decided: {
        state: "FAIL",
        check: "transcript.sequence",
        detail: /^transcript\[1\]\.sequence is "?2"?, expected 1$/,
      },
    },
    {
      name: "sequence number written as a float",
      tamper: { payload: (p) => void (entry(p, 0).sequence = new JsonNumber("0.0")) },
      decided: {
        state: "FAIL",
        check: "transcript.sequence",
        detail: /^transcript\[0\]\.sequence is "?0\.0"?, expected 0$/,
      },
    },
    {
      name: "transcript messageId not a string",
      tamper: { payload: (p) => void (entry(p, 1).messageId = null) },
      decided: { state: "FAIL", check: "transcript.sequence", detail: "transcript[1].messageId is not a string" },
    },
    {
      name: "transcript messageId appears twice",
      tamper: { payload: (p) => void (entry(p, 1).messageId = MESSAGE_0) },
      decided: {
        state: "FAIL",
        check: "transcript.sequence",
        detail: `transcript[1]: messageId ${MESSAGE_0} appears twice`,
      },
    },
    {
      name: "a history message omitted from the transcript",
      tamper: { payload: (p) => void transcript(p).pop() },
      decided: {
        state: "FAIL",
        check: "transcript.message",
        subject: historyMessage(MESSAGE_1),
        detail: /of the observed history is missing from the transcript/,
      },
    },
    {
      name: "transcript in another order than the history",
      tamper: {
        payload: (p) => {
          transcript(p).reverse();
          entry(p, 0).sequence = new JsonNumber("0");
          entry(p, 1).sequence = new JsonNumber("1");
        },
      },
      decided: {
        state: "FAIL",
        check: "transcript.message",
        subject: historyMessage(MESSAGE_1),
        detail: /is out of order: transcript\[0\] comes before an earlier observed message/,
      },
    },
    {
      name: "transcript role differs from the observed one",
      tamper: { payload: (p) => void (entry(p, 1).role = "ROLE_USER") },
      decided: {
        state: "FAIL",
        check: "transcript.message",
        subject: historyMessage(MESSAGE_1),
        detail: /transcript role "ROLE_USER" != observed role ROLE_AGENT/,
      },
    },
    {
      name: "partCommitment differs from the observed text",
      tamper: {
        payload: (p) =>
          void (entry(p, 0).partCommitment = sha256Hex(utf8("Quote EUR/USD for a 1 000 000 EUR transfer."))),
      },
      decided: {
        state: "FAIL",
        check: "transcript.message",
        subject: historyMessage(MESSAGE_0),
        detail: /partCommitment "[0-9a-f]{64}" != SHA-256 of its text/,
      },
    },
  ];

  it.each(cases)("$name", (c) => void expectCase("taskBinding", c));

  it("a payload that lists the artifact under its name only also leaves the observed artifact uncovered", () => {
    const input = tampered({ payload: (p) => void (claimed(p).artifactId = "quote") });
    expect(checkStates(input, "taskBinding")).toContain("artifacts.coverage FAIL");
  });
});

describe("taskBinding PASS, INCONCLUSIVE, NOT_PRESENT and NOT_CHECKED", () => {
  const e = capture();

  it("PASS: every check that could run passed; authority and tenant are listed as NOT_CHECKED", () => {
    const input = check(e);
    expectDecided(input, "taskBinding", {
      state: "PASS",
      check: "task.id",
      detail: "payload binds the observed task, terminal state, artifacts and transcript",
    });
    expect(checkStates(input, "taskBinding")).toEqual([
      "task.id PASS",
      "task.contextId PASS",
      "task.terminalState PASS",
      "task.authority NOT_CHECKED",
      "task.tenant NOT_CHECKED",
      "artifacts.unambiguous PASS",
      "artifact.binding PASS",
      "artifacts.coverage PASS",
      "transcript.unambiguous PASS",
      "transcript.sequence PASS",
      "transcript.message PASS",
      "transcript.message PASS",
      "transcript.firstTask PASS",
    ]);
    expect(checkOf(input, "taskBinding", "transcript.message", historyMessage(MESSAGE_1)).state).toBe("PASS");
  });

  it("--authority and --tenant that match PASS", () => {
    const withTenant = capture({ tenantId: "tenant-eu-1" });
    const input = check(withTenant, { request: { authority: "a2a-evidence-producer.example", tenant: "tenant-eu-1" } });
    expect(checkOf(input, "taskBinding", "task.authority").state).toBe("PASS");
    expect(checkOf(input, "taskBinding", "task.tenant").state).toBe("PASS");
    expect(input.properties.taskBinding.state).toBe("PASS");
  });

  it("a truncated history: the unobserved transcript entries are INCONCLUSIVE, not FAIL", () => {
    const input = tampered({ finalTask: (t) => void (t.history as JsonValue[]).pop() });
    expectDecided(input, "taskBinding", {
      state: "INCONCLUSIVE",
      check: "transcript.unobserved",
      detail: `transcript entries not in the observed history (history may be truncated): transcript[1] ${MESSAGE_1}`,
    });
    expect(statesOf(input)).toEqual(baseline({ taskBinding: "INCONCLUSIVE" }));
  });

  it("no history at all: the transcript cannot be compared, INCONCLUSIVE", () => {
    const input = tampered({ finalTask: (t) => void delete t.history });
    expectDecided(input, "taskBinding", {
      state: "INCONCLUSIVE",
      check: "transcript.unobserved",
      detail: /carries no history, so none of the 2 transcript entries can be compared/,
    });
  });

  it("no history and an empty transcript: the Task's Messages are not observed, INCONCLUSIVE", () => {
    const input = tampered({
      payload: (p) => void (p.transcript = []),
      finalTask: (t) => void (t.history = []),
      firstTask: (t) => void (t.history = []),
    });
    expectDecided(input, "taskBinding", {
      state: "INCONCLUSIVE",
      check: "transcript.unobserved",
      detail: /carries no history and the transcript no Message entry/,
    });
    expect(checkStates(input, "taskBinding").filter((c) => c.startsWith("transcript"))).toEqual([
      "transcript.unambiguous PASS",
      "transcript.sequence PASS",
      "transcript.unobserved INCONCLUSIVE",
    ]);
  });

  it("an observed Task without an artifacts member (inline delivery): the artifact binding is INCONCLUSIVE", () => {
    const input = check(capture({ carrier: "inline" }, { finalTask: (t) => void delete t.artifacts }));
    expectDecided(input, "taskBinding", {
      state: "INCONCLUSIVE",
      check: "artifact.binding",
      detail: /commits to 1 artifact\(s\) but the observed Task carries no artifacts member/,
    });
    expect(statesOf(input)).toEqual(baseline({ taskBinding: "INCONCLUSIVE" }));
  });

  it.each([
    ["the extension URI", { artifactId: "signed-copy", extensions: [EXT], parts: [{ text: "evidence" }] }],
    ["the evidence media type", { artifactId: "signed-copy", parts: [{ text: "evidence", mediaType: MEDIA_TYPE }] }],
    [
      "the evidence metadata key",
      {
        artifactId: "signed-copy",
        metadata: { [EXT]: { evidenceStatus: "EVIDENCE_STATUS_SIGNED_RECORD" } },
        parts: [{ text: "evidence" }],
      },
    ],
  ])(
    "an observed artifact marked as evidence by %s but holding no bundle is content the payload must cover (§9.12)",
    (_, extra) => {
      const input = tampered({
        finalTask: (t) => void (t.artifacts as JsonValue[]).unshift(extra as unknown as JsonObject),
      });
      expectDecided(input, "taskBinding", {
        state: "FAIL",
        check: "artifacts.coverage",
        detail: /not committed in the payload: signed-copy/,
      });
      expect(input.notes.some((n) => /marked as evidence but read as content/.test(n))).toBe(true);
    },
  );

  it("non-text parts are not covered by commitments: a matching text commitment is INCONCLUSIVE, and the detail says why", () => {
    const input = check(
      capture({
        artifacts: [{ artifactId: ARTIFACT_0, name: "quote", parts: ["EUR/USD 1.0842", { data: { rate: "1.0842" } }] }],
      }),
    );
    expectDecided(input, "taskBinding", {
      state: "INCONCLUSIVE",
      check: "artifact.binding",
      subject: "nonEvidenceArtifacts[0]",
      code: "PART_NOT_COMMITTED",
      detail:
        /its text matches the commitment [0-9a-f]{64}, but it has 1 non-text part\(s\) \(data, raw or url\) that no commitment of this profile covers.*\(1 data part\)/,
    });
    expect(statesOf(input)).toEqual(baseline({ taskBinding: "INCONCLUSIVE" }));
  });

  it("a payload artifact without a name FAILs: a missing member is never a skipped comparison (§9.13)", () => {
    const input = tampered({ payload: (p) => void delete claimed(p).name });
    expectDecided(input, "taskBinding", {
      state: "FAIL",
      check: "artifact.binding",
      subject: "nonEvidenceArtifacts[0]",
      detail: /the entry lacks name/,
    });
  });

  it("an observed Task without contextId, where the payload names one, FAILs: absent equals empty (§9.15)", () => {
    const input = tampered({ finalTask: (t) => void delete t.contextId });
    expectDecided(input, "taskBinding", {
      state: "FAIL",
      check: "task.contextId",
      detail: /!= observed Task contextId \(absent, which is empty\)/,
    });
  });

  it("no observed Task (a bare bundle without --task): NOT_CHECKED", () => {
    const input = check(e, { input: e.bundle });
    expectDecided(input, "taskBinding", { state: "NOT_CHECKED", check: "task.observed", detail: /^no observed Task/ });
    expect(checkStates(input, "taskBinding")).toEqual(["task.observed NOT_CHECKED"]);
  });

  it("a bare bundle with --task is bound like the Task that carried it", () => {
    const input = check(e, { input: e.bundle, request: { task: e.getTaskResponse } });
    expectDecided(input, "taskBinding", { state: "PASS", check: "task.id" });
  });

  it("no payload: NOT_PRESENT", () => {
    const input = tampered({ bundle: (b) => void delete b.taskEvidencePayload });
    expectDecided(input, "taskBinding", { state: "NOT_PRESENT", check: "task.observed" });
  });

  it("an unsupported record profile: NOT_CHECKED", () => {
    const input = tampered({ bundle: (b) => void delete b.recordProfile });
    expectDecided(input, "taskBinding", {
      state: "NOT_CHECKED",
      check: "task.observed",
      detail: "unsupported record profile (none stated)",
    });
  });
});
