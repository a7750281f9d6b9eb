/**
 * Per-Part commitments (spec part-commitments.md): the worked values, every Part kind bound under
 * the v2 capture policy, the attacks that keep every signature valid (a data value changed, a Part
 * moved, split or merged, a raw mediaType changed, a url swapped, partCommitments dropped), the
 * labels that are not committed, url resolution, and the explicit opt-in for v1 records.
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, fromPlain, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { partCommitments, uuidFromLabel, type PartSpec } from "../../producer/a2a.js";
import { buildExchange, buildPausedExchange } from "../../producer/exchange.js";
import type { ExchangeOptions, TranscriptSpec } from "../../producer/options.js";
import { verify } from "../../src/verify.js";
import { isFailedInput } from "../../src/report/model.js";
import { jsonText } from "../../producer/json-text.js";
import { partsChecks, type PartsRules } from "../../src/properties/task-binding/parts.js";
import { readTask } from "../../src/input/a2a.js";
import type { Check } from "../../src/properties/shared/types.js";
import { sha256HexOfText, utf8 } from "../../src/util/bytes.js";
import { runCli, tempFile } from "../helpers/cli.js";
import {
  ARTIFACT_0,
  MESSAGE_0,
  MESSAGE_1,
  at,
  baseline,
  capture,
  check,
  checkOf,
  expectDecided,
  statesOf,
  tampered,
} from "./harness.js";

const V2 = "a2a-server-boundary-v2";
const PDF = "JVBERi0xLjcKJeLjz9MK"; // 15 bytes: "%PDF-1.7\n%âãÏÓ\n"
const PDF_BYTES = Buffer.from(PDF, "base64");
const URL = "https://files.example/report.pdf";

/** The worked values of part-commitments.md §3, as plain JSON. */
const WORKED: readonly { part: JsonValue; pc: Record<string, unknown> }[] = [
  {
    part: { text: "seal this exchange" },
    pc: { kind: "text", digest: "f9096a204f4ce03bc50a07484a997aa0de398e65346d34234e480c9ef732ebf7" },
  },
  {
    part: { text: "seal this" },
    pc: { kind: "text", digest: "546724887738b3f9c11d369a101425e1347d085eeac5f0197083be7eebff7a8b" },
  },
  {
    part: { text: "exchange" },
    pc: { kind: "text", digest: "ab27b729d9cc4cb1c00960700446924159e9298d0f952aee3d55408b8e0b1b71" },
  },
  {
    part: fromPlain({
      data: { amount: new JsonNumber("5"), currency: "EUR", lines: [{ sku: "A-1", qty: new JsonNumber("2.0") }] },
    }),
    pc: { kind: "data", digest: "8699860d300e20684bc62628d30b22f699b12f1ae6847f30741061255058de7a" },
  },
  {
    part: { data: {} },
    pc: { kind: "data", digest: "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a" },
  },
  {
    part: { raw: PDF, mediaType: "application/pdf" },
    pc: {
      kind: "raw",
      digest: "c644f26a0d71bd3bbb2ef5e90ba41b6f10a19ca99934fb9e784edfafd3b2620c",
      length: new JsonNumber("15"),
      mediaType: "application/pdf",
    },
  },
  {
    part: { url: URL, mediaType: "application/pdf" },
    pc: {
      kind: "url",
      locator: "ad3383ef73e8a2b641b71598f34fd237164a4233f713640e66b1a3d96458a647",
      mediaType: "application/pdf",
      resolution: "RESOLVED",
      digest: "c644f26a0d71bd3bbb2ef5e90ba41b6f10a19ca99934fb9e784edfafd3b2620c",
      length: new JsonNumber("15"),
    },
  },
  {
    part: { url: URL, mediaType: "application/pdf" },
    pc: {
      kind: "url",
      locator: "ad3383ef73e8a2b641b71598f34fd237164a4233f713640e66b1a3d96458a647",
      mediaType: "application/pdf",
      resolution: "NOT_RESOLVED",
    },
  },
];

