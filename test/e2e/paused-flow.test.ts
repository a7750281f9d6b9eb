/**
 * A multi-turn Task end to end against the official SDK (docs/profile.md, v3.2 additions): the
 * agent accepts, quotes, asks for input and waits in INPUT_REQUIRED with the interim record sealed
 * at the pause; the client's second Message on the same taskId and contextId resumes it; it
 * completes with the terminal record, whose transcript holds both transitions around the resuming
 * Message and whose payload cites the interim record.
 *
 * While it waits, GetTask over either binding is pending (INPUT_EVIDENCE_PENDING, exit 3). Once it
 * ended, GetTask over either binding verifies with the interim record supplied as the paused Task
 * (`--interim`) or in a capture's `interimBundles`: every property at its state, every lifecycle
 * check PASS, the same evidence IDs over both bindings. Loopback only.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verify, isFailedInput, PROPERTY_NAMES, type Check, type Report, type VerifiedInput } from "../../src/index.js";
import { base64ToBytesStrict } from "../../src/util/bytes.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { jsonText } from "../../producer/json-text.js";
import { REPO_ROOT } from "../helpers/external.js";
import { tempFile } from "../helpers/cli.js";
import {
  BINDINGS,
  EXTENSION_HEADER,
  isGetTask,
  isSend,
  RESUME_TEXT,
  resumeRequest,
  sdkClient,
  sendRequest,
  Tap,
  type Binding,
} from "./client.js";
import { KIND_EXPECTATIONS, type KindExpectation } from "./expectations.js";
import {
  extensionMetadata,
  INPUT_REQUIRED,
  pollToTerminal,
  pollUntil,
  runLiveTask,
  streamEvents,
  type LiveRun,
  type PausedRun,
} from "./harness.js";
import { PAUSED_ASK, PAUSED_DONE } from "./kinds.js";
import { expectReport, INTERIM_PASSES, lifecycleChecks, MIN, taskOf, text, TRUST, verified } from "./reports.js";
import { startLiveServer, type LiveServer } from "./server.js";

const EXPECTED = KIND_EXPECTATIONS.paused as KindExpectation;
const PENDING = "EVIDENCE_STATUS_PENDING";

let server: LiveServer;
beforeAll(async () => {
  server = await startLiveServer();
});
afterAll(async () => {
  await server?.close();
});

type Json = Record<string, unknown>;

function pausedOf(run: LiveRun): PausedRun {
  if (!run.paused) throw new Error(`Task ${run.taskId} never waited for input`);
  return run.paused;
}

function evidenceArtifact(task: Json): { raw: string; reference: Json } {
  const artifacts = (task.artifacts ?? []) as { extensions?: string[]; parts: { raw?: string }[]; metadata?: Json }[];
  const evidence = artifacts.filter((a) => a.extensions?.includes(EXTENSION_URI));
  expect(evidence).toHaveLength(1);
  const raw = evidence[0]?.parts[0]?.raw;
  if (typeof raw !== "string") throw new Error("the evidence Artifact has no raw part");
  return { raw, reference: evidence[0]?.metadata?.[EXTENSION_URI] as Json };
}

/** The bundle a raw evidence part carries, decoded. */
function bundleOf(raw: string): Json {
  const bytes = base64ToBytesStrict(raw);
  if (!bytes) throw new Error("the raw part is not strict base64");
  return JSON.parse(text(bytes)) as Json;
}

function expectPending(report: Report, interimId: string): void {
  const input = report.inputs[0];
  if (!input || !isFailedInput(input)) throw new Error(`a paused Task was verified: ${JSON.stringify(input)}`);
  expect(input.error.code).toBe("INPUT_EVIDENCE_PENDING");
  expect(input.error.message).toContain(`is in ${INPUT_REQUIRED} and has not ended`);
  expect(input.error.message).toContain(`interim record(s) ${interimId}`);
  expect(input.exitCode).toBe(3);
  expect(report.policy.exitCode).toBe(3);
}

const checksOf = (input: VerifiedInput, id: string): Check[] =>
  PROPERTY_NAMES.flatMap((p) => input.properties[p].checks.filter((c) => c.id === id));

