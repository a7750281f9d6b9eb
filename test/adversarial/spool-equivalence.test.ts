/**
 * A run over several inputs keeps each input's first report in the spool and completes it with
 * the comparison's findings (`Run.settle`) instead of verifying the input again. That is only an
 * optimisation: whatever the inputs, the output must be byte for byte the output of verifying
 * every input again with its findings. Attacked here with what `settle` does not look at: inputs
 * whose properties are not judged at all (a record profile or extension version this verifier does
 * not implement, where the registry reports continuity NOT_CHECKED without running it), a
 * continuity that already FAILs and then forks, a checkpoint only a narrowing makes signed, every
 * shipped vector together with every other one that shares its trust file, and every format.
 */
import { vectorLogId, vectorTransparencyUrl } from "../../producer/vector-log.js";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { ReportSpool } from "../../src/cli/spool.js";
import { toPlain } from "../../src/json/value.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import type { InputReport } from "../../src/report/model.js";
import { openRun } from "../../src/run.js";
import { REPO_ROOT } from "../helpers/external.js";
import { runCli, tempFile, type CliRun } from "../helpers/cli.js";
import { OTHER_PROFILE, TS_URL, at, capture, underProfile, widenedAt } from "../properties/harness.js";

const dir = mkdtempSync(join(tmpdir(), "spool-equivalence-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const FORMATS = [
  ["--format", "text"],
  ["--format", "text", "-v"],
  ["--format", "json"],
  ["--format", "ndjson"],
  ["--format", "junit", "-v"],
  ["--format", "github", "-v"],
  ["--format", "html", "-v"],
];

/**
 * A value that JSON gives back exactly: strings, finite numbers other than -0, booleans, null,
 * dense arrays and plain objects of enumerable data members. Anything else (undefined, a class
 * instance, NaN, a getter) would come back from the spool as something else.
 */
function notJsonExact(v: unknown, path = "$"): string[] {
  if (v === null || typeof v === "string" || typeof v === "boolean") return [];
  if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0) ? [] : [`${path}: ${v}`];
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (let i = 0; i < v.length; i++)
      out.push(...(i in v ? notJsonExact(v[i], `${path}[${i}]`) : [`${path}[${i}]: hole`]));
    return out;
  }
  if (typeof v !== "object" || v === undefined) return [`${path}: ${typeof v}`];
  if (Object.getPrototypeOf(v) !== Object.prototype) return [`${path}: not a plain object`];
  const out: string[] = [];
  for (const key of Reflect.ownKeys(v)) {
    const d = Object.getOwnPropertyDescriptor(v, key) as PropertyDescriptor;
    if (typeof key === "symbol" || !d.enumerable || !("value" in d))
      out.push(`${path}.${String(key)}: not a data member`);
    else out.push(...notJsonExact(d.value, `${path}.${key}`));
  }
  return out;
}

interface Compared {
  readonly spooled: CliRun;
  readonly again: CliRun;
  /** Reports taken back from the spool. */
  readonly taken: number;
}

/** The run as it is, and the run with a spool that keeps nothing (every input verified again). */
async function bothWays(args: string[]): Promise<Compared> {
  const put = vi.spyOn(ReportSpool.prototype, "put");
  const take = vi.spyOn(ReportSpool.prototype, "take");
  const spooled = await runCli(args);
  for (const call of put.mock.calls) expect(notJsonExact(call[1])).toEqual([]);
  const taken = take.mock.results.filter((r) => r.value !== undefined).length;
  vi.restoreAllMocks();
  const open = ReportSpool.open.bind(ReportSpool);
  const nothingKept = vi.spyOn(ReportSpool, "open").mockImplementation(() => open(0, dir));
  const again = await runCli(args);
  expect(nothingKept).toHaveBeenCalled();
  vi.restoreAllMocks();
  return { spooled, again, taken };
}

async function expectSame(args: string[]): Promise<Compared> {
  const r = await bothWays(args);
  expect(r.spooled.stdout, args.join(" ")).toBe(r.again.stdout);
  expect(r.spooled.stderr, args.join(" ")).toBe(r.again.stderr);
  expect(r.spooled.code, args.join(" ")).toBe(r.again.code);
  return r;
}

const json = (x: unknown) => JSON.stringify(toPlain(x as never));

