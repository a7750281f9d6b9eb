/**
 * Unknown protobuf fields (contract §3.1): outside committed content they are noted and ignored;
 * inside a Message, Part or Artifact — content the evidence commits to — they make taskBinding
 * INCONCLUSIVE (`protobuf.unknownField`), never an input error and never PASS. The inputs are an
 * honest exchange's gRPC forms (encoded by @a2a-js/sdk), with one field spliced in byte by byte.
 */
import { describe, expect, it } from "vitest";
import { buildExchange } from "../../producer/exchange.js";
import { streamEvents } from "../../producer/stream.js";
import { VECTORS } from "../../producer/vectors.js";
import { grpcStreamBytes, grpcTaskBytes } from "../../producer/vectors-grpc.js";
import { toPlain, type JsonObject } from "../../src/json/value.js";
import { verify, type InputData } from "../../src/verify.js";
import { isFailedInput, type VerifiedInput } from "../../src/report/model.js";
import { inspect } from "../../src/inspect/index.js";
import { isNotAnInput } from "../../src/cli/inputs.js";
import { pausedForLogin } from "../helpers/paused-exchange.js";

function varint(n: number): number[] {
  const out: number[] = [];
  do {
    const b = n & 0x7f;
    n = Math.floor(n / 128);
    out.push(n > 0 ? b | 0x80 : b);
  } while (n > 0);
  return out;
}

function readVarint(b: Uint8Array, pos: number): [number, number] {
  let v = 0;
  let mul = 1;
  for (;;) {
    const x = b[pos++] as number;
    v += (x & 0x7f) * mul;
    mul *= 128;
    if ((x & 0x80) === 0) return [v, pos];
  }
}

interface Span {
  readonly field: number;
  /** Where the field's tag starts, where its body starts and ends. */
  readonly at: number;
  readonly body: number;
  readonly end: number;
}

/** The LEN fields of one message level (other wire types are stepped over). */
function lenFields(b: Uint8Array): Span[] {
  const out: Span[] = [];
  let pos = 0;
  while (pos < b.length) {
    const at = pos;
    const [t, p1] = readVarint(b, pos);
    const wire = t & 7;
    if (wire === 0) pos = readVarint(b, p1)[1];
    else if (wire === 1) pos = p1 + 8;
    else if (wire === 5) pos = p1 + 4;
    else {
      const [n, p2] = readVarint(b, p1);
      out.push({ field: t >>> 3, at, body: p2, end: p2 + n });
      pos = p2 + n;
    }
  }
  return out;
}

/**
 * `extra` appended inside the message reached by `path` (field number and occurrence, one level at
 * a time), every enclosing length rewritten; the offset of `extra` in the result comes with it.
 */
function splice(b: Uint8Array, path: readonly (readonly [number, number])[], extra: number[]): [Uint8Array, number] {
  if (path.length === 0) return [Uint8Array.from([...b, ...extra]), b.length];
  const [[field, nth], ...rest] = path as [readonly [number, number], ...(readonly [number, number])[]];
  const span = lenFields(b).filter((s) => s.field === field)[nth];
  if (!span) throw new Error(`no field ${field} #${nth}`);
  const [inner, offset] = splice(b.subarray(span.body, span.end), rest, extra);
  const head = [...b.subarray(span.at, span.body - varint(span.end - span.body).length)];
  const prefix = [...head, ...varint(inner.length)];
  const out = Uint8Array.from([...b.subarray(0, span.at), ...prefix, ...inner, ...b.subarray(span.end)]);
  return [out, span.at + prefix.length + offset];
}

/** Field 99, wire type VARINT, value 1: a field no a2a.proto message has. */
const UNKNOWN = [...varint((99 << 3) | 0), 1];

const def = VECTORS.find((v) => v.name === "valid-minimal");
if (!def) throw new Error("no valid-minimal vector");
const x = buildExchange(def.options);
const task = grpcTaskBytes(x.finalTask);

