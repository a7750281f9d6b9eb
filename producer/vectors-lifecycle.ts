/**
 * Lifecycle vectors (A2A Task Evidence §8.1, §12, §4.1, §16.4–5; docs/profile.md, v3.2
 * additions): every terminal state, pauses for input and for authentication and their
 * resumption, a Task canceled while paused, a pause that never resumes, interim records under the
 * terminal checkpoint and under an earlier one, Traceability traces in an Artifact and in
 * metadata — and the §16.5 negatives, each one change to the vector it names, re-derived and
 * re-signed by the producer so that only the property covering the change sees it.
 *
 * Names say what they cover: `valid-terminal-*` (terminal states), `valid-lifecycle-*` (pauses,
 * interim records), `valid-trace-*` (Traceability), `pending-*` (a Task that has not ended:
 * INPUT_EVIDENCE_PENDING, exit 3), `neg-<property>-<what>`.
 */
import type { JsonObject, JsonValue } from "../src/json/value.js";
import { sha256Hex, utf8 } from "../src/util/bytes.js";
import { uuidFromLabel, type ArtifactSpec, type MessageSpec } from "./a2a.js";
import { EXTENSION_URI, TRACEABILITY_URI, type TaskState } from "./constants.js";
import { ed25519FromSeed, seedFromLabel } from "./ed25519.js";
import { PENDING, expectation } from "./expectations.js";
import { int, jsonObject } from "./json-text.js";
import { arrayAt, objectAt } from "./mutations.js";
import type { ExchangeOptions, TranscriptSpec, TransitionSpec } from "./options.js";
import type { VectorDefinition } from "./vectors.js";

const TS_URL = "https://ts.a2a-evidence.example";

const transition = (from: TaskState, to: TaskState, bound = true): TransitionSpec => ({
  transition: { from, to },
  ...(bound ? {} : { bound: false }),
});
const user = (
  label: string,
  text: string,
  ids: Partial<Pick<MessageSpec, "taskId" | "contextId">> = {},
): MessageSpec => ({
  messageId: uuidFromLabel(label),
  role: "ROLE_USER",
  parts: [text],
  ...ids,
});
const agent = (label: string, text: string): MessageSpec => ({
  messageId: uuidFromLabel(label),
  role: "ROLE_AGENT",
  parts: [text],
});

/** The log around a lifecycle record: other records before and after, a prior checkpoint, a 9-entry Transparency Service log. */
const LOG: ExchangeOptions = {
  leavesBefore: 3,
  leavesAfter: 2,
  priorCheckpoint: { leafCount: 2 },
  witnesses: [{ url: TS_URL, treeSize: 9, leafIndex: 5 }],
};

// --- a pause for input: the agent asks, the Task waits, the client's Message resumes it ---------

const BOOK = {
  request: user("lifecycle message 0", "Book a train from Paris to Lyon on 12 October."),
  ask: agent("lifecycle message 1", "Which departure: 08:04 or 10:58?"),
  resume: user("lifecycle message 2", "10:58, please."),
  done: agent("lifecycle message 3", "Booked: 10:58, coach 7, seat 42."),
};

const INPUT_TRANSCRIPT: TranscriptSpec[] = [
  BOOK.request,
  BOOK.ask,
  transition("TASK_STATE_WORKING", "TASK_STATE_INPUT_REQUIRED"),
  BOOK.resume,
  transition("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_WORKING"),
  BOOK.done,
];

/** One effect before the pause (the fares it quoted), one after it (the ticket). */
const BOOK_ARTIFACTS: ArtifactSpec[] = [
  {
    artifactId: uuidFromLabel("lifecycle artifact fares"),
    name: "fares",
    parts: ["08:04 — 39 EUR", "10:58 — 45 EUR"],
    after: 1,
  },
  {
    artifactId: uuidFromLabel("lifecycle artifact ticket"),
    name: "ticket",
    parts: ["PAR→LYS 12 Oct 10:58, coach 7, seat 42"],
    after: 5,
  },
];

const INPUT_BASE: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("lifecycle task"),
  contextId: uuidFromLabel("lifecycle context"),
  transcript: INPUT_TRANSCRIPT,
  artifacts: BOOK_ARTIFACTS,
  ...LOG,
};

