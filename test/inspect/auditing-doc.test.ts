/**
 * docs/auditing.md is real: every `console` block's commands are run again — `a2a-evidence` in
 * process, the rest with bash in a scratch folder beside a link to vectors/ — and must print what
 * the page shows (an `inspect` excerpt, with "…" for the lines left out, must appear in order).
 * Where python3, OpenSSL, sha256sum or base64 are missing the shell commands are skipped, loudly;
 * every hash the page shows must still be one the project's own inspect computes for the vector.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

interface Step {
  readonly command: string;
  readonly output: string[];
}

/** The page's console blocks: `$ ` starts a command (a heredoc runs to its EOF line), the rest is its output. */
function consoleSteps(markdown: string): Step[][] {
  const blocks: Step[][] = [];
  for (const m of markdown.matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
    const lines = (m[1] as string).split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    const steps: { command: string; output: string[] }[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.startsWith("$ ")) {
        let command = line.slice(2);
        if (/<<'EOF'$/.test(command)) {
          while (i + 1 < lines.length && lines[i] !== "EOF") command += `\n${lines[++i]}`;
        }
        steps.push({ command, output: [] });
      } else {
        const last = steps[steps.length - 1];
        if (!last) throw new Error(`output before any command: ${line}`);
        last.output.push(line);
      }
    }
    blocks.push(steps);
  }
  return blocks;
}

/** `shown` (with "…" for omitted runs of lines) appears in `actual`, in order, anchored where it has no "…". */
function expectExcerpt(actual: string[], shown: string[]): void {
  const chunks: string[][] = [[]];
  for (const l of shown) {
    if (l === "…") chunks.push([]);
    else (chunks[chunks.length - 1] as string[]).push(l);
  }
  let at = 0;
  chunks.forEach((chunk, k) => {
    if (chunk.length === 0) return;
    let found = -1;
    for (let i = at; i + chunk.length <= actual.length; i++) {
      if (chunk.every((l, j) => actual[i + j] === l)) {
        found = i;
        break;
      }
    }
    expect(found, `not in the output, in order:\n${chunk.join("\n")}`).toBeGreaterThanOrEqual(0);
    if (k === 0) expect(found, "the excerpt starts the output").toBe(0);
    if (k === chunks.length - 1) expect(found + chunk.length, "the excerpt ends the output").toBe(actual.length);
    at = found + chunk.length;
  });
}

const PAGE = readFileSync(join(REPO_ROOT, "docs", "auditing.md"), "utf8");
const BLOCKS = consoleSteps(PAGE);
const tools = ["python3", "openssl", "sha256sum", "base64", "wc"].filter(
  (t) => spawnSync("bash", ["-c", `command -v ${t}`]).status !== 0,
);
const scratch = mkdtempSync(join(tmpdir(), "a2a-evidence-auditing-"));
symlinkSync(join(REPO_ROOT, "vectors"), join(scratch, "vectors"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
if (tools.length > 0)
  process.stderr.write(`SKIPPED: docs/auditing.md's shell commands: ${tools.join(", ")} not found\n`);

describe("docs/auditing.md", () => {
  it("has a walkthrough: inspect excerpts and the commands that redo each value", () => {
    const commands = BLOCKS.flat().map((s) => s.command);
    expect(commands.filter((c) => c.startsWith("a2a-evidence inspect")).length).toBeGreaterThanOrEqual(5);
    for (const tool of [
      "sha256sum",
      "base64 -d",
      "openssl pkeyutl -verify",
      "python3",
      'json.dumps(b["taskEvidencePayload"], sort_keys=True, separators=(",", ":"), ensure_ascii=True)',
    ]) {
      expect(
        commands.some((c) => c.includes(tool)),
        tool,
      ).toBe(true);
    }
  });

  it("every hash it shows is one inspect computes for the vectors it walks through", async () => {
    const vectors = [
      ...new Set(
        BLOCKS.flat().flatMap((s) =>
          [...s.command.matchAll(/vectors\/([\w-]+)\/input\.json/g)].map((m) => m[1] as string),
        ),
      ),
    ];
    expect(vectors).toEqual(["valid-capture", "valid-lifecycle-interim-earlier-checkpoint"]);
    let explained = "";
    for (const v of vectors) {
      const r = await runCli([
        "inspect",
        "--format",
        "json",
        "--bytes",
        "--all",
        "--trust",
        `vectors/${v}/trust.json`,
        `vectors/${v}/input.json`,
      ]);
      explained += r.stdout;
    }
    const shown = new Set(BLOCKS.flat().flatMap((s) => s.output.join("\n").match(/\b[0-9a-f]{64}\b/g) ?? []));
    expect(shown.size).toBeGreaterThan(25);
    for (const h of shown) expect(explained, h).toContain(h);
  });

  // The blocks run in order in one scratch folder: later commands read what earlier ones wrote.
  BLOCKS.forEach((steps, b) => {
    it.skipIf(tools.length > 0 && steps.some((s) => !s.command.startsWith("a2a-evidence ")))(
      `block ${b + 1}: ${steps[0]?.command.split("\n")[0]?.slice(0, 60)}`,
      async () => {
        for (const step of steps) {
          if (step.command.startsWith("a2a-evidence ")) {
            const r = await runCli(step.command.split(" ").slice(1));
            expect([r.code, r.stderr]).toEqual([0, ""]);
            expectExcerpt(r.stdout.replace(/\n$/, "").split("\n"), step.output);
            continue;
          }
          const r = spawnSync("bash", ["-c", `set -o pipefail\n${step.command}`], { cwd: scratch, encoding: "utf8" });
          expect([r.status, r.stderr], step.command).toEqual([0, ""]);
          expect(r.stdout, step.command).toBe(step.output.length === 0 ? "" : `${step.output.join("\n")}\n`);
        }
      },
    );
  });
});
