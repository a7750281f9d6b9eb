/**
 * The same option rules on every command (contract §9.33, §9.38): a single-valued option given
 * twice is a usage error (exit 2) wherever it is given, `--format` included; no command writes its
 * output over a file it reads; a usage error points at the help of the command that was run (a
 * misspelt command, at the list); what a usage message repeats of the command line is printable.
 */
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const MINIMAL = join(REPO_ROOT, "vectors", "valid-minimal");
const INPUT = join(MINIMAL, "input.json");
const TRUST = join(MINIMAL, "trust.json");
const TWICE = "given twice: which one is meant cannot be known";
const hint = (command: string) => `(run a2a-evidence ${command} --help for usage)`;

function expectUsage(r: { code: number; stdout: string; stderr: string }, command: string, message: string): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain(message);
  expect(r.stderr.trim().split("\n").at(-1)).toBe(hint(command));
}

describe("a single-valued option given twice is exit 2 in every command", () => {
  const cases: readonly [string, string[], string][] = [
    ["verify", ["--format", "json", "--format", "text", INPUT], "'--format <format>' argument 'text'"],
    ["inspect", ["--format", "json", "--format", "json", INPUT], "'--format <format>' argument 'json'"],
    ["inspect", ["--trust", TRUST, "--trust", TRUST, INPUT], "'--trust <file>'"],
    ["inspect", ["--task", INPUT, "--task", INPUT, INPUT], "'--task <file>'"],
    [
      "fetch",
      ["--url", "http://127.0.0.1:9/a", "--url", "http://127.0.0.1:9/b", "--task-id", "t", "-o", "x"],
      "'--url <url>'",
    ],
    ["fetch", ["--binding", "rest", "--binding", "jsonrpc", "--task-id", "t", "-o", "x"], "'--binding <binding>'"],
    [
      "fetch",
      ["--min-evidence", "EXTERNALLY_REGISTERED", "--min-evidence", "SIGNED_RECORD", "-o", "x"],
      "'--min-evidence <level>'",
    ],
    ["fetch", ["-o", "a.json", "-o", "b.json", "--task-id", "t"], "'-o, --output <file>'"],
    ["verify-card", ["--format", "json", "--format", "text", INPUT], "'--format <format>' argument 'text'"],
    ["vectors", ["--format", "json", "--format", "text"], "'--format <format>' argument 'text'"],
  ];
  for (const [command, args, option] of cases) {
    it(`${command} ${args.filter((a) => a.startsWith("-")).join(" ")}`, async () => {
      const r = await runCli([command, ...args]);
      expectUsage(r, command, `error: option ${option}`);
      expect(r.stderr).toContain(TWICE);
    });
  }

  it("a default is not a first value: --format text given once is no repeat", async () => {
    const r = await runCli(["inspect", "--format", "text", "--trust", TRUST, INPUT]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const v = await runCli(["verify", "--format", "text", "--trust", TRUST, INPUT]);
    expect(v.code).toBe(0);
  });
});

describe("a usage error names the command that was run", () => {
  for (const command of ["verify", "inspect", "fetch", "verify-card", "vectors"]) {
    it(`${command} --bogus points at ${command} --help`, async () => {
      // fetch reads no input, and says first that it needs -o.
      const args = command === "fetch" ? ["-o", "x", "--bogus"] : ["--bogus", INPUT];
      expectUsage(await runCli([command, ...args]), command, "error: unknown option '--bogus'");
    });
  }

  it("a misspelt command points at the list of commands", async () => {
    const r = await runCli(["verfy", INPUT]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: unknown command 'verfy'");
    expect(r.stderr).toContain("error: unknown command 'verfy'\n(Did you mean verify?)\n");
    expect(r.stderr.trim().split("\n").at(-1)).toBe("(run a2a-evidence --help for usage)");
    expect(r.stderr).not.toContain("verify --help");
  });
});

describe("usage messages are printable", () => {
  it("an unknown option that carries an escape and a line break is written as \\uXXXX, on its own lines", async () => {
    const r = await runCli(["inspect", "--bo\u001b[2J\r\n::notice::gus", INPUT]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/[\u001b\r]/);
    expect(r.stderr).toContain("--bo\\u001b[2J\\u000d\\u000a::notice::gus");
    expect(r.stderr.split("\n").filter((l) => l.startsWith("::"))).toEqual([]);
  });

  it("a usage error the command raises (verify --require) is printable", async () => {
    const r = await runCli(["verify", "--require", "contentBinding,tr\u001b[2Just\u202e", INPUT]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--require: unknown property "tr\\u001b[2Just\\u202e"');
    expect(r.stderr).not.toMatch(/[\u001b\u202e]/);
  });
});

describe("no command writes its output over a file it reads", () => {
  function folder() {
    const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-overwrite-"));
    const card = join(dir, "card.json");
    const trust = join(dir, "trust.json");
    copyFileSync(join(REPO_ROOT, "package.json"), card);
    copyFileSync(TRUST, trust);
    return { dir, card, trust, cardBytes: readFileSync(card), trustBytes: readFileSync(trust) };
  }

  it("verify-card -o naming the card or the trust file: exit 2, both untouched", async () => {
    const f = folder();
    for (const [output, read] of [
      [f.card, f.card],
      [f.trust, f.trust],
    ] as const) {
      const r = await runCli(["verify-card", "--trust", f.trust, "-o", output, f.card]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `a2a-evidence: -o: ${output} is ${read}, which this run reads: the report would overwrite it\n`,
      );
      expect(readFileSync(f.card)).toEqual(f.cardBytes);
      expect(readFileSync(f.trust)).toEqual(f.trustBytes);
    }
  });

  it("fetch -o naming the Agent Card it reads, or whose sidecar would be that card: exit 2, nothing contacted, untouched", async () => {
    const f = folder();
    const r = await runCli(["fetch", "--card", f.card, "--task-id", "t", "-o", f.card]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `a2a-evidence: fetch: -o: ${f.card} is ${f.card}, which this run reads: the response would overwrite it\n`,
    );
    const base = join(f.dir, "saved");
    copyFileSync(f.card, `${base}.fetch.json`);
    const s = await runCli(["fetch", "--card", `${base}.fetch.json`, "--task-id", "t", "-o", base]);
    expect(s.code).toBe(2);
    expect(s.stderr).toBe(
      `a2a-evidence: fetch: -o: ${base}.fetch.json is ${base}.fetch.json, which this run reads: the sidecar would overwrite it\n`,
    );
    expect(readFileSync(f.card)).toEqual(f.cardBytes);
    expect(readFileSync(`${base}.fetch.json`)).toEqual(f.cardBytes);
  });
});