/** Where the report locates an interim record: in a paused Task given with --interim (as GetTask returned it), or in a capture. */
const interimAt = (from: Binding | "capture") =>
  from === "capture"
    ? "interimBundles[0]"
    : `--interim[0]:${from === "JSONRPC" ? "result." : ""}artifacts[1].parts[0].raw`;

/** Every lifecycle check, by property, check id and subject: PASS, with the one interim record where it is judged. */
function expectLifecyclePasses(input: VerifiedInput, interimId: string, from: Binding | "capture"): void {
  const lifecycle = (p: (typeof PROPERTY_NAMES)[number]) =>
    input.properties[p].checks
      .filter((c) => /^(interim\.|transcript\.(transition|resumption)$)/.test(c.id))
      .map((c) => `${c.id} ${c.subject ?? ""} ${c.state}`);
  const at = (where: string) => `interim record ${interimId} at ${where}`;
  const where = interimAt(from);
  expect(lifecycle("taskBinding")).toEqual([
    "transcript.transition transcript[2] PASS",
    "transcript.transition transcript[4] PASS",
    "transcript.resumption transcript[4] PASS",
    "interim.cited interimEvidence[0] PASS",
    `interim.prefix ${at(where)} PASS`,
    // Only a record given with its paused Task is compared with that Task.
    ...(from !== "capture" ? [`interim.observed ${at(where)} PASS`] : []),
  ]);
  expect(lifecycle("contentBinding")).toEqual([`interim.content ${at(where)} PASS`]);
  expect(lifecycle("producerSignature")).toEqual([`interim.signature ${at(where)} PASS`]);
  expect(lifecycle("checkpointSignature")).toEqual([`interim.checkpoint ${at(where)} PASS`]);
  expect(lifecycle("localInclusion")).toEqual([`interim.inclusion ${at(where)} PASS`, `interim.log ${at(where)} PASS`]);
}

