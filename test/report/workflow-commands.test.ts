/**
 * GitHub Actions reads a workflow command (`::add-mask::…`, `::warning::…`) from any line of a
 * step's output that starts with `::` after leading whitespace, whatever --format says. The text
 * report starts a line with each input's name, which a file name chosen by someone else (a glob
 * in their folder) decides: `::add-mask::FAIL` would hide every later FAIL in the job's log.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

const MINIMAL = join(REPO_ROOT, "vectors", "valid-minimal");
const BIN = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));
if (!BUILT) process.stderr.write("SKIPPED: workflow-command test: dist/ is not built (npm run build)\n");

describe.skipIf(!BUILT)("text report: no line of it is a workflow command", () => {
  it("an input named like a command starts no line with '::'", () => {
    const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-commands-"));
    writeFileSync(join(dir, "::add-mask::FAIL"), "not json");
    copyFileSync(join(MINIMAL, "input.json"), join(dir, " ::warning title=ok::verified.json"));
    // Relative names, as a glob in the folder gives them.
    const inputs = ["::add-mask::FAIL", " ::warning title=ok::verified.json"];
    for (const args of [[], ["-v"], ["--explain"]]) {
      const r = spawnSync(
        process.execPath,
        [BIN, "verify", ...args, "--trust", join(MINIMAL, "trust.json"), ...inputs],
        { cwd: dir, encoding: "utf8" },
      );
      expect(r.status).toBe(2);
      expect(r.stdout.split("\n").filter((l) => /^\s*::/.test(l))).toEqual([]);
      expect(r.stdout).toContain("\\u003a:add-mask::FAIL\n");
      expect(r.stdout).toContain(" \\u003a:warning title=ok::verified.json  (jsonrpc-response;");
    }
  });
});