function run(data: InputData, extra: { firstTask?: InputData; task?: InputData } = {}): VerifiedInput {
  const report = verify({ inputs: [{ source: "task.binpb", data }], trust: x.trust, ...extra });
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`input failed: ${JSON.stringify(input ?? report.error)}`);
  return input;
}

const unknownChecks = (r: VerifiedInput) =>
  r.properties.taskBinding.checks.filter((c) => c.id === "protobuf.unknownField");

describe("an unknown protobuf field inside content the evidence commits to", () => {
  it("the honest gRPC Task verifies: exit 0, taskBinding PASS, no protobuf.unknownField check", () => {
    const r = run(task);
    expect([r.exitCode, r.properties.taskBinding.state]).toEqual([0, "PASS"]);
    expect(unknownChecks(r)).toEqual([]);
  });

  it.each([
    [
      "a Part of a history Message",
      [
        [5, 0],
        [5, 0],
      ],
      "Part",
      "history[0].parts[0]",
    ],
    ["a history Message", [[5, 0]], "Message", "history[0]"],
    ["a content Artifact", [[4, 0]], "Artifact", "artifacts[0]"],
    [
      "a Part of a content Artifact",
      [
        [4, 0],
        [4, 0],
      ],
      "Part",
      "artifacts[0].parts[0]",
    ],
    ["the evidence Artifact", [[4, 1]], "Artifact", "artifacts[1]"],
  ] as const)("in %s: taskBinding INCONCLUSIVE at protobuf.unknownField, exit 3", (_, path, owner, at) => {
    const [bytes, offset] = splice(task, path, UNKNOWN);
    const r = run(bytes);
    expect(r.properties.taskBinding.state).toBe("INCONCLUSIVE");
    const checks = unknownChecks(r);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({
      state: "INCONCLUSIVE",
      subject: at,
      values: { field: "99", offset: String(offset) },
    });
    expect(checks[0]?.detail).toContain(`in ${owner} at byte ${offset}`);
    expect(r.exitCode).toBe(3);
    // The same evidence, the same other properties: only the binding is affected.
    const honest = run(task);
    expect(r.evidenceId).toBe(honest.evidenceId);
    for (const [name, p] of Object.entries(r.properties))
      if (name !== "taskBinding")
        expect([name, p.state]).toEqual([name, honest.properties[name as keyof typeof honest.properties].state]);
  });

  it("in a Struct inside a Message's metadata: INCONCLUSIVE too", () => {
    // history[0].metadata (6) → Struct field entry (1) → Value (2) → struct_value (5): an unknown field in that Struct.
    const [bytes] = splice(
      task,
      [
        [5, 0],
        [6, 0],
        [1, 0],
        [2, 0],
        [5, 0],
      ],
      UNKNOWN,
    );
    const r = run(bytes);
    expect(unknownChecks(r)[0]).toMatchObject({ state: "INCONCLUSIVE" });
    expect(unknownChecks(r)[0]?.detail).toContain("google.protobuf.Struct");
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["INCONCLUSIVE", 3]);
  });

  it("inspect lists it among the notes", () => {
    const [bytes, offset] = splice(
      task,
      [
        [5, 0],
        [5, 0],
      ],
      UNKNOWN,
    );
    const r = inspect({ source: "task.binpb", data: bytes, trust: x.trust }, { bytes: false, all: true });
    if (!r.ok) throw new Error(r.detail);
    expect(r.value.notes.items).toContain(
      `unknown protobuf field 99 (wire type VARINT) in Part at history[0].parts[0] (byte ${offset}): content the evidence commits to that the verifier cannot see (taskBinding INCONCLUSIVE)`,
    );
  });

  it("outside committed content (the Task, its status): noted and ignored, exit 0", () => {
    const [top] = splice(task, [], UNKNOWN);
    const [inStatus] = splice(task, [[3, 0]], UNKNOWN);
    for (const bytes of [top, inStatus]) {
      const r = run(bytes);
      expect([r.exitCode, r.properties.taskBinding.state]).toEqual([0, "PASS"]);
      expect(unknownChecks(r)).toEqual([]);
      expect(r.notes.some((n) => /unknown protobuf field 99/.test(n))).toBe(true);
    }
  });

  it("in a gRPC stream event's Artifact: INCONCLUSIVE, the offset in the whole stream", () => {
    const events = streamEvents(x);
    const frames = events.map((e) => grpcStreamBytes([e]));
    const i = events.findIndex((e) => "artifactUpdate" in (toPlain(e) as object));
    expect(i).toBeGreaterThan(0);
    const frame = frames[i] as Uint8Array;
    // Inside the frame: StreamResponse.artifactUpdate (4) → TaskArtifactUpdateEvent.artifact (3).
    const [body, inner] = splice(
      frame.subarray(5),
      [
        [4, 0],
        [3, 0],
      ],
      UNKNOWN,
    );
    const header = Buffer.alloc(5);
    header.writeUInt32BE(body.length, 1);
    const before = frames.slice(0, i).reduce((n, f) => n + f.length, 0);
    const stream = Buffer.concat([...frames.slice(0, i), header, body, ...frames.slice(i + 1)]);
    const r = run(Uint8Array.from(stream));
    expect(unknownChecks(r)[0]).toMatchObject({
      state: "INCONCLUSIVE",
      subject: `event[${i + 1}].artifactUpdate.artifact`,
      values: { offset: String(before + 5 + inner) },
    });
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["INCONCLUSIVE", 3]);
  });

  it("in the --first-task response or the --task Task: INCONCLUSIVE, the flag named", () => {
    const firstTask = grpcTaskBytes(x.firstTask as JsonObject);
    const [first] = splice(
      firstTask,
      [
        [5, 0],
        [5, 0],
      ],
      UNKNOWN,
    );
    const r = run(task, { firstTask: first });
    expect(unknownChecks(r)[0]).toMatchObject({ subject: "--first-task history[0].parts[0]" });
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["INCONCLUSIVE", 3]);
    expect(run(task, { firstTask }).exitCode).toBe(0);
    const [observed] = splice(
      task,
      [
        [4, 0],
        [4, 0],
      ],
      UNKNOWN,
    );
    const bare = run(x.bundleBytes, { task: observed });
    expect(unknownChecks(bare)[0]).toMatchObject({ subject: "--task artifacts[0].parts[0]" });
    expect([bare.properties.taskBinding.state, bare.exitCode]).toEqual(["INCONCLUSIVE", 3]);
    expect(run(x.bundleBytes, { task }).exitCode).toBe(0);
  });
});