/** The verifier's Parts of a Message with these parts, read as it reads a Task. */
function partsOf(parts: readonly JsonValue[]) {
  const task = readTask(
    fromPlain({
      id: "t",
      status: { state: "TASK_STATE_COMPLETED" },
      history: [{ messageId: "m", role: "ROLE_AGENT", parts }],
    }),
    "$",
  );
  if (!task.ok) throw new Error(task.detail);
  return (task.value.history ?? [])[0]?.parts ?? [];
}

function judge(parts: readonly JsonValue[], pcs: JsonValue, rules: Partial<PartsRules> = {}): Check[] {
  const make = (id: string, state: Check["state"], detail: string, extras = {}): Check =>
    ({ id, state, detail, ...extras }) as Check;
  return partsChecks(
    { present: true, partCommitments: pcs },
    partsOf(parts),
    "message m",
    "s",
    { requireAll: false, used: new Set(), ...rules },
    make,
  );
}

describe("part-commitments.md §3: the worked values", () => {
  for (const [i, w] of WORKED.entries()) {
    it(`#${i}: the verifier recomputes ${JSON.stringify(w.pc.kind)} ${String(w.pc.resolution ?? "")}`, () => {
      const checks = judge([w.part], [fromPlain(w.pc)]);
      expect(checks.map((c) => `${c.id} ${c.state}`)[0]).toBe("parts.digest PASS");
    });
  }

  it("the one-part text PC equals the v1 partCommitment; two parts and their join differ only in PCs", () => {
    expect(sha256HexOfText("seal this exchange")).toBe(WORKED[0]?.pc.digest);
    expect(sha256HexOfText("seal this\nexchange")).toBe(
      "bc365ecaa24d47e5bee8ce1bc894c31b4a3b22a770e2aaea343210c41035150e",
    );
  });

  it("the producer's independent PCs are the worked values", () => {
    const specs: PartSpec[] = [
      "seal this exchange",
      {
        data: fromPlain({
          amount: new JsonNumber("5"),
          currency: "EUR",
          lines: [{ sku: "A-1", qty: new JsonNumber("2.0") }],
        }),
      },
      { raw: PDF, mediaType: "application/pdf" },
      { url: URL, mediaType: "application/pdf", resolved: PDF_BYTES },
      { url: URL, mediaType: "application/pdf" },
    ];
    const expected = [WORKED[0], WORKED[3], WORKED[5], WORKED[6], WORKED[7]].map((w) => jsonText(fromPlain(w?.pc)));
    expect(partCommitments(specs).map((pc) => jsonText(pc))).toEqual(expected);
  });
});

/** A Task whose agent answers with text, a data Part, a PDF and a URL to it. */
const RICH = {
  transcript: [
    { messageId: MESSAGE_0, role: "ROLE_USER" as const, parts: ["Send the Q3 report."] },
    {
      messageId: MESSAGE_1,
      role: "ROLE_AGENT" as const,
      parts: ["Here it is.", { data: { pages: 2, status: "final" } }] as PartSpec[],
    },
  ],
  artifacts: [
    {
      artifactId: ARTIFACT_0,
      name: "report",
      parts: [
        "Q3 report",
        { raw: PDF, mediaType: "application/pdf", filename: "q3.pdf" },
        { url: URL, mediaType: "application/pdf", resolved: PDF_BYTES },
      ] as PartSpec[],
    },
  ],
};

function artifactParts(task: JsonObject): JsonObject[] {
  return (at(task, "artifacts", 0).parts as JsonObject[]) ?? [];
}

