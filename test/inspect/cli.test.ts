/**
 * `a2a-evidence inspect` and `verify --explain` at the command line: every shipped vector (valid
 * and negative, JSON and stream inputs) explains with exit 0 and JSON that validates against
 * schemas/inspect.schema.json; the output is deterministic; `--bytes` adds the bytes, `--all`
 * lifts the caps; an input that cannot be read exits 2 with one line; a Task that has not ended
 * exits 3, as verify, with the interim records it carries explained; --interim adds records; text
 * from the input is printed through printable; `verify --explain` appends the same explanation to
 * the report.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { pyjson } from "../../src/canon/pyjson.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { isJsonObject, member } from "../../src/json/value.js";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { vectorInputFile } from "../helpers/vector-input.js";

const VECTORS = join(REPO_ROOT, "vectors");
const NAMES = readdirSync(VECTORS)
  .filter((n) => existsSync(join(VECTORS, n, "expected.json")))
  .sort();
const RUNNER = join(REPO_ROOT, "test", "helpers", "run-cli.ts");
const input = (name: string) => join(VECTORS, name, vectorInputFile(join(VECTORS, name)));
const trust = (name: string) => join(VECTORS, name, "trust.json");
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(
  JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "inspect.schema.json"), "utf8")),
);

function schemaErrors(json: unknown): string {
  return validate(json) ? "" : JSON.stringify(validate.errors?.slice(0, 3));
}

describe("inspect on every shipped vector", () => {
  it("covers JSON and stream inputs, valid and negative vectors", () => {
    const files = NAMES.map((n) => vectorInputFile(join(VECTORS, n)));
    expect(files).toContain("input.sse");
    expect(files).toContain("input.ndjson");
    expect(NAMES.some((n) => n.startsWith("neg-"))).toBe(true);
    expect(NAMES.some((n) => n.startsWith("valid-"))).toBe(true);
  });

  for (const name of NAMES) {
    // A Task that has not ended is pending, as verify says: exit 3, and what it carries explained.
    const pending = name.startsWith("pending-");
    it(`${name}: exit ${pending ? 3 : 0}, JSON valid against the schema, the same bytes twice, with and without a trust file`, async () => {
      for (const args of [["--trust", trust(name)], []]) {
        const text = await runCli(["inspect", ...args, input(name)]);
        expect([text.code, text.stderr]).toEqual([pending ? 3 : 0, ""]);
        expect(text.stdout).toMatch(
          pending
            ? /^inspect .*\n[\s\S]*\nThe Task has not ended: INPUT_EVIDENCE_PENDING\n {2}Task: {16}result, in TASK_STATE_[A-Z_]+\n[\s\S]*\nInterim records\n {2}\d interim record\(s\) carried\n/
            : /^inspect .*\n[\s\S]*\n1\. Where the bundle was found\n[\s\S]*\n11\. Commitments to the observed Task\n[\s\S]*\n12\. Interim records\n/,
        );
        const again = await runCli(["inspect", ...args, input(name)]);
        expect(again.stdout).toBe(text.stdout);
        for (const extra of [[], ["--bytes", "--all"]]) {
          const json = await runCli(["inspect", "--format", "json", ...extra, ...args, input(name)]);
          expect([json.code, json.stderr]).toEqual([pending ? 3 : 0, ""]);
          expect(JSON.parse(json.stdout).pending !== undefined).toBe(pending);
          expect(schemaErrors(JSON.parse(json.stdout))).toBe("");
          expect((await runCli(["inspect", "--format", "json", ...extra, ...args, input(name)])).stdout).toBe(
            json.stdout,
          );
        }
      }
    });
  }
});

describe("--bytes", () => {
  it("prints the canonical bytes themselves: the pyjson of the payload, whose SHA-256 is the one shown", async () => {
    const bundle = bareBundle("valid-capture");
    const payload = member(bundle.value, "taskEvidencePayload");
    if (payload === undefined) throw new Error("no payload");
    const text = pyjson(payload);
    if (!text.ok) throw new Error(text.detail);
    const without = await runCli(["inspect", input("valid-capture")]);
    const withBytes = await runCli(["inspect", "--bytes", input("valid-capture")]);
    expect(without.stdout).not.toContain(text.value.text);
    expect(withBytes.stdout).toContain(`| ${text.value.text}`);
    const json = JSON.parse((await runCli(["inspect", "--bytes", "--format", "json", input("valid-capture")])).stdout);
    expect(json.evidenceId.preimage.text).toBe(text.value.text);
    expect(json.producerEnvelope.sigStructure.hex).toMatch(/^846a5369676e617475726531/);
    expect(
      JSON.parse((await runCli(["inspect", "--format", "json", input("valid-capture")])).stdout).evidenceId.preimage,
    ).not.toHaveProperty("text");
  });
});

/** The bundle in a vector's raw part, parsed strictly. */
function bareBundle(name: string): { bytes: Buffer; value: NonNullable<ReturnType<typeof asObject>> } {
  const task = JSON.parse(readFileSync(input(name), "utf8"));
  const artifacts = (task.finalTask ?? task.result ?? task).artifacts as { parts: { raw?: string }[] }[];
  const raw = artifacts.map((a) => a.parts[0]?.raw).find((r) => r !== undefined) as string;
  const bytes = Buffer.from(raw, "base64");
  return { bytes, value: asObject(bytes) };
}

