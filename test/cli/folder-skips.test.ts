/**
 * A folder is walked for inputs, not for everything (contract §9.35): `verify --trust
 * v/trust.json v` verifies the input beside the trust file, skips the files the run reads as its
 * configuration and says so in one line; other files that are not inputs stay errors unless
 * --skip-unknown lists them as skipped; a file named on the command line is never skipped.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const SKIP_LINE = /^a2a-evidence: skipped in the folders given: /;

/** A copy of a shipped vector folder: input.json, trust.json, expected.json. */
function vectorCopy(name = "valid-minimal"): string {
  const dir = join(mkdtempSync(join(tmpdir(), "a2a-evidence-skips-")), name);
  mkdirSync(dir);
  for (const f of ["input.json", "trust.json", "expected.json"])
    copyFileSync(join(REPO_ROOT, "vectors", name, f), join(dir, f));
  return dir;
}

const skipLines = (stderr: string) => stderr.split("\n").filter((l) => SKIP_LINE.test(l));

describe("a folder beside its trust file", () => {
  it("the trust file is skipped and said once; expected.json is still an error (exit 2)", async () => {
    const v = vectorCopy();
    const r = await runCli(["verify", "--format", "json", "--trust", join(v, "trust.json"), v]);
    const report = JSON.parse(r.stdout);
    expect(report.inputs.map((i: { source: string; exitCode: number }) => [i.source, i.exitCode])).toEqual([
      [join(v, "expected.json"), 2],
      [join(v, "input.json"), 0],
    ]);
    expect(report.inputs[0].error.code).toBe("INPUT_UNKNOWN_SHAPE");
    expect(r.code).toBe(2);
    expect(skipLines(r.stderr)).toEqual([
      `a2a-evidence: skipped in the folders given: 1 file(s) this run reads as its configuration (${join(v, "trust.json")})`,
    ]);
  });

  it("--skip-unknown lists expected.json as skipped and the run exits 0", async () => {
    const v = vectorCopy();
    const r = await runCli(["verify", "--skip-unknown", "--format", "json", "--trust", join(v, "trust.json"), v]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).inputs.map((i: { source: string }) => i.source)).toEqual([join(v, "input.json")]);
    expect(skipLines(r.stderr)).toEqual([
      `a2a-evidence: skipped in the folders given: 1 file(s) this run reads as its configuration (${join(v, "trust.json")}); 1 file(s) that are not A2A inputs (--skip-unknown: ${join(v, "expected.json")})`,
    ]);
    // Nothing else on stderr: a skip is not an error.
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("--skip-unknown never hides a FAIL nor a broken A2A input", async () => {
    const v = vectorCopy("neg-taskBinding-task-id");
    // A capture cut short is an A2A input that is broken, not a file of another kind.
    writeFileSync(join(v, "partial.json"), '{"interimBundles": []}');
    const r = await runCli(["verify", "--skip-unknown", "--format", "json", "--trust", join(v, "trust.json"), v]);
    const report = JSON.parse(r.stdout);
    expect(report.inputs.map((i: { source: string; exitCode: number }) => [i.source, i.exitCode])).toEqual([
      [join(v, "input.json"), 1],
      [join(v, "partial.json"), 2],
    ]);
    expect(r.code).toBe(1);
  });

  it("a file named on the command line is never skipped, even with --skip-unknown", async () => {
    const v = vectorCopy();
    const trust = join(v, "trust.json");
    const expected = join(v, "expected.json");
    const r = await runCli(["verify", "--skip-unknown", "--format", "json", "--trust", trust, trust, expected, v]);
    const report = JSON.parse(r.stdout);
    expect(report.inputs.map((i: { source: string; exitCode: number }) => [i.source, i.exitCode])).toEqual([
      [trust, 2],
      [expected, 2],
      // Met again by the walk: the file is named, so it is not skipped there either.
      [expected, 2],
      [join(v, "input.json"), 0],
    ]);
    expect(r.code).toBe(2);
  });

  it("the @list file, --cosignatures and the -o output in the folder are skipped too", async () => {
    const v = vectorCopy();
    const list = join(v, "list.json");
    writeFileSync(list, `${join(v, "input.json")}\n`);
    const out = join(v, "report.json");
    writeFileSync(out, "{}");
    const cosignatures = join(v, "cosignatures.json");
    writeFileSync(cosignatures, "[]");
    const r = await runCli([
      "verify",
      "--skip-unknown",
      "--format",
      "json",
      "-o",
      out,
      "--cosignatures",
      cosignatures,
      "--trust",
      join(v, "trust.json"),
      `@${list}`,
      v,
    ]);
    expect(skipLines(r.stderr)[0]).toContain(
      `4 file(s) this run reads as its configuration (${cosignatures}, ${list}, ${out}, ${join(v, "trust.json")})`,
    );
  });

  it("a folder whose every file is skipped is an error for the folder", async () => {
    const v = vectorCopy();
    const only = join(mkdtempSync(join(tmpdir(), "a2a-evidence-skips-")), "only");
    mkdirSync(only);
    copyFileSync(join(v, "trust.json"), join(only, "trust.json"));
    copyFileSync(join(v, "expected.json"), join(only, "expected.json"));
    const r = await runCli([
      "verify",
      "--skip-unknown",
      "--format",
      "json",
      "--trust",
      join(only, "trust.json"),
      join(v, "input.json"),
      only,
    ]);
    const report = JSON.parse(r.stdout);
    expect(report.inputs.map((i: { source: string; exitCode: number }) => [i.source, i.exitCode])).toEqual([
      [join(v, "input.json"), 0],
      [only, 2],
    ]);
    expect(report.inputs[1].error.message).toBe(
      "holds no A2A input (its 1 *.json, *.ndjson, *.sse, *.binpb or *.grpc file(s) are not inputs)",
    );
    expect(r.code).toBe(2);
  });
});
