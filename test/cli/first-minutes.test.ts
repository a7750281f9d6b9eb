/**
 * What a new user sees in their first five minutes: each error said once, in words that name the
 * file; a bare bundle's properties worded for a bare bundle; a private key refused for what it is;
 * help that fits a terminal; a prompt when stdin is the terminal; and a last line a CI log reader
 * understands.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT, externalPath, hasExternal } from "../helpers/external.js";

const vector = (name: string, file: string) => join(REPO_ROOT, "vectors", name, file);
const MINIMAL = vector("valid-minimal", "input.json");
const TRUST = vector("valid-minimal", "trust.json");
const RUNNER = join(REPO_ROOT, "test", "helpers", "run-cli.ts");

function bareBundle(): string {
  const response = JSON.parse(readFileSync(MINIMAL, "utf8"));
  return tempFile("bundle.json", Buffer.from(response.result.artifacts[1].parts[0].raw, "base64"));
}

describe("errors are said once (contract §9.38)", () => {
  const broken = () => tempFile("broken.json", "{ not json");

  it("a text report on stdout carries the error and nothing repeats it on stderr, on a terminal or piped", async () => {
    for (const tty of [true, false]) {
      const r = await runCli(["verify", broken()], { tty });
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(/error.* JSON_SYNTAX: /);
      expect(r.code).toBe(2);
    }
  });

  it("a machine format, -q or -o: one summary line on stderr", async () => {
    const file = broken();
    const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    for (const args of [
      ["verify", "--format", "json", file],
      ["verify", "--format", "junit", file],
      ["verify", "-q", file],
    ]) {
      const r = await runCli(args, { tty: false });
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(new RegExp(`^a2a-evidence: ${escaped}: JSON_SYNTAX: `));
    }
    const out = tempFile("report.txt", "");
    const o = await runCli(["verify", "-o", out, file], { tty: true });
    expect(o.stderr.trim().split("\n")).toHaveLength(1);
    // Several inputs not verified: still one line, naming each.
    const other = tempFile("other.json", "[1");
    const two = await runCli(["verify", "--format", "json", file, other, MINIMAL]);
    expect(two.stderr).toBe(
      `a2a-evidence: 2 of 3 inputs were not verified: ${file} (JSON_SYNTAX), ${other} (JSON_SYNTAX)\n`,
    );
  });
});

describe("a bare bundle without --task", () => {
  it("negotiation and peacReceipts are NOT_CHECKED for want of a Task, referenceConsistency says it compared only the bundle's copy", async () => {
    const r = await runCli(["verify", "--format", "json", "--trust", TRUST, bareBundle()]);
    const p = JSON.parse(r.stdout).inputs[0].properties;
    expect(p.negotiation).toMatchObject({
      state: "NOT_CHECKED",
      detail: "no observed Task: the requirement is in the Task's first Message (pass --task, or --first-task)",
    });
    expect(p.taskBinding.state).toBe("NOT_CHECKED");
    expect(p.peacReceipts.state).toBe("NOT_CHECKED");
    expect(p.referenceConsistency.detail).toMatch(
      /^the bundle's own reference agrees with it and the claimed level is supported; the Task's copies: not checked, no observed Task \(pass --task\); delivery mode: not checked, /,
    );
  });
});

describe("errors name the file they are about", () => {
  it("--task, --first-task and --trust errors name the flag and the file", async () => {
    const bad = tempFile("task.json", '{"id": "t", "id": "u"}');
    const task = await runCli(["verify", "--format", "json", "--trust", TRUST, "--task", bad, bareBundle()]);
    expect(task.stderr).toBe(
      `a2a-evidence: --task ${bad}: JSON_DUPLICATE_MEMBER: ${task.stderr.split("JSON_DUPLICATE_MEMBER: ")[1]}`,
    );
    // The text report names the file the same way, on stdout, and stderr stays quiet.
    const text = await runCli(["verify", "--trust", TRUST, "--task", bad, bareBundle()]);
    expect(text.stdout).toMatch(
      new RegExp(`^error: --task ${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: JSON_DUPLICATE_MEMBER: `),
    );
    expect(text.stderr).toBe("");
    expect(
      JSON.parse((await runCli(["verify", "--format", "json", "--task", bad, bareBundle()])).stdout).error.source,
    ).toBe("--task");
    const first = await runCli(["verify", "-q", "--trust", TRUST, "--first-task", bad, bareBundle()]);
    expect(first.stderr).toMatch(
      new RegExp(`^a2a-evidence: --first-task ${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: JSON_DUPLICATE_MEMBER: `),
    );
    const trust = tempFile("trust.json", '{"version": 1, "producers": 3}');
    const t = await runCli(["verify", "-q", "--trust", trust, MINIMAL]);
    expect(t.stderr).toMatch(
      new RegExp(`^a2a-evidence: trust file ${trust.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: TRUST_SCHEMA: `),
    );
    expect(t.code).toBe(2);
  });

  it("standard input is called stdin, in reports and in messages", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", RUNNER, "verify", "--format", "json", "-"], {
      input: "{",
      encoding: "utf8",
    });
    expect(r.stderr).toMatch(/^a2a-evidence: stdin: JSON_SYNTAX: /);
    expect(JSON.parse(r.stdout).inputs[0].source).toBe("stdin");
    const t = spawnSync(process.execPath, ["--import", "tsx", RUNNER, "verify", "--trust", "-", MINIMAL], {
      input: "[",
      encoding: "utf8",
    });
    expect(t.stdout).toMatch(/^error: trust file stdin: TRUST_NOT_JSON: /);
  });
});

describe("private keys in a trust file", () => {
  it("are refused as what they are, with the JSON path", async () => {
    const pem = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    const trust = tempFile("trust.json", JSON.stringify({ version: 1, producers: [{ authority: "a", keys: [pem] }] }));
    const r = await runCli(["verify", "--trust", trust, MINIMAL]);
    expect(r.stdout).toContain(
      "TRUST_PRIVATE_KEY: private key material refused: a trust file holds public keys only at producers[0].keys[0]",
    );
    expect(r.code).toBe(2);
  });
});

describe("--help", () => {
  it.each([
    ["--help"],
    ["verify", "--help"],
    ["inspect", "--help"],
    ["fetch", "--help"],
    ["verify-card", "--help"],
    ["vectors", "--help"],
    ["merge", "--help"],
  ])("%s fits 80 columns", async (...args) => {
    const r = await runCli(args);
    expect(r.code).toBe(0);
    for (const line of r.stdout.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(80);
  });

  it("lists every command on one line saying what it is for", async () => {
    const r = await runCli(["--help"]);
    const commands = r.stdout
      .slice(r.stdout.indexOf("Commands:"))
      .split("\n")
      .slice(1)
      .filter((l) => l.trim() !== "");
    expect(commands.map((l) => l.trim().split(/\s+/)[0])).toEqual([
      "verify",
      "inspect",
      "fetch",
      "verify-card",
      "vectors",
      "merge",
      "help",
    ]);
    for (const l of commands) expect(l).toMatch(/^ {2}\S.* {2,}\S/);
  });

  it("verify --help ends with two examples", async () => {
    const r = await runCli(["verify", "--help"]);
    expect(r.stdout.trimEnd().split("\n").slice(-3)).toEqual([
      "Examples:",
      "  a2a-evidence verify --trust trust.json task.json",
      "  a2a-evidence verify --trust trust.json --task observed-task.json bundle.json",
    ]);
  });
});

describe("stdin from a terminal", () => {
  it.skipIf(!existsSync("/usr/bin/script"))("says how to end the input, on stderr", () => {
    // `script` gives the CLI a terminal for stdin; Ctrl-D ends the input.
    const r = spawnSync("script", ["-qec", `"${process.execPath}" --import tsx "${RUNNER}" verify -`, "/dev/null"], {
      input: "\u0004",
      encoding: "utf8",
      cwd: REPO_ROOT,
    });
    expect(r.stdout).toMatch(/^a2a-evidence: reading the input from the terminal; end with Ctrl-D\r?\n/);
    expect(r.status).toBe(2);
  });
});

describe("the last line of the text report", () => {
  it("says what the exit code means and what decided it", async () => {
    const ok = await runCli(["verify", "--trust", TRUST, MINIMAL]);
    expect(ok.stdout.trimEnd().split("\n").at(-1)).toBe(
      "  exit 0: the policy holds (evidence level EXTERNALLY_REGISTERED)",
    );
    const policy = await runCli(["verify", MINIMAL]);
    expect(policy.stdout.trimEnd().split("\n").at(-1)).toBe(
      "  exit 3: nothing FAILs, but the policy is not met: evidence level SIGNED_RECORD is below EXTERNALLY_REGISTERED (the negotiated minimumEvidence); and 1 more reason(s) above",
    );
    const fail = await runCli(["verify", "--trust", TRUST, vector("neg-taskBinding-task-id", "input.json")]);
    expect(fail.stdout.trimEnd().split("\n").at(-1)).toBe(
      "  exit 1: the evidence FAILs (tamper, mismatch or forgery): taskBinding",
    );
    const several = await runCli([
      "verify",
      "--trust",
      TRUST,
      MINIMAL,
      vector("neg-taskBinding-task-id", "input.json"),
    ]);
    expect(several.stdout.trimEnd().split("\n").at(-1)).toBe(
      `exit 1 (the worst of 2 inputs): some property FAILs in ${vector("neg-taskBinding-task-id", "input.json")}`,
    );
  });
});

describe("the published reference vector", () => {
  it.skipIf(!hasExternal("a2a-reference"))("exits 1 on taskBinding, as README and docs/properties.md say", async () => {
    const positive = externalPath("a2a-reference", "positive_vector.json");
    const r = await runCli(["verify", "--min-evidence", "NONE", positive]);
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe(
      "  exit 1: the evidence FAILs (tamper, mismatch or forgery): taskBinding",
    );
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const quickStart = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## What it checks"));
    expect(quickStart.replace(/\s+/g, " ")).toMatch(
      /The published reference vector \(`positive_vector\.json`[^)]*\) exits 1 on purpose/,
    );
  });
});

describe("a quiet install", () => {
  it("no dependency's install script is left undecided (npm ci prints no install-scripts warning)", () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
    const r = spawnSync("npm", ["install-scripts", "ls"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/not yet covered by allowScripts/);
    expect(pkg.allowScripts).toEqual({ esbuild: false, protobufjs: false });
  });
});