/** The base most negatives derive from: the pause above, with its interim record under a checkpoint of its own. */
const INTERIM_BASE: ExchangeOptions = { ...INPUT_BASE, interim: [{ at: 2 }] };

function from(base: ExchangeOptions, change: ExchangeOptions): ExchangeOptions {
  return { ...base, ...change };
}

/** The payload's transcript with entries removed and every later one renumbered (a producer that left them out). */
function withoutEntries(...indexes: number[]): (p: JsonObject) => void {
  return (p) => {
    const transcript = arrayAt(p, "transcript");
    for (const i of [...indexes].sort((a, b) => b - a)) transcript.splice(i, 1);
    transcript.forEach((_, i) => void (objectAt(p, "transcript", i).sequence = int(i)));
  };
}

// --- a pause for authentication, completed out of band ------------------------------------------

const PAY = {
  request: user("auth message 0", "Pay invoice 2026-231: 1 200 EUR to ACME SARL."),
  ask: agent(
    "auth message 1",
    "Authorize this payment at https://bank.a2a-evidence.example/authorize/7731, then I will continue.",
  ),
  done: agent("auth message 2", "Paid: SEPA reference S-9904."),
};

const AUTH_BASE: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("auth task"),
  contextId: uuidFromLabel("auth context"),
  transcript: [
    PAY.request,
    PAY.ask,
    transition("TASK_STATE_WORKING", "TASK_STATE_AUTH_REQUIRED"),
    transition("TASK_STATE_AUTH_REQUIRED", "TASK_STATE_WORKING", false),
    PAY.done,
  ],
  artifacts: [{ artifactId: uuidFromLabel("auth artifact 0"), name: "payment", parts: ["S-9904 1 200 EUR settled"] }],
  ...LOG,
};

// --- several turns: two pauses for input and one for authentication -----------------------------

const MULTI = {
  request: user("multi message 0", "Plan a two-day trip to Lyon for two."),
  askDates: agent("multi message 1", "Which dates?"),
  dates: user("multi message 2", "12 and 13 October."),
  askBudget: agent("multi message 3", "Hotel budget per night?"),
  budget: user("multi message 4", "Under 150 EUR."),
  askAuth: agent("multi message 5", "Sign in to your travel account to hold the rooms."),
  signedIn: user("multi message 6", "Done, I signed in."),
  done: agent("multi message 7", "Held: Hôtel des Célestins, 12–13 Oct, 138 EUR/night."),
};

const MULTI_BASE: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("multi task"),
  contextId: uuidFromLabel("multi context"),
  transcript: [
    MULTI.request,
    MULTI.askDates,
    transition("TASK_STATE_SUBMITTED", "TASK_STATE_INPUT_REQUIRED"),
    MULTI.dates,
    transition("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_WORKING"),
    MULTI.askBudget,
    transition("TASK_STATE_WORKING", "TASK_STATE_INPUT_REQUIRED"),
    MULTI.budget,
    transition("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_WORKING"),
    MULTI.askAuth,
    transition("TASK_STATE_WORKING", "TASK_STATE_AUTH_REQUIRED"),
    MULTI.signedIn,
    transition("TASK_STATE_AUTH_REQUIRED", "TASK_STATE_WORKING"),
    MULTI.done,
  ],
  artifacts: [
    {
      artifactId: uuidFromLabel("multi artifact options"),
      name: "hotel-options",
      parts: ["Célestins 138 EUR", "Bellecour 149 EUR"],
      after: 5,
    },
    {
      artifactId: uuidFromLabel("multi artifact hold"),
      name: "hold",
      parts: ["Célestins, 12–13 Oct, 2 rooms held"],
      after: 13,
    },
  ],
  ...LOG,
  leavesBefore: 1,
  priorCheckpoint: null,
  interim: [{ at: 2 }, { at: 6 }, { at: 10, checkpoint: "final" }],
};

// --- a Task canceled while it waited for input ----------------------------------------------------

const CANCELED_BASE: ExchangeOptions = {
  ...INPUT_BASE,
  taskId: uuidFromLabel("canceled task"),
  contextId: uuidFromLabel("canceled context"),
  transcript: [
    BOOK.request,
    BOOK.ask,
    transition("TASK_STATE_WORKING", "TASK_STATE_INPUT_REQUIRED"),
    transition("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_CANCELED", false),
  ],
  artifacts: [BOOK_ARTIFACTS[0] as ArtifactSpec],
  terminalState: "TASK_STATE_CANCELED",
  interim: [{ at: 2 }],
};