for (const sendBinding of BINDINGS) {
  describe(`a Task paused for input, sent and resumed over ${sendBinding}`, () => {
    let run: LiveRun;
    /** The terminal GetTask (JSON-RPC) verified with the first Task and one --interim body. */
    const terminalWithInterim = (interim: string) =>
      verified(
        verify({
          inputs: [{ source: "final", data: run.getTask.JSONRPC }],
          firstTask: run.sendResponse,
          interim: [interim],
          trust: TRUST,
          minEvidence: MIN,
        }),
      );
    let paused: PausedRun;
    let interimId: string;
    beforeAll(async () => {
      run = await runLiveTask(server, "paused", sendBinding);
      paused = pausedOf(run);
      interimId = evidenceArtifact(taskOf(paused.getTask.JSONRPC)).reference.evidenceId as string;
    });

    it("waits in INPUT_REQUIRED asking for input, evidence PENDING, carrying the interim record sealed at the pause", () => {
      const raws = BINDINGS.map((b) => {
        const task = taskOf(paused.getTask[b]);
        expect(task.id).toBe(run.taskId);
        expect(task.status).toMatchObject({
          state: INPUT_REQUIRED,
          message: { role: "ROLE_AGENT", parts: [{ text: PAUSED_ASK }] },
        });
        expect((task.history as Json[]).map((m) => m.role)).toEqual(["ROLE_USER", "ROLE_AGENT"]);
        expect(extensionMetadata(task)).toMatchObject({
          evidenceAcceptance: { state: "ACCEPTED" },
          evidenceStatus: PENDING,
        });
        const { raw, reference } = evidenceArtifact(task);
        expect(reference).toMatchObject({
          evidenceId: interimId,
          terminalState: INPUT_REQUIRED,
          evidenceStatus: "EVIDENCE_STATUS_SIGNED_RECORD",
        });
        const payload = bundleOf(raw).taskEvidencePayload as Json;
        expect(payload.terminalState).toBe(INPUT_REQUIRED);
        // The interim transcript ends with the transition into the pause (docs/profile.md §3.1).
        expect((payload.transcript as Json[]).map((e) => e.kind ?? e.role)).toEqual([
          "ROLE_USER",
          "ROLE_AGENT",
          "transition",
        ]);
        return raw;
      });
      expect(interimId).toMatch(/^[0-9a-f]{64}$/);
      expect(raws[1]).toBe(raws[0]);
    });

    it("GetTask of the paused Task over each binding is pending: INPUT_EVIDENCE_PENDING, exit 3, under every policy", () => {
      for (const b of BINDINGS) {
        expectPending(
          verify({
            inputs: [{ source: b, data: paused.getTask[b] }],
            firstTask: run.sendResponse,
            trust: TRUST,
            minEvidence: MIN,
          }),
          interimId,
        );
        expectPending(verify({ inputs: [{ source: b, data: paused.getTask[b] }], minEvidence: "NONE" }), interimId);
      }
    });

    it("the second Message continued the same Task: its taskId and contextId, and the Task's history", () => {
      const body = JSON.parse(paused.resumeRequestBody) as Json;
      const message = ((body.params as Json | undefined)?.message ?? body.message) as Json;
      const final = taskOf(run.getTask[sendBinding]);
      expect(message).toMatchObject({
        messageId: paused.resumeMessageId,
        taskId: run.taskId,
        contextId: final.contextId,
        role: "ROLE_USER",
      });
      const resumed = JSON.parse(text(paused.resumeResponse)) as Json;
      expect(((resumed.result ?? resumed) as { task: Json }).task.id).toBe(run.taskId);
      expect((final.history as Json[]).map((m) => [m.role, (m.parts as { text: string }[])[0]?.text])).toEqual([
        ["ROLE_USER", "seal this exchange"],
        ["ROLE_AGENT", PAUSED_ASK],
        ["ROLE_USER", RESUME_TEXT],
        ["ROLE_AGENT", PAUSED_DONE],
      ]);
    });

    it("the terminal payload records the pause and cites the interim record the paused Task carried", () => {
      const payload = bundleOf(evidenceArtifact(taskOf(run.getTask.JSONRPC)).raw).taskEvidencePayload as Json;
      expect(payload.interimEvidence).toEqual([{ evidenceId: interimId, sequence: 2 }]);
      expect(
        (payload.transcript as Json[]).map((e) =>
          e.kind === "transition" ? `${e.fromState} → ${e.toState} (${e.messageId})` : e.messageId,
        ),
      ).toEqual([
        expect.any(String),
        expect.stringMatching(/^ask-/),
        `TASK_STATE_WORKING → ${INPUT_REQUIRED} (ask-${run.taskId})`,
        paused.resumeMessageId,
        `${INPUT_REQUIRED} → TASK_STATE_WORKING (${paused.resumeMessageId})`,
        expect.stringMatching(/^done-/),
      ]);
    });

    it("terminal GetTask over each binding, with the paused Task of each binding as --interim: every property, every lifecycle check PASS, one evidence ID", () => {
      const ids = BINDINGS.flatMap((b) =>
        BINDINGS.map((pausedOver) => {
          const report = verify({
            inputs: [{ source: b, data: run.getTask[b] }],
            firstTask: run.sendResponse,
            interim: [paused.getTask[pausedOver]],
            trust: TRUST,
            minEvidence: MIN,
          });
          const input = expectReport(report, EXPECTED);
          expectLifecyclePasses(input, interimId, pausedOver);
          expect(input.evidenceId).toBe(extensionMetadata(taskOf(run.getTask[b]))?.evidenceId);
          return input.evidenceId;
        }),
      );
      expect(ids[0]).toMatch(/^[0-9a-f]{64}$/);
      expect(ids[0]).not.toBe(interimId);
      expect(new Set(ids).size).toBe(1);
    });

    it("a capture {firstTask, finalTask, interimBundles} of each binding verifies the same", () => {
      const interimBundle = bundleOf(evidenceArtifact(taskOf(paused.getTask[sendBinding])).raw);
      for (const b of BINDINGS) {
        const capture = {
          firstTask: taskOf(run.sendResponse).task,
          finalTask: taskOf(run.getTask[b]),
          interimBundles: [interimBundle],
        };
        const input = expectReport(
          verify({
            inputs: [{ source: `capture ${b}`, data: JSON.stringify(capture) }],
            trust: TRUST,
            minEvidence: MIN,
          }),
          EXPECTED,
        );
        expect(input.shape).toBe("capture");
        expectLifecyclePasses(input, interimId, "capture");
      }
    });

    it("without the interim record the citation is listed NOT_CHECKED, naming --interim, and no interim.* check runs", () => {
      const input = verified(
        verify({
          inputs: [{ source: sendBinding, data: run.getTask[sendBinding] }],
          firstTask: run.sendResponse,
          trust: TRUST,
          minEvidence: MIN,
        }),
      );
      const cited = checksOf(input, "interim.cited");
      expect(cited).toHaveLength(1);
      expect(cited[0]).toMatchObject({ state: "NOT_CHECKED", detail: expect.stringMatching(/--interim/) });
      expect(cited[0]?.detail).toContain(interimId);
      expect(
        PROPERTY_NAMES.flatMap((p) =>
          input.properties[p].checks.filter((c) => c.id.startsWith("interim.") && c.id !== "interim.cited"),
        ),
      ).toEqual([]);
    });

    it("the SDK's terminal bytes with the resuming Message's text changed FAIL taskBinding, at the Message and at the transition bound to it", () => {
      const body = text(run.getTask["HTTP+JSON"]);
      const changed = body.replace(`"text":"${RESUME_TEXT}"`, `"text":"json, please."`);
      expect(changed).not.toBe(body);
      const report = verify({
        inputs: [{ source: "tampered", data: changed }],
        firstTask: run.sendResponse,
        interim: [paused.getTask["HTTP+JSON"]],
        trust: TRUST,
        minEvidence: MIN,
      });
      const input = verified(report);
      expect(PROPERTY_NAMES.filter((p) => input.properties[p].state === "FAIL")).toEqual(["taskBinding"]);
      const failing = input.properties.taskBinding.checks
        .filter((c) => c.state === "FAIL")
        .map((c) => `${c.id} ${c.subject ?? ""}`);
      expect(failing).toEqual([
        `transcript.transition transcript[4]`,
        `transcript.message history message ${paused.resumeMessageId}`,
      ]);
      const transition = input.properties.taskBinding.checks.find(
        (c) => c.id === "transcript.transition" && c.state === "FAIL",
      );
      expect(transition?.detail).toMatch(
        /INPUT_REQUIRED → WORKING: transitionCommitment [0-9a-f]{64} != [0-9a-f]{64} recomputed from the observed Task/,
      );
      expect(report.policy.exitCode).toBe(1);
    });

    it("the SDK's terminal bytes with the resuming Message taken out of the history FAIL transcript.resumption: omitted, not truncated", () => {
      const task = taskOf(run.getTask["HTTP+JSON"]);
      const history = task.history as Json[];
      const omitted = JSON.stringify({
        ...task,
        history: history.filter((m) => m.messageId !== paused.resumeMessageId),
      });
      expect(JSON.stringify(task)).toBe(text(run.getTask["HTTP+JSON"]));
      const report = verify({
        inputs: [{ source: "omitted", data: omitted }],
        firstTask: run.sendResponse,
        interim: [paused.getTask["HTTP+JSON"]],
        trust: TRUST,
        minEvidence: MIN,
      });
      const input = verified(report);
      expect(PROPERTY_NAMES.filter((p) => input.properties[p].state === "FAIL")).toEqual(["taskBinding"]);
      const resumption = checksOf(input, "transcript.resumption");
      expect(resumption).toMatchObject([
        { state: "FAIL", subject: "transcript[4]", detail: expect.stringMatching(/the resumption was omitted/) },
      ]);
      expect(report.policy.exitCode).toBe(1);
    });

    it("the non-blocking resume response — still INPUT_REQUIRED, its history ending with the resuming Message — as --interim: interim.observed PASS, naming that Message", () => {
      // a2a-js stores the resuming Message before the state leaves the pause: this is what a client holds then.
      const window = ((JSON.parse(text(paused.resumeResponse)) as Json).result ??
        JSON.parse(text(paused.resumeResponse))) as { task: Json };
      expect(window.task.status).toMatchObject({ state: INPUT_REQUIRED });
      expect((window.task.history as Json[]).map((m) => m.messageId).at(-1)).toBe(paused.resumeMessageId);
      for (const b of BINDINGS) {
        const input = expectReport(
          verify({
            inputs: [{ source: b, data: run.getTask[b] }],
            firstTask: run.sendResponse,
            interim: [paused.resumeResponse],
            trust: TRUST,
            minEvidence: MIN,
          }),
          EXPECTED,
        );
        expect(lifecycleChecks(input).filter((l) => l.startsWith("interim."))).toEqual(INTERIM_PASSES);
        expect(lifecycleChecks(input).filter((l) => l.startsWith("transcript."))).toEqual([
          "transcript.transition PASS",
          "transcript.transition PASS",
          "transcript.resumption PASS",
        ]);
        const observed = checksOf(input, "interim.observed");
        expect(observed).toMatchObject([
          {
            state: "PASS",
            detail: expect.stringMatching(
              /excepted: that is the resuming Message the terminal record commits at transcript\[3\]/,
            ),
          },
        ]);
        expect(observed[0]?.detail).toContain(paused.resumeMessageId);
      }
    });

    it("the resume response with the resuming Message's text changed FAILs interim.observed and transcript.unambiguous: only the Message the terminal record commits is let through", () => {
      const body = text(paused.resumeResponse);
      const changed = body.replace(`"text":"${RESUME_TEXT}"`, `"text":"json, please."`);
      expect(changed).not.toBe(body);
      const input = terminalWithInterim(changed);
      expect(PROPERTY_NAMES.filter((p) => input.properties[p].state === "FAIL")).toEqual(["taskBinding"]);
      expect(input.properties.taskBinding.checks.filter((c) => c.state === "FAIL")).toMatchObject([
        {
          id: "interim.observed",
          detail: expect.stringMatching(
            new RegExp(`Message ${paused.resumeMessageId} is not in the interim record's transcript`),
          ),
        },
        // The paused Task's copy of the resuming Message is not the terminal Task's: one messageId, two contents.
        {
          id: "transcript.unambiguous",
          detail: expect.stringMatching(
            new RegExp(`message ${paused.resumeMessageId} is shown twice with different content`),
          ),
        },
      ]);
    });

    it("the paused Task given as --interim with its quote changed FAILs interim.observed: the effect before the pause is recorded as it was", () => {
      const pausedBody = text(paused.getTask.JSONRPC);
      const changed = pausedBody.replace("characters to seal", "characters to shred");
      expect(changed).not.toBe(pausedBody);
      const input = terminalWithInterim(changed);
      expect(PROPERTY_NAMES.filter((p) => input.properties[p].state === "FAIL")).toEqual(["taskBinding"]);
      expect(input.properties.taskBinding.checks.filter((c) => c.state === "FAIL").map((c) => c.id)).toEqual([
        "interim.observed",
      ]);
    });
  });
}