function asObject(bytes: Uint8Array) {
  const v = parseStrictJson(bytes);
  if (!v.ok || !isJsonObject(v.value)) throw new Error("not an object");
  return v.value;
}

describe("lists are capped at 20 unless --all", () => {
  // A Task with 25 history messages and a bundle that commits to all of them (digests aside:
  // inspect explains what is there, whatever it proves).
  const ids = Array.from({ length: 25 }, (_, i) => `m-${String(i).padStart(2, "0")}`);
  const bundle = {
    extensionVersion: "1",
    evidenceId: "00".repeat(32),
    taskEvidencePayload: {
      taskId: "t",
      terminalState: "TASK_STATE_COMPLETED",
      nonEvidenceArtifacts: [],
      transcript: ids.map((messageId, sequence) => ({
        sequence,
        messageId,
        role: "ROLE_USER",
        partCommitment: "00".repeat(32),
      })),
    },
  };
  const task = {
    id: "t",
    contextId: "c",
    status: { state: "TASK_STATE_COMPLETED" },
    history: ids.map((messageId) => ({ messageId, role: "ROLE_USER", parts: [{ text: messageId }] })),
    artifacts: [
      {
        artifactId: "task-evidence-bundle",
        parts: [
          {
            raw: Buffer.from(JSON.stringify(bundle)).toString("base64"),
            mediaType: "application/vnd.a2a-task-evidence+json",
          },
        ],
      },
    ],
  };
  const file = tempFile("task.json", JSON.stringify(task));

  it("20 transcript entries, then how many more", async () => {
    const r = await runCli(["inspect", file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("    [19] m-19 ROLE_USER");
    expect(r.stdout).not.toContain("[20] m-20");
    expect(r.stdout).toContain("    … and 5 more transcript entries (--all lists every one)");
    const json = JSON.parse((await runCli(["inspect", "--format", "json", file])).stdout);
    expect([json.commitments.transcript.items.length, json.commitments.transcript.omitted]).toEqual([20, 5]);
    expect(schemaErrors(json)).toBe("");
  });

  it("--all lists every one", async () => {
    const r = await runCli(["inspect", "--all", file]);
    expect(r.stdout).toContain("    [24] m-24 ROLE_USER");
    expect(r.stdout).not.toContain("more transcript entries");
    const json = JSON.parse((await runCli(["inspect", "--all", "--format", "json", file])).stdout);
    expect([json.commitments.transcript.items.length, json.commitments.transcript.omitted]).toEqual([25, 0]);
  });
});

describe("an input that cannot be read: exit 2, one line on stderr, nothing on stdout", () => {
  it.each<[string, string | undefined, RegExp]>([
    ["not JSON", "{ not json", /^a2a-evidence: .*broken\.json: JSON_SYNTAX: /],
    [
      "a duplicate member",
      '{"a": 1, "a": 2}',
      /^a2a-evidence: .*broken\.json: JSON_DUPLICATE_MEMBER: duplicate member name "a" \(at a\)$/,
    ],
    ["no known shape", '{"hello": "world"}', /^a2a-evidence: .*broken\.json: INPUT_UNKNOWN_SHAPE: /],
    [
      "a Task with no evidence",
      JSON.stringify({ id: "t", status: { state: "TASK_STATE_COMPLETED" } }),
      /^a2a-evidence: .*broken\.json: INPUT_NO_EVIDENCE: /,
    ],
    ["a missing file", undefined, /^a2a-evidence: \/nonexistent\/broken\.json: INPUT_UNREADABLE: no such file$/],
  ])("%s", async (_, content, line) => {
    const path = content === undefined ? "/nonexistent/broken.json" : tempFile("broken.json", content);
    const r = await runCli(["inspect", path]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.endsWith("\n")).toBe(true);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(line);
  });

  it("a trust file, --task or --cosignatures that cannot be used names the flag and the file", async () => {
    const bad = tempFile("bad.json", '{"version": 1, "producers": 3}');
    const t = await runCli(["inspect", "--trust", bad, input("valid-minimal")]);
    expect([t.code, t.stdout]).toEqual([2, ""]);
    expect(t.stderr).toMatch(/^a2a-evidence: trust file .*bad\.json: TRUST_SCHEMA: .*\n$/);
    const task = await runCli(["inspect", "--task", tempFile("t.json", "[1,"), bareBundleFile()]);
    expect(task.stderr).toMatch(/^a2a-evidence: --task .*t\.json: JSON_SYNTAX: .*\n$/);
    const cos = await runCli([
      "inspect",
      "--cosignatures",
      tempFile("c.json", '[{"type": "c2sp-cosignature/v1"}]'),
      input("valid-minimal"),
    ]);
    expect(cos.code).toBe(2);
    expect(cos.stderr).toMatch(/^a2a-evidence: --cosignatures .*c\.json: COSIGNATURE_EVIDENCE_MALFORMED: .*\n$/);
  });

  it("usage errors exit 2: an unknown format, two inputs, stdin twice", async () => {
    expect((await runCli(["inspect", "--format", "junit", input("valid-minimal")])).code).toBe(2);
    expect((await runCli(["inspect", input("valid-minimal"), input("valid-capture")])).code).toBe(2);
    const twice = await runCli(["inspect", "--trust", "-", "-"]);
    expect([twice.code, twice.stderr]).toEqual([2, "a2a-evidence: standard input ('-') can be given only once\n"]);
  });
});

function bareBundleFile(): string {
  return tempFile("bundle.json", bareBundle("valid-minimal").bytes);
}

describe("--task and --cosignatures", () => {
  it("a bare bundle's commitments are recomputed from --task", async () => {
    const bare = await runCli(["inspect", bareBundleFile()]);
    expect(bare.stdout).toContain("11. Commitments to the observed Task\n  not present: no observed Task");
    const withTask = await runCli(["inspect", "--task", input("valid-minimal"), bareBundleFile()]);
    expect(withTask.code).toBe(0);
    expect(withTask.stdout).toMatch(/observed Task:\s+--task:result\n/);
    expect(withTask.stdout).toMatch(/observed --task:result\.history\[0\] .* \(equal\)/);
  });

  it("the --cosignatures file's lines for this input's checkpoints are explained like carried ones", async () => {
    // The file is built from what inspect printed for the bundle: its rendered notes and its lines.
    const carried = JSON.parse(
      (await runCli(["inspect", "--format", "json", input("valid-continuity-1of1")])).stdout,
    ).continuity;
    const file = (["current", "prior"] as const).map((role) => ({
      type: "c2sp-cosignature/v1",
      note: carried.notes.find((n: { checkpoint: string }) => n.checkpoint === role).text,
      lines: carried.lines.items
        .filter((l: { checkpoint: string }) => l.checkpoint === role)
        .map((l: { line: string }) => l.line),
    }));
    // The same input without them: continuityEvidence sits outside the manifest, so every digest holds.
    const task = JSON.parse(readFileSync(input("valid-continuity-1of1"), "utf8"));
    const part = task.finalTask.artifacts.at(-1).parts[0];
    part.raw = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(part.raw, "base64").toString("utf8")),
        continuityEvidence: undefined,
      }),
    ).toString("base64");
    const stripped = tempFile("input.json", JSON.stringify(task));
    const without = await runCli(["inspect", "--trust", trust("valid-continuity-1of1"), stripped]);
    expect(without.stdout).toContain("cosignature lines: none carried");
    const r = await runCli([
      "inspect",
      "--format",
      "json",
      "--trust",
      trust("valid-continuity-1of1"),
      "--cosignatures",
      tempFile("c.json", JSON.stringify(file)),
      stripped,
    ]);
    const lines = JSON.parse(r.stdout).continuity.lines.items;
    expect(lines.map((l: { at: string; result: string }) => [l.at, l.result])).toEqual([
      ["--cosignatures[0].lines[0]", "verifies"],
      ["--cosignatures[1].lines[0]", "verifies"],
    ]);
  });
});