// --- Tasks that end without pausing, in each terminal state ----------------------------------------

function ended(
  label: string,
  terminalState: NonNullable<ExchangeOptions["terminalState"]>,
  reply: string,
  artifact: string,
): ExchangeOptions {
  return {
    envelope: "capture",
    taskId: uuidFromLabel(`${label} task`),
    contextId: uuidFromLabel(`${label} context`),
    transcript: [
      user(`${label} message 0`, "Convert 10 000 EUR to USD at the current rate."),
      agent(`${label} message 1`, reply),
    ],
    artifacts: [{ artifactId: uuidFromLabel(`${label} artifact 0`), name: "outcome", parts: [artifact] }],
    terminalState,
    ...LOG,
  };
}

const EVIDENCE_FAILED: ExchangeOptions = {
  ...ended("evidence failed", "TASK_STATE_FAILED", "The conversion failed: the rate feed is down.", "no conversion"),
  witnesses: [],
  requirement: { requirement: "PREFERRED", minimumEvidence: "SIGNED_RECORD" },
  evidenceStatus: "EVIDENCE_STATUS_FAILED",
  failureReason: "WITNESS_REQUIRED_NOT_CONFIRMED: the Transparency Service did not answer within 60 s",
};

// --- Traceability ---------------------------------------------------------------------------------

/** A callee's record, as the caller's trace cites it: listed by the verifier, never fetched. */
const CALLEE_EVIDENCE_ID = sha256Hex(utf8("a2a-evidence producer: rail-inventory-agent's record of its sub-Task"));

/** A ResponseTrace as the a2a-samples Python agent writes it (schema B), with the callee's evidence ID cited. */
const TRACE = {
  steps: [
    {
      additional_attributes: { [EXTENSION_URI]: CALLEE_EVIDENCE_ID },
      call_type: "AGENT",
      cost: null,
      end_time: "2026-10-01T09:29:58.551000+00:00",
      error: null,
      latency: 431,
      name: "rail-inventory-agent",
      parameters: null,
      parent_step_id: null,
      requests: { route: "PAR-LYS", date: "2026-10-12" },
      start_time: "2026-10-01T09:29:58.120000+00:00",
      step_id: "step-8c1f0e3a",
      step_type: "agent_call",
      total_tokens: 812,
      trace_id: "trace-51c0f6d2",
    },
    {
      additional_attributes: {},
      call_type: "TOOL",
      cost: null,
      end_time: "2026-10-01T09:29:58.702000+00:00",
      error: null,
      latency: 97,
      name: "fare-calculator",
      parameters: { passengers: 1 },
      parent_step_id: "step-8c1f0e3a",
      requests: null,
      start_time: "2026-10-01T09:29:58.605000+00:00",
      step_id: "step-2b9d44e7",
      step_type: "tool_call",
      total_tokens: null,
      trace_id: "trace-51c0f6d2",
    },
  ],
  trace_id: "trace-51c0f6d2",
};

const TRACE_BASE: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("trace task"),
  contextId: uuidFromLabel("trace context"),
  transcript: [
    user("trace message 0", "Find me a train from Paris to Lyon on 12 October."),
    agent("trace message 1", "The 10:58 has seats at 45 EUR."),
  ],
  artifacts: [
    { artifactId: uuidFromLabel("trace artifact 0"), name: "offer", parts: ["PAR→LYS 12 Oct 10:58, 45 EUR"] },
  ],
  ...LOG,
};

const TRACE_ARTIFACT: ArtifactSpec = {
  artifactId: uuidFromLabel("trace artifact trace"),
  name: "traceability",
  extensions: [TRACEABILITY_URI],
  parts: [JSON.stringify(TRACE)],
};

export const LIFECYCLE_NOTES: ReadonlyArray<readonly [string, string]> = [
  [
    "Lifecycle",
    'The lifecycle vectors follow docs/profile.md ("v3.2 additions to aac-cll-scitt/v1"): transition entries in the transcript, interim records cited by evidenceId and sequence, trace digests. Their negatives each derive from the vector their description names (most from valid-lifecycle-interim-earlier-checkpoint), not from valid-capture. A pending-* vector is a Task that has not ended: expected is INPUT_EVIDENCE_PENDING with exit 3 and no property states (properties and evidenceLevel null).',
  ],
];