describe("interim records of another paused Task", () => {
  it("supplied beside this Task's terminal record, are not cited by it: interim.cited FAIL (a dropped citation)", async () => {
    const [one, other] = await Promise.all([
      runLiveTask(server, "paused", "JSONRPC"),
      runLiveTask(server, "paused", "HTTP+JSON"),
    ]);
    const input = verified(
      verify({
        inputs: [{ source: "final", data: one.getTask.JSONRPC }],
        firstTask: one.sendResponse,
        interim: [pausedOf(other).getTask.JSONRPC],
        trust: TRUST,
        minEvidence: MIN,
      }),
    );
    const failing = PROPERTY_NAMES.filter((p) => input.properties[p].state === "FAIL");
    expect(failing).toEqual(["taskBinding"]);
    const cited = input.properties.taskBinding.checks.filter((c) => c.id === "interim.cited" && c.state === "FAIL");
    expect(cited).toHaveLength(1);
    expect(cited[0]?.detail).toContain(
      evidenceArtifact(taskOf(pausedOf(other).getTask.JSONRPC)).reference.evidenceId as string,
    );
  });
});

describe("a resumption that names the Task by taskId alone", () => {
  it("is stored without contextId by the SDK, and verifies over each binding: transcript.resumption PASS", async () => {
    const run = await runLiveTask(server, "paused", "JSONRPC", { resumeWithoutContext: true });
    const paused = pausedOf(run);
    const interimId = evidenceArtifact(taskOf(paused.getTask.JSONRPC)).reference.evidenceId as string;
    for (const b of BINDINGS) {
      const resume = (taskOf(run.getTask[b]).history as Json[]).find((m) => m.messageId === paused.resumeMessageId);
      expect(resume).toMatchObject({ taskId: run.taskId, role: "ROLE_USER" });
      expect(resume).not.toHaveProperty("contextId");
      const input = expectReport(
        verify({
          inputs: [{ source: b, data: run.getTask[b] }],
          firstTask: run.sendResponse,
          interim: [paused.getTask[b]],
          trust: TRUST,
          minEvidence: MIN,
        }),
        EXPECTED,
      );
      expectLifecyclePasses(input, interimId, b);
      expect(checksOf(input, "transcript.resumption")[0]?.detail).toMatch(/names no context/);
    }
  });
});

