/**
 * The one line bad input gets (contract: exit 2, naming the file and the path or byte offset):
 * a binary that does not decode says its byte offset and its field path once each, and a file that
 * cannot be read gets the same line from verify and from inspect, whichever flag names it, and
 * from verify-card and merge for their own files.
 */
import { spawnSync } from "node:child_process";
import { closeSync, ftruncateSync, mkdtempSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const VECTOR = join(REPO_ROOT, "vectors", "valid-binding-grpc-task");
const INPUT = join(VECTOR, "input.binpb");
const TRUST = join(VECTOR, "trust.json");
const RUNNER = join(REPO_ROOT, "test", "helpers", "run-cli.ts");
const validateReport = new Ajv2020({ strict: true }).compile(
  JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "report.schema.json"), "utf8")),
);

// A Task's id (field 1, "t1") fills bytes 0..3; what follows is the fault.
const ID = [0x0a, 0x02, 0x74, 0x31];
const STATUS = [0x1a, 0x02, 0x08, 0x03]; // status { state: 3 }

/** [what, bytes, CODE: message (at path)] */
const FAULTS: readonly (readonly [string, number[], string])[] = [
  [
    "a truncated varint",
    [...ID, 0x1a, 0x02, 0x08, 0x83],
    "INPUT_PROTOBUF_MALFORMED: at byte 7: a varint is cut off by the end of its message (at status.state)",
  ],
  [
    "a wrong wire type",
    [...ID, 0x18, 0x01],
    "INPUT_PROTOBUF_MALFORMED: at byte 4: field status (3) has wire type VARINT; its type needs LEN (at status)",
  ],
  [
    "an unknown field outside content with a wire type proto3 does not use (a group)",
    [...ID, ...STATUS, 0x7b],
    "INPUT_PROTOBUF_MALFORMED: at byte 8: field 15 has wire type 3, which proto3 messages do not use (groups or reserved) (at $)",
  ],
];

/** The line on stderr and the exit code: inspect's, and verify's with the report not on stdout. */
async function lines(args: string[]): Promise<{ inspect: [number, string]; verify: [number, string] }> {
  const i = await runCli(["inspect", ...args]);
  const v = await runCli(["verify", "-q", ...args]);
  expect(i.stdout).toBe("");
  expect(v.stdout).toBe("");
  return { inspect: [i.code, i.stderr], verify: [v.code, v.stderr] };
}

