/**
 * Runs over many inputs: directories and @list files as inputs, --shard, the closing summary, a
 * progress bar only where a person watches, and reports written input by input that are byte for
 * byte the report verify() builds in memory.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, copyFileSync, readdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { verify } from "../../src/verify.js";
import { render } from "../../src/report/index.js";
import { makeStyle } from "../../src/report/style.js";
import { inShard } from "../../src/cli/inputs.js";
import { toPlain } from "../../src/json/value.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { capture } from "../properties/harness.js";

const VECTORS = join(REPO_ROOT, "vectors");
const RUNNER = join(REPO_ROOT, "test", "helpers", "run-cli.ts");
const TRUST = join(VECTORS, "valid-capture", "trust.json");
const inputOf = (name: string) =>
  ["input.json", "input.sse", "input.ndjson"].map((f) => join(VECTORS, name, f)).find((p) => existsSync(p)) as string;
const NAMES = [
  "valid-capture",
  "neg-taskBinding-task-id",
  "valid-stream-sse-jsonrpc",
  "inconclusive-unpinned-ts",
  "valid-rich",
];

/** A folder tree of inputs: a/…/input.json and so on, plus files that are not inputs. */
function tree(): string {
  const root = mkdtempSync(join(tmpdir(), "a2a-evidence-batch-"));
  for (const [k, name] of NAMES.entries()) {
    const dir = join(root, k % 2 === 0 ? "even" : "odd", name);
    mkdirSync(dir, { recursive: true });
    const input = inputOf(name);
    copyFileSync(input, join(dir, input.slice(input.lastIndexOf("/") + 1)));
    writeFileSync(join(dir, "notes.txt"), "not an input");
  }
  return root;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(json|ndjson|sse)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

describe("many inputs", () => {
  it("a directory is every *.json, *.ndjson and *.sse below it (and *.binpb, *.grpc), in a stable order", async () => {
    const root = tree();
    const r = await runCli(["verify", "--format", "json", "--trust", TRUST, root]);
    const sources = JSON.parse(r.stdout).inputs.map((i: { source: string }) => i.source);
    expect(sources).toEqual(filesUnder(root));
    expect(sources).toHaveLength(NAMES.length);
  });

  it("an @list file names inputs one per line; blank lines and # comments are skipped; an unreadable list is an input error", async () => {
    const root = tree();
    const files = filesUnder(root);
    const list = join(root, "list.txt");
    writeFileSync(list, `# the inputs\n${files[0]}\n\n${files[1]}\n`);
    const r = await runCli(["verify", "--format", "json", "--trust", TRUST, `@${list}`]);
    expect(JSON.parse(r.stdout).inputs.map((i: { source: string }) => i.source)).toEqual([files[0], files[1]]);
    const missing = await runCli([
      "verify",
      "--format",
      "json",
      "--trust",
      TRUST,
      "@/nonexistent/list.txt",
      files[0] as string,
    ]);
    const report = JSON.parse(missing.stdout);
    expect(report.inputs[0]).toMatchObject({
      source: "@/nonexistent/list.txt",
      exitCode: 2,
      error: { code: "INPUT_UNREADABLE" },
    });
    expect(missing.code).toBe(2);
  });

  it("a directory or list that names no input, or a list naming standard input, is an error for that argument (exit 2)", async () => {
    const root = tree();
    const empty = join(root, "empty");
    mkdirSync(join(empty, "deeper"), { recursive: true });
    writeFileSync(join(empty, "deeper", "notes.txt"), "not an input");
    const blank = join(root, "blank.txt");
    writeFileSync(blank, "# nothing here\n\n");
    const stdinList = join(root, "stdin.txt");
    writeFileSync(stdinList, `-\n${filesUnder(root)[0]}\n-\n`);
    const r = await runCli(["verify", "--format", "json", "--trust", TRUST, empty, `@${blank}`, `@${stdinList}`]);
    const report = JSON.parse(r.stdout);
    expect(
      report.inputs.map((i: { source: string; exitCode: number; error?: { code: string; message: string } }) => [
        i.source,
        i.exitCode,
        i.error?.code,
        i.error?.message,
      ]),
    ).toEqual([
      [empty, 2, "INPUT_UNREADABLE", "holds no *.json, *.ndjson, *.sse, *.binpb or *.grpc file"],
      [`@${blank}`, 2, "INPUT_UNREADABLE", "names no input"],
      [`@${stdinList}`, 2, "INPUT_UNREADABLE", "names standard input ('-'); give '-' as an argument instead"],
      [filesUnder(root)[0], 0, undefined, undefined],
    ]);
    expect(r.code).toBe(2);
    const text = await runCli(["verify", "--trust", TRUST, empty, `@${blank}`]);
    expect(text.stdout).toContain("summary: 2 inputs · exit 2: 2\n  no input was verified\n");
    expect(text.code).toBe(2);
  });

  it("@- reads the list from standard input, which counts as its one use", async () => {
    const root = tree();
    const files = filesUnder(root);
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", RUNNER, "verify", "--format", "json", "--trust", TRUST, "@-"],
      { input: `${files[0]}\n${files[1]}\n`, encoding: "utf8", cwd: REPO_ROOT },
    );
    expect(JSON.parse(r.stdout).inputs.map((i: { source: string }) => i.source)).toEqual([files[0], files[1]]);
    const twice = await runCli(["verify", "--trust", TRUST, "@-", "-"]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/standard input \('-'\) can be given only once/);
  });

  it("an empty shard verifies nothing, exits 0 and says so on stderr", async () => {
    const input = inputOf("valid-capture");
    const shards = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) => runCli(["verify", "--shard", `${i}/8`, "--trust", TRUST, input])),
    );
    const empty = shards.filter((r) => r.stderr !== "");
    expect(empty).toHaveLength(7);
    for (const r of empty) {
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^a2a-evidence: shard [1-8]\/8 holds none of the 1 inputs; nothing verified\n$/);
    }
  });

  it("--shard i/n splits the inputs into n disjoint parts that together are all of them", async () => {
    const root = tree();
    const parts: string[][] = [];
    for (const i of [1, 2, 3]) {
      const r = await runCli(["verify", "--format", "json", "--shard", `${i}/3`, "--trust", TRUST, root]);
      parts.push(JSON.parse(r.stdout).inputs.map((x: { source: string }) => x.source));
    }
    expect(parts.flat().sort()).toEqual(filesUnder(root));
    expect(new Set(parts.flat()).size).toBe(NAMES.length);
    expect((await runCli(["verify", "--shard", "4/3", root])).code).toBe(2);
    expect((await runCli(["verify", "--shard", "0/3", root])).stderr).toMatch(/--shard: "0\/3" is not i\/n/);
  });

  it("a log forked between inputs of two shards is found by each shard, with or without worker threads: every input's report is the whole run's", async () => {
    const mine = capture();
    const theirs = capture({ taskId: uuidFromLabel("the other branch") });
    const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-shard-fork-"));
    const trust = join(dir, "trust.json");
    writeFileSync(trust, JSON.stringify(toPlain(mine.trust)));
    // Two copies of each branch, each branch in a shard of its own: within a shard the copies
    // agree, and the fork shows only when the other shard's inputs are compared too.
    const first = { index: 1, count: 2 };
    const files: string[] = [];
    for (const [label, e, inFirst] of [
      ["mine", mine, true],
      ["theirs", theirs, false],
    ] as const) {
      for (let i = 0, n = 0; n < 2; i++) {
        const path = join(dir, `${label}-${i}.json`);
        if (inShard(path, first) !== inFirst) continue;
        writeFileSync(path, JSON.stringify(toPlain(e.input)));
        files.push(path);
        n++;
      }
    }
    const whole = await runCli(["verify", "--format", "json", "--trust", trust, ...files]);
    expect(whole.code).toBe(1);
    const wholeInputs = JSON.parse(whole.stdout).inputs as { source: string }[];
    for (const i of [1, 2]) {
      const args = ["verify", "--format", "json", "--shard", `${i}/2`, "--trust", trust, ...files];
      const r = await runCli(args);
      expect(r.code).toBe(1);
      const inputs = JSON.parse(r.stdout).inputs as {
        source: string;
        properties: { continuity: { state: string; checks: { id: string; state: string }[] } };
      }[];
      expect(inputs).toHaveLength(2);
      for (const input of inputs) {
        expect(input.properties.continuity.state).toBe("FAIL");
        expect(input.properties.continuity.checks.find((c) => c.state === "FAIL")?.id).toBe("equivocation.crossInput");
        expect(input).toEqual(wholeInputs.find((w) => w.source === input.source));
      }
      if (existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"))) {
        const threads = spawnSync(
          process.execPath,
          [join(REPO_ROOT, "bin", "a2a-evidence.cjs"), ...args, "--jobs", "2"],
          {
            encoding: "utf8",
          },
        );
        expect(threads.status).toBe(1);
        expect(threads.stdout).toBe(r.stdout);
      } else process.stderr.write("SKIPPED: --shard with --jobs needs the built CLI (npm run build)\n");
    }
  });

  it.each(["json", "text", "ndjson", "junit", "html", "github"])(
    "--format %s written input by input is byte for byte the report verify() builds",
    async (format) => {
      const inputs = NAMES.map(inputOf);
      const r = await runCli(["verify", "--format", format, "--trust", TRUST, ...inputs]);
      const report = verify({
        inputs: inputs.map((p) => ({ source: p, data: readFileSync(p) })),
        trust: readFileSync(TRUST),
      });
      expect(r.stdout).toBe(render(format as "json", report, { verbose: false, style: makeStyle(false) }));
      expect(r.code).toBe(report.policy.exitCode);
    },
  );

  it("the summary counts inputs per exit class and each property's states, in text and JSON", async () => {
    const inputs = NAMES.map(inputOf);
    const json = JSON.parse((await runCli(["verify", "--format", "json", "--trust", TRUST, ...inputs])).stdout);
    expect(json.summary.inputs).toBe(NAMES.length);
    expect(json.summary.exitCodes["1"]).toBeGreaterThan(0);
    expect(
      Object.values(json.summary.properties.taskBinding as Record<string, number>).reduce((a, b) => a + b, 0),
    ).toBe(NAMES.length);
    const text = (await runCli(["verify", "--trust", TRUST, ...inputs])).stdout.trimEnd().split("\n");
    expect(text.at(-1)).toMatch(/^exit 1 \(the worst of 5 inputs\): some property FAILs in /);
    expect(text.find((l) => l.startsWith("summary: "))).toMatch(/^summary: 5 inputs · exit 0: \d+ · exit 1: \d+/);
    const one = JSON.parse(
      (await runCli(["verify", "--format", "json", "--trust", TRUST, inputs[0] as string])).stdout,
    );
    expect(one.summary).toBeUndefined();
  });

  it("ndjson: one line per input and a closing run line, each valid against its schema", async () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "report.schema.json"), "utf8")));
    const validate = ajv.compile(
      JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "report-ndjson.schema.json"), "utf8")),
    );
    const r = await runCli(["verify", "--format", "ndjson", "--trust", TRUST, ...NAMES.map(inputOf)]);
    const lines = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(NAMES.length + 1);
    for (const l of lines) expect(validate(l), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(lines.at(-1))).toEqual(["run"]);
  });

  it("a progress bar on a terminal's stderr, never under CI, with -q or for one input, and cleared at the end", async () => {
    const inputs = NAMES.map(inputOf);
    const shown = await runCli(["verify", "--format", "json", "--trust", TRUST, ...inputs], { stderrTTY: true });
    expect(shown.stderr).toMatch(/\r\[#+\.*\] 5\/5 verifying\u001b\[K/);
    expect(shown.stderr.endsWith("\r\u001b[K")).toBe(true);
    expect(
      (
        await runCli(["verify", "--format", "json", "--trust", TRUST, ...inputs], {
          stderrTTY: true,
          env: { CI: "true" },
        })
      ).stderr,
    ).toBe("");
    expect((await runCli(["verify", "-q", "--trust", TRUST, ...inputs], { stderrTTY: true })).stderr).toBe("");
    expect((await runCli(["verify", "--format", "json", "--trust", TRUST, ...inputs])).stderr).toBe("");
  });
});
