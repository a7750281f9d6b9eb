/**
 * `merge`: the JSON reports of one run's shards combine into the whole run's report, byte for
 * byte and with its exit code; reports of different runs, a shard given twice or missing, and
 * files that are not reports are refused (exit 2, naming the file).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { worstExit } from "../../src/report/merge.js";

const BIN = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));
if (!BUILT) process.stderr.write("SKIPPED: merge over the built CLI: dist/ is not built (npm run build)\n");
const VECTORS = join(REPO_ROOT, "vectors");
const TRUST = join(VECTORS, "valid-capture", "trust.json");
const NAMES = [
  "valid-capture",
  "neg-taskBinding-task-id",
  "pending-input-required-never-resumed",
  "valid-rich",
  "valid-stream-sse-jsonrpc",
  "inconclusive-unpinned-ts",
  "valid-minimal",
  "neg-producerSignature-signature-byte",
];
const inputOf = (name: string) =>
  ["input.json", "input.sse", "input.ndjson"].map((f) => join(VECTORS, name, f)).find((p) => existsSync(p)) as string;
const INPUTS = NAMES.map(inputOf);

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validReport = ajv.compile(JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "report.schema.json"), "utf8")));

function built(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const dir = () => mkdtempSync(join(tmpdir(), "a2a-evidence-merge-"));

/** Each shard's JSON report of `verify --shard i/n … args`, written to a file; with the exit codes. */
async function shards(n: number, args: string[], at = dir()): Promise<{ files: string[]; codes: number[] }> {
  const files: string[] = [];
  const codes: number[] = [];
  for (let i = 1; i <= n; i++) {
    const r = await runCli(["verify", "--format", "json", "--shard", `${i}/${n}`, ...args]);
    const file = join(at, `shard-${i}.json`);
    writeFileSync(file, r.stdout);
    files.push(file);
    codes.push(r.code);
  }
  return { files, codes };
}

