/**
 * The strict protobuf reader (contract §3.1): each fault is an input error with its code, the byte
 * offset and the field path. Inputs are written byte by byte here, independently of the decoder.
 */
import { describe, expect, it } from "vitest";
import { toInputValue } from "../../src/input/decode.js";
import { isDecodedDocument } from "../../src/input/decoded.js";
import { isFoldedStream } from "../../src/input/stream/fold.js";
import { unseenIn } from "../../src/input/protobuf/unseen.js";
import { toPlain } from "../../src/json/value.js";
import { verify } from "../../src/verify.js";
import { isFailedInput } from "../../src/report/model.js";
import type { Failure } from "../../src/result.js";

const cat = (...parts: (number[] | Uint8Array)[]): number[] => parts.flatMap((p) => [...p]);
function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? b | 0x80 : b);
  } while (v > 0n);
  return out;
}
const tag = (field: number, wire: number) => varint((field << 3) | wire);
const len = (field: number, body: number[]) => cat(tag(field, 2), varint(body.length), body);
const str = (field: number, s: string) => len(field, [...Buffer.from(s, "utf8")]);
const vint = (field: number, n: number | bigint) => cat(tag(field, 0), varint(n));

const beLength = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const frame = (body: number[], flag = 0) => cat([flag], beLength(body.length), body);

const ID = str(1, "t1"); // bytes 0..3
const status = (state: number, ...more: number[][]) => len(3, cat(vint(1, state), ...more));
const textPart = (t: string, ...more: number[][]) => cat(str(1, t), ...more);
const agentMessage = (...parts: number[][]) => cat(str(1, "m1"), vint(4, 2), ...parts.map((p) => len(5, p)));

function decoded(bytes: number[]) {
  const r = toInputValue(Uint8Array.from(bytes));
  if (!r.ok) throw new Error(`${r.code} at ${r.path}: ${r.detail}`);
  return r.value;
}

function fault(bytes: number[]): Failure & { offset: number } {
  const r = toInputValue(Uint8Array.from(bytes));
  if (r.ok) throw new Error("decoded; a fault was expected");
  const m = /at byte (\d+)/.exec(r.detail);
  if (!m) throw new Error(`no byte offset in: ${r.detail}`);
  return { ...r, offset: Number(m[1]) };
}

describe("binary Task", () => {
  it("decodes to the ProtoJSON Task the JSON bindings carry", () => {
    const ts = len(3, cat(vint(1, 1_767_225_600), vint(2, 123_000_000)));
    const v = decoded(cat(ID, str(2, "c1"), status(3, ts), len(5, agentMessage(textPart("hi")))));
    expect(isDecodedDocument(v)).toBe(true);
    if (!isDecodedDocument(v)) return;
    expect(v.form).toBe("task");
    expect(toPlain(v.value)).toEqual({
      id: "t1",
      contextId: "c1",
      status: { state: "TASK_STATE_COMPLETED", timestamp: "2026-01-01T00:00:00.123Z" },
      history: [{ messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "hi" }] }],
    });
  });

  it("keeps raw bytes exactly, as base64, and Struct values as JSON", () => {
    const raw = [0, 1, 2, 0xff, 0xfe];
    const value = (n: number) => {
      const b = Buffer.alloc(8);
      b.writeDoubleLE(n);
      return cat(tag(2, 1), [...b]);
    };
    const entry = (k: string, v: number[]) => len(1, cat(str(1, k), len(2, v)));
    const meta = len(6, cat(entry("n", value(60)), entry("s", str(3, "x")), entry("z", vint(1, 0))));
    const part = cat(len(2, raw), str(7, "application/octet-stream"));
    const v = decoded(cat(ID, status(3), len(4, cat(str(1, "a1"), len(4, part))), meta));
    if (!isDecodedDocument(v)) throw new Error("not decoded");
    const plain = toPlain(v.value) as { artifacts: { parts: { raw: string }[] }[]; metadata: unknown };
    expect(Buffer.from(plain.artifacts[0]!.parts[0]!.raw, "base64")).toEqual(Buffer.from(raw));
    expect(plain.metadata).toEqual({ n: 60, s: "x", z: null });
  });

  it("notes an unknown field outside committed content and ignores it", () => {
    const v = decoded(cat(ID, status(3, vint(9, 5)), vint(15, 1)));
    if (!isDecodedDocument(v)) throw new Error("not decoded");
    expect(v.notes.some((n) => /unknown protobuf field 9 .* TaskStatus at status \(byte 8\)/.test(n))).toBe(true);
    expect(v.notes.some((n) => /unknown protobuf field 15 .* Task at \$ \(byte 10\)/.test(n))).toBe(true);
  });

  it("reads a SendMessageResponse as its {task} or {message} ProtoJSON", () => {
    const t = decoded(len(1, cat(ID, status(3))));
    expect(isDecodedDocument(t) && t.form).toBe("send-message-response");
    expect(isDecodedDocument(t) && toPlain(t.value)).toEqual({
      task: { id: "t1", status: { state: "TASK_STATE_COMPLETED" } },
    });
    const m = decoded(len(2, agentMessage(textPart("hi"))));
    expect(isDecodedDocument(m) && toPlain(m.value)).toEqual({
      message: { messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "hi" }] },
    });
  });
});