function expectOnce(line: string): void {
  expect(line.match(/\(at /g) ?? []).toHaveLength(1);
  expect(line.match(/at byte /g) ?? []).toHaveLength(1);
}

describe("a binary that does not decode: one line, the byte offset and the field path each said once", () => {
  it.each(FAULTS)("%s, as the input", async (_, bytes, said) => {
    const file = tempFile("bad.binpb", Uint8Array.from(bytes));
    const want = `a2a-evidence: ${file}: ${said}\n`;
    expectOnce(want);
    expect(await lines([file])).toEqual({ inspect: [2, want], verify: [2, want] });
    // The text report on stdout says it once too (its lines wrapped at 100 columns, joined here).
    const text = await runCli(["verify", file]);
    expect([text.code, text.stderr]).toEqual([2, ""]);
    const [code, rest] = said.split(/: (.*)/s) as [string, string];
    const [message, path] = rest.split(/ \(at (.*)\)$/) as [string, string];
    const joined = text.stdout.replace(/\n +/g, " ");
    expect(joined).toBe(
      `${file} error ${code}: ${message} at ${path} exit 2: the input could not be verified: ${code}\n`,
    );
  });

  it.each(FAULTS)("%s, as --first-task", async (_, bytes, said) => {
    const file = tempFile("first.binpb", Uint8Array.from(bytes));
    const want = `a2a-evidence: --first-task ${file}: ${said}\n`;
    expect(await lines(["--trust", TRUST, "--first-task", file, INPUT])).toEqual({
      inspect: [2, want],
      verify: [2, want],
    });
  });

  it("as --task and as --interim, naming the flag and the file (an --interim file by its position)", async () => {
    const [, bytes, said] = FAULTS[1] as (typeof FAULTS)[number];
    const file = tempFile("bad.binpb", Uint8Array.from(bytes));
    const task = `a2a-evidence: --task ${file}: ${said}\n`;
    expect(await lines(["--task", file, INPUT])).toEqual({ inspect: [2, task], verify: [2, task] });
    const [code, rest] = said.split(/: (.*)/s) as [string, string];
    const interim = `a2a-evidence: --interim ${file}: ${code}: --interim[0]: ${rest}\n`;
    expect(await lines(["--interim", file, INPUT])).toEqual({
      inspect: [2, interim],
      verify: [2, interim],
    });
  });

  it("a gRPC frame's fault names its byte and its message once each", async () => {
    const file = tempFile("bad.grpc", Uint8Array.from([1, 0, 0, 0, 0]));
    const want = `a2a-evidence: ${file}: INPUT_GRPC_COMPRESSED: at byte 0: message 1 is compressed (flag 1); only uncompressed messages are read (at event[1])\n`;
    expectOnce(want);
    expect(await lines([file])).toEqual({ inspect: [2, want], verify: [2, want] });
  });

  it("look-alike: a valid binary Task beside a valid --first-task decodes; no error line", async () => {
    const i = await runCli(["inspect", "--trust", TRUST, "--first-task", join(VECTOR, "first.binpb"), INPUT]);
    expect([i.code, i.stderr]).toEqual([0, ""]);
    const v = await runCli(["verify", "-q", "--trust", TRUST, "--first-task", join(VECTOR, "first.binpb"), INPUT]);
    expect([v.code, v.stderr]).toEqual([0, ""]);
  });
});

describe("a file that cannot be read: verify and inspect say the same line, exit 2", () => {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-unreadable-"));
  const missing = join(dir, "missing.json");
  const folder = join(dir, "folder");
  mkdirSync(join(folder, "inner"), { recursive: true });
  const UNREADABLE: readonly (readonly [string, string, string])[] = [
    ["a missing file", missing, "no such file"],
    ["a directory", folder, "is a directory"],
  ];

  it("a missing file as the input", async () => {
    const want = `a2a-evidence: ${missing}: INPUT_UNREADABLE: no such file\n`;
    expect(await lines([missing])).toEqual({ inspect: [2, want], verify: [2, want] });
  });

  it("a directory as the input: inspect reads one file; verify walks it and says what it holds", async () => {
    const i = await runCli(["inspect", folder]);
    expect([i.code, i.stdout, i.stderr]).toEqual([
      2,
      "",
      `a2a-evidence: ${folder}: INPUT_UNREADABLE: is a directory\n`,
    ]);
    const v = await runCli(["verify", "-q", folder]);
    expect([v.code, v.stdout, v.stderr]).toEqual([
      2,
      "",
      `a2a-evidence: ${folder}: INPUT_UNREADABLE: holds no *.json, *.ndjson, *.sse, *.binpb or *.grpc file\n`,
    ]);
  });

  it("a list file (@FILE) that is missing, names no input or names stdin: one line, naming it once; exit 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-lists-"));
    const blank = join(dir, "blank.txt");
    writeFileSync(blank, "# nothing\n\n");
    const dash = join(dir, "dash.txt");
    writeFileSync(dash, "-\n");
    for (const [list, reason] of [
      [join(dir, "missing.txt"), "no such file"],
      [blank, "names no input"],
      [dash, "names standard input ('-'); give '-' as an argument instead"],
    ] as const) {
      const v = await runCli(["verify", "-q", `@${list}`]);
      expect([v.code, v.stdout, v.stderr]).toEqual([2, "", `a2a-evidence: @${list}: INPUT_UNREADABLE: ${reason}\n`]);
    }
  });

  it("a directory that holds no input: one line, naming it once, from every command; exit 2", async () => {
    const empty = mkdtempSync(join(tmpdir(), "a2a-evidence-empty-"));
    const holdsNone = "holds no *.json, *.ndjson, *.sse, *.binpb or *.grpc file";
    const want = `a2a-evidence: ${empty}: INPUT_UNREADABLE: ${holdsNone}\n`;
    const quiet = await runCli(["verify", "-q", empty]);
    expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([2, "", want]);
    const json = await runCli(["verify", "--format", "json", empty]);
    expect([json.code, json.stderr]).toEqual([2, want]);
    const report = JSON.parse(json.stdout);
    expect(report.inputs).toEqual([
      { source: empty, error: { code: "INPUT_UNREADABLE", message: holdsNone }, exitCode: 2 },
    ]);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    // The text report on stdout says it once, and nothing repeats it on stderr.
    const text = await runCli(["verify", empty]);
    expect([text.code, text.stderr]).toEqual([2, ""]);
    expect(text.stdout.split(empty)).toHaveLength(2);
    expect(text.stdout).toContain(`  error INPUT_UNREADABLE: ${holdsNone}\n`);
    // inspect takes one file: a directory is refused as such, in the same form.
    const inspect = await runCli(["inspect", empty]);
    expect([inspect.code, inspect.stdout, inspect.stderr]).toEqual([
      2,
      "",
      `a2a-evidence: ${empty}: INPUT_UNREADABLE: is a directory\n`,
    ]);
  });

  it("a directory whose only files are the run's configuration, or are not inputs: named once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-config-"));
    const trust = join(dir, "trust.json");
    writeFileSync(trust, readFileSync(TRUST));
    const config = await runCli(["verify", "-q", "--trust", trust, dir]);
    expect([config.code, config.stderr]).toEqual([
      2,
      `a2a-evidence: ${dir}: INPUT_UNREADABLE: holds no *.json, *.ndjson, *.sse, *.binpb or *.grpc file besides the files this run reads as its configuration\n`,
    ]);
    const unknown = await runCli(["verify", "-q", "--skip-unknown", dir]);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      `a2a-evidence: ${dir}: INPUT_UNREADABLE: holds no A2A input (its 1 *.json, *.ndjson, *.sse, *.binpb or *.grpc file(s) are not inputs)\n`,
    ]);
  });

  for (const [flag, named, position] of [
    ["--task", "--task", ""],
    ["--first-task", "--first-task", ""],
    ["--interim", "--interim", "--interim[0]: "],
    ["--trust", "trust file", ""],
  ] as const) {
    it.each(UNREADABLE)(`%s as ${flag}`, async (_, path, reason) => {
      const want = `a2a-evidence: ${named} ${path}: INPUT_UNREADABLE: ${position}${reason}\n`;
      expect(await lines([flag, path, INPUT])).toEqual({ inspect: [2, want], verify: [2, want] });
      // The text report says it once, on stdout, as the line's `error:`.
      const text = await runCli(["verify", flag, path, INPUT]);
      expect([text.code, text.stdout, text.stderr]).toEqual([2, want.replace(/^a2a-evidence:/, "error:"), ""]);
    });
  }

  it.each(UNREADABLE)("%s as --cosignatures: verify and inspect say the same line", async (_, path, reason) => {
    const want = `a2a-evidence: --cosignatures ${path}: INPUT_UNREADABLE: ${reason}\n`;
    expect(await lines(["--cosignatures", path, INPUT])).toEqual({ inspect: [2, want], verify: [2, want] });
    // Read before the run opens: no report, in any format; the line is on stderr.
    const text = await runCli(["verify", "--cosignatures", path, INPUT]);
    expect([text.code, text.stdout, text.stderr]).toEqual([2, "", want]);
  });

  it.each(UNREADABLE)("%s as --checkpoints (verify's flag): the same line", async (_, path, reason) => {
    const want = `a2a-evidence: --checkpoints ${path}: INPUT_UNREADABLE: ${reason}\n`;
    const seen = tempFile("seen.json", "[]"); // the first --checkpoints file is read; the second is named
    for (const format of ["text", "json"]) {
      const r = await runCli(["verify", "--format", format, "--checkpoints", seen, "--checkpoints", path, INPUT]);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, "", want]);
    }
  });

  it.each(UNREADABLE)(
    "%s as --resolved (verify's flag): named by the flag, led by its position",
    async (_, path, reason) => {
      const want = `a2a-evidence: --resolved ${path}: INPUT_UNREADABLE: --resolved[1]: ${reason}\n`;
      const args = [
        "--resolved",
        `https://a.example/x=${TRUST}`,
        "--resolved",
        `https://b.example/y?z=1=${path}`,
        INPUT,
      ];
      const quiet = await runCli(["verify", "-q", ...args]);
      expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([2, "", want]);
      const text = await runCli(["verify", ...args]);
      expect([text.code, text.stdout, text.stderr]).toEqual([2, want.replace(/^a2a-evidence:/, "error:"), ""]);
      const json = await runCli(["verify", "--format", "json", ...args]);
      expect([json.code, json.stderr, JSON.parse(json.stdout).error]).toEqual([
        2,
        want,
        { code: "INPUT_UNREADABLE", message: `--resolved[1]: ${reason}`, source: "--resolved" },
      ]);
      expect(validateReport(JSON.parse(json.stdout)), JSON.stringify(validateReport.errors)).toBe(true);
    },
  );

  it("the JSON report names the flag as the error's source and the reason as its message", async () => {
    const r = await runCli(["verify", "--format", "json", "--first-task", missing, INPUT]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual({
      code: "INPUT_UNREADABLE",
      message: "no such file",
      source: "--first-task",
    });
  });

  it("look-alike: the same flags naming readable files are read; no INPUT_UNREADABLE", async () => {
    const args = ["--trust", TRUST, "--first-task", join(VECTOR, "first.binpb"), INPUT];
    for (const command of ["inspect", "verify"]) {
      const r = await runCli([command, ...args]);
      expect([command, r.code, r.stderr]).toEqual([command, 0, ""]);
      expect(r.stdout).not.toContain("INPUT_UNREADABLE");
    }
  });

  it("look-alike: readable --cosignatures, --checkpoints and --resolved files are read; no INPUT_UNREADABLE", async () => {
    const empty = tempFile("empty.json", "[]");
    const given = ["--trust", TRUST, "--cosignatures", empty];
    const i = await runCli(["inspect", ...given, INPUT]);
    expect([i.code, i.stderr]).toEqual([0, ""]);
    const more = ["--checkpoints", empty, "--resolved", `https://a.example/x=${TRUST}`];
    const v = await runCli(["verify", "--format", "json", ...given, ...more, INPUT]);
    expect([v.code, v.stderr]).toEqual([0, ""]);
    expect(v.stdout).not.toContain("INPUT_UNREADABLE");
  });
});

