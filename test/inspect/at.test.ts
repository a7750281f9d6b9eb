/**
 * `inspect --at`: the key windows inspect shows are judged at the caller's time, parsed and
 * refused exactly as `verify --at` (one shared parser); `verify --explain --at` explains at that
 * time too. A malformed time is one line and exit 2; a second `--at` is exit 2 (contract §9.33).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const DIR = join(REPO_ROOT, "vectors", "neg-keys-revoked-unwitnessed");
const INPUT = join(DIR, "input.json");
const TRUST = join(DIR, "trust.json");
const AT = "2026-10-01T09:45:00Z";

/** The `window: … judged at …` lines of the producer key's roles. */
const windowLines = (stdout: string) => stdout.split("\n").filter((l) => /^ {4}window: /.test(l));

describe("inspect --at", () => {
  it("judges the producer key's window at the time given (text and JSON)", async () => {
    const without = await runCli(["inspect", "--trust", TRUST, INPUT]);
    expect([without.code, without.stderr]).toEqual([0, ""]);
    expect(windowLines(without.stdout)).toHaveLength(3);
    for (const line of windowLines(without.stdout))
      expect(line).toContain("judged at no trusted time (no independent witness or service time, no --at)");

    const at = await runCli(["inspect", "--trust", TRUST, "--at", AT, INPUT]);
    expect([at.code, at.stderr]).toEqual([0, ""]);
    expect(windowLines(at.stdout)).toEqual(
      Array(3).fill(
        "    window: revoked at 2026-10-01T10:00:00Z (signing host compromised); judged at 2026-10-01T09:45:00Z (--at)",
      ),
    );
    const json = await runCli(["inspect", "--format", "json", "--trust", TRUST, `--at=${AT}`, INPUT]);
    expect(json.code).toBe(0);
    const keys = JSON.parse(json.stdout).keys.keys.items as { role: string; judgedAt?: string }[];
    expect(keys.filter((k) => k.judgedAt !== undefined).map((k) => k.judgedAt)).toEqual(
      Array(3).fill("2026-10-01T09:45:00Z (--at)"),
    );
  });

  it("agrees with verify --at: the time inspect names is the one verify's key.window check used", async () => {
    const r = await runCli(["verify", "--format", "json", "--trust", TRUST, "--at", AT, INPUT]);
    const check = (
      JSON.parse(r.stdout).inputs[0].properties.producerSignature.checks as Record<string, unknown>[]
    ).find((c) => c.id === "key.window") as { state: string; values: Record<string, string> };
    expect(check.state).toBe("PASS");
    expect(check.values).toMatchObject({ trustedTime: "2026-10-01T09:45:00Z", timeSource: "--at" });
    expect(r.code).toBe(0);
  });

  it("verify --explain --at explains at that time", async () => {
    const r = await runCli(["verify", "--explain", "--trust", TRUST, "--at", AT, INPUT]);
    expect(r.stderr).toBe("");
    expect(windowLines(r.stdout)).toHaveLength(3);
    for (const line of windowLines(r.stdout)) expect(line).toContain("judged at 2026-10-01T09:45:00Z (--at)");
  });

  it("a malformed time is a usage error, one line, exit 2, as verify's", async () => {
    for (const bad of ["yesterday", "2026-10-01T09:45:00", "2026-02-30T00:00:00Z", ""]) {
      const r = await runCli(["inspect", "--trust", TRUST, "--at", bad, INPUT]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      const message = `a2a-evidence: --at: "${bad}" is not an RFC 3339 date-time with an offset (e.g. 2026-10-01T09:30:00Z)\n`;
      expect(r.stderr).toBe(message);
      expect((await runCli(["verify", "--at", bad, INPUT])).stderr).toBe(message);
    }
  });

  it("--at given twice is exit 2", async () => {
    const r = await runCli(["inspect", "--at", AT, "--at", "2026-10-01T11:00:00Z", INPUT]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("error: option '--at <time>' argument '2026-10-01T11:00:00Z' is invalid");
    expect(r.stderr).toContain("given twice: which one is meant cannot be known");
    expect(r.stderr.trim().split("\n").at(-1)).toBe("(run a2a-evidence inspect --help for usage)");
  });
});