describe("every Part committed: v2 PASS, attacks FAIL", () => {
  it("a Task with data, raw and url (RESOLVED) Parts, committed per Part, PASSes taskBinding and exits 0", async () => {
    const e = capture({ ...RICH, capturePolicyId: V2 });
    const input = check(e);
    expect(statesOf(input)).toEqual(baseline());
    expect(checkOf(input, "taskBinding", "parts.digest", "nonEvidenceArtifacts[0]").state).toBe("PASS");
    expect(checkOf(input, "taskBinding", "parts.url", "nonEvidenceArtifacts[0]").state).toBe("PASS");
    expect(checkOf(input, "taskBinding", "parts.digest", `history message ${MESSAGE_1}`).state).toBe("PASS");
    expect(input.exitCode).toBe(0);
    const run = await runCli([
      "verify",
      "--trust",
      tempFile("trust.json", jsonText(e.trust)),
      tempFile("in.json", jsonText(e.input)),
    ]);
    expect(run.code).toBe(0);
  });

  it("the same Task from a v1 producer is INCONCLUSIVE (PART_NOT_COMMITTED), exit 3; the opt-in accepts it and says so", async () => {
    const e = capture(RICH);
    const input = check(e);
    expectDecided(input, "taskBinding", {
      state: "INCONCLUSIVE",
      check: "artifact.binding",
      subject: "nonEvidenceArtifacts[0]",
      code: "PART_NOT_COMMITTED",
      detail: /1 raw part and 1 url part/,
    });
    expect(input.exitCode).toBe(3);
    const trust = tempFile("trust.json", jsonText(e.trust));
    const file = tempFile("in.json", jsonText(e.input));
    expect((await runCli(["verify", "--trust", trust, file])).code).toBe(3);
    const accepted = await runCli([
      "verify",
      "--trust",
      trust,
      "--insecure-accept-uncommitted-parts",
      "--format",
      "json",
      file,
    ]);
    expect(accepted.code).toBe(0);
    const report = JSON.parse(accepted.stdout) as {
      policy: Record<string, unknown>;
      inputs: { properties: { taskBinding: { state: string } }; notes: string[]; reasons: string[] }[];
    };
    expect(report.policy.acceptUncommittedParts).toBe(true);
    expect(report.inputs[0]?.properties.taskBinding.state).toBe("INCONCLUSIVE");
    expect(
      report.inputs[0]?.notes.some((n) => /--insecure-accept-uncommitted-parts: .*nonEvidenceArtifacts\[0\]/.test(n)),
    ).toBe(true);
    const text = await runCli(["verify", "--trust", trust, "--insecure-accept-uncommitted-parts", file]);
    expect(text.stdout).toMatch(/--insecure-accept-uncommitted-parts/);
  });

  it("the opt-in never turns a FAIL into anything else, and never waives another doubt", () => {
    const failing = tampered(
      { finalTask: (t) => void ((artifactParts(t)[0] as JsonObject).text = "Q4 report") },
      RICH,
      {
        request: { acceptUncommittedParts: true },
      },
    );
    expect([failing.properties.taskBinding.state, failing.exitCode]).toEqual(["FAIL", 1]);
    // A truncated history is another doubt: not waived by the opt-in.
    const truncated = tampered({ finalTask: (t) => void (t.history as JsonValue[]).splice(0, 1) }, RICH, {
      request: { acceptUncommittedParts: true },
    });
    expect(truncated.properties.taskBinding.state).toBe("INCONCLUSIVE");
    expect(truncated.exitCode).toBe(3);
  });

  const attacks: { name: string; tamper: (t: JsonObject) => void; check: string; detail: RegExp }[] = [
    {
      name: "a data value changed",
      tamper: (t) =>
        void ((at(t, "history", 1).parts as JsonObject[])[1] = fromPlain({
          data: { pages: 3, status: "final" },
        }) as JsonObject),
      check: "parts.digest",
      detail: /part 1 \(data\): digest .* != SHA-256 of its JCS value/,
    },
    {
      name: "a Part moved",
      tamper: (t) => void artifactParts(t).reverse(),
      check: "parts.kind",
      detail: /part 0 is url, its commitment's kind is "text"/,
    },
    {
      name: "a raw mediaType changed",
      tamper: (t) => void ((artifactParts(t)[1] as JsonObject).mediaType = "text/html"),
      check: "parts.digest",
      detail: /mediaType "application\/pdf" != the Part's "text\/html"/,
    },
    {
      name: "a url swapped",
      tamper: (t) => void ((artifactParts(t)[2] as JsonObject).url = "https://files.example/other.pdf"),
      check: "parts.digest",
      detail: /locator .* \(another URL\)/,
    },
    {
      name: "a Part dropped",
      tamper: (t) => void artifactParts(t).splice(1, 1),
      check: "parts.count",
      detail: /3 part commitment\(s\) for 2 observed part\(s\)/,
    },
  ];
  for (const a of attacks) {
    it(`${a.name}: taskBinding FAIL (${a.check}), exit 1`, () => {
      const input = tampered({ finalTask: a.tamper }, { ...RICH, capturePolicyId: V2 });
      const deciding = input.properties.taskBinding.checks.find((c) => c.state === "FAIL");
      expect([input.properties.taskBinding.state, deciding?.id, input.exitCode]).toEqual(["FAIL", a.check, 1]);
      expect(deciding?.detail).toMatch(a.detail);
    });
  }

  it("a text Part split in two: the v1 commitment still matches, the PCs FAIL (parts.count), exit 1", () => {
    const e = capture({
      capturePolicyId: V2,
      transcript: [{ messageId: MESSAGE_0, role: "ROLE_USER", parts: ["seal this\nexchange"] }],
    });
    const split = check(e, {
      input: (() => {
        const input = fromPlain(e.input) as JsonObject;
        at(input, "finalTask", "history", 0).parts = fromPlain([{ text: "seal this" }, { text: "exchange" }]);
        return input;
      })(),
    });
    const deciding = split.properties.taskBinding.checks.find((c) => c.state === "FAIL");
    expect([split.properties.taskBinding.state, deciding?.id, split.exitCode]).toEqual(["FAIL", "parts.count", 1]);
    expect(checkOf(split, "taskBinding", "transcript.message").state).toBe("PASS");
  });

  it("two text Parts merged into one: parts.count FAIL, exit 1", () => {
    const input = tampered(
      { finalTask: (t) => void (at(t, "history", 0).parts = fromPlain([{ text: "Send the\nQ3 report." }])) },
      {
        capturePolicyId: V2,
        transcript: [{ messageId: MESSAGE_0, role: "ROLE_USER", parts: ["Send the", "Q3 report."] }],
        artifacts: [],
      },
    );
    const deciding = input.properties.taskBinding.checks.find((c) => c.state === "FAIL");
    expect([input.properties.taskBinding.state, deciding?.id, input.exitCode]).toEqual(["FAIL", "parts.count", 1]);
  });

  it("partCommitments dropped under v2 (resealed): parts.missing FAIL, exit 1", () => {
    const input = tampered(
      { payload: (p) => void delete at(p, "nonEvidenceArtifacts", 0).partCommitments },
      { ...RICH, capturePolicyId: V2 },
    );
    expectDecided(input, "taskBinding", { state: "FAIL", check: "parts.missing", subject: "nonEvidenceArtifacts[0]" });
    expect(input.exitCode).toBe(1);
  });

  it("honest look-alikes: filename, metadata and a text Part's mediaType are labels, not committed (PASS)", () => {
    const input = tampered(
      {
        finalTask: (t) => {
          (artifactParts(t)[1] as JsonObject).filename = "renamed.pdf";
          (artifactParts(t)[0] as JsonObject).mediaType = "text/markdown";
          (artifactParts(t)[0] as JsonObject).metadata = fromPlain({ note: "a label" });
        },
      },
      { ...RICH, capturePolicyId: V2 },
    );
    expect([input.properties.taskBinding.state, input.exitCode]).toEqual(["PASS", 0]);
  });
});

