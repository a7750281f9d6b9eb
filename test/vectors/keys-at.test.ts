/**
 * The shipped `--at` vectors (args.json carries the caller's time): a Transparency Service key
 * revoked at 10:00Z, its receipt stating iat 09:30:05Z. With `--at` after the revocation the stamp
 * is not counted — externalRegistration's key.window INCONCLUSIVE with KEY_REVOKED, never FAIL
 * (contract §5.1) — and the level falls to SIGNED_RECORD (exit 3); with `--at` before it, the
 * honest look-alike, key.window PASSes at `--at` (exit 0). The receipt's own iat, before the
 * revocation, never counts by itself: without `--at` both are the first outcome.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { isFailedInput, type Report } from "../../src/report/model.js";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { vectorExtra, vectorInput } from "../helpers/vector-input.js";

const AFTER = join(REPO_ROOT, "vectors", "inconclusive-keys-revoked-ts-at-after");
const BEFORE = join(REPO_ROOT, "vectors", "valid-keys-revoked-ts-at-before");

function run(dir: string, at?: string): Report {
  const extra = vectorExtra(dir);
  return verify({
    inputs: [{ source: dir, data: vectorInput(dir) }],
    trust: readFileSync(join(dir, "trust.json")),
    ...(at === undefined ? extra : { ...extra, at }),
  });
}

function registration(report: Report) {
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error("the input was not verified");
  const p = input.properties.externalRegistration;
  const window = p.checks.find((c) => c.id === "key.window");
  return { state: p.state, window, level: input.evidenceLevel.achieved, exitCode: report.policy.exitCode };
}

describe("a revoked Transparency Service key judged at the caller's --at", () => {
  it("--at after the revocation: key.window INCONCLUSIVE KEY_REVOKED, the stamp not counted, exit 3", () => {
    expect(vectorExtra(AFTER).at).toBe("2026-10-01T10:30:00Z");
    const r = registration(run(AFTER));
    expect(r.state).toBe("INCONCLUSIVE");
    expect(r.window).toMatchObject({
      state: "INCONCLUSIVE",
      code: "KEY_REVOKED",
      values: { revokedAt: "2026-10-01T10:00:00Z", trustedTime: "2026-10-01T09:30:05Z" },
    });
    expect(r.window?.detail).toContain("--at 2026-10-01T10:30:00Z is not before it");
    expect(r.window?.detail).toContain("the stamp is not counted");
    expect([r.level, r.exitCode]).toEqual(["SIGNED_RECORD", 3]);
  });

  it("--at before the revocation (the honest look-alike): key.window PASS, EXTERNALLY_REGISTERED, exit 0", () => {
    expect(vectorExtra(BEFORE).at).toBe("2026-10-01T09:45:00Z");
    const r = registration(run(BEFORE));
    expect(r.state).toBe("PASS");
    expect(r.window).toMatchObject({ state: "PASS", values: { revokedAt: "2026-10-01T10:00:00Z" } });
    expect(r.window?.code).toBeUndefined();
    expect([r.level, r.exitCode]).toEqual(["EXTERNALLY_REGISTERED", 0]);
  });

  it("the two inputs differ only in --at; at the revocation instant, or without --at, the stamp is not counted", () => {
    expect(readFileSync(join(AFTER, "input.json"))).toEqual(readFileSync(join(BEFORE, "input.json")));
    expect(readFileSync(join(AFTER, "trust.json"))).toEqual(readFileSync(join(BEFORE, "trust.json")));
    const atRevocation = registration(run(BEFORE, "2026-10-01T10:00:00Z"));
    expect([atRevocation.window?.state, atRevocation.window?.code, atRevocation.exitCode]).toEqual([
      "INCONCLUSIVE",
      "KEY_REVOKED",
      3,
    ]);
    const report = verify({ inputs: [{ source: "x", data: vectorInput(BEFORE) }], trust: readFileSync(join(BEFORE, "trust.json")) });
    const none = registration(report);
    expect([none.window?.state, none.window?.code, none.exitCode]).toEqual(["INCONCLUSIVE", "KEY_REVOKED", 3]);
    expect(none.window?.detail).toContain("no --at places this signature before it");
  });

  it("at the command line: verify --at and inspect --at say the same", async () => {
    const args = ["--trust", join(AFTER, "trust.json")];
    const after = await runCli(["verify", ...args, "--at", "2026-10-01T10:30:00Z", join(AFTER, "input.json")]);
    expect(after.code).toBe(3);
    const before = await runCli(["verify", ...args, "--at", "2026-10-01T09:45:00Z", join(AFTER, "input.json")]);
    expect(before.code).toBe(0);
    const inspected = await runCli(["inspect", ...args, "--at", "2026-10-01T10:30:00Z", join(AFTER, "input.json")]);
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toContain(
      "judged at the receipt's own signed iat, bounded by --at 2026-10-01T10:30:00Z (a revoked key counts only with --at before revokedAt)",
    );
  });
});
