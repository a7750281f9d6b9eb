/**
 * The GitHub Action (action.yml), run as the runner runs its verify step: the step's `run:`
 * command from action.yml, in bash, with the step's `env:` (each `${{ inputs.x }}` replaced by the
 * input given, else the input's default) and the files the runner provides ($GITHUB_OUTPUT,
 * $GITHUB_STEP_SUMMARY, $RUNNER_TEMP, $GITHUB_ACTION_PATH). Uses the built CLI.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));
if (!BUILT) process.stderr.write("SKIPPED: the action test: dist/ is not built (npm run build)\n");
const ACTION = readFileSync(join(REPO_ROOT, "action.yml"), "utf8");
const VECTORS = join(REPO_ROOT, "vectors");

/** The lines of the block under `key:` at `indent` spaces (the lines indented deeper that follow it). */
function block(lines: readonly string[], key: string, indent: number): string[] {
  const start = lines.findIndex(
    (l) => l === `${" ".repeat(indent)}${key}` || l.startsWith(`${" ".repeat(indent)}${key} `),
  );
  if (start < 0) throw new Error(`action.yml has no ${key}`);
  const out: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (l.trim() !== "" && l.length - l.trimStart().length <= indent) break;
    out.push(l);
  }
  return out;
}

/** Each input's default ("" when it has none). */
function inputDefaults(): Record<string, string> {
  const defaults: Record<string, string> = {};
  let name = "";
  for (const l of block(ACTION.split("\n"), "inputs:", 0)) {
    const n = /^ {2}([a-z-]+):$/.exec(l);
    if (n) defaults[(name = n[1] as string)] = "";
    const d = /^ {4}default: (.*)$/.exec(l);
    if (d) defaults[name] = JSON.parse((d[1] as string).startsWith('"') ? (d[1] as string) : JSON.stringify(d[1]));
  }
  return defaults;
}

/** The verify step: its `run:` command and its `env:`, inputs substituted. */
function verifyStep(inputs: Record<string, string>): { run: string; env: Record<string, string> } {
  const steps = block(ACTION.split("\n"), "steps:", 2)
    .join("\n")
    .split(/\n {4}- /);
  const step = (steps.find((s) => /\n {6}id: verify\n/.test(`\n${s}\n`)) as string).split("\n");
  const values = { ...inputDefaults(), ...inputs };
  const env: Record<string, string> = {};
  for (const l of block(step, "env:", 6)) {
    const m = /^ {8}([A-Z_]+): \$\{\{ inputs\.([a-z-]+) \}\}$/.exec(l);
    if (!m) throw new Error(`unexpected env line in action.yml: ${l}`);
    env[m[1] as string] = values[m[2] as string] ?? "";
  }
  const run = /\n {6}run: (.*)/.exec(step.join("\n"))?.[1] as string;
  return { run, env };
}