describe("a terminal record that drops the interim record the paused Task showed", () => {
  it("passes on its own — nothing in the terminal Task tells — and FAILs interim.cited with the paused Task as --interim", async () => {
    const run = await runLiveTask(server, "paused-drops-interim", "HTTP+JSON");
    const dropped = evidenceArtifact(taskOf(pausedOf(run).getTask["HTTP+JSON"])).reference.evidenceId as string;
    const payload = bundleOf(evidenceArtifact(taskOf(run.getTask["HTTP+JSON"])).raw).taskEvidencePayload as Json;
    expect(payload.interimEvidence).toBeUndefined();
    // The transitions are still recorded: only the citation is gone.
    expect((payload.transcript as Json[]).filter((e) => e.kind === "transition")).toHaveLength(2);
    const alone = verify({
      inputs: [{ source: "final", data: run.getTask["HTTP+JSON"] }],
      firstTask: run.sendResponse,
      trust: TRUST,
      minEvidence: MIN,
    });
    expectReport(alone, EXPECTED);
    const input = verified(
      verify({
        inputs: [{ source: "final", data: run.getTask["HTTP+JSON"] }],
        firstTask: run.sendResponse,
        interim: [pausedOf(run).getTask.JSONRPC],
        trust: TRUST,
        minEvidence: MIN,
      }),
    );
    expect(input.properties.taskBinding.state).toBe("FAIL");
    const cited = input.properties.taskBinding.checks.filter((c) => c.id === "interim.cited" && c.state === "FAIL");
    expect(cited).toHaveLength(1);
    expect(cited[0]?.detail).toContain(dropped);
  });
});

