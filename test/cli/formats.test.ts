/**
 * The report formats from the command line: every registered format is a --format choice, and
 * `--format github` appends the Markdown job summary to $GITHUB_STEP_SUMMARY (GitHub Actions).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { FORMAT_NAMES } from "../../src/report/index.js";

const vector = (name: string, file: string) => join(REPO_ROOT, "vectors", name, file);
const args = ["--trust", vector("valid-minimal", "trust.json"), vector("valid-minimal", "input.json")];

describe("--format", () => {
  it("offers every registered format, and each renders the same report deterministically", async () => {
    expect([...FORMAT_NAMES]).toEqual(["text", "json", "junit", "github", "html", "ndjson"]);
    for (const format of FORMAT_NAMES) {
      const a = await runCli(["verify", "--format", format, ...args]);
      const b = await runCli(["verify", "--format", format, ...args]);
      expect(a.code, format).toBe(0);
      expect(a.stdout, format).toBe(b.stdout);
    }
    expect((await runCli(["verify", "--format", "junit", ...args])).stdout).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites/,
    );
    expect((await runCli(["verify", "--format", "html", ...args])).stdout).toMatch(/^<!DOCTYPE html>/);
  });

  it("github: appends the job summary to $GITHUB_STEP_SUMMARY, and says so when it cannot", async () => {
    const summary = tempFile("summary.md", "earlier step\n");
    const r = await runCli(["verify", "--format", "github", ...args], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(0);
    const text = readFileSync(summary, "utf8");
    expect(text.startsWith("earlier step\n")).toBe(true);
    expect(text).toContain("| property | state |");
    writeFileSync(summary, "");
    await runCli(["verify", "--format", "json", ...args], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(readFileSync(summary, "utf8")).toBe("");
    const bad = await runCli(["verify", "--format", "github", ...args], {
      env: { GITHUB_STEP_SUMMARY: "/nonexistent-dir/summary.md" },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("a2a-evidence: cannot write the job summary /nonexistent-dir/summary.md: ENOENT\n");
  });
});