describe("text from the input is printed through printable", () => {
  it("control characters and bidirectional overrides in a messageId reach neither the terminal nor the JSON raw", async () => {
    const hostile = "m\u001b[31mFAIL\u202e\u2028";
    const bundle = {
      extensionVersion: "1",
      evidenceId: "x",
      taskEvidencePayload: {
        transcript: [{ sequence: 0, messageId: hostile, role: "ROLE_USER", partCommitment: "p" }],
      },
    };
    const task = {
      id: "t",
      status: { state: "TASK_STATE_COMPLETED" },
      history: [{ messageId: hostile, role: "ROLE_USER", parts: [{ text: "hi" }] }],
      artifacts: [
        {
          artifactId: "task-evidence-bundle",
          parts: [{ raw: Buffer.from(JSON.stringify(bundle)).toString("base64") }],
        },
      ],
    };
    const file = tempFile("hostile.json", JSON.stringify(task));
    for (const args of [[], ["--bytes"], ["--format", "json"], ["--format", "json", "--bytes"]]) {
      const r = await runCli(["inspect", ...args, file]);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/[\u001b\u202e\u2028]/);
    }
    const text = await runCli(["inspect", file]);
    expect(text.stdout).toContain("m\\u001b[31mFAIL\\u202e\\u2028");
    expect(
      JSON.parse((await runCli(["inspect", "--format", "json", file])).stdout).commitments.transcript.items[0]
        .messageId,
    ).toBe(hostile);
  });
});