describe("merge: the shards of one run combine into the whole run's report", () => {
  it.skipIf(!BUILT)(
    "four shards (a FAIL and a pending input among them), merged in any order, are the unsharded run: same JSON bytes, same exit code",
    () => {
      const out = dir();
      const files: string[] = [];
      const codes: number[] = [];
      for (const i of [1, 2, 3, 4]) {
        const file = join(out, `shard-${i}.json`);
        const r = built(["verify", "--shard", `${i}/4`, "--format", "json", "-o", file, "--trust", TRUST, ...INPUTS]);
        files.push(file);
        codes.push(r.code);
        const report = JSON.parse(readFileSync(file, "utf8"));
        expect(validReport(report), JSON.stringify(validReport.errors)).toBe(true);
        expect(report.shard).toMatchObject({ index: i, count: 4, total: INPUTS.length });
        expect(report.shard.positions).toHaveLength(report.inputs.length);
      }
      // The inputs are spread over several shards, so the merge has something to put in order.
      expect(new Set(codes).size).toBeGreaterThan(1);
      const whole = built(["verify", "--format", "json", "--trust", TRUST, ...INPUTS]);
      expect(whole.code).toBe(1);
      const wholeReport = JSON.parse(whole.stdout);
      expect(wholeReport.shard).toBeUndefined();
      expect(wholeReport.inputs.map((i: { exitCode: number }) => i.exitCode)).toEqual(
        expect.arrayContaining([0, 1, 3]),
      );
      for (const order of [files, [...files].reverse()]) {
        const merged = built(["merge", "--format", "json", ...order]);
        expect(merged.stderr).toBe("");
        expect(merged.code).toBe(whole.code);
        expect(merged.stdout).toBe(whole.stdout);
      }
      expect(validReport(JSON.parse(whole.stdout))).toBe(true);
      for (const format of ["text", "junit", "html", "ndjson"]) {
        const merged = built(["merge", "--format", format, ...files]);
        const direct = built(["verify", "--format", format, "--trust", TRUST, ...INPUTS]);
        expect(merged.stdout, format).toBe(direct.stdout);
        expect(merged.code).toBe(direct.code);
      }
    },
  );

  it("an argument that could not be expanded is in every shard's report, and once in the merged one", async () => {
    const at = dir();
    const args = ["--trust", TRUST, `@${join(at, "no-such-list")}`, inputOf("valid-capture"), inputOf("valid-rich")];
    const { files } = await shards(3, args, at);
    for (const f of files) expect(JSON.parse(readFileSync(f, "utf8")).inputs[0].error.code).toBe("INPUT_UNREADABLE");
    const whole = await runCli(["verify", "--format", "json", ...args]);
    const merged = await runCli(["merge", "--format", "json", ...files]);
    expect(merged.stdout).toBe(whole.stdout);
    expect(merged.code).toBe(2);
  });

  it("a shard that could not start (invalid trust file) in every shard merges to the whole run's error report", async () => {
    const trust = join(dir(), "trust.json");
    writeFileSync(trust, '{"version": 1, "version": 1}');
    const { files } = await shards(2, ["--trust", trust, inputOf("valid-capture")]);
    const whole = await runCli(["verify", "--format", "json", "--trust", trust, inputOf("valid-capture")]);
    expect(whole.code).toBe(2);
    const merged = await runCli(["merge", "--format", "json", ...files]);
    expect(merged.code).toBe(2);
    expect(merged.stdout).toBe(whole.stdout);
  });

  it("the exit code is the worst of the whole run's inputs, 1 > 2 > 3 > 0: a FAIL is not hidden behind an unreadable input", async () => {
    expect(worstExit([0, 3, 2, 1])).toBe(1);
    expect(worstExit([3, 2, 0])).toBe(2);
    expect(worstExit([0, 3])).toBe(3);
    expect(worstExit([])).toBe(0);
    const at = dir();
    const args = [
      "--trust",
      TRUST,
      join(at, "missing.json"),
      inputOf("neg-taskBinding-task-id"),
      inputOf("valid-rich"),
    ];
    const { files } = await shards(2, args, at);
    const merged = await runCli(["merge", "--format", "json", ...files]);
    expect(merged.code).toBe(1);
    const report = JSON.parse(merged.stdout);
    expect(report.policy.exitCode).toBe(1);
    expect(report.summary.exitCodes).toMatchObject({ "1": 1, "2": 1 });
  });

  it("one whole run's report merges alone: it is written again, in any format", async () => {
    const args = ["--trust", TRUST, ...INPUTS];
    const json = join(dir(), "whole.json");
    const whole = await runCli(["verify", "--format", "json", "-o", json, ...args]);
    const again = await runCli(["merge", "--format", "json", json]);
    expect(again.stdout).toBe(readFileSync(json, "utf8"));
    expect(again.code).toBe(whole.code);
    const text = await runCli(["merge", json]);
    expect(text.stdout).toBe((await runCli(["verify", ...args])).stdout);
  });
});

