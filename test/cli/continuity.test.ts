/**
 * The continuity vectors at the command line with --min-evidence CONTINUITY_WITNESSED (exit 0
 * only where a quorum witnessed, 3 or 1 elsewhere, each with its reason in the detail), and the
 * continuity flags' helper (readContinuityFlags), whose call main.ts does not make yet.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { addContinuityOptions, readContinuityFlags } from "../../src/cli/continuity-flags.js";
import { readInput } from "../../src/cli/read.js";
import { verify } from "../../src/verify.js";
import { isFailedInput } from "../../src/report/model.js";
import { toPlain } from "../../src/json/value.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { at, capture } from "../properties/harness.js";

const vector = (name: string, file: string) => join(REPO_ROOT, "vectors", name, file);

describe("verify --min-evidence CONTINUITY_WITNESSED on the continuity vectors", () => {
  it.each<[string, number, RegExp]>([
    ["valid-continuity-1of1", 0, /^witnessed by 1 independent operator\(s\), 1 required: /],
    [
      "valid-continuity-2of3",
      0,
      /^witnessed by 2 independent operator\(s\), 2 required: operator-one .*, operator-two /,
    ],
    ["inconclusive-continuity-producer-witness", 3, /only producer-operated witnesses cosigned/],
    [
      "inconclusive-continuity-unknown-witness",
      3,
      /no cosignature verified under a pinned witness key \(2 line\(s\) from unknown cosigners\)/,
    ],
    [
      "neg-continuity-cosignature-signature",
      1,
      /cosignature does not verify over the current checkpoint's note .*: forged, corrupted, or about another checkpoint$/,
    ],
    [
      "neg-continuity-cosignature-other-root",
      1,
      /cosignature does not verify over the current checkpoint's note .*: forged, corrupted, or about another checkpoint$/,
    ],
    [
      "neg-continuity-stale-prior-as-current",
      1,
      /it is the witness's cosignature of the prior checkpoint \(5 leaves\), carried for the current one$/,
    ],
    ["inconclusive-continuity-genesis", 3, /^witnessed genesis: /],
    ["inconclusive-continuity-log-id", 3, /log_id "" cannot be a note origin/],
  ])("%s: exit %i", async (name, code, reason) => {
    const r = await runCli([
      "verify",
      "--format",
      "json",
      "--min-evidence",
      "CONTINUITY_WITNESSED",
      "--trust",
      vector(name, "trust.json"),
      vector(name, "input.json"),
    ]);
    expect(r.code).toBe(code);
    const input = JSON.parse(r.stdout).inputs[0];
    expect(input.properties.continuity.detail).toMatch(reason);
    expect(input.evidenceLevel.achieved).toBe(code === 0 ? "CONTINUITY_WITNESSED" : "EXTERNALLY_REGISTERED");
  });

  it("the text report names the achieved level and the reason", async () => {
    const r = await runCli([
      "verify",
      "--min-evidence",
      "CONTINUITY_WITNESSED",
      "--trust",
      vector("valid-continuity-1of1", "trust.json"),
      vector("valid-continuity-1of1", "input.json"),
    ]);
    expect(r.stdout).toMatch(/evidence level: achieved CONTINUITY_WITNESSED/);
    expect(r.stdout).toMatch(/continuity\s+PASS/);
  });
});

describe("the continuity flags (readContinuityFlags)", () => {
  it("registers --cosignatures and --checkpoints on a command", () => {
    let seen: unknown;
    const cmd = addContinuityOptions(
      new Command("verify")
        .exitOverride()
        .argument("<input>")
        .action((_, flags) => void (seen = flags)),
    );
    cmd.parse(["--cosignatures", "c.json", "--checkpoints", "k.json", "in.json"], { from: "user" });
    expect(seen).toEqual({ cosignatures: "c.json", checkpoints: ["k.json"] });
  });

  it("unreadable or malformed files are errors (exit 2 in the CLI)", async () => {
    expect(await readContinuityFlags({ cosignatures: "/nonexistent/c.json" })).toEqual({
      ok: false,
      message: "--cosignatures /nonexistent/c.json: INPUT_UNREADABLE: no such file",
    });
    const notJson = tempFile("c.json", "{");
    expect((await readContinuityFlags({ cosignatures: notJson })).ok).toBe(false);
    const wrongShape = tempFile(
      "c.json",
      JSON.stringify([{ type: "c2sp-cosignature/v1", checkpoint: "current", lines: [] }]),
    );
    expect(await readContinuityFlags({ cosignatures: wrongShape })).toEqual({
      ok: false,
      message: `--cosignatures ${wrongShape}: COSIGNATURE_EVIDENCE_MALFORMED: unknown member "checkpoint" (at --cosignatures[0].checkpoint)`,
    });
    const badCheckpoints = tempFile("k.json", JSON.stringify([{ v: 1 }]));
    const r = await readContinuityFlags({ checkpoints: badCheckpoints });
    expect(r.ok ? "ok" : r.message).toMatch(/^--checkpoints .*: CHECKPOINTS_FILE_MALFORMED: /);
  });

  it("a --cosignatures file carries the lines instead of the bundle: verify() gives the same PASS", async () => {
    const input = JSON.parse(readFileSync(vector("valid-continuity-1of1", "input.json"), "utf8"));
    const raw = input.finalTask.artifacts.at(-1).parts[0];
    const bundle = JSON.parse(Buffer.from(raw.raw, "base64").toString("utf8"));
    const m = bundle.manifest;
    const note = (cp: { log_id: string; root: string }, leaves: number) =>
      `agentactioncapsule.org/cll-mmr/v1/${cp.log_id}\n${leaves}\n${Buffer.from(cp.root, "hex").toString("base64")}\n`;
    const notes: Record<string, string> = { current: note(m.cllCheckpoint, 9), prior: note(m.priorCheckpoint, 5) };
    const file = bundle.continuityEvidence.map((e: { checkpoint: string; lines: string[] }) => ({
      type: "c2sp-cosignature/v1",
      note: notes[e.checkpoint],
      lines: e.lines,
    }));
    delete bundle.continuityEvidence;
    // The bundle without its cosignatures: the raw part re-encoded, every digest still holds (they are outside the manifest).
    raw.raw = Buffer.from(JSON.stringify(bundle)).toString("base64");
    const flags = await readContinuityFlags({ cosignatures: tempFile("c.json", JSON.stringify(file)) });
    if (!flags.ok) throw new Error(flags.message);
    const report = verify({
      inputs: [{ source: "in.json", data: JSON.stringify(input) }],
      trust: readFileSync(vector("valid-continuity-1of1", "trust.json")),
      minEvidence: "CONTINUITY_WITNESSED",
      at: "2026-10-01T10:00:00Z",
      ...flags.value,
    });
    const out = report.inputs[0];
    if (!out || isFailedInput(out)) throw new Error("not verified");
    expect([out.properties.continuity.state, report.policy.exitCode]).toEqual(["PASS", 0]);
    expect(out.properties.continuity.checks.filter((c) => c.id === "cosignature.time").map((c) => c.state)).toEqual([
      "PASS",
      "PASS",
    ]);
    const without = verify({
      inputs: [{ source: "in.json", data: JSON.stringify(input) }],
      trust: readFileSync(vector("valid-continuity-1of1", "trust.json")),
      minEvidence: "CONTINUITY_WITNESSED",
    });
    // Without the file nothing is carried for continuity, and the server's CONTINUITY_WITNESSED claim is an overclaim.
    const w = without.inputs[0];
    if (!w || isFailedInput(w)) throw new Error("not verified");
    expect([w.properties.continuity.state, w.properties.referenceConsistency.state, without.policy.exitCode]).toEqual([
      "NOT_PRESENT",
      "FAIL",
      1,
    ]);
  });

  it("reads through the CLI's bounded reader by default", async () => {
    const path = tempFile("k.json", "[]");
    expect(await readContinuityFlags({ checkpoints: path }, readInput)).toEqual({
      ok: true,
      value: { checkpoints: [] },
    });
  });
});

describe("the continuity flags at the command line", () => {
  it("--checkpoints with a checkpoint that forks from the input's: continuity FAILs, exit 1", async () => {
    const mine = capture();
    const theirs = capture({ taskId: uuidFromLabel("the other branch") });
    const input = tempFile("input.json", JSON.stringify(toPlain(mine.input)));
    const trust = tempFile("trust.json", JSON.stringify(toPlain(mine.trust)));
    const seen = tempFile("seen.json", JSON.stringify([toPlain(at(theirs.bundle, "manifest", "cllCheckpoint"))]));
    const alone = await runCli(["verify", "--format", "json", "--trust", trust, input]);
    expect(JSON.parse(alone.stdout).inputs[0].properties.continuity.state).toBe("NOT_PRESENT");
    const r = await runCli(["verify", "--format", "json", "--trust", trust, "--checkpoints", seen, input]);
    const c = JSON.parse(r.stdout).inputs[0].properties.continuity;
    expect([c.state, c.checks.find((x: { state: string }) => x.state === "FAIL")?.id]).toEqual([
      "FAIL",
      "equivocation.crossInput",
    ]);
    expect(c.detail).toMatch(/^the log forked: .*--checkpoints\[0\]/);
    expect(r.code).toBe(1);
  });

  it("a malformed --cosignatures file: one line on stderr, exit 2", async () => {
    const bad = tempFile("cosignatures.json", "{");
    const r = await runCli([
      "verify",
      "--trust",
      vector("valid-capture", "trust.json"),
      "--cosignatures",
      bad,
      vector("valid-capture", "input.json"),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toBe(
      `a2a-evidence: --cosignatures ${bad}: JSON_SYNTAX: unexpected end of input: expected a member name (at $)\n`,
    );
  });
});
