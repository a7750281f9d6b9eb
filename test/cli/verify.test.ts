import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { PROPERTY_NAMES } from "../../src/report/model.js";

const vector = (name: string, file: string) => join(REPO_ROOT, "vectors", name, file);
const MINIMAL = vector("valid-minimal", "input.json");
const MINIMAL_TRUST = vector("valid-minimal", "trust.json");
const reportSchema = JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "report.schema.json"), "utf8"));
const validateReport = new Ajv2020({ strict: true, allErrors: true }).compile(reportSchema);
const ANSI = /\u001b\[/;

describe("verify on the shipped vectors", () => {
  it("the README's command: valid-minimal exits 0 with one line per property, in contract order", async () => {
    const r = await runCli(["verify", "--trust", MINIMAL_TRUST, MINIMAL]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const lines = r.stdout.split("\n");
    const order = PROPERTY_NAMES.map((p) => lines.findIndex((l) => l.includes(` ${p} `)));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(r.stdout).toMatch(/evidence level: achieved EXTERNALLY_REGISTERED/);
    expect(r.stdout).toMatch(/exit 0: the policy holds/);
  });

  it("--format json matches the report schema and is byte-identical across runs", async () => {
    const a = await runCli(["verify", "--format", "json", "--trust", MINIMAL_TRUST, MINIMAL]);
    const b = await runCli(["verify", "--format", "json", "--trust", MINIMAL_TRUST, MINIMAL]);
    expect(a.stdout).toBe(b.stdout);
    const report = JSON.parse(a.stdout);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.inputs[0].locations).toEqual(["result.artifacts[1].parts[0].raw"]);
    expect(report.inputs[0].shape).toBe("jsonrpc-response");
    expect(report.policy).toEqual({ require: [], minEvidence: null, exitCode: 0 });
    expect(a.stdout).not.toMatch(ANSI);
  });

  it("every shipped vector's JSON report matches the schema", async () => {
    for (const name of ["valid-rich", "neg-taskBinding-task-id", "inconclusive-unpinned-ts", "valid-data-part"]) {
      const r = await runCli([
        "verify",
        "--format",
        "json",
        "--trust",
        vector(name, "trust.json"),
        vector(name, "input.json"),
      ]);
      expect(validateReport(JSON.parse(r.stdout)), `${name}: ${JSON.stringify(validateReport.errors)}`).toBe(true);
    }
  });

  it("colour only on a TTY, and never with NO_COLOR, --no-color or JSON", async () => {
    const args = ["verify", "--trust", MINIMAL_TRUST, MINIMAL];
    expect((await runCli(args, { tty: true })).stdout).toMatch(ANSI);
    expect((await runCli(args, { tty: false })).stdout).not.toMatch(ANSI);
    expect((await runCli(args, { tty: true, env: { NO_COLOR: "1" } })).stdout).not.toMatch(ANSI);
    expect((await runCli([...args, "--no-color"], { tty: true })).stdout).not.toMatch(ANSI);
    expect(
      (await runCli(["verify", "--format", "json", "--trust", MINIMAL_TRUST, MINIMAL], { tty: true })).stdout,
    ).not.toMatch(ANSI);
  });

  it("-v lists every check with the values it compared", async () => {
    const r = await runCli(["verify", "-v", "--trust", MINIMAL_TRUST, MINIMAL]);
    expect(r.stdout).toMatch(/✔ evidenceId\.recompute: recomputed evidenceId matches/);
    expect(r.stdout).toMatch(/claimed: [0-9a-f]{64}/);
    expect(r.stdout).toMatch(/recomputed: [0-9a-f]{64}/);
    expect(r.stdout).toMatch(
      /witness\.signature \[manifest\.cllCheckpoint\.witnesses\[0\] https:\/\/ts\.a2a-evidence\.example\/valid-minimal\]/,
    );
  });

  it("-q prints no report; -o writes it to a file", async () => {
    const quiet = await runCli(["verify", "-q", "--trust", MINIMAL_TRUST, MINIMAL]);
    expect(quiet).toEqual({ code: 0, stdout: "", stderr: "" });
    const out = tempFile("report.json", "");
    const written = await runCli(["verify", "--format", "json", "-o", out, "--trust", MINIMAL_TRUST, MINIMAL]);
    expect(written.stdout).toBe("");
    expect(JSON.parse(readFileSync(out, "utf8")).policy.exitCode).toBe(0);
  });
});

describe("policy and exit codes", () => {
  it("a FAIL exits 1 whatever was required", async () => {
    const name = "neg-taskBinding-task-id";
    const r = await runCli([
      "verify",
      "--min-evidence",
      "NONE",
      "--trust",
      vector(name, "trust.json"),
      vector(name, "input.json"),
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /FAIL:\n\s+- taskBinding FAIL: payload taskId[\s\S]*?\n\s+exit 1: the evidence FAILs \(tamper, mismatch or forgery\): taskBinding/,
    );
  });

  it("below --min-evidence exits 3; a required property that is not PASS exits 3", async () => {
    const signed = "valid-signed-record-only";
    const args = ["--trust", vector(signed, "trust.json"), vector(signed, "input.json")];
    expect((await runCli(["verify", ...args])).code).toBe(0);
    const level = await runCli(["verify", "--min-evidence", "EXTERNALLY_REGISTERED", ...args]);
    expect(level.code).toBe(3);
    expect(level.stdout).toMatch(
      /policy not met:\n\s+- evidence level SIGNED_RECORD is below EXTERNALLY_REGISTERED \(--min-evidence\)/,
    );
    const required = await runCli(["verify", "--require", "externalRegistration", ...args]);
    expect(required.code).toBe(3);
    expect(required.stdout).toMatch(/- required externalRegistration is NOT_PRESENT: /);
  });

  it("without a trust file nothing FAILs on a valid vector, but the default policy does not hold: no producer key is pinned", async () => {
    const r = await runCli(["verify", "--format", "json", MINIMAL]);
    const report = JSON.parse(r.stdout);
    expect(report.inputs[0].properties.identityAuthorityBinding.state).toBe("NOT_CHECKED");
    expect(report.inputs[0].properties.externalRegistration.state).toBe("INCONCLUSIVE");
    expect(report.inputs[0].evidenceLevel.achieved).toBe("SIGNED_RECORD");
    expect(r.code).toBe(3);
    expect(report.inputs[0].reasons).toEqual([
      "evidence level SIGNED_RECORD is below EXTERNALLY_REGISTERED (the negotiated minimumEvidence)",
      "no producer key is pinned: anyone could have made this record; pass --trust with a trust file that pins the producer's key",
    ]);
    const optOut = await runCli(["verify", "--min-evidence", "NONE", MINIMAL]);
    expect(optOut.code).toBe(0);
    const strict = await runCli(["verify", "--min-evidence", "NONE", "--require", "identityAuthorityBinding", MINIMAL]);
    expect(strict.code).toBe(3);
  });

  it("several inputs: the worst wins (1 > 2 > 3 > 0): a FAIL outranks an input that could not be read", async () => {
    const trust = ["--trust", MINIMAL_TRUST];
    const neg = vector("neg-taskBinding-task-id", "input.json");
    const signedOnly = vector("valid-signed-record-only", "input.json");
    const ok = await runCli(["verify", ...trust, MINIMAL, MINIMAL]);
    expect(ok.code).toBe(0);
    const worst = await runCli([
      "verify",
      "--format",
      "json",
      "--min-evidence",
      "EXTERNALLY_REGISTERED",
      ...trust,
      MINIMAL,
      signedOnly,
    ]);
    expect(JSON.parse(worst.stdout).inputs.map((i: { exitCode: number }) => i.exitCode)).toEqual([0, 3]);
    expect(worst.code).toBe(3);
    expect((await runCli(["verify", ...trust, signedOnly, neg])).code).toBe(1);
    const unreadable = await runCli(["verify", ...trust, neg, "/nonexistent.json"]);
    expect(unreadable.code).toBe(1);
    expect((await runCli(["verify", ...trust, signedOnly, "/nonexistent.json"])).code).toBe(2);
    // The text report on stdout carries the error; stderr does not repeat it.
    expect(unreadable.stdout).toContain("INPUT_UNREADABLE");
    expect(unreadable.stderr).toBe("");
  });

  it("a bare bundle with --task binds the observed Task; --task next to a Task in the input exits 2", async () => {
    const response = JSON.parse(readFileSync(MINIMAL, "utf8"));
    const raw = response.result.artifacts[1].parts[0].raw;
    const bundle = tempFile("bundle.json", Buffer.from(raw, "base64"));
    const bare = await runCli(["verify", "--format", "json", "--trust", MINIMAL_TRUST, bundle]);
    expect(JSON.parse(bare.stdout).inputs[0].properties.taskBinding.state).toBe("NOT_CHECKED");
    expect(JSON.parse(bare.stdout).inputs[0].reasons).toContain("no observed Task: pass --task");
    expect(bare.code).toBe(3);
    const bound = await runCli(["verify", "--format", "json", "--trust", MINIMAL_TRUST, "--task", MINIMAL, bundle]);
    const report = JSON.parse(bound.stdout);
    expect(report.inputs[0].shape).toBe("bundle");
    expect(report.inputs[0].properties.taskBinding.state).toBe("PASS");
    const conflict = await runCli(["verify", "--trust", MINIMAL_TRUST, "--task", MINIMAL, MINIMAL]);
    expect(conflict.code).toBe(2);
    expect(conflict.stdout).toMatch(/INPUT_CONFLICTING_TASK/);
  });

  it("--first-task supplies the acceptance for negotiation", async () => {
    const capture = JSON.parse(readFileSync(vector("valid-capture", "input.json"), "utf8"));
    const first = tempFile("first.json", JSON.stringify(capture.firstTask));
    const final = tempFile("final.json", JSON.stringify(capture.finalTask));
    const trust = vector("valid-capture", "trust.json");
    const without = JSON.parse((await runCli(["verify", "--format", "json", "--trust", trust, final])).stdout);
    expect(without.inputs[0].properties.negotiation.state).toBe("INCONCLUSIVE");
    const withFirst = JSON.parse(
      (await runCli(["verify", "--format", "json", "--trust", trust, "--first-task", first, final])).stdout,
    );
    expect(withFirst.inputs[0].properties.negotiation.state).toBe("PASS");
  });
});

describe("the installed launcher", () => {
  const bin = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
  const built = existsSync(join(REPO_ROOT, "dist", "cli", "main.js"));

  // `npm run build` builds dist/; an unbuilt checkout must say so and exit 2.
  it(
    built
      ? "runs the built CLI, reads standard input, and sets the exit code"
      : "says the checkout is not built, exit 2",
    () => {
      if (!built) {
        const r = spawnSync(process.execPath, [bin, "--help"]);
        expect(r.status).toBe(2);
        expect(r.stderr.toString()).toMatch(/not built/);
        return;
      }
      const out = execFileSync(process.execPath, [bin, "verify", "--format", "json", "--trust", MINIMAL_TRUST, "-"], {
        input: readFileSync(MINIMAL),
      });
      expect(JSON.parse(out.toString()).inputs[0].source).toBe("stdin");
      const r = spawnSync(process.execPath, [bin, "verify", "/nonexistent.json"]);
      expect(r.status).toBe(2);
      // Said once: the text report on stdout names the error; stderr does not repeat it.
      expect(r.stdout.toString()).toMatch(/no such file/);
      expect(r.stderr.toString()).toBe("");
      expect(r.stdout.toString()).not.toMatch(/\n\s+at /);
    },
  );
});
