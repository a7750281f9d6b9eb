import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import type * as VectorsModule from "../../src/cli/vectors.js";
import {
  registerVectorsCommand,
  renderVectorsJson,
  runVectorFolder,
  runVectors,
  runVectorsCommand,
  shippedVectorsDir,
  type VectorsReport,
} from "../../src/cli/vectors.js";
import { PROPERTY_NAMES, isFailedInput } from "../../src/report/model.js";
import { verify } from "../../src/verify.js";
import { buildExchange } from "../../producer/exchange.js";
import { jsonText } from "../../producer/json-text.js";
import { capturedIo } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const SHIPPED = join(REPO_ROOT, "vectors");
const shippedNames = readdirSync(SHIPPED)
  .filter((n) => existsSync(join(SHIPPED, n, "expected.json")))
  .sort();
const validateReport = new Ajv2020({ strict: true, allErrors: true }).compile(
  JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "vectors-report.schema.json"), "utf8")),
);

const scratch = mkdtempSync(join(tmpdir(), "a2a-evidence-vectors-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let folders = 0;

/** A new folder of vectors under the scratch folder. */
function newRoot(): string {
  const dir = join(scratch, `root-${++folders}`);
  mkdirSync(dir);
  return dir;
}

/** A copy of a shipped vector, with files replaced (a null removes the file). */
function copyVector(name: string, root: string, changes: Record<string, string | null> = {}, as = name): string {
  const dir = join(root, as);
  cpSync(join(SHIPPED, name), dir, { recursive: true });
  for (const [file, text] of Object.entries(changes)) {
    if (text === null) rmSync(join(dir, file));
    else writeFileSync(join(dir, file), text);
  }
  return dir;
}

function expectedOf(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(SHIPPED, name, "expected.json"), "utf8"));
}

async function run(dirs: string[], format: "text" | "json" = "text") {
  const { io, out } = capturedIo();
  const code = await runVectorsCommand(dirs, { format, color: true }, io);
  return { code, ...out };
}

function oneLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0] as string;
}