const DERIVED_FROM_INTERIM = "valid-lifecycle-interim-earlier-checkpoint";

export const LIFECYCLE_VECTORS: readonly VectorDefinition[] = [
  // Every terminal state (contract §8, §9: the evidence status says how well the outcome is recorded).
  {
    name: "valid-terminal-failed",
    description:
      "A Task that ends TASK_STATE_FAILED (the work failed) with its evidence EXTERNALLY_REGISTERED: a failed outcome is recorded like any other.",
    mutation: null,
    options: ended("failed", "TASK_STATE_FAILED", "The conversion failed: the rate feed is down.", "no conversion"),
    expected: expectation(),
  },
  {
    name: "valid-terminal-canceled",
    description: "A Task the client canceled while it was working (TASK_STATE_CANCELED), sealed and registered.",
    mutation: null,
    options: ended(
      "canceled",
      "TASK_STATE_CANCELED",
      "Canceled at your request before converting.",
      "canceled, nothing converted",
    ),
    expected: expectation(),
  },
  {
    name: "valid-terminal-rejected",
    description: "A Task the agent rejected (TASK_STATE_REJECTED: amount above its limit), sealed and registered.",
    mutation: null,
    options: ended(
      "rejected",
      "TASK_STATE_REJECTED",
      "Rejected: conversions above 5 000 EUR need a human desk.",
      "rejected, above limit",
    ),
    expected: expectation(),
  },
  {
    name: "valid-terminal-evidence-status-failed",
    description:
      "A FAILED Task whose server reports EVIDENCE_STATUS_FAILED with a typed failureReason (WITNESS_REQUIRED_NOT_CONFIRMED: …) rather than a lower level; the signed record is still delivered, without a witness; the caller asked for SIGNED_RECORD (PREFERRED).",
    mutation: null,
    options: EVIDENCE_FAILED,
    expected: expectation({ externalRegistration: "NOT_PRESENT" }, "SIGNED_RECORD"),
    note: "A server may fail, never silently downgrade (contract §4, negotiation): EVIDENCE_STATUS_FAILED with a typed reason meets any minimum, and claims no level, so referenceConsistency's claimed-level check has nothing to confirm.",
  },
  {
    name: "neg-referenceConsistency-failed-untyped-reason",
    description:
      "valid-terminal-evidence-status-failed with a failureReason that is not typed (no CODE: prefix) in every reference copy.",
    mutation:
      'failureReason: "WITNESS_REQUIRED_NOT_CONFIRMED: …" → "the Transparency Service did not answer" in every reference copy',
    options: from(EVIDENCE_FAILED, { failureReason: "the Transparency Service did not answer" }),
    expected: expectation(
      { externalRegistration: "NOT_PRESENT", referenceConsistency: "FAIL", negotiation: "FAIL" },
      "SIGNED_RECORD",
    ),
    note: "negotiation FAILs too: EVIDENCE_STATUS_FAILED meets the minimum only with a typed reason (contract §4, negotiation); the contract binds the two, as for PENDING on a terminal Task.",
  },

  // Pause and resume (§8.1).
  {
    name: "valid-lifecycle-input-required",
    description:
      "A Task that asks for input: the agent's request, the transition WORKING → INPUT_REQUIRED, the client's resuming Message (same taskId and contextId), the transition back to WORKING, the reply; one effect before the pause, one after; no interim record.",
    mutation: null,
    options: INPUT_BASE,
    expected: expectation(),
  },
  {
    name: "valid-lifecycle-auth-required",
    description:
      "A Task that waits for authentication: the agent's request to authorize the payment, WORKING → AUTH_REQUIRED, then AUTH_REQUIRED → WORKING bound to no Message (authorized out of band, as the SDKs resume AUTH_REQUIRED); no credential anywhere in the transcript.",
    mutation: null,
    options: AUTH_BASE,
    expected: expectation(),
    note: "taskBinding reports what the transcript records of the authentication (the request, the two transitions); it never judges authorization, and a transition entry carries exactly its six members, so nothing a client sent to authenticate can sit in it.",
  },
  {
    name: "valid-lifecycle-multi-turn-interims",
    description:
      "Several turns: paused for the dates (SUBMITTED → INPUT_REQUIRED), for the budget, and for sign-in (AUTH_REQUIRED, resumed by the client's Message); an interim record at each pause — the first two under checkpoints of their own, the third under the terminal checkpoint — each citing the ones before it; all three supplied in the capture.",
    mutation: null,
    options: MULTI_BASE,
    expected: expectation(),
  },
  {
    name: "valid-lifecycle-canceled-while-paused",
    description:
      "A Task canceled while it waited for input (§8.1.9): the request, WORKING → INPUT_REQUIRED, then INPUT_REQUIRED → CANCELED bound to no Message; its interim record (the effect done before the pause) supplied; terminal state CANCELED.",
    mutation: null,
    options: CANCELED_BASE,
    expected: expectation(),
  },
  {
    name: "valid-lifecycle-interim-same-checkpoint",
    description:
      "valid-lifecycle-input-required with an interim record sealed at the pause and re-issued under the terminal record's checkpoint (an earlier leaf of the same log), supplied in the capture's interimBundles.",
    mutation: null,
    options: from(INPUT_BASE, { interim: [{ at: 2, checkpoint: "final" }] }),
    expected: expectation(),
  },
  {
    name: DERIVED_FROM_INTERIM,
    description:
      "valid-lifecycle-input-required with an interim record under a checkpoint of its own, signed at the pause; the terminal checkpoint chains to it (priorCheckpoint) with a consistency proof. Most lifecycle negatives are one change to this vector.",
    mutation: null,
    options: INTERIM_BASE,
    expected: expectation(),
  },
  {
    name: "valid-lifecycle-interim-cited-not-supplied",
    description:
      "valid-lifecycle-interim-earlier-checkpoint delivered as a GetTask response: the terminal payload cites the interim record, which the input does not carry — listed, not verified.",
    mutation: null,
    options: from(INTERIM_BASE, { envelope: "jsonrpc" }),
    expected: expectation({ negotiation: "INCONCLUSIVE" }),
    note: "taskBinding stays PASS: the citation is well-formed and its record is simply not supplied (interim.cited NOT_CHECKED, naming --interim); nothing about the interim record is claimed verified.",
  },
  {
    name: "pending-input-required-never-resumed",
    description:
      "GetTask while the Task waits in INPUT_REQUIRED and never resumes: the agent's request as status.message, the evidence status PENDING, no record at all.",
    mutation: null,
    options: from(INPUT_BASE, { envelope: "paused", transcript: INPUT_TRANSCRIPT.slice(0, 3) }),
    expected: PENDING,
  },
  {
    name: "pending-auth-required-with-interim",
    description:
      "GetTask while the Task waits in AUTH_REQUIRED, carrying the interim record sealed at the pause in its evidence Artifact; Task.metadata says PENDING.",
    mutation: null,
    options: from(AUTH_BASE, {
      envelope: "paused",
      transcript: (AUTH_BASE.transcript as TranscriptSpec[]).slice(0, 3),
      interim: [{ at: 2 }],
    }),
    expected: PENDING,
    note: "A Task that has not ended has no terminal record: the input is INPUT_EVIDENCE_PENDING (exit 3), never verified as if its interim record were the Task's evidence; the interim record is verified later, with the terminal record.",
  },

  // Traceability (§4.1).
  {
    name: "valid-trace-artifact",
    description:
      "A Traceability trace sent as an Artifact that lists the extension: content, committed like any other Artifact; one step cites the callee agent's evidence ID.",
    mutation: null,
    options: from(TRACE_BASE, { artifacts: [...(TRACE_BASE.artifacts as ArtifactSpec[]), TRACE_ARTIFACT] }),
    expected: expectation(),
  },
  {
    name: "valid-trace-metadata-digested",
    description:
      "A Traceability trace in Task.metadata (as the sample agent's final status update puts it), whose digest the payload carries because the capture policy includes it (traceDigests).",
    mutation: null,
    options: from(TRACE_BASE, { traceMetadata: { trace: TRACE, digested: true } }),
    expected: expectation(),
  },
  {
    name: "valid-trace-metadata-informational",
    description:
      "A Traceability trace in Task.metadata that the payload does not digest: reported as informational, not covered by evidence.",
    mutation: null,
    options: from(TRACE_BASE, { traceMetadata: { trace: TRACE, digested: false } }),
    expected: expectation(),
  },
  {
    name: "neg-taskBinding-trace-digest",
    description:
      "valid-trace-metadata-digested with the trace in Task.metadata changed after sealing (a step's latency).",
    mutation: "finalTask.metadata[TRACE].steps[0].latency: 431 → 43",
    options: from(TRACE_BASE, {
      traceMetadata: { trace: TRACE, digested: true },
      tamper: {
        finalTask: (t) =>
          void (objectAt(
            t,
            "metadata",
            "github.com/a2aproject/a2a-samples/extensions/traceability/v1/traceability",
            "steps",
            0,
          ).latency = int(43)),
      },
    }),
    expected: expectation({ taskBinding: "FAIL" }),
  },

  // The §16.5 negatives.
  {
    name: "neg-contentBinding-interim-mutation",
    description: `${DERIVED_FROM_INTERIM} with the supplied interim bundle's payload changed in transit (its sealTime), evidenceId and digests left as sealed.`,
    mutation:
      "interimBundles[0].taskEvidencePayload.sealTime: 09:20:10.25 → 09:20:11.25 (bundle only; nothing re-derived)",
    options: from(INTERIM_BASE, {
      tamper: {
        interimBundle: (b) => void (objectAt(b, "taskEvidencePayload").sealTime = "2026-10-01T09:20:11.250000+00:00"),
      },
    }),
    expected: expectation({ contentBinding: "FAIL" }),
    note: "Only contentBinding's interim.content sees it: interim.prefix compares the Task, the transcript and the effects, not the seal time, and the capsule still verifies.",
  },
  {
    name: "neg-taskBinding-omitted-request",
    description:
      "valid-lifecycle-input-required whose producer leaves the agent's request for input out of the transcript (later entries renumbered), then seals.",
    mutation: "payload.transcript: the request entry (transcript[1]) removed, before sealing",
    options: from(INPUT_BASE, { tamper: { payload: withoutEntries(1) } }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-taskBinding-substituted-resumption",
    description:
      "valid-lifecycle-input-required whose terminal Task shows a resuming Message with other content than the one committed.",
    mutation: 'finalTask.history[2].parts[0].text: "10:58, please." → "08:04, please."',
    options: from(INPUT_BASE, {
      tamper: { finalTask: (t) => void (objectAt(t, "history", 2, "parts", 0).text = "08:04, please.") },
    }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-taskBinding-omitted-resumption",
    description:
      "valid-lifecycle-interim-earlier-checkpoint whose producer leaves the resuming Message out of the transcript and binds the transition out of INPUT_REQUIRED to no Message, then seals.",
    mutation:
      "payload.transcript: the resuming Message (transcript[3]) removed and the transition out's messageId set to null, before sealing",
    options: from(INTERIM_BASE, {
      tamper: {
        payload: (p) => {
          withoutEntries(3)(p);
          objectAt(p, "transcript", 3).messageId = null;
        },
      },
    }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-taskBinding-spliced-resumption",
    description:
      "valid-lifecycle-interim-earlier-checkpoint whose resuming Message is one from another Task (its own taskId and contextId), committed consistently by the producer: every digest and signature holds, the Message does not continue this Task.",
    mutation: "the resuming Message's taskId and contextId → another Task's, before sealing",
    options: from(INTERIM_BASE, {
      transcript: INPUT_TRANSCRIPT.map((t) =>
        t === BOOK.resume
          ? { ...BOOK.resume, taskId: uuidFromLabel("another task"), contextId: uuidFromLabel("another context") }
          : t,
      ),
    }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-taskBinding-reordered-transitions",
    description:
      "valid-lifecycle-input-required whose producer writes the transition out before the transition in (positions swapped), then seals.",
    mutation: "payload.transcript[2] and [4] swapped (sequence numbers kept in place), before sealing",
    options: from(INPUT_BASE, {
      tamper: {
        payload: (p) => {
          const t = arrayAt(p, "transcript");
          const [a, b] = [t[2], t[4]];
          t[2] = b as JsonValue;
          t[4] = a as JsonValue;
          objectAt(p, "transcript", 2).sequence = int(2);
          objectAt(p, "transcript", 4).sequence = int(4);
        },
      },
    }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-taskBinding-missing-transition-out",
    description:
      "valid-lifecycle-input-required whose producer leaves out the transition back to WORKING: the transcript of a COMPLETED Task ends paused.",
    mutation: "payload.transcript: the transition out (transcript[4]) removed, before sealing",
    options: from(INPUT_BASE, { tamper: { payload: withoutEntries(4) } }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-taskBinding-dropped-interim-citation",
    description: `${DERIVED_FROM_INTERIM} whose terminal payload does not cite the interim record the capture supplies.`,
    mutation: "payload.interimEvidence removed, before sealing",
    options: from(INTERIM_BASE, { tamper: { payload: (p) => void delete p.interimEvidence } }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-taskBinding-interim-wrong-tenant",
    description: `${DERIVED_FROM_INTERIM} whose interim record was sealed naming another tenant.`,
    mutation: 'interim payload.tenantId: null → "tenant-b", before sealing it',
    options: from(INTERIM_BASE, { tamper: { interimPayload: (p) => void (p.tenantId = "tenant-b") } }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-taskBinding-interim-wrong-task",
    description: `${DERIVED_FROM_INTERIM} whose interim record is another Task's (its payload names another taskId), cited by the terminal record.`,
    mutation: "interim payload.taskId → another UUID, before sealing it",
    options: from(INTERIM_BASE, { tamper: { interimPayload: (p) => void (p.taskId = uuidFromLabel("another task")) } }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-taskBinding-interim-effect-dropped",
    description: `${DERIVED_FROM_INTERIM} whose terminal payload drops the effect (the fares Artifact) the interim record recorded before the pause, though the Task still shows it.`,
    mutation: "payload.nonEvidenceArtifacts[0] (fares) removed, before sealing",
    options: from(INTERIM_BASE, { tamper: { payload: (p) => void arrayAt(p, "nonEvidenceArtifacts").splice(0, 1) } }),
    expected: expectation({ taskBinding: "FAIL" }),
  },
  {
    name: "neg-producerSignature-interim-wrong-issuer",
    description: `${DERIVED_FROM_INTERIM} whose interim record is signed by another producer key (a valid signature; the log's checkpoints are still the producer's).`,
    mutation: "the interim capsule sealed under another Ed25519 key",
    options: from(INTERIM_BASE, { interim: [{ at: 2, producerKeyLabel: "another producer" }] }),
    expected: expectation({ producerSignature: "FAIL" }),
  },
  {
    name: "neg-checkpointSignature-interim-checkpoint",
    description: `${DERIVED_FROM_INTERIM} whose interim record's own checkpoint has its timestamp changed after signing (its manifest digest re-derived).`,
    mutation:
      "interim manifest.cllCheckpoint.timestamp: 09:20:10.254107Z → 09:20:11.254107Z (interim coreManifestDigest re-derived)",
    options: from(INTERIM_BASE, {
      tamper: { interimManifest: (m) => void (objectAt(m, "cllCheckpoint").timestamp = "2026-10-01T09:20:11.254107Z") },
    }),
    expected: expectation({ checkpointSignature: "FAIL" }),
    note: "The interim record's checkpoint carries no witness, so nothing else is bound to its signed members; its root and size, which interim.inclusion and interim.log read, are untouched.",
  },
  {
    name: "neg-localInclusion-stale-proof",
    description: `${DERIVED_FROM_INTERIM} whose terminal manifest carries the inclusion proof from an older state of the log (7 leaves) beside the current checkpoint (9 leaves).`,
    mutation: "manifest.localInclusionProof built at 7 leaves instead of 9 (a stale proof)",
    options: from(INTERIM_BASE, { inclusionProofLeaves: 7 }),
    expected: expectation({ localInclusion: "FAIL" }),
    note: "referenceConsistency stays PASS: see Overclaims.",
  },
  {
    name: "neg-localInclusion-interim-other-log",
    description: `${DERIVED_FROM_INTERIM} whose interim record sits in another log (its own log_id, checkpoint and proofs, all valid).`,
    mutation: "the interim record appended to another log",
    options: from(INTERIM_BASE, { interim: [{ at: 2, otherLog: true }] }),
    expected: expectation({ localInclusion: "FAIL" }),
  },
  {
    name: "neg-localInclusion-interim-later-leaf",
    description: `${DERIVED_FROM_INTERIM} whose interim record was appended after the terminal record, under the same checkpoint.`,
    mutation: "the interim record's leaf placed after the terminal record's",
    options: from(INTERIM_BASE, { interim: [{ at: 2, leaf: "after" }] }),
    expected: expectation({ localInclusion: "FAIL" }),
  },
  {
    name: "neg-externalRegistration-wrong-trust-anchor",
    description: `${DERIVED_FROM_INTERIM} checked with a trust file that pins another key for the Transparency Service.`,
    mutation: "trust.transparencyServices[0].keys: [<the service's key>] → [<another Ed25519 key>]",
    options: from(INTERIM_BASE, {
      tamper: {
        trust: (t) =>
          void (objectAt(t, "transparencyServices", 0).keys = [
            ed25519FromSeed(seedFromLabel("another transparency service")).publicKeyHex,
          ]),
      },
    }),
    expected: expectation({ externalRegistration: "FAIL" }),
  },
  {
    name: "neg-referenceConsistency-false-continuity-claim",
    description: `${DERIVED_FROM_INTERIM} whose server claims EVIDENCE_STATUS_CONTINUITY_WITNESSED, in every reference copy, though the record carries no continuity witness assertion.`,
    mutation:
      "evidenceStatus: EVIDENCE_STATUS_EXTERNALLY_REGISTERED → EVIDENCE_STATUS_CONTINUITY_WITNESSED in every reference copy",
    options: from(INTERIM_BASE, { evidenceStatus: "EVIDENCE_STATUS_CONTINUITY_WITNESSED" }),
    expected: expectation({ referenceConsistency: "FAIL" }),
  },
  {
    name: "neg-negotiation-requirement-changed-at-resume",
    description: `${DERIVED_FROM_INTERIM} whose resuming Message carries a lower evidence requirement (SIGNED_RECORD), and the Task went on with it.`,
    mutation: "finalTask.history[2].metadata[EXT]: the requirement with minimumEvidence SIGNED_RECORD",
    options: from(INTERIM_BASE, {
      tamper: {
        finalTask: (t) => {
          const requirement = objectAt(t, "history", 0, "metadata", EXTENSION_URI);
          const resume = objectAt(t, "history", 2);
          resume.extensions = [EXTENSION_URI];
          resume.metadata = jsonObject({ [EXTENSION_URI]: { ...requirement, minimumEvidence: "SIGNED_RECORD" } });
        },
      },
    }),
    expected: expectation({ negotiation: "FAIL" }),
    note: "A resuming Message that changes the accepted requirement must be rejected, not applied (contract §4, negotiation): one the Task's history holds was applied. The Message's metadata is not committed, so taskBinding stays PASS.",
  },
  {
    name: "neg-referenceConsistency-pending-on-canceled",
    description:
      "valid-lifecycle-canceled-while-paused whose server still says EVIDENCE_STATUS_PENDING, in every reference copy, on the CANCELED Task.",
    mutation: "evidenceStatus → EVIDENCE_STATUS_PENDING in every reference copy",
    options: from(CANCELED_BASE, { evidenceStatus: "EVIDENCE_STATUS_PENDING" }),
    expected: expectation({ referenceConsistency: "FAIL", negotiation: "FAIL" }),
    note: "PENDING belongs to a Task that has not ended; on a terminal one it is a FAIL, and negotiation FAILs with it (the status neither meets the minimum nor is a typed FAILED), as in neg-referenceConsistency-terminal-pending.",
  },
  {
    name: "neg-referenceConsistency-pending-copy-beside-terminal",
    description: `${DERIVED_FROM_INTERIM} whose evidence Artifact's reference says EVIDENCE_STATUS_PENDING while the bundle's and Task.metadata's state the terminal level.`,
    mutation: "the evidence Artifact's metadata[EXT].evidenceStatus → EVIDENCE_STATUS_PENDING",
    options: from(INTERIM_BASE, {
      tamper: {
        finalTask: (t) => {
          const artifacts = arrayAt(t, "artifacts");
          objectAt(t, "artifacts", artifacts.length - 1, "metadata", EXTENSION_URI).evidenceStatus =
            "EVIDENCE_STATUS_PENDING";
        },
      },
    }),
    expected: expectation({ referenceConsistency: "FAIL" }),
  },
];