describe("the Task lifecycle", () => {
  const capture = "valid-lifecycle-interim-earlier-checkpoint";
  /** The capture without its interimBundles, and each interim record as a file of its own. */
  function split(): { input: string; interim: string[] } {
    const task = JSON.parse(readFileSync(input(capture), "utf8"));
    const interim = (task.interimBundles as unknown[]).map((b, i) => tempFile(`interim-${i}.json`, JSON.stringify(b)));
    delete task.interimBundles;
    return { input: tempFile("terminal.json", JSON.stringify(task)), interim };
  }

  it("explains each transition entry, its preimage and the resumption; the supplied interim record in section 12", async () => {
    const r = await runCli(["inspect", "--trust", trust(capture), input(capture)]);
    expect(r.code).toBe(0);
    // The worked values of docs/profile.md §2.4 and §3.2.
    expect(r.stdout).toContain(
      "    [2] transition TASK_STATE_WORKING -> TASK_STATE_INPUT_REQUIRED, messageId 7a66e626-220a-415c-9606-a89fa4563632, transitionCommitment 69e624111b566c20d8ad56925a3e844c7be9e2e603622432b548d9899d57c874\n",
    );
    expect(r.stdout).toMatch(
      /\n {6}preimage: .*: 348 bytes, SHA-256 69e624111b566c20d8ad56925a3e844c7be9e2e603622432b548d9899d57c874\n {6}recomputed: {10}69e6\w+ \(equal\)\n/,
    );
    expect(r.stdout).toMatch(
      /\n {6}resumption: {10}the resuming Message names Task "9c404a25-77e6-4746-ac93-8f4ec9d3b189", .* \(the same Task; the same context\)\n/,
    );
    expect(r.stdout).toContain(
      "\n  interim record d805cff62d7c74d1d396da5cb4d7fa9ec47725c240704e6d52f6df48057904ed at interimBundles[0]\n",
    );
    expect(r.stdout).toContain(
      "\n        consistency 10 -> 16, carried by the terminal record (manifest.consistencyProof): verifies\n",
    );
    const bytes = await runCli(["inspect", "--bytes", input(capture)]);
    expect(bytes.stdout).toContain(
      '        | ["a2a-task-evidence/transition/v1","9c404a25-77e6-4746-ac93-8f4ec9d3b189","895e3603-bb2d-42e2-8fb1-afbbc22fcf82",2,"TASK_STATE_WORKING","TASK_STATE_INPUT_REQUIRED","7a66e626-220a-415c-9606-a89fa4563632","9c404a25-77e6-4746-ac93-8f4ec9d3b189","895e3603-bb2d-42e2-8fb1-afbbc22fcf82","f4df30201600454737eb1422f5435615147cdef35f8601d223757a31a976edf9"]\n',
    );
  });

  it("--interim adds records, named by position; one that cannot be used names --interim and the file", async () => {
    const { input: terminal, interim } = split();
    const without = await runCli(["inspect", terminal]);
    expect(without.stdout).toContain(
      "      not supplied: pass it, or the paused Task that carries it, with --interim to have it explained\n",
    );
    const r = await runCli(["inspect", "--format", "json", ...interim.flatMap((f) => ["--interim", f]), terminal]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(schemaErrors(json)).toBe("");
    expect(json.interim.records.items.map((x: { label: string }) => x.label)).toEqual([
      "interim record d805cff62d7c74d1d396da5cb4d7fa9ec47725c240704e6d52f6df48057904ed at --interim[0]:$",
    ]);
    expect(json.interim.citations.items[0].supplied).toBe("--interim[0]:$");
    const bad = await runCli(["inspect", "--interim", terminal, terminal]);
    expect([bad.code, bad.stdout]).toEqual([2, ""]);
    expect(bad.stderr).toMatch(
      /^a2a-evidence: --interim .*terminal\.json: INPUT_INTERIM_NO_BUNDLE: --interim\[0\]: .*\n$/,
    );
    const missing = await runCli(["inspect", "--interim", "/nonexistent/interim.json", terminal]);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      "a2a-evidence: --interim /nonexistent/interim.json: INPUT_UNREADABLE: --interim[0]: no such file\n",
    ]);
  });

  it("a pending Task: exit 3, its interim record explained with the paused Task it came with", async () => {
    const name = "pending-auth-required-with-interim";
    const r = await runCli(["inspect", "--trust", trust(name), input(name)]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain("\n  evidenceStatus:      EVIDENCE_STATUS_PENDING\n");
    expect(r.stdout).toContain(
      "\n  interim record adad3022f0b6c1e0f603f04e084c6d0264b4a7e409d464c480ef69e28e10acb6 at result.artifacts[0].parts[0].raw\n",
    );
    expect(r.stdout).toContain("\n    against the paused Task it came with, result (TASK_STATE_AUTH_REQUIRED)\n");
    expect(r.stdout).not.toContain("against the terminal record");
  });

  it("verify --explain takes --interim, and explains a pending Task after its report", async () => {
    const { input: terminal, interim } = split();
    const args = ["--trust", trust(capture), "--interim", interim[0] as string, terminal];
    const report = await runCli(["verify", ...args]);
    const explained = await runCli(["inspect", ...args]);
    const both = await runCli(["verify", "--explain", ...args]);
    expect([report.code, both.code]).toEqual([0, 0]);
    expect(both.stdout).toBe(`${report.stdout}\n${explained.stdout}`);
    expect(both.stdout).toContain("at --interim[0]:$\n");
    const name = "pending-auth-required-with-interim";
    const pendingReport = await runCli(["verify", "--trust", trust(name), input(name)]);
    const pending = await runCli(["verify", "--explain", "--trust", trust(name), input(name)]);
    const pendingExplained = await runCli(["inspect", "--trust", trust(name), input(name)]);
    expect([pendingReport.code, pending.code]).toEqual([3, 3]);
    expect(pending.stdout).toBe(`${pendingReport.stdout}\n${pendingExplained.stdout}`);
  });
});