describe("the second --interim file: named by its own path and position, by verify and inspect alike", () => {
  const capture = join(REPO_ROOT, "vectors", "valid-lifecycle-interim-earlier-checkpoint", "input.json");
  const task = JSON.parse(readFileSync(capture, "utf8"));
  const first = tempFile("interim-0.json", JSON.stringify(task.interimBundles[0]));
  delete task.interimBundles;
  const terminal = tempFile("terminal.json", JSON.stringify(task));

  it("one that is no interim record, and one that cannot be read", async () => {
    const missing = join(mkdtempSync(join(tmpdir(), "a2a-evidence-interim-")), "missing.json");
    for (const [second, code, said] of [
      [
        terminal,
        "INPUT_INTERIM_NO_BUNDLE",
        "--interim[1]: --interim takes an interim bundle or the paused Task that carries one, not a capture (at $)",
      ],
      [missing, "INPUT_UNREADABLE", "--interim[1]: no such file"],
    ] as const) {
      const args = ["--interim", first, "--interim", second, terminal];
      const want = `a2a-evidence: --interim ${second}: ${code}: ${said}\n`;
      expect(await lines(args)).toEqual({ inspect: [2, want], verify: [2, want] });
      // The report's error is the error alone: the position is in its message, not a member of its own.
      const json = await runCli(["verify", "--format", "json", ...args]);
      const report = JSON.parse(json.stdout);
      expect([json.code, json.stderr]).toEqual([2, want]);
      expect(report.error).toEqual({
        code,
        message: said.replace(/ \(at \$\)$/, ""),
        ...(code === "INPUT_INTERIM_NO_BUNDLE" ? { path: "$" } : {}),
        source: "--interim",
      });
      expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    }
  });
});

