/**
 * The shipped vectors are one consistent world (contract §9.36): every valid-* vector verified
 * together with every other, in one invocation, exits 0 — no two of them show one log at one size
 * with two roots — and over all vectors no input FAILs for what another input shows. A valid
 * vector that gives the caller's time (`--at` in args.json) gives it for the whole run.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { vectorExtra, vectorInputFile } from "../helpers/vector-input.js";

const VECTORS = join(REPO_ROOT, "vectors");
const names = readdirSync(VECTORS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const valid = names.filter((n) => n.startsWith("valid-"));
const inputOf = (name: string) => join(VECTORS, name, vectorInputFile(join(VECTORS, name)));

/**
 * The caller's time the valid-* vectors are judged at: `--at` is one time for a whole run, so the
 * valid vectors that give one in args.json must agree on it (a later time would be another world).
 */
function worldAt(): string[] {
  const times = [...new Set(valid.map((n) => vectorExtra(join(VECTORS, n)).at).filter((t) => t !== undefined))];
  expect(times.length, `the valid-* vectors' --at times: ${times.join(", ")}`).toBeLessThanOrEqual(1);
  return times.length === 1 ? ["--at", times[0] as string] : [];
}

type Entry = { [k: string]: unknown; keys?: unknown[] };

/** Entries of one trust section from every file, merged by their name, their keys joined. */
function mergeSection(files: readonly Record<string, unknown>[], section: string, by: string): Entry[] {
  const merged = new Map<string, Entry>();
  for (const f of files)
    for (const e of (f[section] as Entry[] | undefined) ?? []) {
      const id = String(e[by]);
      const before = merged.get(id);
      const all = [...(before?.keys ?? []), ...(e.keys ?? [])];
      const keys = all.filter((k, j) => all.findIndex((o) => JSON.stringify(o) === JSON.stringify(k)) === j);
      // A service one vector pins as producer-operated and others as independent: independent here,
      // so the level the others reach is not lowered (the producer-operated vector needs no more).
      merged.set(id, { ...e, ...before, ...(e.keys ? { keys } : {}) });
    }
  return [...merged.values()];
}

/** A trust file that pins what every valid-* vector needs: the union of theirs, the lowest quorum. */
function unionTrust(): string {
  const files = valid.map((n) => JSON.parse(readFileSync(join(VECTORS, n, "trust.json"), "utf8")));
  const quorum = Math.min(...files.map((f) => f.continuityPolicy?.quorum ?? Infinity));
  const policy = files.find((f) => f.continuityPolicy?.quorum === quorum)?.continuityPolicy;
  return tempFile(
    "trust.json",
    JSON.stringify({
      version: 1,
      producers: mergeSection(files, "producers", "authority"),
      transparencyServices: mergeSection(files, "transparencyServices", "url"),
      witnesses: mergeSection(files, "witnesses", "name"),
      peacIssuers: mergeSection(files, "peacIssuers", "iss"),
      ...(policy ? { continuityPolicy: policy } : {}),
    }),
  );
}

interface Check {
  id: string;
  state: string;
  detail: string;
}
interface Input {
  source: string;
  exitCode: number;
  properties?: Record<string, { state: string; checks: Check[] }>;
}

const crossInputFails = (inputs: readonly Input[]) =>
  inputs.flatMap((i) =>
    Object.values(i.properties ?? {}).flatMap((p) =>
      p.checks.filter((c) => c.state === "FAIL" && c.id.includes("crossInput")).map((c) => `${i.source}: ${c.id}`),
    ),
  );

describe("the shipped vectors are a consistent world", () => {
  it("every valid-* vector's input, verified in one invocation with a trust file that pins what they need (at the caller's time they give), exits 0", async () => {
    expect(valid.length).toBeGreaterThan(20);
    const at = worldAt();
    expect(at).toEqual(["--at", "2026-10-01T09:45:00Z"]);
    const r = await runCli(["verify", "--format", "json", "--trust", unionTrust(), ...at, ...valid.map(inputOf)]);
    const report = JSON.parse(r.stdout) as { inputs: Input[] };
    const failing = report.inputs.filter((i) => i.exitCode !== 0).map((i) => i.source);
    expect(failing).toEqual([]);
    expect(crossInputFails(report.inputs)).toEqual([]);
    expect(report.inputs).toHaveLength(valid.length);
    expect(r.code).toBe(0);
  });

  it("over every vector together, no input FAILs for what another shows: each fork is inside the vector about it", async () => {
    const r = await runCli(["verify", "--format", "json", ...names.map(inputOf)]);
    const report = JSON.parse(r.stdout) as { inputs: Input[] };
    expect(report.inputs).toHaveLength(names.length);
    expect(crossInputFails(report.inputs)).toEqual([]);
  });
});