/** A SendMessageResponse holding `task` (field 1): SendMessage's answer on gRPC. */
function responseOf(taskBytes: Uint8Array): Uint8Array {
  return Uint8Array.from([0x0a, ...varint(taskBytes.length), ...taskBytes]);
}

describe("unknown fields in every form a gRPC Task reaches the verifier in", () => {
  const firstTask = grpcTaskBytes(x.firstTask as JsonObject);
  const inPart: [number, number][] = [
    [5, 0],
    [5, 0],
  ];

  it("a binary SendMessageResponse as --first-task: INCONCLUSIVE, not PASS; the honest one passes", () => {
    const [first] = splice(firstTask, inPart, UNKNOWN);
    const r = run(task, { firstTask: responseOf(first) });
    expect(unknownChecks(r)[0]).toMatchObject({
      state: "INCONCLUSIVE",
      subject: "--first-task task.history[0].parts[0]",
    });
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["INCONCLUSIVE", 3]);
    expect(run(task, { firstTask: responseOf(firstTask) }).exitCode).toBe(0);
    // inspect given the same --first-task lists the field among its notes.
    const explained = inspect(
      { source: "task.binpb", data: task, trust: x.trust, firstTask: responseOf(first) },
      { bytes: false, all: true },
    );
    if (!explained.ok) throw new Error(explained.detail);
    expect(explained.value.notes.items).toEqual([
      "input is a binary protobuf Task (gRPC GetTask answer)",
      "--first-task: input is a binary protobuf SendMessageResponse (gRPC SendMessage answer)",
      expect.stringMatching(
        /^unknown protobuf field 99 \(wire type VARINT\) in Part at --first-task task\.history\[0\]\.parts\[0\] \(byte \d+\): .*\(taskBinding INCONCLUSIVE\)$/,
      ),
    ]);
  });

  it("a binary Task given as the input's bytes or as a parsed Uint8Array copy: the same INCONCLUSIVE", () => {
    const [bytes] = splice(task, [[4, 0]], UNKNOWN);
    const copy = new Uint8Array(bytes.length + 7).subarray(7);
    copy.set(bytes);
    for (const data of [bytes, copy]) {
      const r = run(data);
      expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["INCONCLUSIVE", 3]);
    }
  });
});