function runAction(inputs: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-action-"));
  const files = { output: join(dir, "output"), summary: join(dir, "summary.md") };
  writeFileSync(files.output, "");
  writeFileSync(files.summary, "");
  const step = verifyStep(inputs);
  // As the runner runs a `shell: bash` step: the command in a script file.
  const script = join(dir, "step.sh");
  writeFileSync(script, `${step.run}\n`);
  const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
    cwd: dir,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      ...step.env,
      GITHUB_ACTIONS: "true",
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      RUNNER_TEMP: dir,
      GITHUB_ACTION_PATH: REPO_ROOT,
    },
  });
  const outputs = Object.fromEntries(
    readFileSync(files.output, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  return {
    dir,
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    outputs,
    summary: readFileSync(files.summary, "utf8"),
  };
}

describe.skipIf(!BUILT)("the GitHub Action's verify step, as the runner runs it", () => {
  it("declares the inputs the step reads, and runs the action's own script", () => {
    const step = verifyStep({});
    expect(Object.keys(step.env).sort()).toEqual(
      [
        "INPUT_JSON",
        "INPUT_JUNIT",
        "INPUT_MERGE",
        "INPUT_MIN_EVIDENCE",
        "INPUT_PATHS",
        "INPUT_REQUIRE",
        "INPUT_SHARD",
        "INPUT_TRUST",
      ].sort(),
    );
    expect(step.run).toBe('node "$GITHUB_ACTION_PATH/scripts/action.mjs"');
    expect(inputDefaults()).toMatchObject({ junit: "a2a-evidence-junit.xml", trust: "" });
  });

  it("a passing input: exit 0, outputs, summary, JUnit file", () => {
    const r = runAction({
      paths: join(VECTORS, "valid-capture", "input.json"),
      trust: join(VECTORS, "valid-capture", "trust.json"),
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.outputs).toMatchObject({
      "exit-code": "0",
      inputs: "1",
      passed: "1",
      failed: "0",
      "not-verified": "0",
      "policy-not-met": "0",
      junit: "a2a-evidence-junit.xml",
    });
    expect(JSON.parse(readFileSync(r.outputs.report as string, "utf8")).policy.exitCode).toBe(0);
    expect(r.summary).toMatch(/a2a-evidence/);
    expect(r.stdout).not.toMatch(/^::error/m);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      readFileSync(join(r.dir, "a2a-evidence-junit.xml"), "utf8"),
    );
    expect(junit.testsuites["@_failures"]).toBe("0");
  });

  it("a failing input beside a passing one, with --require and a JSON path: exit 1, the step fails, annotations", () => {
    const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-action-json-"));
    const report = join(dir, "report.json");
    const r = runAction({
      paths: `${join(VECTORS, "valid-minimal", "input.json")}\n\n${join(VECTORS, "neg-taskBinding-task-id", "input.json")}\n`,
      trust: join(VECTORS, "valid-minimal", "trust.json"),
      require: "contentBinding",
      junit: join(dir, "junit.xml"),
      json: report,
    });
    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({ "exit-code": "1", inputs: "2", passed: "1", failed: "1", report });
    const json = JSON.parse(readFileSync(report, "utf8"));
    expect(json.policy).toMatchObject({ require: ["contentBinding"], exitCode: 1 });
    expect(r.stdout).toMatch(/^::error file=[^,]*neg-taskBinding-task-id\/input\.json,title=[^:]*taskBinding[^:]*::/m);
    expect(r.summary).toMatch(/neg-taskBinding-task-id/);
    expect(readFileSync(join(dir, "junit.xml"), "utf8")).toMatch(/<failure/);
  });

  it("a matrix of shards, then a merge step over their reports' folder: the whole run's report, outputs and exit code", () => {
    const reports = mkdtempSync(join(tmpdir(), "a2a-evidence-action-shards-"));
    const inputs = {
      paths: ["valid-minimal", "neg-taskBinding-task-id", "valid-rich", "valid-capture"]
        .map((n) => join(VECTORS, n, "input.json"))
        .join("\n"),
      trust: join(VECTORS, "valid-capture", "trust.json"),
      junit: "",
    };
    for (const i of [1, 2, 3]) {
      const shard = runAction({ ...inputs, shard: `${i}/3`, json: join(reports, `shard-${i}.json`) });
      expect(shard.outputs["exit-code"]).toBe(String(shard.code));
    }
    const whole = runAction({ ...inputs, json: join(reports, "..", `${basename(reports)}-whole.json`) });
    const merged = runAction({
      merge: reports,
      junit: "",
      json: join(reports, "..", `${basename(reports)}-merged.json`),
    });
    expect(merged.code).toBe(whole.code);
    expect(merged.code).toBe(1);
    expect(readFileSync(merged.outputs.report as string, "utf8")).toBe(
      readFileSync(whole.outputs.report as string, "utf8"),
    );
    const { report: _m, ...mergedCounts } = merged.outputs;
    const { report: _w, ...wholeCounts } = whole.outputs;
    expect(mergedCounts).toEqual(wholeCounts);
    expect(merged.summary).toBe(whole.summary);
    const none = runAction({ merge: "# nothing" });
    expect(none.code).toBe(2);
    expect(none.stdout).toBe("::error title=a2a-evidence::the merge input names no report\n");
  });

  it("no input named, or a usage error: exit 2, said as an annotation and in the summary", () => {
    const none = runAction({ paths: "\n# nothing\n" });
    expect(none.code).toBe(2);
    expect(none.stdout).toBe("::error title=a2a-evidence::the paths input names no input\n");
    expect(none.outputs["exit-code"]).toBe("2");
    const bad = runAction({ paths: join(VECTORS, "valid-capture", "input.json"), "min-evidence": "SOME" });
    expect(bad.code).toBe(2);
    expect(bad.outputs).toMatchObject({ "exit-code": "2", inputs: "0", report: "" });
    expect(bad.summary).toContain("Nothing verified (exit 2)");
  });
});