describe("strict decoding: each fault names its code, byte offset and field path", () => {
  it("a singular field given twice", () => {
    const f = fault(cat(ID, str(1, "t2"), status(3)));
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_PROTOBUF_DUPLICATE", 4, "id"]);
  });

  it("two members of a oneof", () => {
    const part = textPart("a", len(2, [1]));
    const f = fault(cat(ID, status(3, len(2, agentMessage(part)))));
    // status at 4: tag, len; state 6..7; message tag 8, len 9; m1 10..13; role 14..15; parts tag 16, len 17; text 18..20; raw 21
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_PROTOBUF_DUPLICATE", 21, "status.message.parts[0].raw"]);
  });

  it("a wrong wire type", () => {
    const f = fault(cat(ID, vint(3, 1), status(3)));
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_PROTOBUF_MALFORMED", 4, "status"]);
  });

  it("a truncated varint", () => {
    const f = fault(cat(ID, len(3, [0x08, 0x83])));
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_PROTOBUF_MALFORMED", 7, "status.state"]);
    expect(f.detail).toMatch(/cut off/);
  });

  it("an over-long varint", () => {
    const f = fault(cat(ID, len(3, [0x08, ...Array(10).fill(0x80), 0x01])));
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_PROTOBUF_MALFORMED", 7, "status.state"]);
    expect(f.detail).toMatch(/longer than/);
  });

  it("a length past the end of its message", () => {
    const f = fault(cat(ID, len(3, cat(tag(2, 2), [40], vint(1, 3)))));
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_PROTOBUF_MALFORMED", 7, "status.message"]);
  });

  it("nesting deeper than the JSON limit", () => {
    // Struct { "k": Value { struct_value: Struct { "k": … } } }, 70 levels.
    let s: number[] = [];
    for (let i = 0; i < 70; i++) s = len(1, cat(str(1, "k"), len(2, len(5, s))));
    const f = fault(cat(ID, status(3), len(6, s)));
    expect(f.code).toBe("INPUT_PROTOBUF_TOO_LARGE");
    expect(f.path).toMatch(/^metadata\.k\.k\./);
  });

  it("invalid UTF-8 in a string", () => {
    const g = fault(cat(ID, len(2, [0xc3, 0x28]), status(3)));
    expect([g.code, g.offset, g.path]).toEqual(["INPUT_PROTOBUF_UTF8", 5, "contextId"]);
  });

  it("an unknown TaskState number", () => {
    const f = fault(cat(ID, status(42)));
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_PROTOBUF_ENUM", 7, "status.state"]);
  });

  it("an unknown Role number", () => {
    const m = cat(str(1, "m1"), vint(4, 7), len(5, textPart("x")));
    const f = fault(cat(ID, status(3, len(2, m))));
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_PROTOBUF_ENUM", 15, "status.message.role"]);
  });

  it("a raw field given twice", () => {
    const f = fault(cat(ID, status(3, len(2, agentMessage(cat(len(2, [1]), len(2, [2])))))));
    // parts tag 16, len 17; the first raw 18..20; the second raw's tag at 21
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_PROTOBUF_DUPLICATE", 21, "status.message.parts[0].raw"]);
    expect(f.detail).toMatch(/singular field raw is given twice/);
  });

  it("a varint cut off by the end of the input", () => {
    const f = fault(cat(ID, [0x1a, 0x80]));
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_PROTOBUF_MALFORMED", 5, "status"]);
    expect(f.detail).toMatch(/cut off/);
  });

  it("a bool other than 0 or 1, a Value with no kind, a non-finite number", () => {
    const b = fault(frame(len(4, cat(str(1, "t1"), vint(4, 2)))));
    expect([b.code, b.offset, b.path]).toEqual(["INPUT_PROTOBUF_VALUE", 12, "event[1].artifactUpdate.append"]);
    const nan = Buffer.alloc(8);
    nan.writeDoubleLE(NaN);
    const entry = (v: number[]) => len(6, len(1, cat(str(1, "k"), len(2, v))));
    const n = fault(cat(ID, status(3), entry(cat(tag(2, 1), [...nan]))));
    expect([n.code, n.path]).toEqual(["INPUT_PROTOBUF_VALUE", "metadata.k"]);
    const e = fault(cat(ID, status(3), entry([])));
    expect([e.code, e.path]).toEqual(["INPUT_PROTOBUF_VALUE", "metadata.k"]);
  });
});