describe("the built CLI on the saved bytes of a paused Task", () => {
  const bin = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
  const cli = (...args: string[]) => spawnSync(process.execPath, [bin, "verify", ...args], { encoding: "utf8" });
  let run: LiveRun;
  let trust: string;
  beforeAll(async () => {
    run = await runLiveTask(server, "paused", "HTTP+JSON");
    trust = tempFile("trust.json", jsonText(TRUST));
  });

  it("the paused GetTask body exits 3, pending, in text and in JSON", () => {
    for (const b of BINDINGS) {
      const file = tempFile(`paused-${b === "JSONRPC" ? "jsonrpc" : "rest"}.json`, pausedOf(run).getTask[b]);
      const textRun = cli("--trust", trust, "--min-evidence", MIN, file);
      expect(textRun.status).toBe(3);
      expect(textRun.stdout).toMatch(/pending/);
      expect(textRun.stdout).toContain("exit 3: the Task has not ended; its evidence is pending");
      const jsonRun = cli("--format", "json", "--trust", trust, "--min-evidence", MIN, file);
      // Like an input that could not be verified, the reason is also said on stderr.
      expect(jsonRun.stderr).toContain(`${file}: INPUT_EVIDENCE_PENDING: the Task is in ${INPUT_REQUIRED}`);
      expect(jsonRun.status).toBe(3);
      const report = JSON.parse(jsonRun.stdout) as Report;
      expect(report.inputs[0]).toMatchObject({ error: { code: "INPUT_EVIDENCE_PENDING" }, exitCode: 3 });
    }
  });

  it("verify --interim <paused GetTask> --first-task over each binding's terminal GetTask exits 0 with every lifecycle check PASS", () => {
    const first = tempFile("first.json", run.sendResponse);
    const interimId = evidenceArtifact(taskOf(pausedOf(run).getTask["HTTP+JSON"])).reference.evidenceId as string;
    for (const b of BINDINGS) {
      const final = tempFile("final.json", run.getTask[b]);
      const interim = tempFile("paused.json", pausedOf(run).getTask[b]);
      const r = cli(
        "--format",
        "json",
        "--trust",
        trust,
        "--first-task",
        first,
        "--interim",
        interim,
        "--min-evidence",
        MIN,
        final,
      );
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expectLifecyclePasses(expectReport(JSON.parse(r.stdout) as Report, EXPECTED), interimId, b);
    }
  });

  it("a capture file with interimBundles exits 0; the terminal GetTask given as --interim exits 2 (not an interim record)", () => {
    const interimBundle = bundleOf(evidenceArtifact(taskOf(pausedOf(run).getTask.JSONRPC)).raw);
    const capture = tempFile(
      "capture.json",
      JSON.stringify({
        firstTask: taskOf(run.sendResponse).task,
        finalTask: taskOf(run.getTask.JSONRPC),
        interimBundles: [interimBundle],
      }),
    );
    const r = cli("--format", "json", "--trust", trust, "--min-evidence", MIN, capture);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expectLifecyclePasses(
      expectReport(JSON.parse(r.stdout) as Report, EXPECTED),
      interimBundle.evidenceId as string,
      "capture",
    );
    const final = tempFile("final.json", run.getTask.JSONRPC);
    const wrong = cli("--trust", trust, "--interim", final, final);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr + wrong.stdout).toMatch(/INPUT_INTERIM_NO_BUNDLE/);
  });
});