describe("merge refuses what is not one run's shards (exit 2, naming the file)", () => {
  const base = ["--trust", TRUST, ...INPUTS];

  it.each([
    ["the minimum evidence level (--min-evidence)", ["--min-evidence", "NONE"]],
    ["the required properties (--require)", ["--require", "localInclusion"]],
    ["what the run was given", ["--authority", "someone-else.example"]],
  ])("%s differs", async (what, extra) => {
    const a = await shards(2, base);
    const b = await shards(2, [...extra, ...base]);
    const r = await runCli(["merge", a.files[0] as string, b.files[1] as string]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`a2a-evidence: merge: ${b.files[1]} is not of the same run as ${a.files[0]}: ${what}`);
  });

  it("another trust file, another list of inputs, another shard count, another tool version", async () => {
    const a = await shards(2, base);
    const otherTrust = join(dir(), "trust.json");
    writeFileSync(otherTrust, `${readFileSync(TRUST, "utf8")}\n`);
    const cases: [string[], string][] = [
      [["--trust", otherTrust, ...INPUTS], "the trust file differs"],
      [["--trust", TRUST, ...INPUTS.slice(1)], "the number of inputs differs"],
      [["--trust", TRUST, ...INPUTS.slice(1), INPUTS[0] as string], "the list of inputs differs"],
    ];
    for (const [args, said] of cases) {
      const b = await shards(2, args);
      const r = await runCli(["merge", a.files[0] as string, b.files[1] as string]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(said);
    }
    const three = await shards(3, base);
    const r = await runCli(["merge", a.files[0] as string, three.files[1] as string]);
    expect(r.stderr).toContain("the shard count differs (3 here, 2 there)");
    const older = join(dir(), "older.json");
    writeFileSync(
      older,
      readFileSync(a.files[1] as string, "utf8").replace('"version": "0.1.0"', '"version": "0.0.9"'),
    );
    const v = await runCli(["merge", a.files[0] as string, older]);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain(`${older} is not of the same run as ${a.files[0]}: the tool version differs`);
  });

  it("a shard given twice, or missing (unless --allow-missing), and a whole run's report beside a shard's", async () => {
    const { files, codes } = await shards(3, base);
    const [one, two, three] = files as [string, string, string];
    const copy = join(dir(), "copy.json");
    writeFileSync(copy, readFileSync(two));
    const twice = await runCli(["merge", one, two, copy, three]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe(`a2a-evidence: merge: shard 2/3 is given twice: ${two} and ${copy}\n`);
    const missing = await runCli(["merge", "--format", "json", one, three]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toMatch(/the report of shard 2\/3 is missing: give every shard's report/);
    const allowed = await runCli(["merge", "--format", "json", "--allow-missing", one, three]);
    expect(allowed.stderr).toBe(
      "a2a-evidence: merge: shard 2/3 is missing: its inputs are not in the combined report\n",
    );
    const report = JSON.parse(allowed.stdout);
    const given = [one, three].map((f) => JSON.parse(readFileSync(f, "utf8")));
    expect(report.inputs).toHaveLength(given[0].inputs.length + given[1].inputs.length);
    expect(allowed.code).toBe(worstExit([codes[0], codes[2]] as (0 | 1 | 2 | 3)[]));
    const whole = join(dir(), "whole.json");
    await runCli(["verify", "--format", "json", "-o", whole, ...base]);
    const mixed = await runCli(["merge", one, whole]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(
      `${whole} is the report of a whole run (verify without --shard): it can only be merged alone`,
    );
  });

  it("two shards that disagree about one input", async () => {
    const { files } = await shards(2, base);
    const [a, b] = files.map((f) => JSON.parse(readFileSync(f, "utf8")));
    // b claims a's first input's place, with another input's report.
    b.shard.positions[0] = a.shard.positions[0];
    const forged = join(dir(), "forged.json");
    writeFileSync(forged, JSON.stringify(b));
    const r = await runCli(["merge", files[0] as string, forged]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${files[0]} and ${forged} disagree about input ${a.shard.positions[0] + 1} of the run`);
  });

  it("a shard that could not start is kept as an error, and cannot let shards of two runs through", async () => {
    const badTrust = join(dir(), "trust.json");
    writeFileSync(badTrust, "{");
    const broken = await runCli(["verify", "--format", "json", "--shard", "1/3", "--trust", badTrust, ...INPUTS]);
    expect(broken.code).toBe(2);
    const first = join(dir(), "shard-1.json");
    writeFileSync(first, broken.stdout);
    expect(JSON.parse(broken.stdout).shard).toEqual({ index: 1, count: 3 });
    const good = await shards(3, base);
    const otherTrust = join(dir(), "trust.json");
    writeFileSync(otherTrust, `${readFileSync(TRUST, "utf8")} `);
    const other = await shards(3, ["--trust", otherTrust, ...INPUTS]);
    const mixed = await runCli(["merge", first, good.files[1] as string, other.files[2] as string]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(
      `${other.files[2]} is not of the same run as ${good.files[1]}: the trust file differs`,
    );
    const partial = await runCli([
      "merge",
      "--format",
      "json",
      first,
      good.files[1] as string,
      good.files[2] as string,
    ]);
    const report = JSON.parse(partial.stdout);
    expect(report.error.code).toBe("TRUST_NOT_JSON");
    const held = [1, 2].map((k) => JSON.parse(readFileSync(good.files[k] as string, "utf8")).inputs.length);
    expect(report.inputs).toHaveLength((held[0] as number) + (held[1] as number));
    const codes = report.inputs.map((i: { exitCode: 0 | 1 | 2 | 3 }) => i.exitCode);
    expect(partial.code).toBe(worstExit([...codes, 2]));
    expect(report.policy.exitCode).toBe(partial.code);
  });

  it("shards that together leave out an input of the run", async () => {
    const { files } = await shards(2, base);
    const a = JSON.parse(readFileSync(files[0] as string, "utf8"));
    a.inputs.pop();
    a.shard.positions.pop();
    const cut = join(dir(), "cut.json");
    writeFileSync(cut, JSON.stringify(a));
    const r = await runCli(["merge", cut, files[1] as string]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `a2a-evidence: merge: the shards' reports hold ${INPUTS.length - 1} of the run's ${INPUTS.length} inputs (shard.positions)\n`,
    );
  });

  it("a file that is not strict JSON, or not a report, is named once with its code and the JSON path at fault", async () => {
    const { files } = await shards(2, base);
    const at = dir();
    const duplicate = join(at, "duplicate.json");
    writeFileSync(
      duplicate,
      readFileSync(files[0] as string, "utf8").replace(
        '"reportVersion": 1,',
        '"reportVersion": 1, "reportVersion": 1,',
      ),
    );
    const d = await runCli(["merge", duplicate, files[1] as string]);
    expect([d.code, d.stdout, d.stderr]).toEqual([
      2,
      "",
      `a2a-evidence: ${duplicate}: JSON_DUPLICATE_MEMBER: duplicate member name "reportVersion" (at reportVersion)\n`,
    ]);
    const report = JSON.parse(readFileSync(files[0] as string, "utf8"));
    const cases: [(r: Record<string, unknown> & { inputs: Record<string, unknown>[] }) => void, string][] = [
      [(r) => void (r.inputs[0] = { ...r.inputs[0], exitCode: 7 }), "not 0, 1 or 3 (at inputs[0].exitCode)"],
      [(r) => void (r.extra = true), 'unknown member "extra" (at extra)'],
      [
        (r) => void ((r.shard as { positions: number[] }).positions = []),
        `holds 0 positions for ${report.inputs.length} inputs (at shard.positions)`,
      ],
      [
        (r) => void ((r.policy as { require: string[] }).require = ["trusted"]),
        "not a property name (at policy.require[0])",
      ],
    ];
    for (const [edit, said] of cases) {
      const bad = structuredClone(report);
      edit(bad);
      const file = join(at, "bad.json");
      writeFileSync(file, JSON.stringify(bad));
      const r = await runCli(["merge", file]);
      expect([r.code, r.stdout, r.stderr]).toEqual([
        2,
        "",
        `a2a-evidence: ${file}: INPUT_UNKNOWN_SHAPE: not a JSON report of a2a-evidence: ${said}\n`,
      ]);
    }
    const absent = join(at, "absent.json");
    const none = await runCli(["merge", absent]);
    expect([none.code, none.stdout, none.stderr]).toEqual([
      2,
      "",
      `a2a-evidence: ${absent}: INPUT_UNREADABLE: no such file\n`,
    ]);
  });

  it("-o and --format given twice, or -o naming a report it reads, are usage errors; the input is untouched", async () => {
    const { files } = await shards(2, base);
    const out = join(dir(), "out.json");
    for (const args of [
      ["-o", out, "-o", out],
      ["--format", "json", "--format", "text"],
    ]) {
      const r = await runCli(["merge", ...args, ...files]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("given twice");
    }
    const before = readFileSync(files[0] as string, "utf8");
    const r = await runCli(["merge", "-o", files[0] as string, ...files]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `a2a-evidence: -o: ${files[0] as string} is ${files[0] as string}, which this run reads: the report would overwrite it\n`,
    );
    expect(readFileSync(files[0] as string, "utf8")).toBe(before);
    const ok = await runCli(["merge", "--format", "json", "-o", out, ...files]);
    expect(ok.code).toBe(1);
    expect(JSON.parse(readFileSync(out, "utf8")).inputs).toHaveLength(INPUTS.length);
  });
});
