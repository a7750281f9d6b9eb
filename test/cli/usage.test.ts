import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const reportSchema = JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "report.schema.json"), "utf8"));
const validateReport = new Ajv2020({ strict: true, allErrors: true }).compile(reportSchema);

function expectOneErrorLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
}

/**
 * Said once (contract §9.38): a text report carries the input's error on stdout, and nothing
 * repeats it on stderr; no stack trace anywhere.
 */
function expectSaidOnce(r: { stdout: string; stderr: string }, pattern: RegExp): void {
  expect(r.stderr).toBe("");
  expect(r.stdout).toMatch(pattern);
  expect(r.stdout).not.toMatch(/\n\s+at /);
}

describe("CLI usage and unusable inputs (exit 2)", () => {
  it("--help and --version exit 0", async () => {
    const help = await runCli(["verify", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--min-evidence/);
    expect(help.stdout).toMatch(/Exit codes/);
    expect((await runCli(["--version"])).code).toBe(0);
  });

  it("usage errors exit 2, not commander's 1", async () => {
    expect((await runCli([])).code).toBe(2);
    expect((await runCli(["verify"])).code).toBe(2);
    expect((await runCli(["verify", "--bogus", "x.json"])).code).toBe(2);
    expect((await runCli(["frobnicate"])).code).toBe(2);
    expect((await runCli(["verify", "--format", "xml", "x.json"])).code).toBe(2);
    expect((await runCli(["verify", "--min-evidence", "GOLD", "x.json"])).code).toBe(2);
    const req = await runCli(["verify", "--require", "contentBinding,trusted", "x.json"]);
    expect(req.code).toBe(2);
    expectOneErrorLine(req.stderr, /--require: unknown property "trusted"/);
  });

  it("a missing file exits 2 with one clear line", async () => {
    const r = await runCli(["verify", "/nonexistent/task.json"]);
    expect(r.code).toBe(2);
    expectSaidOnce(r, /^\/nonexistent\/task\.json\n {2}error INPUT_UNREADABLE: no such file\n/);
  });

  it("not JSON, and duplicate keys, exit 2 naming the fault and the JSON path", async () => {
    const notJson = await runCli(["verify", tempFile("a.json", "this is not json")]);
    expect(notJson.code).toBe(2);
    expectSaidOnce(notJson, /JSON_SYNTAX/);
    const dup = await runCli(["verify", tempFile("b.json", '{"jsonrpc":"2.0","id":1,"result":{"id":"t","id":"u"}}')]);
    expect(dup.code).toBe(2);
    expectSaidOnce(dup, /JSON_DUPLICATE_MEMBER: duplicate member name "id" at result\.id/);
  });

  it("--format json prints a JSON error object that matches the report schema", async () => {
    const r = await runCli([
      "verify",
      "--format",
      "json",
      tempFile("c.json", '{"jsonrpc":"2.0","id":7,"error":{"code":-32001,"message":"Task not found"}}'),
    ]);
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(validateReport(report)).toBe(true);
    expect(report.inputs[0].error.code).toBe("INPUT_JSONRPC_ERROR");
    expect(report.inputs[0].error.message).toMatch(/-32001: Task not found/);
    expect(report.policy.exitCode).toBe(2);
  });

  it("an invalid trust file exits 2 naming the JSON path, in text and JSON", async () => {
    const trust = tempFile(
      "trust.json",
      JSON.stringify({ version: 1, producers: [{ authority: "a", keys: ["xyz"] }] }),
    );
    const input = tempFile("d.json", "{}");
    const text = await runCli(["verify", "--trust", trust, input]);
    expect(text.code).toBe(2);
    expectSaidOnce(text, /trust\.json: TRUST_SCHEMA: .* at producers\[0\]\.keys\[0\]/);
    const json = await runCli(["verify", "--format", "json", "--trust", trust, input]);
    const report = JSON.parse(json.stdout);
    expect(validateReport(report)).toBe(true);
    expect(report.error).toMatchObject({ code: "TRUST_SCHEMA", path: "producers[0].keys[0]" });
  });

  it("the trust file can come from A2A_EVIDENCE_TRUST", async () => {
    const r = await runCli(["verify", tempFile("e.json", "{}")], {
      env: { A2A_EVIDENCE_TRUST: "/nonexistent/trust.json" },
    });
    expect(r.code).toBe(2);
    expectSaidOnce(r, /^error: trust file \/nonexistent\/trust\.json: INPUT_UNREADABLE: no such file\n$/);
  });

  it("an unwritable -o path exits 2", async () => {
    const r = await runCli(["verify", "-o", "/nonexistent/dir/report.txt", tempFile("f.json", "{}")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write \/nonexistent\/dir\/report\.txt/);
  });

  it("truncated base64, an artifact without the bundle, and a v0.3 Task each exit 2 with one line and a JSON error", async () => {
    const minimal = JSON.parse(readFileSync(join(REPO_ROOT, "vectors", "valid-minimal", "input.json"), "utf8"));
    const truncated = structuredClone(minimal);
    truncated.result.artifacts[1].parts[0].raw = truncated.result.artifacts[1].parts[0].raw.slice(0, -7);
    const noBundle = structuredClone(minimal);
    noBundle.result.artifacts[1].parts = [{ text: "evidence to follow" }];
    const v03 = structuredClone(minimal);
    v03.result.kind = "task";
    v03.result.status.state = "completed";
    const cases: [unknown, RegExp, string][] = [
      [truncated, /INPUT_BUNDLE_BASE64: [\s\S]* at result\.artifacts\[1\]\.parts\[0\]\.raw/, "INPUT_BUNDLE_BASE64"],
      [noBundle, /INPUT_NO_EVIDENCE: no evidence bundle found/, "INPUT_NO_EVIDENCE"],
      [v03, /INPUT_A2A_V03: input is an A2A v0\.3 Task/, "INPUT_A2A_V03"],
    ];
    for (const [input, line, code] of cases) {
      const file = tempFile("input.json", JSON.stringify(input));
      const text = await runCli(["verify", file]);
      expect(text.code).toBe(2);
      expectSaidOnce(text, line);
      const json = await runCli(["verify", "--format", "json", file]);
      const report = JSON.parse(json.stdout);
      expect(validateReport(report)).toBe(true);
      expect(report.inputs[0].error.code).toBe(code);
    }
  });
});

describe("--at", () => {
  it("a malformed time is a usage error (exit 2, one line)", async () => {
    const r = await runCli(["verify", "--at", "yesterday", "x.json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'a2a-evidence: --at: "yesterday" is not an RFC 3339 date-time with an offset (e.g. 2026-10-01T09:30:00Z)\n',
    );
  });
});

describe("--at reaches the time rules", () => {
  const dir = join(REPO_ROOT, "vectors", "valid-peac-receipts");
  const args = ["verify", "--format", "json", "--trust", join(dir, "trust.json"), join(dir, "input.json")];
  const checks = (stdout: string) =>
    (JSON.parse(stdout).inputs[0].properties.peacReceipts.checks as { id: string; state: string }[]).map(
      (c) => `${c.id} ${c.state}`,
    );

  it("without --at the time rules are NOT_CHECKED; with a time after issue they pass; before issue they FAIL", async () => {
    expect(checks((await runCli(args)).stdout)).toContain("peac.time NOT_CHECKED");
    expect(checks((await runCli([...args, "--at", "2026-10-01T09:31:00Z"])).stdout)).not.toContain(
      "peac.time NOT_CHECKED",
    );
    const early = await runCli([...args, "--at", "2020-01-01T00:00:00Z"]);
    expect(JSON.parse(early.stdout).inputs[0].properties.peacReceipts.state).toBe("FAIL");
    expect(early.code).toBe(1);
  });
});
