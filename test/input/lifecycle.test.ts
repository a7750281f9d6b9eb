/**
 * The lifecycle at the input stage (docs/inputs.md, "Paused Tasks and interim records";
 * docs/exit-codes.md): a Task that has not ended is INPUT_EVIDENCE_PENDING with exit 3 (and only
 * such a Task); interim records from a capture's interimBundles or --interim (a bundle, a paused
 * Task, a stream that ended at the pause); what is refused, and the notes on Traceability traces.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonObject, JsonValue } from "../../src/json/value.js";
import { verify } from "../../src/verify.js";
import { isFailedInput, type InputReport, type Report } from "../../src/report/model.js";
import { renderText } from "../../src/report/text.js";
import { makeStyle } from "../../src/report/style.js";
import { sha256Hex, utf8 } from "../../src/util/bytes.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { buildExchange, buildPausedExchange } from "../../producer/exchange.js";
import { jsonText } from "../../producer/json-text.js";
import type { ExchangeOptions, TranscriptSpec } from "../../producer/options.js";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { EXT, at, copy } from "../properties/harness.js";
import { agent, user } from "../helpers/messages.js";

const TRACE_URI = "https://github.com/a2aproject/a2a-samples/extensions/traceability/v1";
const TRACE_KEY = "github.com/a2aproject/a2a-samples/extensions/traceability/v1/traceability";
const validateReport = new Ajv2020({ strict: true, allErrors: true }).compile(
  JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "report.schema.json"), "utf8")),
);

const TRANSCRIPT: TranscriptSpec[] = [
  user("in 0", "Send 100 EUR to Bob."),
  agent("in 1", "Confirm with your bank login."),
  { transition: { from: "TASK_STATE_WORKING", to: "TASK_STATE_AUTH_REQUIRED" } },
  { transition: { from: "TASK_STATE_AUTH_REQUIRED", to: "TASK_STATE_WORKING" }, bound: false },
  agent("in 2", "Sent."),
];
const BASE: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("in task"),
  contextId: uuidFromLabel("in context"),
  transcript: TRANSCRIPT,
  artifacts: [{ artifactId: uuidFromLabel("in artifact"), name: "transfer", parts: ["100 EUR to Bob"], after: 4 }],
  leavesBefore: 2,
  interim: [{ at: 2 }],
};
const PAUSED: ExchangeOptions = { ...BASE, envelope: "paused", transcript: TRANSCRIPT.slice(0, 3) };

function one(report: Report): InputReport {
  const input = report.inputs[0];
  if (!input) throw new Error(JSON.stringify(report));
  return input;
}

describe("a Task that has not ended", () => {
  it("is INPUT_EVIDENCE_PENDING with exit 3, naming its state and the interim record it carries", () => {
    const paused = buildPausedExchange(PAUSED);
    const report = verify({ inputs: [{ source: "paused", data: paused.input }], trust: paused.trust });
    const input = one(report);
    expect(isFailedInput(input) && [input.error.code, input.exitCode, input.error.path]).toEqual([
      "INPUT_EVIDENCE_PENDING",
      3,
      "result",
    ]);
    expect(isFailedInput(input) && input.error.message).toMatch(
      new RegExp(
        `the Task is in TASK_STATE_AUTH_REQUIRED and has not ended: its evidence is EVIDENCE_STATUS_PENDING .* it carries interim record\\(s\\) ${paused.interimBundles[0]?.evidenceId as string} at result\\.artifacts\\[0\\]\\.parts\\[0\\]\\.raw`,
      ),
    );
    expect(report.policy.exitCode).toBe(3);
    expect(validateReport(JSON.parse(JSON.stringify(report))), JSON.stringify(validateReport.errors)).toBe(true);
    expect(renderText(report, { verbose: false, style: makeStyle(false) })).toMatch(
      /pending INPUT_EVIDENCE_PENDING: [\s\S]*\n {2}exit 3: the Task has not ended; its evidence is pending/,
    );
  });

  it("is pending in every envelope and under every policy, --min-evidence NONE included", () => {
    const paused = buildPausedExchange({ ...PAUSED, interim: [] });
    for (const data of [
      paused.input,
      paused.pausedTask,
      { task: paused.pausedTask },
      { finalTask: paused.pausedTask },
    ]) {
      const report = verify({ inputs: [{ source: "p", data: data as JsonValue }], minEvidence: "NONE" });
      expect(report.policy.exitCode).toBe(3);
    }
  });

  it("worst of several inputs: a pending one gives 3 beside a passing one, 1 beside a failing one", () => {
    const paused = buildPausedExchange({ ...PAUSED, interim: [] });
    const honest = buildExchange(BASE);
    const failing = buildExchange({ ...BASE, tamper: { payload: (p) => void (p.taskId = "another") } });
    expect(
      verify({
        inputs: [
          { source: "a", data: paused.input },
          { source: "b", data: honest.input },
        ],
        trust: honest.trust,
      }).policy.exitCode,
    ).toBe(3);
    expect(
      verify({
        inputs: [
          { source: "a", data: paused.input },
          { source: "b", data: failing.input },
        ],
        trust: failing.trust,
      }).policy.exitCode,
    ).toBe(1);
  });

  it("a terminal Task is never pending: PENDING with no bundle is no evidence (exit 2)", () => {
    const paused = buildPausedExchange({ ...PAUSED, interim: [] });
    const task = copy(paused.pausedTask);
    at(task, "status").state = "TASK_STATE_CANCELED";
    const input = one(verify({ inputs: [{ source: "t", data: task }] }));
    expect(isFailedInput(input) && [input.error.code, input.exitCode]).toEqual(["INPUT_NO_EVIDENCE", 2]);
  });

  it("a non-terminal Task that states another evidence status is no evidence (exit 2), not pending", () => {
    const paused = buildPausedExchange({ ...PAUSED, interim: [] });
    const task = copy(paused.pausedTask);
    at(task, "metadata", EXT).evidenceStatus = "EVIDENCE_STATUS_SIGNED_RECORD";
    const input = one(verify({ inputs: [{ source: "t", data: task }] }));
    expect(isFailedInput(input) && [input.error.code, input.exitCode]).toEqual(["INPUT_NO_EVIDENCE", 2]);
  });

  it("a PENDING Task that carries a terminal record is verified, and the contradiction FAILs", () => {
    const done = buildExchange(BASE);
    const task = copy(done.finalTask);
    at(task, "status").state = "TASK_STATE_AUTH_REQUIRED";
    at(task, "metadata")[EXT] = copy(at(done.firstTask, "metadata", EXT));
    const input = one(verify({ inputs: [{ source: "t", data: task }], trust: done.trust }));
    if (isFailedInput(input)) throw new Error(input.error.message);
    expect(input.properties.taskBinding.checks.find((c) => c.id === "task.terminalState")?.state).toBe("FAIL");
    expect(input.properties.referenceConsistency.state).toBe("FAIL");
  });

  it("a terminal Task that still carries an interim bundle beside the terminal one carries two different bundles (FAIL)", () => {
    const done = buildExchange(BASE);
    const task = copy(done.finalTask);
    const paused = buildPausedExchange(PAUSED);
    const interimArtifact = copy(at(paused.pausedTask, "artifacts", 0));
    interimArtifact.artifactId = "task-evidence-interim";
    (task.artifacts as JsonValue[]).push(interimArtifact);
    const input = one(verify({ inputs: [{ source: "t", data: task }], trust: done.trust }));
    if (isFailedInput(input)) throw new Error(input.error.message);
    expect(input.properties.referenceConsistency.checks.find((c) => c.id === "bundle.copiesAgree")?.state).toBe("FAIL");
  });
});

describe("interim records as inputs", () => {
  const done = buildExchange({ ...BASE, envelope: "jsonrpc" });
  const paused = buildPausedExchange(PAUSED);
  const interim = paused.interimBundles[0] as JsonObject;
  const cited = (r: Report) => {
    const input = one(r);
    if (isFailedInput(input)) throw new Error(input.error.message);
    return input.properties.taskBinding.checks.filter((c) => c.id === "interim.cited").map((c) => c.state);
  };

  it("a GetTask response without them lists the citation as NOT_CHECKED", () => {
    expect(cited(verify({ inputs: [{ source: "t", data: done.input }], trust: done.trust }))).toEqual(["NOT_CHECKED"]);
  });

  it("--interim with the bundle, or with the paused Task that carries it, verifies it", () => {
    for (const given of [interim, paused.input, paused.pausedTask]) {
      const report = verify({
        inputs: [{ source: "t", data: done.input }],
        trust: done.trust,
        interim: [utf8(jsonText(given as JsonValue))],
      });
      expect(cited(report)).toEqual(["PASS"]);
      expect(report.policy.exitCode).toBe(0);
    }
  });

  describe("interim.observed: a record given with its paused Task describes that Task", () => {
    // A paused Task with an effect done before the pause, so there is one to drop or change.
    const withEffect: ExchangeOptions = {
      ...BASE,
      artifacts: [
        { artifactId: uuidFromLabel("in quote"), name: "quote", parts: ["100 EUR = 108 USD"], after: 0 },
        ...(BASE.artifacts ?? []),
      ],
    };
    const terminal = buildExchange({ ...withEffect, envelope: "jsonrpc" });
    const pausedTask = buildPausedExchange({
      ...withEffect,
      envelope: "paused",
      transcript: TRANSCRIPT.slice(0, 3),
    }).pausedTask;
    const observed = (task: JsonObject) => {
      const input = one(
        verify({
          inputs: [{ source: "t", data: terminal.input }],
          trust: terminal.trust,
          interim: [utf8(jsonText(task))],
        }),
      );
      if (isFailedInput(input)) throw new Error(input.error.message);
      return input.properties.taskBinding.checks.find((c) => c.id === "interim.observed");
    };
    it("PASSes the honest paused Task", () => {
      expect(observed(pausedTask)).toMatchObject({
        state: "PASS",
        detail: expect.stringMatching(/\(TASK_STATE_AUTH_REQUIRED, 2 Message\(s\), 1 effect\(s\)\) is what it records/),
      });
    });
    const cases: Array<[string, (t: JsonObject) => void, RegExp]> = [
      [
        "an effect it does not record",
        (t) =>
          void (
            (t.artifacts as JsonValue[]).unshift(copy(at(t, "artifacts", 0))),
            (at(t, "artifacts", 0).artifactId = "another-effect")
          ),
        /shows artifact another-effect, which its interim record does not record/,
      ],
      [
        "an effect with other content",
        (t) => void (at(t, "artifacts", 0, "parts", 0).text = "100 EUR = 200 USD"),
        /artifact .* is not what the interim record commits/,
      ],
      [
        "a Message it does not record",
        (t) =>
          void (
            (t.history as JsonValue[]).push(copy(at(t, "history", 0))),
            (at(t, "history", 2).messageId = "another-message")
          ),
        /the paused Task's Message another-message is not in the interim record's transcript/,
      ],
      [
        "a Message with other content",
        (t) => void (at(t, "history", 1, "parts", 0).text = "Confirm by SMS."),
        /is not what the interim record commits at transcript\[1\]/,
      ],
      [
        "Messages in another order",
        (t) => void (t.history as JsonValue[]).reverse(),
        /is out of order in the interim record's transcript/,
      ],
      [
        "another state",
        (t) => void (at(t, "status").state = "TASK_STATE_INPUT_REQUIRED"),
        /sealed in "TASK_STATE_AUTH_REQUIRED", but the Task it came with waits in TASK_STATE_INPUT_REQUIRED/,
      ],
      ["another Task", (t) => void (t.id = "another-task"), /but came with Task another-task/],
    ];
    it.each(cases)("FAILs a paused Task with %s", (_, change, detail) => {
      const task = copy(pausedTask);
      change(task);
      expect(observed(task)).toMatchObject({ state: "FAIL", detail: expect.stringMatching(detail) });
    });
  });

  it("--interim with the paused Task as an SSE stream that ended at the pause", () => {
    const task = paused.pausedTask;
    const first = copy(task);
    first.status = { state: "TASK_STATE_SUBMITTED" } as never;
    first.history = [copy((task.history as JsonValue[])[0] as JsonObject)] as never;
    delete first.artifacts;
    const ids = { taskId: task.id, contextId: task.contextId };
    const events = [
      { task: first },
      { artifactUpdate: { ...ids, artifact: copy(at(task, "artifacts", 0)) } },
      { statusUpdate: { ...ids, status: copy(at(task, "status")) } },
    ];
    const sse = events.map((e) => `data: ${jsonText(copy(e as never)).replace(/\n\s*/g, "")}\n\n`).join("");
    const report = verify({ inputs: [{ source: "t", data: done.input }], trust: done.trust, interim: [utf8(sse)] });
    expect(cited(report)).toEqual(["PASS"]);
  });

  it("--interim names its position in what it locates, and a supplied record nobody cites FAILs", () => {
    const other = buildPausedExchange({ ...PAUSED, taskId: uuidFromLabel("other task") })
      .interimBundles[0] as JsonObject;
    const report = verify({
      inputs: [{ source: "t", data: done.input }],
      trust: done.trust,
      interim: [utf8(jsonText(interim)), utf8(jsonText(other))],
    });
    const input = one(report);
    if (isFailedInput(input)) throw new Error(input.error.message);
    const dropped = input.properties.taskBinding.checks.find((c) => c.id === "interim.cited" && c.state === "FAIL");
    expect(dropped?.subject).toBe(`interim record ${other.evidenceId as string} at --interim[1]:$`);
    expect(report.policy.exitCode).toBe(1);
  });

  it("refuses a capture, a Task without a bundle, and what is not JSON, naming --interim", () => {
    const noBundle = copy(paused.pausedTask);
    noBundle.artifacts = [] as never;
    const cases: Array<[JsonValue | string, string]> = [
      [done.input, "INPUT_INTERIM_NO_BUNDLE"],
      [done.bundle, "INPUT_INTERIM_NO_BUNDLE"],
      [{ finalTask: paused.pausedTask, firstTask: paused.pausedTask }, "INPUT_INTERIM_NO_BUNDLE"],
      [noBundle, "INPUT_INTERIM_NO_BUNDLE"],
      ["{not json", "JSON_SYNTAX"],
    ];
    for (const [given, code] of cases) {
      const data = typeof given === "string" ? utf8(given) : utf8(jsonText(given));
      const report = verify({ inputs: [{ source: "t", data: done.input }], trust: done.trust, interim: [data] });
      expect([report.error?.code, report.error?.source, report.policy.exitCode]).toEqual([code, "--interim", 2]);
    }
  });

  it("a capture's interimBundles must be an array of objects, beside a finalTask", () => {
    const capture = buildExchange(BASE).input;
    for (const [value, code] of [
      [{ ...capture, interimBundles: {} }, "INPUT_INTERIM_NO_BUNDLE"],
      [{ ...capture, interimBundles: ["x"] }, "INPUT_INTERIM_NO_BUNDLE"],
      [{ interimBundles: [interim] }, "INPUT_UNKNOWN_SHAPE"],
    ] as const) {
      const input = one(verify({ inputs: [{ source: "c", data: value as never }] }));
      expect(isFailedInput(input) && input.error.code).toBe(code);
    }
  });

  it("a --task capture's interim bundles are verified with the bare bundle", () => {
    const capture = buildExchange(BASE);
    const report = verify({
      inputs: [{ source: "b", data: capture.bundle }],
      trust: capture.trust,
      task: utf8(jsonText(capture.input)),
    });
    const input = one(report);
    if (isFailedInput(input)) throw new Error(input.error.message);
    expect(input.properties.taskBinding.checks.find((c) => c.id === "interim.cited")?.detail).toMatch(
      /is cited and supplied \(--task:interimBundles\[0\]\)/,
    );
  });
});

describe("Traceability notes", () => {
  const callee = sha256Hex(utf8("callee record"));
  const nested = {
    traceId: "t-inner",
    steps: [{ stepId: "inner-1", additionalAttributes: { [EXT]: sha256Hex(utf8("grand-callee")) } }],
  };
  const trace = {
    traceId: "t-outer",
    steps: [
      {
        stepId: "s1",
        stepAction: { agentInvocation: { agentName: "inventory", responseTrace: nested } },
        additionalAttributes: { [EXT]: callee },
      },
      { stepId: "s2", additionalAttributes: { [EXT]: "not-hex" } },
    ],
  };
  const notesOf = (options: ExchangeOptions) => {
    const e = buildExchange({ ...BASE, interim: [], ...options });
    const input = one(verify({ inputs: [{ source: "t", data: e.input }], trust: e.trust }));
    if (isFailedInput(input)) throw new Error(input.error.message);
    return input;
  };

  it("walks nested callee traces (schema A) and lists every cited evidence ID, marking one that is not", () => {
    const input = notesOf({ traceMetadata: { trace, digested: false } });
    const note = input.notes.find((n) => n.includes('Traceability trace "t-outer"')) as string;
    expect(note).toContain(`step s1 (inventory) → ${callee}`);
    expect(note).toContain(`step inner-1 ((unnamed callee)) → ${sha256Hex(utf8("grand-callee"))}`);
    expect(note).toContain('"not-hex" (not an evidence ID)');
  });

  it("a trace Artifact is content; one whose text is no JSON trace is noted as such", () => {
    const artifacts = [
      { artifactId: uuidFromLabel("trace art"), name: "traceability", extensions: [TRACE_URI], parts: ["not a trace"] },
    ];
    const input = notesOf({ artifacts });
    expect(input.notes).toContain(
      "finalTask.artifacts[0]: lists the Traceability extension but its text part holds no JSON trace; it is content like any other Artifact",
    );
    expect(input.properties.taskBinding.state).toBe("PASS");
  });

  it("a metadata value under the key that is no trace is noted, and is informational", () => {
    const input = notesOf({ tamper: { finalTask: (t) => void (at(t, "metadata")[TRACE_KEY] = "on") } });
    expect(
      input.notes.some((n) => n.endsWith(`["${TRACE_KEY}"]: holds no Traceability trace (no trace id and steps)`)),
    ).toBe(true);
  });

  it("PEAC's traceability URI is not the Traceability extension (keys matched exactly)", () => {
    const input = notesOf({
      tamper: { finalTask: (t) => void (at(t, "metadata")["https://www.peacprotocol.org/ext/traceability/v1"] = null) },
    });
    expect(input.notes.some((n) => n.includes("Traceability"))).toBe(false);
  });
});

describe("the CLI", () => {
  it("verify --interim FILE, and a pending Task exits 3 with its reason", async () => {
    const done = buildExchange({ ...BASE, envelope: "jsonrpc" });
    const paused = buildPausedExchange(PAUSED);
    const input = tempFile("task.json", jsonText(done.input));
    const trust = tempFile("trust.json", jsonText(done.trust));
    const pausedFile = tempFile("paused.json", jsonText(paused.input));
    const ok = await runCli(["verify", "--trust", trust, "--interim", pausedFile, input, "-v"]);
    expect([ok.code, ok.stdout.includes("interim.cited [interimEvidence[0]]: interim record")]).toEqual([0, true]);
    const pending = await runCli(["verify", "--trust", trust, pausedFile]);
    expect(pending.code).toBe(3);
    expect(pending.stdout).toMatch(/pending INPUT_EVIDENCE_PENDING/);
  });

  it("an unreadable or refused --interim file exits 2 naming it", async () => {
    const done = buildExchange({ ...BASE, envelope: "jsonrpc" });
    const input = tempFile("task.json", jsonText(done.input));
    const capture = tempFile("capture.json", jsonText(buildExchange(BASE).input));
    const refused = await runCli(["verify", "--interim", capture, input]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain(`--interim ${capture}`);
    expect(refused.stdout).toContain("INPUT_INTERIM_NO_BUNDLE");
    const missing = await runCli(["verify", "--interim", "/nonexistent/interim.json", input]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain("/nonexistent/interim.json");
  });
});
