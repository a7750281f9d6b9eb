/**
 * One Task seen over two bindings (contract §3, §3.1, §9.8): a client may hold the Task's pause
 * from gRPC and its end from JSON-RPC, or its first response in one binding and the terminal Task
 * in the other. A number in a Message's metadata (a google.protobuf.Struct) is a double: a Python
 * JSON-RPC server writes the requested delay `60.0`, a binary copy decodes as `60`. Those are one
 * Message; a copy whose value is another number is not, whichever binding shows it.
 */
import { describe, expect, it } from "vitest";
import { EXTENSION_URI } from "../../producer/constants.js";
import { copyObject, jsonText } from "../../producer/json-text.js";
import { grpcStreamBytes, grpcTaskBytes } from "../../producer/vectors-grpc.js";
import { buildExchange } from "../../producer/exchange.js";
import { streamEvents } from "../../producer/stream.js";
import { VECTORS } from "../../producer/vectors.js";
import { JsonNumber, isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { verify, type VerifyRequest } from "../../src/verify.js";
import { isFailedInput, type VerifiedInput } from "../../src/report/model.js";
import { inspect } from "../../src/inspect/index.js";
import { pausedForLogin } from "../helpers/paused-exchange.js";

// A Task that paused for the caller's bank login and then ended; the terminal record cites the
// interim record sealed at the pause, which the paused Task carries.
const { done, paused } = pausedForLogin();
const pausedTask = paused.pausedTask;

function member(v: JsonValue | undefined, ...path: (string | number)[]): JsonObject {
  let at = v;
  for (const key of path) at = Array.isArray(at) ? at[key as number] : isJsonObject(at) ? at[key] : undefined;
  if (!isJsonObject(at)) throw new Error(`no object at ${path.join(".")}`);
  return at;
}

/** The requested delay in the first Message's requirement, as the Task (JSON, from a Python server) writes it. */
const delayOf = (task: JsonObject) =>
  member(task, "history", 0, "metadata", EXTENSION_URI).maximumRegistrationDelaySeconds as JsonNumber;

/** The Task with the first Message's requested delay set to `seconds`, encoded as a gRPC client holds it. */
function binary(task: JsonObject, seconds?: string): Uint8Array {
  if (seconds === undefined) return grpcTaskBytes(task);
  const changed = copyObject(task);
  member(changed, "history", 0, "metadata", EXTENSION_URI).maximumRegistrationDelaySeconds = new JsonNumber(seconds);
  return grpcTaskBytes(changed);
}

function run(request: Omit<VerifyRequest, "trust">): VerifiedInput {
  const report = verify({ ...request, trust: done.trust });
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`input failed: ${JSON.stringify(input ?? report.error)}`);
  return input;
}

const failing = (r: VerifiedInput) =>
  Object.entries(r.properties).flatMap(([name, p]) =>
    p.checks.filter((c) => c.state === "FAIL").map((c) => `${name} ${c.id}`),
  );

type Mix = readonly [string, (seconds?: string) => Omit<VerifyRequest, "trust">];

const MIXES: readonly Mix[] = [
  [
    "JSON-RPC terminal Task, binary paused Task with --interim",
    (s) => ({
      inputs: [{ source: "done.json", data: jsonText(done.getTaskResponse) }],
      interim: [binary(pausedTask, s)],
    }),
  ],
  [
    "binary terminal Task, JSON-RPC paused Task with --interim",
    (s) => ({
      inputs: [{ source: "done.binpb", data: binary(done.finalTask, s) }],
      interim: [jsonText(paused.input)],
    }),
  ],
  [
    "JSON-RPC terminal Task, binary first Task with --first-task",
    (s) => ({
      inputs: [{ source: "done.json", data: jsonText(done.getTaskResponse) }],
      firstTask: binary(done.firstTask, s),
    }),
  ],
  [
    "binary terminal Task, REST first Task with --first-task",
    (s) => ({
      inputs: [{ source: "done.binpb", data: binary(done.finalTask, s) }],
      firstTask: jsonText(done.firstTask),
    }),
  ],
  [
    "bare bundle, REST terminal Task with --task, binary first Task with --first-task",
    (s) => ({
      inputs: [{ source: "bundle.json", data: done.bundleBytes }],
      task: jsonText(done.finalTask),
      firstTask: binary(done.firstTask, s),
    }),
  ],
];