describe("an unknown protobuf field in the paused Task given with --interim", () => {
  // A Task that paused for the caller's bank login, and the same Task ended; the terminal record
  // cites the interim record sealed at the pause, which the paused Task carries.
  const { done, paused } = pausedForLogin();
  // One binding throughout, as a gRPC client holds it: the terminal Task in binary form too.
  const doneBytes = grpcTaskBytes(done.finalTask);
  const pausedBytes = grpcTaskBytes(paused.pausedTask);
  const inHistoryPart: readonly (readonly [number, number])[] = [
    [5, 0],
    [5, 0],
  ];

  function withInterim(interim: InputData): VerifiedInput {
    const report = verify({
      inputs: [{ source: "done.binpb", data: doneBytes }],
      trust: done.trust,
      interim: [interim],
    });
    const input = report.inputs[0];
    if (!input || isFailedInput(input)) throw new Error(`input failed: ${JSON.stringify(input ?? report.error)}`);
    return input;
  }
  const interimStates = (r: VerifiedInput) =>
    r.properties.taskBinding.checks.filter((c) => c.id.startsWith("interim.")).map((c) => [c.id, c.state]);

  it("the honest paused Task in binary form: interim.cited, .prefix and .observed PASS, exit 0", () => {
    const r = withInterim(pausedBytes);
    expect(interimStates(r)).toEqual([
      ["interim.cited", "PASS"],
      ["interim.prefix", "PASS"],
      ["interim.observed", "PASS"],
    ]);
    expect(unknownChecks(r)).toEqual([]);
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["PASS", 0]);
  });

  it.each([
    ["a Part of a history Message", inHistoryPart, "Part", "history[0].parts[0]"],
    ["a content Artifact", [[4, 0]] as const, "Artifact", "artifacts[0]"],
    ["the evidence Artifact that carries the record", [[4, 1]] as const, "Artifact", "artifacts[1]"],
  ])("in %s: taskBinding INCONCLUSIVE at protobuf.unknownField, the file named, exit 3", (_, path, owner, at) => {
    const [bytes, offset] = splice(pausedBytes, path, UNKNOWN);
    const r = withInterim(bytes);
    const checks = unknownChecks(r);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({
      state: "INCONCLUSIVE",
      subject: `--interim[0] ${at}`,
      values: { field: "99", wireType: "VARINT", offset: String(offset) },
    });
    expect(checks[0]?.detail).toContain(`unknown field 99 (wire type VARINT) in ${owner} at byte ${offset}`);
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["INCONCLUSIVE", 3]);
  });

  it("in a Part of a history Message of a binary SendMessageResponse: INCONCLUSIVE too", () => {
    const [bytes, offset] = splice(pausedBytes, inHistoryPart, UNKNOWN);
    const r = withInterim(responseOf(bytes));
    expect(unknownChecks(r)[0]).toMatchObject({
      state: "INCONCLUSIVE",
      subject: "--interim[0] task.history[0].parts[0]",
      values: { offset: String(offset + 1 + varint(bytes.length).length) },
    });
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["INCONCLUSIVE", 3]);
  });

  it("beside a bare bundle: listed (not counted) without the terminal Task, INCONCLUSIVE with it as --task", () => {
    const [bytes, offset] = splice(pausedBytes, inHistoryPart, UNKNOWN);
    const run = (task?: InputData) => {
      const report = verify({
        inputs: [{ source: "bundle.json", data: done.bundleBytes }],
        trust: done.trust,
        interim: [bytes],
        ...(task ? { task } : {}),
      });
      const input = report.inputs[0];
      if (!input || isFailedInput(input)) throw new Error(`input failed: ${JSON.stringify(input ?? report.error)}`);
      return input;
    };
    const alone = run();
    expect(unknownChecks(alone)).toMatchObject([
      { state: "NOT_CHECKED", subject: "--interim[0] history[0].parts[0]", values: { offset: String(offset) } },
    ]);
    expect([alone.properties.taskBinding.state, alone.exitCode]).toEqual(["NOT_CHECKED", 3]);
    const observed = run(doneBytes);
    expect(unknownChecks(observed)).toMatchObject([
      { state: "INCONCLUSIVE", subject: "--interim[0] history[0].parts[0]", values: { offset: String(offset) } },
    ]);
    expect([observed.properties.taskBinding.state, observed.exitCode]).toEqual(["INCONCLUSIVE", 3]);
  });

  it("inspect lists it among the notes", () => {
    const [bytes, offset] = splice(pausedBytes, inHistoryPart, UNKNOWN);
    const r = inspect(
      { source: "done.binpb", data: doneBytes, trust: done.trust, interim: [bytes] },
      { bytes: false, all: true },
    );
    if (!r.ok) throw new Error(r.detail);
    expect(r.value.notes.items).toContain(
      `unknown protobuf field 99 (wire type VARINT) in Part at --interim[0] history[0].parts[0] (byte ${offset}): content the evidence commits to that the verifier cannot see (taskBinding INCONCLUSIVE)`,
    );
  });

  it("outside committed content (the Task, its status): ignored as for the input, exit 0", () => {
    for (const path of [[], [[3, 0]]] as const) {
      const [bytes] = splice(pausedBytes, path, UNKNOWN);
      const r = withInterim(bytes);
      expect(unknownChecks(r)).toEqual([]);
      expect(interimStates(r).map(([, state]) => state)).toEqual(["PASS", "PASS", "PASS"]);
      expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["PASS", 0]);
    }
  });
});