describe("parts.url: resolution", () => {
  const notResolved = {
    capturePolicyId: V2,
    artifacts: [
      { artifactId: ARTIFACT_0, name: "link", parts: [{ url: URL, mediaType: "application/pdf" }] as PartSpec[] },
    ],
  };

  it("a url committed NOT_RESOLVED is INCONCLUSIVE (PART_URL_NOT_RESOLVED), exit 3", () => {
    const input = check(capture(notResolved));
    expectDecided(input, "taskBinding", {
      state: "INCONCLUSIVE",
      check: "parts.url",
      subject: "nonEvidenceArtifacts[0]",
      code: "PART_URL_NOT_RESOLVED",
    });
    expect(input.exitCode).toBe(3);
  });

  it("--resolved URL=FILE: the same bytes PASS, other bytes FAIL, an unused one is listed and changes nothing", async () => {
    const e = capture({ ...RICH, capturePolicyId: V2 });
    const trust = tempFile("trust.json", jsonText(e.trust));
    const file = tempFile("in.json", jsonText(e.input));
    const same = await runCli([
      "verify",
      "--trust",
      trust,
      "--resolved",
      `${URL}=${tempFile("r.pdf", PDF_BYTES)}`,
      "-v",
      file,
    ]);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/equal to the --resolved file/);
    const other = await runCli([
      "verify",
      "--trust",
      trust,
      "--format",
      "json",
      "--resolved",
      `${URL}=${tempFile("r.pdf", "not the pdf")}`,
      file,
    ]);
    expect(other.code).toBe(1);
    const report = JSON.parse(other.stdout) as {
      inputs: { properties: { taskBinding: { state: string; checks: Check[] } } }[];
    };
    const tb = report.inputs[0]?.properties.taskBinding;
    expect([tb?.state, tb?.checks.find((c) => c.state === "FAIL")?.id]).toEqual(["FAIL", "parts.url"]);
    const unused = await runCli([
      "verify",
      "--trust",
      trust,
      "--format",
      "json",
      "--resolved",
      `https://elsewhere.example/x=${tempFile("x", "x")}`,
      file,
    ]);
    expect(unused.code).toBe(0);
    expect(unused.stdout).toMatch(/--resolved \\"https:\/\/elsewhere.example\/x\\" is unused/);
  });

  it("--resolved without '=' or with one URL twice is a usage error (exit 2)", async () => {
    expect((await runCli(["verify", "--resolved", "nofile", "x.json"])).code).toBe(2);
    const f = tempFile("r", "r");
    const twice = await runCli(["verify", "--resolved", `${URL}=${f}`, "--resolved", `${URL}=${f}`, "x.json"]);
    expect([twice.code, /given twice/.test(twice.stderr + twice.stdout)]).toEqual([2, true]);
  });
});