describe("a paused Task over streams (sendMessageStream, then a second sendMessageStream to resume it)", () => {
  for (const binding of BINDINGS) {
    it(`over ${binding}: the first stream ends at the pause (pending); the resumption stream ends COMPLETED naming the evidence ID GetTask verifies`, async () => {
      const tap = new Tap();
      const client = await sdkClient(server.baseUrl, binding, { tap });
      const cases = async (stream: AsyncGenerator<{ payload?: { $case: string; value: unknown } }>) => {
        const seen: string[] = [];
        for await (const e of stream) seen.push(e.payload?.$case ?? "none");
        return { seen, body: await tap.last(isSend).body };
      };
      const pausedStream = await cases(
        client.sendMessageStream(sendRequest("paused", "seal this stream"), EXTENSION_HEADER),
      );
      expect(pausedStream.seen).toEqual(["task", "statusUpdate", "artifactUpdate", "artifactUpdate", "statusUpdate"]);
      const pausedEvents = streamEvents(pausedStream.body);
      const firstTask = pausedEvents[0]?.payload.task as Json;
      const last = pausedEvents.at(-1)?.payload.statusUpdate as Json;
      expect(last.status).toMatchObject({ state: INPUT_REQUIRED, message: { parts: [{ text: PAUSED_ASK }] } });
      const interimId = bundleOf(
        ((pausedEvents[3]?.payload.artifactUpdate as Json).artifact as { parts: { raw: string }[] }).parts[0]?.raw ??
          "",
      ).evidenceId as string;
      // The stream folded at the pause is the paused Task: pending.
      expectPending(
        verify({ inputs: [{ source: "paused stream", data: pausedStream.body }], trust: TRUST, minEvidence: MIN }),
        interimId,
      );

      const taskId = String(firstTask.id);
      const resumed = await cases(
        client.sendMessageStream(
          resumeRequest("paused", { id: taskId, contextId: String(firstTask.contextId) }),
          EXTENSION_HEADER,
        ),
      );
      expect(resumed.seen).toEqual(["task", "statusUpdate", "artifactUpdate", "artifactUpdate", "statusUpdate"]);
      const events = streamEvents(resumed.body);
      // The resumption stream begins with the stored Task as it waited (the SDK rejects an update first).
      expect((events[0]?.payload.task as Json).status).toMatchObject({ state: INPUT_REQUIRED });
      const terminal = events.at(-1)?.payload.statusUpdate as Json;
      expect(terminal.status).toMatchObject({ state: "TASK_STATE_COMPLETED" });
      const streamedId = extensionMetadata(terminal)?.evidenceId;
      const bundle = bundleOf(
        ((events[3]?.payload.artifactUpdate as Json).artifact as { parts: { raw: string }[] }).parts[0]?.raw ?? "",
      );
      expect(bundle.evidenceId).toBe(streamedId);
      expect((bundle.taskEvidencePayload as Json).interimEvidence).toEqual([{ evidenceId: interimId, sequence: 2 }]);

      // The resumption stream on its own: its first event is the stored Task, not the first response.
      const alone = verified(
        verify({
          inputs: [{ source: "resumption stream", data: resumed.body }],
          interim: [pausedStream.body],
          trust: TRUST,
          minEvidence: MIN,
        }),
      );
      expect(PROPERTY_NAMES.filter((p) => alone.properties[p].state === "FAIL")).toEqual([]);
      expect(alone.properties.negotiation.state).toBe("INCONCLUSIVE");
      expect(alone.properties.negotiation.checks.find((c) => c.id === "acceptance.accepted")).toMatchObject({
        state: "INCONCLUSIVE",
        detail: expect.stringMatching(/acceptance not observed/),
      });
      expect(alone.notes.join("\n")).toContain("already shows a later client turn");
      // With the first stream as --first-task beside it, the acceptance is judged where it was given.
      const both = expectReport(
        verify({
          inputs: [{ source: "resumption stream", data: resumed.body }],
          firstTask: pausedStream.body,
          interim: [pausedStream.body],
          trust: TRUST,
          minEvidence: MIN,
        }),
        EXPECTED,
      );
      expect(both.properties.negotiation.checks.find((c) => c.id === "acceptance.beforeWork")?.state).toBe("PASS");
      expect(both.evidenceId).toBe(streamedId);

      // GetTask afterwards, with the first stream's first Task and the first stream itself as --interim (a stream that ended at the pause).
      await client.getTask({ tenant: "", id: taskId });
      const getTask = await tap.last(isGetTask).body;
      const report = verify({
        inputs: [{ source: binding, data: getTask }],
        firstTask: JSON.stringify({ task: firstTask }),
        interim: [pausedStream.body],
        trust: TRUST,
        minEvidence: MIN,
      });
      const input = expectReport(report, EXPECTED);
      expect(input.evidenceId).toBe(streamedId);
      // A stream has REST paths whatever its framing: the fold's Task is bare.
      expectLifecyclePasses(input, interimId, "HTTP+JSON");
    });
  }
});