describe("verify-card and merge: a file that cannot be used gets verify's line for it, exit 2", () => {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-own-files-"));
  const missing = join(dir, "missing.json");
  const folder = join(dir, "folder");
  mkdirSync(folder);
  /** A file of `size` bytes that holds nothing: refused by its size before a byte of it is read. */
  const sized = (name: string, size: number) => {
    const path = join(dir, name);
    const fd = openSync(path, "w");
    ftruncateSync(fd, size);
    closeSync(fd);
    return path;
  };
  const overInput = sized("over-16-mib.json", 16 * 1024 * 1024 + 1);
  const overReport = sized("over-256-mib.json", 256 * 1024 * 1024 + 1);
  const duplicate = tempFile("duplicate.json", '{"a":1,"a":2}');
  const card = tempFile(
    "card.json",
    JSON.stringify({
      name: "x",
      version: "1",
      supportedInterfaces: [{ url: "https://a.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      capabilities: {},
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [],
    }),
  );
  const UNREADABLE: readonly (readonly [string, string, string])[] = [
    ["a missing file", missing, "no such file"],
    ["a file over the input limit", overInput, "16777217 bytes exceeds the 16777216-byte input limit"],
  ];

  /** The exit code and stderr of a command whose stdout must stay empty. */
  async function line(args: string[]): Promise<[number, string]> {
    const r = await runCli(args);
    expect(r.stdout).toBe("");
    return [r.code, r.stderr];
  }

  it.each(UNREADABLE)("%s as the card: the line verify says for it as an input", async (_, path, reason) => {
    const want = `a2a-evidence: ${path}: INPUT_UNREADABLE: ${reason}\n`;
    expect(await line(["verify", "-q", path])).toEqual([2, want]);
    expect(await line(["verify-card", path])).toEqual([2, want]);
    expect(await line(["verify-card", "--format", "json", path])).toEqual([2, want]);
  });

  it("a directory as the card", async () => {
    expect(await line(["verify-card", folder])).toEqual([
      2,
      `a2a-evidence: ${folder}: INPUT_UNREADABLE: is a directory\n`,
    ]);
  });

  it.each([...UNREADABLE, ["a directory", folder, "is a directory"] as const])(
    "%s as verify-card's trust file: named as verify names it",
    async (_, path, reason) => {
      const want = `a2a-evidence: trust file ${path}: INPUT_UNREADABLE: ${reason}\n`;
      expect(await line(["verify", "-q", "--trust", path, INPUT])).toEqual([2, want]);
      expect(await line(["verify-card", "--trust", path, card])).toEqual([2, want]);
      const fromEnv = await runCli(["verify-card", card], { env: { A2A_EVIDENCE_TRUST: path } });
      expect([fromEnv.code, fromEnv.stdout, fromEnv.stderr]).toEqual([2, "", want]);
    },
  );

  it("standard input as both the card and the trust file: a usage error, as in verify and inspect", async () => {
    const want = "a2a-evidence: standard input ('-') can be given only once\n";
    expect(await line(["verify-card", "--trust", "-", "-"])).toEqual([2, want]);
    const fromEnv = await runCli(["verify-card", "-"], { env: { A2A_EVIDENCE_TRUST: "-" } });
    expect([fromEnv.code, fromEnv.stdout, fromEnv.stderr]).toEqual([2, "", want]);
    // Look-alike: the trust file alone from standard input is read from it (empty here), no usage error.
    const one = await runCli(["verify-card", "--trust", "-", card]);
    expect([one.code, one.stderr]).toEqual([
      2,
      "a2a-evidence: trust file stdin: TRUST_NOT_JSON: empty input: expected a JSON value (JSON_SYNTAX) (at $)\n",
    ]);
  });

  it("an invalid trust file: verify's line, its code and JSON path", async () => {
    const array = tempFile("trust.json", "[]");
    for (const [path, said] of [
      [duplicate, 'TRUST_NOT_JSON: duplicate member name "a" (JSON_DUPLICATE_MEMBER) (at a)'],
      [array, "TRUST_SCHEMA: the trust file must be a JSON object (at $)"],
    ] as const) {
      const want = `a2a-evidence: trust file ${path}: ${said}\n`;
      expect(await line(["verify", "-q", "--trust", path, INPUT])).toEqual([2, want]);
      expect(await line(["verify-card", "--trust", path, card])).toEqual([2, want]);
      expect(await line(["verify-card", "--format", "json", "--trust", path, card])).toEqual([2, want]);
    }
  });

  it("a card that is not strict JSON or not a card: named once, with its code and JSON path", async () => {
    const array = tempFile("card.json", "[]");
    for (const [path, said] of [
      [duplicate, 'CARD_NOT_JSON: duplicate member name "a" (JSON_DUPLICATE_MEMBER) (at a)'],
      [array, "CARD_NOT_JSON: an Agent Card must be a JSON object (at $)"],
      [tempFile("card.json", '{"name":5}'), "CARD_MALFORMED: expected a string (at name)"],
    ] as const) {
      expect(await line(["verify-card", path])).toEqual([2, `a2a-evidence: ${path}: ${said}\n`]);
    }
  });

  it.each([...UNREADABLE.slice(0, 1), ["a directory", folder, "is a directory"] as const])(
    "%s as a report to merge: the line verify says for it as an input",
    async (_, path, reason) => {
      const want = `a2a-evidence: ${path}: INPUT_UNREADABLE: ${reason}\n`;
      expect(await line(["inspect", path])).toEqual([2, want]);
      expect(await line(["merge", path])).toEqual([2, want]);
      expect(await line(["merge", "--format", "json", path])).toEqual([2, want]);
    },
  );

  it("a report over merge's limit (256 MiB), and one within it that is not strict JSON", async () => {
    expect(await line(["merge", overReport])).toEqual([
      2,
      `a2a-evidence: ${overReport}: INPUT_UNREADABLE: 268435457 bytes exceeds the 268435456-byte input limit\n`,
    ]);
    const want = `a2a-evidence: ${duplicate}: JSON_DUPLICATE_MEMBER: duplicate member name "a" (at a)\n`;
    expect(await line(["verify", "-q", duplicate])).toEqual([2, want]);
    expect(await line(["merge", "--format", "json", duplicate])).toEqual([2, want]);
  });

  it("strict JSON that is no report of a2a-evidence: INPUT_UNKNOWN_SHAPE, with the JSON path", async () => {
    for (const [text, said] of [
      ["[]", "not an object (at $)"],
      ['{"x":1}', 'unknown member "x" (at x)'],
    ] as const) {
      const path = tempFile("report.json", text);
      expect(await line(["merge", path])).toEqual([
        2,
        `a2a-evidence: ${path}: INPUT_UNKNOWN_SHAPE: not a JSON report of a2a-evidence: ${said}\n`,
      ]);
    }
  });

  it("standard input is `stdin`, as verify names it: a trust file, a card and a report", () => {
    const run = (args: string[]) => {
      const r = spawnSync(process.execPath, ["--import", "tsx", RUNNER, ...args], {
        input: "",
        encoding: "utf8",
        cwd: REPO_ROOT,
      });
      return [r.status, r.stdout, r.stderr];
    };
    const trust =
      "a2a-evidence: trust file stdin: TRUST_NOT_JSON: empty input: expected a JSON value (JSON_SYNTAX) (at $)\n";
    expect(run(["verify", "-q", "--trust", "-", INPUT])).toEqual([2, "", trust]);
    expect(run(["verify-card", "--trust", "-", card])).toEqual([2, "", trust]);
    expect(run(["verify-card", "-"])).toEqual([
      2,
      "",
      "a2a-evidence: stdin: CARD_NOT_JSON: empty input: expected a JSON value (JSON_SYNTAX) (at $)\n",
    ]);
    expect(run(["merge", "-"])).toEqual([
      2,
      "",
      "a2a-evidence: stdin: JSON_SYNTAX: empty input: expected a JSON value (at $)\n",
    ]);
  }, 120_000);

  it("a report that cannot be written: the line verify and merge say", async () => {
    const output = join(dir, "no", "such", "folder", "out.json");
    const want = `a2a-evidence: cannot write ${output}: ENOENT\n`;
    expect(await line(["verify-card", "-o", output, card])).toEqual([2, want]);
    expect(await line(["verify", "-o", output, INPUT])).toEqual([2, want]);
  });

  it("look-alike: a readable card, trust file and report are read; no error line", async () => {
    const r = await runCli(["verify-card", "--trust", TRUST, card]);
    expect([r.code, r.stderr]).toEqual([3, ""]);
    const report = tempFile("report.json", (await runCli(["verify", "--format", "json", INPUT])).stdout);
    const m = await runCli(["merge", "-q", report]);
    expect([m.code, m.stderr]).toEqual([3, ""]);
  });
});