describe("v1 records: several text Parts are bound as their joined text (contract §9.27)", () => {
  it("the PASS detail says the split into parts is not committed", () => {
    const input = check(capture());
    expect(checkOf(input, "taskBinding", "artifact.binding").detail).toMatch(
      /its 2 text parts are bound as their text joined with "\\n": the split into parts is not committed/,
    );
  });
});

describe("the verifier's parts checks on malformed commitments", () => {
  it("partCommitments that is not an array FAILs parts.count", () => {
    expect(judge([{ text: "a" }], "nope").map((c) => `${c.id} ${c.state}`)).toEqual(["parts.count FAIL"]);
  });
  it("a RESOLVED url without a digest FAILs parts.digest", () => {
    const pc = fromPlain({ ...WORKED[6]?.pc, digest: undefined });
    expect(judge([WORKED[6]?.part as JsonValue], [pc]).map((c) => `${c.id} ${c.state}`)).toEqual(["parts.digest FAIL"]);
  });
  it("a raw Part whose bytes are not standard base64 FAILs parts.digest", () => {
    const checks = judge([{ raw: "not base64!" }], [fromPlain(WORKED[5]?.pc)]);
    expect(checks.map((c) => `${c.id} ${c.state}`)).toEqual(["parts.digest FAIL"]);
  });
});

