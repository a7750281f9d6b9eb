/**
 * A vector folder may come from anyone (a third party's conformance suite): its name and what its
 * expected.json says reach the terminal with their control characters and bidi overrides written
 * as \uXXXX, as verify's reports do.
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registerVectorsCommand } from "../../src/cli/vectors.js";
import { runCommand } from "../helpers/commands.js";
import { REPO_ROOT } from "../helpers/external.js";

const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function hostileFolders(): string {
  const root = mkdtempSync(join(tmpdir(), "a2a-evidence-vectors-hostile-"));
  const minimal = join(REPO_ROOT, "vectors", "valid-minimal");
  // A folder named to recolour the terminal, and an expected exit code the run cannot meet,
  // stated as text that carries an escape.
  const named = join(root, "v\u001b[32m match\u202e");
  mkdirSync(named);
  for (const f of ["input.json", "trust.json", "expected.json"]) cpSync(join(minimal, f), join(named, f));
  const odd = join(root, "odd");
  mkdirSync(odd);
  for (const f of ["input.json", "trust.json"]) cpSync(join(minimal, f), join(odd, f));
  writeFileSync(join(odd, "expected.json"), JSON.stringify({ exitCode: "0\u001b[2J\u2028ok" }));
  return root;
}

describe("vectors: a folder's own text", () => {
  const cli = (args: string[]) => runCommand(registerVectorsCommand, ["vectors", ...args]);

  it("text and stderr: nothing of it arrives as a control character", async () => {
    const r = await cli([hostileFolders()]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).not.toMatch(UNSAFE);
    expect(r.stderr).not.toMatch(UNSAFE);
    expect(r.stdout).toContain("v\\u001b[32m match\\u202e");
  });

  it("a folder named like a GitHub Actions workflow command starts no line with '::'", async () => {
    const root = mkdtempSync(join(tmpdir(), "a2a-evidence-vectors-command-"));
    const named = join(root, "::add-mask::match");
    mkdirSync(named);
    for (const f of ["input.json", "trust.json", "expected.json"])
      cpSync(join(REPO_ROOT, "vectors", "valid-minimal", f), join(named, f));
    const r = await cli([root]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").filter((l) => /^\s*::/.test(l))).toEqual([]);
    expect(r.stdout).toMatch(/^\\u003a:add-mask::match {2}match$/m);
  });

  it("json: written as \\uXXXX", async () => {
    const r = await cli(["--format", "json", hostileFolders()]);
    expect(r.stdout).not.toMatch(UNSAFE);
    const names = JSON.parse(r.stdout).vectors.map((v: { name: string }) => v.name);
    expect(names).toContain("v\u001b[32m match\u202e");
  });
});