describe("a2a-evidence vectors", () => {
  it("runs the shipped vectors by default: every one matches, exit 0", async () => {
    const r = await run([]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const rows = r.stdout.trim().split("\n");
    expect(rows[0]).toMatch(/^vector\s+result$/);
    expect(rows.slice(1, -1).map((row) => row.split(/\s+/))).toEqual(shippedNames.map((n) => [n, "match"]));
    expect(rows.at(-1)).toBe(`${shippedNames.length} vectors: ${shippedNames.length} match, 0 mismatch, 0 errors`);
    expect(shippedVectorsDir()).toBe(SHIPPED);
  });

  it("runs through the command registered on a program", async () => {
    let exit = -1;
    const { io, out } = capturedIo();
    const program = new Command().exitOverride();
    registerVectorsCommand(program, { io, setExit: (c) => void (exit = c) });
    await program.parseAsync(
      ["vectors", "--format", "json", join(SHIPPED, "valid-minimal"), join(SHIPPED, "valid-stream-ndjson")],
      { from: "user" },
    );
    expect(exit).toBe(0);
    expect((JSON.parse(out.stdout) as VectorsReport).vectors.map((v) => [v.name, v.result])).toEqual([
      ["valid-minimal", "match"],
      ["valid-stream-ndjson", "match"],
    ]);
  });

  it("--format json validates against schemas/vectors-report.schema.json, for matches, mismatches and errors alike", async () => {
    const root = newRoot();
    copyVector("valid-capture", root);
    copyVector(
      "valid-capture",
      root,
      { "expected.json": JSON.stringify({ ...expectedOf("valid-capture"), exitCode: 1 }) },
      "wrong-exit",
    );
    copyVector("valid-capture", root, { "expected.json": "{" }, "broken");
    const r = await run([root], "json");
    const report = JSON.parse(r.stdout) as VectorsReport;
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.vectors.map((v) => v.result)).toEqual(["error", "match", "mismatch"]);
    expect(report.summary).toEqual({ total: 3, match: 1, mismatch: 1, error: 1 });
    expect(report.exitCode).toBe(2);
    expect(r.code).toBe(2);
    const shipped = JSON.parse((await run([], "json")).stdout) as VectorsReport;
    expect(validateReport(shipped)).toBe(true);
    expect(renderVectorsJson(shipped)).toBe(renderVectorsJson(await runVectors([])));
  });

  it("the schema names every property a difference can be about", () => {
    const schema = JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "vectors-report.schema.json"), "utf8"));
    expect(schema.$defs.difference.properties.what.enum).toEqual([
      "exitCode",
      "evidenceLevel",
      "properties",
      ...PROPERTY_NAMES,
    ]);
  });

  it("the schema refuses a report that contradicts itself", () => {
    const match = { name: "v", path: "v", result: "match", differences: [] };
    const base = {
      vectorsReportVersion: 1,
      tool: { name: "a2a-evidence", version: "0" },
      summary: { total: 1, match: 1, mismatch: 0, error: 0 },
      exitCode: 0,
    };
    expect(validateReport({ ...base, vectors: [match] })).toBe(true);
    expect(
      validateReport({
        ...base,
        vectors: [{ ...match, differences: [{ what: "exitCode", expected: "0", got: "1" }] }],
      }),
    ).toBe(false);
    expect(validateReport({ ...base, vectors: [{ ...match, result: "mismatch" }] })).toBe(false);
    expect(validateReport({ ...base, vectors: [{ ...match, result: "error" }] })).toBe(false);
    expect(
      validateReport({
        ...base,
        vectors: [{ ...match, result: "mismatch", differences: [{ what: "trusted", expected: "PASS", got: "FAIL" }] }],
      }),
    ).toBe(false);
  });

  it("a deliberately wrong expected.json is a mismatch naming the property and the exit code, exit 1", async () => {
    const root = newRoot();
    const expected = expectedOf("neg-taskBinding-task-id");
    const properties = { ...(expected.properties as object), taskBinding: "PASS" };
    copyVector("neg-taskBinding-task-id", root, {
      "expected.json": JSON.stringify({ ...expected, properties, exitCode: 0 }),
    });
    const r = await run([root]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(
      /^neg-taskBinding-task-id {2}MISMATCH {2}taskBinding: expected PASS, got FAIL; exit code: expected 0, got 1$/m,
    );
    expect(r.stdout).toMatch(/^1 vector: 0 match, 1 mismatch, 0 errors$/m);
    const json = JSON.parse((await run([root], "json")).stdout) as VectorsReport;
    expect(json.vectors[0]!.differences).toEqual([
      { what: "taskBinding", expected: "PASS", got: "FAIL" },
      { what: "exitCode", expected: "0", got: "1" },
    ]);
  });

  it("a wrong evidence level, and a property it does not list, are compared as listed", async () => {
    const root = newRoot();
    const expected = expectedOf("valid-signed-record-only");
    const { externalRegistration: _omitted, ...others } = expected.properties as Record<string, string>;
    copyVector("valid-signed-record-only", root, {
      "expected.json": JSON.stringify({ ...expected, properties: others, evidenceLevel: "EXTERNALLY_REGISTERED" }),
    });
    const r = await run([root], "json");
    expect((JSON.parse(r.stdout) as VectorsReport).vectors[0]!.differences).toEqual([
      { what: "evidenceLevel", expected: "EXTERNALLY_REGISTERED", got: "SIGNED_RECORD" },
    ]);
    expect(r.code).toBe(1);
  });

  it("a malformed vector folder exits 2 with one clear line", async () => {
    const root = newRoot();
    const dir = copyVector("valid-minimal", root, { "expected.json": '{"exitCode": 0, "exitCode": 1}' });
    const r = await run([dir]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toBe(
      `a2a-evidence: vectors: ${dir}: expected.json: not strict JSON: duplicate member name "exitCode" at exitCode (JSON_DUPLICATE_MEMBER)`,
    );
    expect(r.stdout).toMatch(/^valid-minimal {2}ERROR {5}expected\.json: not strict JSON/m);
  });

  it("says what is wrong with a folder it cannot run", async () => {
    const cases: [string, Record<string, string | null>, string][] = [
      ["no-expected", { "expected.json": null }, "expected.json: no such file"],
      [
        "no-input",
        { "input.json": null },
        "no input file (input.json, input.sse, input.ndjson, input.binpb, input.grpc)",
      ],
      ["two-inputs", { "input.sse": "data: {}\n\n" }, "more than one input file (input.json, input.sse)"],
      ["expected-array", { "expected.json": "[]" }, "expected.json: not a JSON object"],
      [
        "exit-code",
        { "expected.json": '{"exitCode": 7, "properties": {}}' },
        "expected.json: exitCode must be 0, 1, 2 or 3",
      ],
      ["exit-code-text", { "expected.json": '{"exitCode": "0"}' }, "expected.json: exitCode must be 0, 1, 2 or 3"],
      [
        "properties-list",
        { "expected.json": '{"exitCode": 0, "properties": []}' },
        "expected.json: properties must be an object",
      ],
      [
        "unknown-property",
        { "expected.json": '{"exitCode": 0, "properties": {"trusted": "PASS"}}' },
        'expected.json: unknown property "trusted"',
      ],
      [
        "unknown-state",
        { "expected.json": '{"exitCode": 0, "properties": {"taskBinding": "OK"}}' },
        "expected.json: properties.taskBinding is not one of PASS, FAIL, NOT_PRESENT, NOT_CHECKED, INCONCLUSIVE",
      ],
      [
        "unknown-level",
        { "expected.json": '{"exitCode": 0, "evidenceLevel": "GOLD"}' },
        "expected.json: evidenceLevel must be one of NONE, SIGNED_RECORD, EXTERNALLY_REGISTERED, CONTINUITY_WITNESSED",
      ],
      ["args-object", { "args.json": "{}" }, "args.json: not a JSON array of arguments"],
      ["args-number", { "args.json": "[1]" }, "args.json[0]: not a string"],
      [
        "args-format",
        { "args.json": '["--format", "text"]' },
        'args.json: unsupported argument "--format" (allowed: --task, --first-task, --authority, --tenant, --require, --min-evidence, --at; the trust file is trust.json)',
      ],
      ["args-trust", { "args.json": '["--trust=t.json"]' }, 'args.json: unsupported argument "--trust=t.json"'],
      ["args-positional", { "args.json": '["other.json"]' }, 'args.json: unsupported argument "other.json"'],
      ["args-value", { "args.json": '["--authority"]' }, "args.json: --authority needs a value"],
      ["args-twice", { "args.json": '["--tenant", "a", "--tenant=b"]' }, "args.json: --tenant is given twice"],
      [
        "args-property",
        { "args.json": '["--require", "taskBinding,trusted"]' },
        'args.json: --require: unknown property "trusted"',
      ],
      ["args-level", { "args.json": '["--min-evidence", "GOLD"]' }, 'args.json: --min-evidence: unknown level "GOLD"'],
      [
        "args-at",
        { "args.json": '["--at", "2026-10-01T09:45:00"]' },
        'args.json: --at: "2026-10-01T09:45:00" is not an RFC 3339 date-time with an offset (e.g. 2026-10-01T09:30:00Z)',
      ],
      [
        "args-at-twice",
        { "args.json": '["--at=2026-10-01T09:45:00Z", "--at", "2026-10-01T09:46:00Z"]' },
        "args.json: --at is given twice",
      ],
      [
        "args-escape",
        { "args.json": '["--task", "../valid-minimal/input.json"]' },
        "args.json: ../valid-minimal/input.json is not a path inside the vector folder",
      ],
      [
        "args-absolute",
        { "args.json": JSON.stringify(["--task", join(SHIPPED, "valid-minimal", "input.json")]) },
        "is not a path inside the vector folder",
      ],
      ["args-missing-file", { "args.json": '["--task", "task.json"]' }, "task.json: no such file"],
      ["args-json", { "args.json": "[" }, "args.json: not strict JSON"],
    ];
    const root = newRoot();
    for (const [name, changes] of cases) copyVector("valid-minimal", root, changes, name);
    const r = await run([root], "json");
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout) as VectorsReport;
    expect(validateReport(report)).toBe(true);
    const byName = new Map(report.vectors.map((v) => [v.name, v]));
    for (const [name, , message] of cases) {
      const v = byName.get(name);
      expect(v?.result, name).toBe("error");
      expect(v?.error, name).toContain(message);
    }
    expect(r.stderr.trim().split("\n")).toHaveLength(cases.length);
  });

  it("a DIR is one vector folder or a folder of them; every subfolder of the latter is a vector", async () => {
    const root = newRoot();
    copyVector("valid-minimal", root);
    mkdirSync(join(root, "not-a-vector"));
    mkdirSync(join(root, ".hidden"));
    writeFileSync(join(root, "README.md"), "notes\n");
    const r = await run(
      [root, join(root, "valid-minimal"), join(scratch, "absent"), join(root, "README.md"), join(root, "not-a-vector")],
      "json",
    );
    const report = JSON.parse(r.stdout) as VectorsReport;
    expect(report.vectors.map((v) => [v.name, v.result, v.error])).toEqual([
      ["not-a-vector", "error", "no input file (input.json, input.sse, input.ndjson, input.binpb, input.grpc)"],
      ["valid-minimal", "match", undefined],
      ["valid-minimal", "match", undefined],
      ["absent", "error", "no such folder"],
      ["README.md", "error", "not a folder"],
      ["not-a-vector", "error", "holds no vector folder (no expected.json, no subfolder)"],
    ]);
    expect(r.code).toBe(2);
  });

  it("applies args.json: policy options change the exit code the vector must show", async () => {
    const root = newRoot();
    const expected = { ...expectedOf("valid-minimal"), exitCode: 3 };
    const withArgs = copyVector(
      "valid-minimal",
      root,
      { "expected.json": JSON.stringify(expected), "args.json": '["--require", "continuity"]' },
      "with-args",
    );
    const withoutArgs = copyVector(
      "valid-minimal",
      root,
      { "expected.json": JSON.stringify(expected) },
      "without-args",
    );
    expect((await runVectorFolder(withArgs)).result).toBe("match");
    expect((await runVectorFolder(withoutArgs)).differences).toEqual([{ what: "exitCode", expected: "3", got: "0" }]);
    const none = copyVector(
      "valid-minimal",
      root,
      {
        "expected.json": JSON.stringify({ ...expected, exitCode: 0 }),
        "args.json": '["--min-evidence=NONE", "--require", "continuity"]',
      },
      "min-none",
    );
    expect((await runVectorFolder(none)).differences).toEqual([{ what: "exitCode", expected: "0", got: "3" }]);
  });

  it("applies args.json: --at is the caller's time, which decides whether a revoked service key's stamp counts", async () => {
    const root = newRoot();
    const name = "valid-keys-revoked-ts-at-before";
    expect((await runVectorFolder(copyVector(name, root, {}, "as-shipped"))).result).toBe("match");
    const unregistered = [
      { what: "externalRegistration", expected: "PASS", got: "INCONCLUSIVE" },
      { what: "referenceConsistency", expected: "PASS", got: "INCONCLUSIVE" },
      { what: "evidenceLevel", expected: "EXTERNALLY_REGISTERED", got: "SIGNED_RECORD" },
      { what: "exitCode", expected: "0", got: "3" },
    ];
    const without = copyVector(name, root, { "args.json": null }, "without-at");
    expect((await runVectorFolder(without)).differences).toEqual(unregistered);
    const after = copyVector(name, root, { "args.json": '["--at=2026-10-01T10:00:00Z"]' }, "at-revocation");
    expect((await runVectorFolder(after)).differences).toEqual(unregistered);
  });

  it("applies args.json: --task and --first-task are files in the folder", async () => {
    const exchange = buildExchange({ envelope: "capture" });
    const root = newRoot();
    const dir = join(root, "bare-bundle");
    mkdirSync(join(dir, "observed"), { recursive: true });
    writeFileSync(join(dir, "input.json"), jsonText(exchange.bundle));
    writeFileSync(join(dir, "trust.json"), jsonText(exchange.trust));
    writeFileSync(join(dir, "observed", "task.json"), jsonText(exchange.finalTask));
    writeFileSync(join(dir, "first.json"), jsonText(exchange.firstTask));
    const report = verify({
      inputs: [{ source: "b", data: jsonText(exchange.bundle) }],
      trust: exchange.trust,
      task: exchange.finalTask,
      firstTask: exchange.firstTask,
    });
    const input = report.inputs[0];
    if (!input || isFailedInput(input)) throw new Error("verify");
    const properties = Object.fromEntries(PROPERTY_NAMES.map((p) => [p, input.properties[p].state]));
    expect(properties.taskBinding).toBe("PASS");
    expect(properties.negotiation).toBe("PASS");
    writeFileSync(
      join(dir, "expected.json"),
      JSON.stringify({ exitCode: report.policy.exitCode, properties, evidenceLevel: input.evidenceLevel.achieved }),
    );
    writeFileSync(
      join(dir, "args.json"),
      '["--task", "observed/task.json", "--first-task=./first.json", "--authority", "a2a-evidence-producer.example"]',
    );
    expect(await runVectorFolder(dir)).toEqual({ name: "bare-bundle", path: dir, result: "match", differences: [] });
    writeFileSync(join(dir, "args.json"), '["--first-task=./first.json"]');
    const withoutTask = (await runVectorFolder(dir)).differences.map((d) => d.what);
    expect(withoutTask).toContain("taskBinding");
    expect(withoutTask.at(-1)).toBe("exitCode");
  });

  it("folds a stream input, and a stream the verifier refuses is a mismatch (not a folder error)", async () => {
    const root = newRoot();
    const sse = readFileSync(join(SHIPPED, "valid-stream-sse-jsonrpc", "input.sse"), "utf8");
    const cut = sse.slice(0, sse.lastIndexOf("data: "));
    const dir = copyVector("valid-stream-sse-jsonrpc", root, { "input.sse": cut }, "cut-stream");
    const r = await runVectorFolder(dir);
    expect(r.result).toBe("mismatch");
    expect(r.differences[0]).toEqual({
      what: "properties",
      expected: `${PROPERTY_NAMES.length} listed`,
      got: "none: the input was not verified",
    });
    expect(r.differences[1]).toMatchObject({ what: "exitCode", expected: "0" });
    expect(r.differences[1]!.got).toMatch(
      /^2 \(INPUT_STREAM_TRUNCATED: the stream ends at event 7 \(line 13\) in state TASK_STATE_WORKING.*\(at event\[7\]\)\)$/,
    );
    const reply = copyVector(
      "valid-stream-sse-jsonrpc",
      root,
      { "input.sse": 'data: {"message":{"messageId":"r","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}\n\n' },
      "reply",
    );
    expect((await runVectorFolder(reply)).differences[1]!.got).toMatch(
      /^2 \(INPUT_STREAM_MESSAGE: the stream is a direct Message reply/,
    );
    const array = copyVector("valid-capture", root, { "input.json": "[]" }, "empty-array");
    expect((await runVectorFolder(array)).differences[1]!.got).toMatch(
      /^2 \(INPUT_STREAM_TRUNCATED: the stream carries no events/,
    );
  });

  it("a vector may expect an input error: exit 2 and no properties", async () => {
    const root = newRoot();
    const dir = copyVector(
      "valid-minimal",
      root,
      { "input.json": "not json", "expected.json": '{"exitCode": 2}' },
      "refused",
    );
    expect((await runVectorFolder(dir)).result).toBe("match");
    writeFileSync(join(dir, "expected.json"), JSON.stringify({ exitCode: 2, properties: { taskBinding: "PASS" } }));
    expect((await runVectorFolder(dir)).differences).toEqual([
      {
        what: "properties",
        expected: "1 listed",
        got: "none: the input was not verified (JSON_SYNTAX: unexpected 'n': expected a JSON value (at $))",
      },
    ]);
    copyVector("valid-minimal", root, { "trust.json": "{" }, "bad-trust");
    const badTrust = await runVectorFolder(join(root, "bad-trust"));
    expect(badTrust.differences[1]!.got).toMatch(/^2 \(TRUST_NOT_JSON: /);
  });

  it("without trust.json, a vector runs with no trust file", async () => {
    const root = newRoot();
    const report = verify({
      inputs: [{ source: "x", data: readFileSync(join(SHIPPED, "valid-minimal", "input.json")) }],
    });
    const input = report.inputs[0];
    if (!input || isFailedInput(input)) throw new Error("verify");
    const properties = Object.fromEntries(PROPERTY_NAMES.map((p) => [p, input.properties[p].state]));
    expect(properties.identityAuthorityBinding).toBe("NOT_CHECKED");
    const dir = copyVector(
      "valid-minimal",
      root,
      { "trust.json": null, "expected.json": JSON.stringify({ exitCode: report.policy.exitCode, properties }) },
      "untrusted",
    );
    expect((await runVectorFolder(dir)).result).toBe("match");
  });
});

describe("the package", () => {
  it("ships vectors/ and docs/ beside dist/", () => {
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: REPO_ROOT,
        stdio: ["ignore", "pipe", "ignore"],
      }).toString(),
    ) as { files: { path: string }[] }[];
    const files = new Set(packed[0]!.files.map((f) => f.path));
    for (const path of [
      "vectors/README.md",
      "vectors/valid-minimal/input.json",
      "vectors/valid-stream-sse-jsonrpc/input.sse",
      "docs/inputs.md",
      "schemas/vectors-report.schema.json",
    ]) {
      expect(files.has(path), path).toBe(true);
    }
    expect([...files].some((f) => f.startsWith("test/") || f.startsWith("producer/"))).toBe(false);
  });

  const built = join(REPO_ROOT, "dist", "cli", "vectors.js");
  it.runIf(existsSync(built))("the built command finds the shipped vectors from its own location", async () => {
    const mod = (await import(pathToFileURL(built).href)) as typeof VectorsModule;
    expect(mod.shippedVectorsDir()).toBe(SHIPPED);
    const report = await mod.runVectors([]);
    expect(report.exitCode).toBe(0);
    expect(report.summary.match).toBe(shippedNames.length);
  });
});
