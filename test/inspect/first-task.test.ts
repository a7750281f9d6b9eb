/**
 * `inspect --first-task FILE`: SendMessage's first response, read exactly as `verify --first-task`
 * reads it (JSON or binary, a Task or a Message). What verify shows of it, inspect shows: a binary
 * file's decoding notes led by the flag, an unknown field it carries; a file that cannot be used
 * exits 2 with one line naming the flag and the file, as verify's does. `verify --explain` passes
 * the flag on to the explanation it prints.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const VECTORS = join(REPO_ROOT, "vectors");
const grpc = (file: string) => join(VECTORS, "valid-binding-grpc-task", file);
const GRPC_ARGS = ["--trust", grpc("trust.json"), "--first-task", grpc("first.binpb"), grpc("input.binpb")];

/** Field 99, wire type VARINT, value 1, after the response's last field: outside committed content. */
const UNKNOWN_AT_END = [0x98, 0x06, 0x01];

/** The capture's two Tasks as two files: the terminal Task, and the first response for --first-task. */
function splitCapture(): { final: string; first: string; capture: string; trust: string } {
  const capture = join(VECTORS, "valid-capture", "input.json");
  const value = JSON.parse(readFileSync(capture, "utf8"));
  return {
    final: tempFile("final.json", JSON.stringify({ finalTask: value.finalTask })),
    first: tempFile("first.json", JSON.stringify(value.firstTask)),
    capture,
    trust: join(VECTORS, "valid-capture", "trust.json"),
  };
}

async function notesOf(args: readonly string[]): Promise<{ inspect: string[]; verify: string[] }> {
  const explained = await runCli(["inspect", "--format", "json", "--all", ...args]);
  expect([explained.code, explained.stderr]).toEqual([0, ""]);
  const verified = await runCli(["verify", "--format", "json", ...args]);
  expect(verified.code).toBe(0);
  return {
    inspect: JSON.parse(explained.stdout).notes.items,
    verify: JSON.parse(verified.stdout).inputs[0].notes,
  };
}

describe("inspect --first-task", () => {
  it("a binary SendMessageResponse: its decoding note is listed, led by the flag, as verify lists it", async () => {
    const notes = await notesOf(GRPC_ARGS);
    expect(notes.inspect).toEqual([
      "input is a binary protobuf Task (gRPC GetTask answer)",
      "--first-task: input is a binary protobuf SendMessageResponse (gRPC SendMessage answer)",
    ]);
    expect(notes.inspect).toEqual(notes.verify);
    const text = await runCli(["inspect", ...GRPC_ARGS]);
    expect(text.stdout).toContain(
      "\nNotes\n  input is a binary protobuf Task (gRPC GetTask answer)\n  --first-task: input is a binary protobuf SendMessageResponse (gRPC SendMessage answer)\n",
    );
    // Without the flag the note is not there: it comes from the file given.
    const without = await runCli(["inspect", "--trust", grpc("trust.json"), grpc("input.binpb")]);
    expect(without.code).toBe(0);
    expect(without.stdout).not.toContain("--first-task");
  });

  it("an unknown field the binary file carries outside committed content: noted as ignored, as verify notes it", async () => {
    const bytes = readFileSync(grpc("first.binpb"));
    const first = tempFile("first.binpb", Uint8Array.from([...bytes, ...UNKNOWN_AT_END]));
    const notes = await notesOf(["--trust", grpc("trust.json"), "--first-task", first, grpc("input.binpb")]);
    expect(notes.inspect).toContain(
      `--first-task: unknown protobuf field 99 (wire type VARINT) in SendMessageResponse at $ (byte ${bytes.length}) was ignored`,
    );
    expect(notes.inspect).toEqual(notes.verify);
  });

  it("a JSON first Task: read (no note), and verify --explain prints the same explanation after its report", async () => {
    const { final, first, trust } = splitCapture();
    const args = ["--trust", trust, "--first-task", first, final];
    const explained = await runCli(["inspect", ...args]);
    expect([explained.code, explained.stderr]).toEqual([0, ""]);
    expect(explained.stdout).not.toContain("--first-task");
    const report = await runCli(["verify", ...args]);
    const both = await runCli(["verify", "--explain", ...args]);
    expect([report.code, both.code]).toEqual([0, 0]);
    expect(both.stdout).toBe(`${report.stdout}\n${explained.stdout}`);
    const binary = await runCli(["verify", "--explain", ...GRPC_ARGS]);
    expect(binary.stdout).toBe(
      `${(await runCli(["verify", ...GRPC_ARGS])).stdout}\n${(await runCli(["inspect", ...GRPC_ARGS])).stdout}`,
    );
    expect(binary.stdout).toContain("\n  --first-task: input is a binary protobuf SendMessageResponse");
  });

  it("beside a capture that carries its own first response: exit 2, INPUT_CONFLICTING_TASK, as verify", async () => {
    const { first, capture, trust } = splitCapture();
    const r = await runCli(["inspect", "--trust", trust, "--first-task", first, capture]);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toBe(
      `a2a-evidence: ${capture}: INPUT_CONFLICTING_TASK: the input already carries the first response; --first-task would replace what it observed\n`,
    );
    const v = await runCli(["verify", "-q", "--trust", trust, "--first-task", first, capture]);
    expect(v.code).toBe(2);
  });
});

describe("inspect --first-task with a file that cannot be used: exit 2, one line naming the flag and the file", () => {
  const { final, trust } = splitCapture();
  it.each<[string, string | undefined, RegExp]>([
    ["a duplicate member", '{"id": "t", "id": "u"}', /^--first-task .*first\.json: JSON_DUPLICATE_MEMBER: /],
    ["not JSON", "[1,", /^--first-task .*first\.json: JSON_SYNTAX: /],
    ["neither a Task nor a Message", '{"hello": "world"}', /^--first-task .*first\.json: INPUT_[A-Z_]+: /],
    ["a missing file", undefined, /^--first-task \/nonexistent\/first\.json: INPUT_UNREADABLE: no such file$/],
  ])("%s", async (_, content, line) => {
    const path = content === undefined ? "/nonexistent/first.json" : tempFile("first.json", content);
    const r = await runCli(["inspect", "--trust", trust, "--first-task", path, final]);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr.endsWith("\n")).toBe(true);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr.trimEnd().replace(/^a2a-evidence: /, "")).toMatch(line);
    // verify names it the same way, a missing file too.
    const v = await runCli(["verify", "-q", "--trust", trust, "--first-task", path, final]);
    expect([v.code, v.stderr]).toEqual([2, r.stderr]);
  });

  it("usage: --first-task given twice, or standard input twice, exits 2", async () => {
    const twice = await runCli(["inspect", "--first-task", final, "--first-task", final, final]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/--first-task/);
    const stdin = await runCli(["inspect", "--first-task", "-", "-"]);
    expect([stdin.code, stdin.stderr]).toEqual([2, "a2a-evidence: standard input ('-') can be given only once\n"]);
  });
});