describe("an unknown field inside a Part (content the evidence commits to)", () => {
  it("is skipped and kept apart with its byte offset and path, not a fault", () => {
    const v = decoded(cat(ID, status(3, len(2, agentMessage(textPart("a", vint(9, 1)))))));
    expect(toPlain((v as { value: never }).value)).toMatchObject({ status: { message: { parts: [{ text: "a" }] } } });
    expect(unseenIn(v)).toEqual({
      fields: [{ field: 9, wireType: "VARINT", owner: "Part", path: "status.message.parts[0]", offset: 21 }],
      count: 1,
    });
    expect(unseenIn(decoded(cat(ID, status(3, len(2, agentMessage(textPart("a")))))))).toBeUndefined();
  });
});

describe("gRPC stream framing", () => {
  const first = len(1, cat(ID, str(2, "c1"), status(1)));
  const done = len(3, cat(str(1, "t1"), str(2, "c1"), status(3)));

  it("folds StreamResponse messages like an SSE stream", () => {
    const v = decoded(cat(frame(first), frame(done)));
    expect(isFoldedStream(v)).toBe(true);
    if (!isFoldedStream(v) || v.kind !== "task") throw new Error("not a Task stream");
    expect(v.framing).toBe("grpc");
    expect(v.events).toBe(2);
    expect(toPlain(v.task)).toMatchObject({ id: "t1", status: { state: "TASK_STATE_COMPLETED" } });
  });

  it("a compressed frame", () => {
    const f = fault(cat(frame(first), frame(done, 1)));
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_GRPC_COMPRESSED", 5 + first.length, "event[2]"]);
  });

  it("a 2 GiB length prefix", () => {
    const f = fault(cat(frame(first), [0, 0x80, 0, 0, 0], done));
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_PROTOBUF_TOO_LARGE", 6 + first.length, "event[2]"]);
  });

  it("a frame cut off", () => {
    const f = fault(cat(frame(first), frame(done).slice(0, 8)));
    expect([f.code, f.offset, f.path]).toEqual(["INPUT_STREAM_TRUNCATED", 6 + first.length, "event[2]"]);
  });

  it("a fault inside a frame names the offset in the whole stream", () => {
    const bad = len(3, cat(str(1, "t1"), str(2, "c1"), status(99)));
    const f = fault(cat(frame(first), frame(bad)));
    expect([f.code, f.path]).toEqual(["INPUT_PROTOBUF_ENUM", "event[2].statusUpdate.status.state"]);
    expect(f.offset).toBe(5 + first.length + 5 + 13);
  });

  it.each([
    [
      "a raw field given twice",
      cat(ID, status(3, len(2, agentMessage(cat(len(2, [1]), len(2, [2])))))),
      "INPUT_PROTOBUF_DUPLICATE",
      21,
    ],
    ["a truncated varint", cat(ID, len(3, [0x08, 0x83])), "INPUT_PROTOBUF_MALFORMED", 7],
    ["a wrong wire type", cat(ID, vint(3, 1), status(3)), "INPUT_PROTOBUF_MALFORMED", 4],
    ["a compressed frame", cat(frame(first), frame(done, 1)), "INPUT_GRPC_COMPRESSED", 5 + first.length],
    [
      "a 2 GiB length prefix",
      cat(frame(first), [0, 0x80, 0, 0, 0], done),
      "INPUT_PROTOBUF_TOO_LARGE",
      6 + first.length,
    ],
  ])("%s: verify exits 2 with the code and the byte offset", (_, bytes, code, offset) => {
    const report = verify({ inputs: [{ source: "in.binpb", data: Uint8Array.from(bytes) }] });
    const input = report.inputs[0];
    if (!input || !isFailedInput(input)) throw new Error("the input verified; an input error was expected");
    expect([input.exitCode, report.policy.exitCode, input.error.code]).toEqual([2, 2, code]);
    expect(input.error.message).toContain(`at byte ${offset}`);
  });

  it("is an input error (exit 2) naming the input", () => {
    const report = verify({ inputs: [{ source: "s.grpc", data: Uint8Array.from(frame(first, 1)) }] });
    const input = report.inputs[0];
    expect(input && isFailedInput(input)).toBe(true);
    expect(report.policy.exitCode).toBe(2);
    expect(JSON.stringify(input)).toMatch(/INPUT_GRPC_COMPRESSED/);
  });
});

describe("detection by content", () => {
  it("JSON that starts with a line feed is still JSON, and text is never decoded as protobuf", () => {
    const v = toInputValue(Uint8Array.from(Buffer.from('\n{"id":"t1","status":{"state":"TASK_STATE_COMPLETED"}}')));
    expect(v.ok && !isDecodedDocument(v.value) && !isFoldedStream(v.value)).toBe(true);
    const bad = toInputValue(Uint8Array.from(Buffer.from("\nnot json")));
    expect(bad.ok ? "ok" : bad.code).toMatch(/^JSON_/);
  });
});