describe("verify --explain", () => {
  it("prints the verify report, then the same explanation inspect prints; the exit code is verify's", async () => {
    for (const name of ["valid-capture", "neg-localInclusion-witness-hash"]) {
      const report = await runCli(["verify", "--trust", trust(name), input(name)]);
      const explained = await runCli(["inspect", "--trust", trust(name), input(name)]);
      const both = await runCli(["verify", "--explain", "--trust", trust(name), input(name)]);
      expect(both.code).toBe(report.code);
      expect(both.stdout).toBe(`${report.stdout}\n${explained.stdout}`);
    }
    expect(
      (
        await runCli([
          "verify",
          "--trust",
          trust("neg-localInclusion-witness-hash"),
          input("neg-localInclusion-witness-hash"),
        ])
      ).code,
    ).toBe(1);
  });

  it("explains each input; one verify could not read is left to the report", async () => {
    const broken = tempFile("broken.json", "{");
    const r = await runCli(["verify", "--explain", input("valid-minimal"), broken, input("valid-capture")]);
    expect(r.code).toBe(2);
    expect(r.stdout.match(/^inspect /gm)).toHaveLength(2);
    expect(r.stdout).toContain(`\ninspect ${input("valid-minimal")}\n`);
    expect(r.stdout).toContain(`\ninspect ${input("valid-capture")}\n`);
  });

  it("follows the text report only: with another --format or -q it is a usage error", async () => {
    for (const args of [["--format", "json"], ["--format", "junit"], ["-q"]]) {
      const r = await runCli(["verify", "--explain", ...args, input("valid-minimal")]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^a2a-evidence: --explain follows the text report/);
    }
  });
});

describe("standard input", () => {
  it("inspect - reads the input from stdin and names it stdin", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", RUNNER, "inspect", "-"], {
      input: readFileSync(input("valid-minimal")),
      encoding: "utf8",
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^inspect stdin\n/);
    const bad = spawnSync(process.execPath, ["--import", "tsx", RUNNER, "inspect", "-"], {
      input: "{",
      encoding: "utf8",
    });
    expect([bad.status, bad.stdout]).toEqual([2, ""]);
    expect(bad.stderr).toMatch(/^a2a-evidence: stdin: JSON_SYNTAX: [^\n]*\n$/);
  });
});
