/**
 * `-o` never overwrites a file the run reads: `verify -o task.json task.json` used to open the
 * report there first, emptying the evidence before it was read (exit 2, and the file lost). The
 * same file is found by device and inode, whatever the spelling or links.
 */
import { copyFileSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const MINIMAL = join(REPO_ROOT, "vectors", "valid-minimal");

function folder() {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-clobber-"));
  const input = join(dir, "input.json");
  const trust = join(dir, "trust.json");
  copyFileSync(join(MINIMAL, "input.json"), input);
  copyFileSync(join(MINIMAL, "trust.json"), trust);
  return { dir, input, trust, bytes: readFileSync(input), trustBytes: readFileSync(trust) };
}

describe("verify -o naming a file the run reads", () => {
  for (const format of ["text", "json"]) {
    it(`the input itself (--format ${format}): a usage error, exit 2, and the input is untouched`, async () => {
      const f = folder();
      const r = await runCli(["verify", "--format", format, "--trust", f.trust, "-o", f.input, f.input]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`-o: ${f.input} is ${f.input}, which this run reads: the report would overwrite it`);
      expect(readFileSync(f.input)).toEqual(f.bytes);
    });
  }

  it("the input through a symlink, the trust file, and an @list file: each refused, each untouched", async () => {
    const f = folder();
    const link = join(f.dir, "link.json");
    symlinkSync(f.input, link);
    const r1 = await runCli(["verify", "--trust", f.trust, "-o", link, f.input]);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain(`is ${f.input}, which this run reads`);
    const r2 = await runCli(["verify", "--trust", f.trust, "-o", f.trust, f.input]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(`is ${f.trust}, which this run reads`);
    const list = join(f.dir, "inputs.txt");
    writeFileSync(list, `${f.input}\n`);
    const listBytes = readFileSync(list);
    const r3 = await runCli(["verify", "--trust", f.trust, "-o", list, `@${list}`]);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toContain(`is ${list}, which this run reads`);
    expect(readFileSync(f.input)).toEqual(f.bytes);
    expect(readFileSync(f.trust)).toEqual(f.trustBytes);
    expect(readFileSync(list)).toEqual(listBytes);
  });

  it("a report file of its own is written as before", async () => {
    const f = folder();
    const out = join(f.dir, "report.json");
    writeFileSync(out, "an older report");
    const r = await runCli(["verify", "--format", "json", "--trust", f.trust, "-o", out, f.input]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8")).policy.exitCode).toBe(0);
  });
});