describe("the spooled output is the output of verifying every input again", () => {
  const mine = capture();
  const theirs = capture({ taskId: uuidFromLabel("the other branch") });
  const trust = tempFile("trust.json", json(mine.trust));
  const a = tempFile("a.json", json(mine.input));
  const b = tempFile("b.json", json(theirs.input));

  it("for an input under a record profile or extension version this verifier does not implement", async () => {
    const profile = tempFile("profile.json", json(capture({}, underProfile(OTHER_PROFILE)).input));
    const version = tempFile(
      "version.json",
      json(capture({}, { bundle: (bundle) => void (bundle.extensionVersion = "2") }).input),
    );
    for (const other of [profile, version]) {
      for (const format of FORMATS) {
        // Beside an agreeing input (the comparison finds no fork) and beside a forking one.
        for (const inputs of [
          [a, other],
          [other, b],
          [a, other, b],
        ]) {
          const r = await expectSame(["verify", ...format, "--trust", trust, ...inputs]);
          expect(r.taken).toBe(inputs.length);
        }
      }
    }
    // What both agree on: a property the profile's rules decide is not judged, so it takes no
    // finding, while the honest input beside it does.
    const r = await runCli(["verify", "--format", "json", "--trust", trust, a, profile]);
    const ids = (JSON.parse(r.stdout) as { inputs: InputReport[] }).inputs.map((i) =>
      "properties" in i ? i.properties.continuity.checks.map((c) => c.id) : [],
    );
    expect(ids[0]).toContain("equivocation.crossInput");
    expect(ids[1]).toEqual(["witness.assertion"]);
  });

  it("for an input whose continuity already FAILs and whose log then forks", async () => {
    const failing = join(REPO_ROOT, "vectors", "neg-continuity-prior-root", "input.json");
    for (const format of FORMATS) {
      const r = await expectSame(["verify", ...format, "--trust", trust, failing, b, a]);
      expect(r.taken).toBe(3);
    }
    // The fork leaves that input's continuity FAIL with its own detail: settle completes it (no
    // second verification), and exactly as verifying with the findings does. The other branch's
    // service stamp is at another tree size here: its service did not fork too (see below).
    const opened = openRun({ trust: toPlain(mine.trust) as never });
    if (!opened.ok) throw new Error("the run did not open");
    const run = opened.run;
    const item = (source: string, path: string) => ({ source, data: new Uint8Array(readFileSync(path)) });
    // On the failing vector's own log (each vector writes to a log of its own), so the two fork.
    const stampedApart = capture({
      taskId: uuidFromLabel("the other branch"),
      logId: vectorLogId("neg-continuity-prior-root"),
      witnesses: [{ url: TS_URL, treeSize: 8, leafIndex: 4 }],
    });
    const loaded = [
      run.load(item("failing", failing)),
      run.load(item("b8", tempFile("b8.json", json(stampedApart.input)))),
    ];
    const findings = run.compare(loaded.map((l, k) => run.sighting(String(k), l)));
    expect(findings?.[0]?.forks.length).toBeGreaterThan(0);
    expect(findings?.[0]?.registration).toBeUndefined();
    const first = run.verify("failing", loaded[0] as never);
    expect("properties" in first && first.properties.continuity.state).toBe("FAIL");
    const settled = run.settle(first, findings?.[0]);
    expect(settled).toBeDefined();
    expect(JSON.stringify(settled)).toBe(JSON.stringify(run.verify("failing", loaded[0] as never, findings?.[0])));
    // Beside b, whose service signed another root for the same tree size, externalRegistration
    // turns FAIL: only verifying again gives that report.
    // (Under that vector's own trust file, which pins its own service.)
    const vectorRun = openRun({
      trust: readFileSync(join(REPO_ROOT, "vectors", "neg-continuity-prior-root", "trust.json")),
    });
    if (!vectorRun.ok) throw new Error("the run did not open");
    const vr = vectorRun.run;
    const sameService = capture({
      taskId: uuidFromLabel("the other branch, same service"),
      witnesses: [{ url: vectorTransparencyUrl("neg-continuity-prior-root"), treeSize: 7, leafIndex: 4 }],
    });
    const failingHere = vr.load(item("failing", failing));
    const bSame = vr.load(item("b", tempFile("b-same.json", json(sameService.input))));
    const withB = vr.compare([failingHere, bSame].map((l, k) => vr.sighting(String(k), l as never)));
    expect(withB?.[0]?.registration?.length).toBe(1);
    expect(vr.settle(vr.verify("failing", failingHere as never), withB?.[0])).toBeUndefined();
    // An input whose continuity is not judged is never settled, even beside an agreeing one: it
    // is verified again.
    const other = run.load(item("profile", tempFile("p.json", json(capture({}, underProfile(OTHER_PROFILE)).input))));
    const agreeing = run.load(item("a", a));
    const withOther = run.compare([run.sighting("profile", other), run.sighting("a", agreeing)]);
    expect(withOther?.[0]?.forks).toEqual([]);
    expect(withOther?.[0]?.compared).toBeGreaterThan(0);
    expect(run.settle(run.verify("profile", other), withOther?.[0])).toBeUndefined();
  });

  it("for a structured carrier whose checkpoint is signed only under a narrowing", async () => {
    const narrowed = capture({ carrier: "data" }, { bundle: widenedAt(["manifest", "cllCheckpoint"]) });
    const c = tempFile("narrowed.json", json(narrowed.input));
    for (const format of FORMATS) await expectSame(["verify", ...format, "--trust", trust, c, a, b, c]);
  });
});

describe("every shipped vector, verified together with every vector that shares its trust file", () => {
  const root = join(REPO_ROOT, "vectors");
  const groups = new Map<string, string[]>();
  for (const name of readdirSync(root).sort()) {
    const folder = join(root, name);
    let files: string[];
    try {
      files = readdirSync(folder);
    } catch {
      continue;
    }
    const input = files.find((f) => f.startsWith("input."));
    if (input === undefined || !files.includes("trust.json")) continue;
    const trustText = readFileSync(join(folder, "trust.json"), "utf8");
    groups.set(trustText, [...(groups.get(trustText) ?? []), join(folder, input)]);
  }

  it("writes the same bytes in every format, the same file twice included, with --at and with --checkpoints", async () => {
    expect(groups.size).toBeGreaterThan(5);
    // A checkpoint of another branch of the log most vectors are of: each of them forks.
    const branch = capture({ taskId: uuidFromLabel("the other branch") });
    const seen = tempFile("seen.json", JSON.stringify([toPlain(at(branch.bundle, "manifest", "cllCheckpoint"))]));
    let taken = 0;
    for (const [trustText, inputs] of groups) {
      const trust = tempFile("trust.json", trustText);
      const all = [...inputs, inputs[0] as string];
      for (const format of FORMATS) taken += (await expectSame(["verify", ...format, "--trust", trust, ...all])).taken;
      for (const format of FORMATS.slice(0, 3))
        for (const extra of [
          ["--at", "2026-10-01T09:30:00Z"],
          ["--checkpoints", seen],
        ])
          taken += (await expectSame(["verify", ...format, ...extra, "--trust", trust, ...all])).taken;
    }
    expect(taken).toBeGreaterThan(0);
  });
});