describe("an honest Task seen over two bindings", () => {
  it("the JSON copies write the delay 60.0, the binary ones decode it as 60", () => {
    expect([delayOf(done.finalTask).lexeme, delayOf(pausedTask).lexeme, delayOf(done.firstTask).lexeme]).toEqual([
      "60.0",
      "60.0",
      "60.0",
    ]);
    const decoded = run({ inputs: [{ source: "done.binpb", data: binary(done.finalTask) }] });
    expect(decoded.exitCode).toBe(0);
  });

  it.each(MIXES)("%s: one Message, nothing FAILs, exit 0", (_, request) => {
    const r = run(request());
    expect(failing(r)).toEqual([]);
    expect(r.properties.taskBinding.checks.filter((c) => c.id === "transcript.request")).toEqual([]);
    // Without the first Task, the acceptance is not observed: negotiation INCONCLUSIVE, never FAIL.
    const negotiated = "firstTask" in request() ? "PASS" : "INCONCLUSIVE";
    expect([r.properties.taskBinding.state, r.properties.negotiation.state, r.exitCode]).toEqual([
      "PASS",
      negotiated,
      0,
    ]);
  });

  it.each(MIXES)("%s: the binary copy asking 61 s is another Message, FAIL, exit 1", (_, request) => {
    const r = run(request("61"));
    const copies = r.properties.taskBinding.checks.find((c) => c.id === "transcript.request");
    expect(copies).toMatchObject({ state: "FAIL", subject: "first Message" });
    expect(copies?.detail).toMatch(
      /has 61 at metadata\[.*\]\.maximumRegistrationDelaySeconds, .* has 60\.0|has 60\.0 at metadata\[.*\]\.maximumRegistrationDelaySeconds, .* has 61/,
    );
    expect(r.properties.taskBinding.state).toBe("FAIL");
    const agree = r.properties.negotiation.checks.find((c) => c.id === "requirement.copiesAgree");
    expect(agree?.state).toBe("FAIL");
    expect(r.properties.negotiation.state).toBe("FAIL");
    expect(r.exitCode).toBe(1);
  });

  it("a delay that is not an integer is compared exactly: 60.5 against 60.0 FAILs", () => {
    const [, request] = MIXES[0] as Mix;
    const r = run(request("60.5"));
    expect(failing(r)).toEqual(["taskBinding transcript.request", "negotiation requirement.copiesAgree"]);
    expect(r.exitCode).toBe(1);
  });
});

/** Field 99, wire type VARINT, value 1, after a Task's last field: outside committed content. */
const UNKNOWN_AT_END = [0x98, 0x06, 0x01];

function withUnknown(bytes: Uint8Array): [Uint8Array, number] {
  return [Uint8Array.from([...bytes, ...UNKNOWN_AT_END]), bytes.length];
}

describe("the notes of a binary file given with --first-task or --interim", () => {
  const ignored = (offset: number) =>
    `unknown protobuf field 99 (wire type VARINT) in Task at $ (byte ${offset}) was ignored`;

  it("--interim: its form and its ignored unknown field are listed, led by the flag; inspect lists them too", () => {
    const [bytes, offset] = withUnknown(binary(pausedTask));
    const input = { source: "done.json", data: jsonText(done.getTaskResponse) };
    const expected = [
      "--interim[0]: input is a binary protobuf Task (gRPC GetTask answer)",
      `--interim[0]: ${ignored(offset)}`,
    ];
    const r = run({ inputs: [input], interim: [bytes] });
    expect(r.notes).toEqual(expect.arrayContaining(expected));
    expect(r.exitCode).toBe(0);
    const explained = inspect({ ...input, trust: done.trust, interim: [bytes] }, { bytes: false, all: true });
    if (!explained.ok) throw new Error(explained.detail);
    expect(explained.value.notes.items).toEqual(expect.arrayContaining(expected));
  });

  it("--first-task: the same, led by --first-task; inspect lists them too", () => {
    const [bytes, offset] = withUnknown(binary(done.firstTask));
    const input = { source: "done.json", data: jsonText(done.getTaskResponse) };
    const expected = [
      "--first-task: input is a binary protobuf Task (gRPC GetTask answer)",
      `--first-task: ${ignored(offset)}`,
    ];
    const r = run({ inputs: [input], firstTask: bytes });
    expect(r.notes).toEqual(expected);
    expect(r.exitCode).toBe(0);
    const explained = inspect({ ...input, trust: done.trust, firstTask: bytes }, { bytes: false, all: true });
    if (!explained.ok) throw new Error(explained.detail);
    expect(explained.value.notes.items).toEqual(expected);
  });

  it("--first-task as a gRPC stream: its ignored unknown fields are listed (the stream's own notes are not)", () => {
    const x = buildExchange(VECTORS.find((v) => v.name === "valid-stream-sse-rest")?.options);
    const [first, ...rest] = streamEvents(x).map((e) => grpcStreamBytes([e]));
    // The first frame's StreamResponse gets field 99 after its last field; its length grows by 3.
    const body = Uint8Array.from([...(first as Uint8Array).subarray(5), ...UNKNOWN_AT_END]);
    const header = Buffer.alloc(5);
    header.writeUInt32BE(body.length, 1);
    const stream = Uint8Array.from(Buffer.concat([header, body, ...rest]));
    const report = verify({
      inputs: [{ source: "done.binpb", data: grpcTaskBytes(x.finalTask) }],
      trust: x.trust,
      firstTask: stream,
    });
    const input = report.inputs[0];
    if (!input || isFailedInput(input)) throw new Error(`input failed: ${JSON.stringify(input ?? report.error)}`);
    expect(input.notes).toEqual([
      "input is a binary protobuf Task (gRPC GetTask answer)",
      `--first-task: unknown protobuf field 99 (wire type VARINT) in StreamResponse at event[1] (byte ${body.length - 3 + 5}) was ignored`,
    ]);
    expect(input.exitCode).toBe(0);
  });

  it("JSON files given with --first-task and --interim add no note: the report is the one without them", () => {
    const json = run({
      inputs: [{ source: "done.binpb", data: binary(done.finalTask) }],
      firstTask: jsonText(done.firstTask),
      interim: [jsonText(paused.input)],
    });
    expect(json.notes).toEqual(["input is a binary protobuf Task (gRPC GetTask answer)"]);
  });
});