/** A resumption over one binding, observed over the other: the Task is one Task whichever binding carried each turn. */
describe("a Task paused over one binding and resumed over the other", () => {
  it("verifies from either binding's GetTask with every lifecycle check PASS", async () => {
    const taps = { JSONRPC: new Tap(), "HTTP+JSON": new Tap() } as Record<Binding, Tap>;
    const rpc = await sdkClient(server.baseUrl, "JSONRPC", { tap: taps.JSONRPC });
    const rest = await sdkClient(server.baseUrl, "HTTP+JSON", { tap: taps["HTTP+JSON"] });
    const first = await rpc.sendMessage(sendRequest("paused", "seal this exchange"), EXTENSION_HEADER);
    if ("messageId" in first) throw new Error("expected a Task");
    const sendResponse = await taps.JSONRPC.last(isSend).body;
    const waiting = await pollUntil(rpc, first.id, new Set([INPUT_REQUIRED]));
    const pausedBytes = await taps.JSONRPC.last(isGetTask).body;
    await rest.sendMessage(
      resumeRequest("paused", { id: first.id, contextId: String(waiting.contextId) }),
      EXTENSION_HEADER,
    );
    await pollToTerminal(rest, first.id);
    await rpc.getTask({ tenant: "", id: first.id });
    const interimId = evidenceArtifact(taskOf(pausedBytes)).reference.evidenceId as string;
    for (const b of BINDINGS) {
      const input = expectReport(
        verify({
          inputs: [{ source: b, data: await taps[b].last(isGetTask).body }],
          firstTask: sendResponse,
          interim: [pausedBytes],
          trust: TRUST,
          minEvidence: MIN,
        }),
        EXPECTED,
      );
      expectLifecyclePasses(input, interimId, "JSONRPC");
    }
  });
});