describe("per-Part commitments in an interim record, against the paused Task it came with", () => {
  const ASK: TranscriptSpec = {
    messageId: uuidFromLabel("parts ask"),
    role: "ROLE_AGENT",
    parts: ["Which seat?", { data: { seats: ["12A", "12C"] } }],
  };
  const TRANSCRIPT: TranscriptSpec[] = [
    { messageId: uuidFromLabel("parts 0"), role: "ROLE_USER", parts: ["Book a seat."] },
    ASK,
    { transition: { from: "TASK_STATE_WORKING", to: "TASK_STATE_INPUT_REQUIRED" } },
    { messageId: uuidFromLabel("parts 2"), role: "ROLE_USER", parts: ["12A."] },
    { transition: { from: "TASK_STATE_INPUT_REQUIRED", to: "TASK_STATE_WORKING" } },
    { messageId: uuidFromLabel("parts 3"), role: "ROLE_AGENT", parts: ["Booked 12A."] },
  ];
  const BASE: ExchangeOptions = {
    envelope: "jsonrpc",
    capturePolicyId: V2,
    taskId: uuidFromLabel("parts task"),
    contextId: uuidFromLabel("parts context"),
    transcript: TRANSCRIPT,
    artifacts: [
      { artifactId: uuidFromLabel("parts seats"), name: "seats", parts: ["seat map", { raw: PDF }], after: 1 },
    ],
    leavesBefore: 2,
    interim: [{ at: 2 }],
  };
  const terminal = buildExchange(BASE);
  const paused = buildPausedExchange({ ...BASE, envelope: "paused", transcript: TRANSCRIPT.slice(0, 3) }).pausedTask;

  function observed(task: JsonObject) {
    const input = verify({
      inputs: [{ source: "t", data: terminal.input }],
      trust: terminal.trust,
      interim: [utf8(jsonText(task))],
    }).inputs[0];
    if (!input || isFailedInput(input)) throw new Error(JSON.stringify(input));
    return input;
  }

  it("the paused Task's data and raw Parts, committed per Part, PASS interim.observed (not INCONCLUSIVE)", () => {
    const input = observed(paused);
    expect(checkOf(input, "taskBinding", "interim.observed").state).toBe("PASS");
    expect([input.properties.taskBinding.state, input.exitCode]).toEqual(["PASS", 0]);
  });

  it("a data value the paused Task showed that the interim record does not commit FAILs interim.observed", () => {
    const t = fromPlain(paused) as JsonObject;
    const ask = (t.history as JsonObject[]).find((m) => m.messageId === ASK.messageId) as JsonObject;
    (ask.parts as JsonValue[])[1] = fromPlain({ data: { seats: ["12A", "12C", "1A"] } });
    const input = observed(t);
    const c = checkOf(input, "taskBinding", "interim.observed");
    expect([c.state, input.properties.taskBinding.state, input.exitCode]).toEqual(["FAIL", "FAIL", 1]);
    expect(c.detail).toMatch(/part 1 \(data\): digest/);
  });
});

describe("inspect: each Part beside its commitment", () => {
  it("lists every Part of a per-Part committed entry with its commitment, and names one that does not recompute", async () => {
    const e = capture({ ...RICH, capturePolicyId: V2 });
    const honest = await runCli([
      "inspect",
      "--trust",
      tempFile("trust.json", jsonText(e.trust)),
      tempFile("in.json", jsonText(e.input)),
    ]);
    expect(honest.code).toBe(0);
    expect(honest.stdout).toMatch(/partCommitments \(3\): one per Part, in order/);
    expect(honest.stdout).toMatch(
      /part 1 raw: \{"digest":"c644f26a0d71bd3bbb2ef5e90ba41b6f10a19ca99934fb9e784edfafd3b2620c","kind":"raw","length":15,"mediaType":"application\/pdf"\}/,
    );
    expect(honest.stdout).not.toMatch(/does not recompute/);
    const changed = fromPlain(e.input) as JsonObject;
    (artifactParts(at(changed, "finalTask"))[1] as JsonObject).mediaType = "text/html";
    const bad = await runCli(["inspect", tempFile("in.json", jsonText(changed))]);
    expect(bad.stdout).toMatch(/does not recompute: mediaType "application\/pdf" != the Part's "text\/html"/);
    const json = await runCli(["inspect", "--format", "json", tempFile("in.json", jsonText(changed))]);
    expect(json.stdout).toMatch(/"parts":/);
  });
});