describe("a binary input that fails to decode is an input error, never 'not an A2A input'", () => {
  it("a Task with status given twice (and no id): INPUT_PROTOBUF_DUPLICATE, which --skip-unknown does not skip", () => {
    // Read as a SendMessageResponse these bytes are only unknown fields: the Task reading's fault is the answer.
    const status = [0x1a, 0x02, 0x08, 0x03];
    const report = verify({ inputs: [{ source: "t.binpb", data: Uint8Array.from([...status, ...status]) }] });
    const input = report.inputs[0];
    if (!input || !isFailedInput(input)) throw new Error("expected an input error");
    expect([input.error.code, input.error.path, input.exitCode]).toEqual(["INPUT_PROTOBUF_DUPLICATE", "status", 2]);
    expect(input.error.message).toBe("at byte 4: singular field status is given twice");
    expect(isNotAnInput(input.error)).toBe(false);
  });

  it("a Task that decodes but has no status stays INPUT_UNKNOWN_SHAPE ('not an A2A input')", () => {
    // Task {id "A", field 7 = 1}; read as a SendMessageResponse its field 1 is a Task that faults.
    const report = verify({ inputs: [{ source: "t.binpb", data: Uint8Array.from([0x0a, 0x01, 0x41, 0x38, 0x01]) }] });
    const input = report.inputs[0];
    if (!input || !isFailedInput(input)) throw new Error("expected an input error");
    expect([input.error.code, input.exitCode]).toEqual(["INPUT_UNKNOWN_SHAPE", 2]);
    expect(isNotAnInput(input.error)).toBe(true);
  });
});
