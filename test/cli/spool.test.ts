/**
 * The report spool: a run over several inputs verifies each input once, while comparing their
 * checkpoints, and keeps its report in an unlinked temporary file until every input is compared.
 * Its output must be the output of verifying each input again after the comparison, byte for
 * byte, whatever the inputs: forks (which change what other properties say, so those inputs are
 * verified again), stale checkpoints, inputs with nothing to compare, unreadable and malformed
 * inputs, and a --checkpoints list.
 */
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { ReportSpool } from "../../src/cli/spool.js";
import { runCli, tempFile, type CliRun } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";
import { toPlain } from "../../src/json/value.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { at, capture } from "../properties/harness.js";
import type { InputReport } from "../../src/report/model.js";
import { verify } from "../../src/verify.js";
import { openRun, withoutChecks } from "../../src/run.js";

const vector = (name: string, file: string) => join(REPO_ROOT, "vectors", name, file);
const dir = mkdtempSync(join(tmpdir(), "spool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

function someReport(): InputReport {
  const r = verify({
    inputs: [{ source: "valid-rich", data: new Uint8Array(Buffer.from(readVector("valid-rich"))) }],
    trust: new Uint8Array(Buffer.from(readVector("valid-rich", "trust.json"))),
  });
  return r.inputs[0] as InputReport;
}

function readVector(name: string, file = "input.json"): string {
  return readFileSync(vector(name, file), "utf8");
}

describe("ReportSpool", () => {
  it("gives back exactly the report it kept, member order included, once", () => {
    const spool = ReportSpool.open(1 << 20, dir);
    const report = someReport();
    expect(spool.put(3, report)).toBe(true);
    expect(spool.put(0, { source: "x\ud800y", error: { code: "INPUT_UNREADABLE", message: "é" }, exitCode: 2 })).toBe(
      true,
    );
    const back = spool.take(3);
    expect(JSON.stringify(back)).toBe(JSON.stringify(report));
    expect(back).toEqual(report);
    expect(spool.take(3)).toBeUndefined();
    expect(spool.take(0)).toEqual({
      source: "x\ud800y",
      error: { code: "INPUT_UNREADABLE", message: "é" },
      exitCode: 2,
    });
    expect(spool.take(1)).toBeUndefined();
    spool.close();
    spool.close();
  });

  it("leaves nothing in the temporary folder: the file is unlinked once open", () => {
    const here = mkdtempSync(join(dir, "clean-"));
    const spool = ReportSpool.open(1 << 20, here);
    expect(spool.put(0, someReport())).toBe(true);
    expect(readdirSync(here)).toEqual([]);
    expect(spool.take(0)).toBeDefined();
    spool.close();
  });

  it.skipIf(process.platform !== "linux")(
    "does not use a report changed in the file (reached through /proc): that input is verified again",
    () => {
      const spool = ReportSpool.open(1 << 20, dir);
      const report = someReport();
      expect(spool.put(0, report)).toBe(true);
      expect(spool.put(1, report)).toBe(true);
      // Another process of the same user can open the unlinked file by its descriptor. (This
      // spool's own: test files running at the same time share the process's descriptors.)
      const mine = `${realpathSync(dir)}/a2a-evidence-`;
      const fd = readdirSync("/proc/self/fd").find((n) => {
        try {
          const target = readlinkSync(`/proc/self/fd/${n}`);
          return target.startsWith(mine) && /\/reports \(deleted\)$/.test(target);
        } catch {
          return false;
        }
      });
      expect(fd).toBeDefined();
      const text = JSON.stringify(report);
      const at = text.indexOf('"exitCode":0');
      expect(at).toBeGreaterThan(0);
      const other = openSync(`/proc/self/fd/${fd as string}`, "r+");
      writeSync(other, '"exitCode":1', at);
      closeSync(other);
      expect(spool.take(0)).toBeUndefined();
      expect(spool.take(1)).toEqual(report);
      spool.close();
    },
  );

  it("keeps nothing past its cap, and nothing when no temporary file can be made", () => {
    const report = someReport();
    const size = Buffer.byteLength(JSON.stringify(report));
    const capped = ReportSpool.open(size * 2, dir);
    expect([capped.put(0, report), capped.put(1, report), capped.put(2, report)]).toEqual([true, true, false]);
    expect(capped.take(2)).toBeUndefined();
    expect(capped.take(1)).toEqual(report);
    capped.close();
    const none = ReportSpool.open(1 << 20, join(dir, "no", "such", "folder"));
    expect(none.put(0, report)).toBe(false);
    expect(none.take(0)).toBeUndefined();
    none.close();
  });
});

describe("Run.settle", () => {
  it("completes a report with no fork exactly as verifying with the findings does; a fork is verified again", () => {
    const mine = capture();
    const theirs = capture({ taskId: uuidFromLabel("the other branch") });
    const run = openRun({ trust: toPlain(mine.trust) as never });
    if (!run.ok) throw new Error("run did not open");
    const r = run.run;
    const item = (source: string, input: unknown) => ({
      source,
      data: new Uint8Array(Buffer.from(JSON.stringify(toPlain(input as never)))),
    });
    const a = r.load(item("a.json", mine.input));
    const b = r.load(item("b.json", theirs.input));
    const again = r.load(item("c.json", mine.input));
    const sightings = [r.sighting("a.json", a), r.sighting("b.json", b), r.sighting("c.json", again)];
    const forked = r.compare(sightings);
    expect(forked?.[0]?.forks.length).toBe(1);
    expect(r.settle(r.verify("a.json", a), forked?.[0])).toBeUndefined();
    // Two copies of one input: they agree, so each finds a statement to compare and no fork.
    const agreeing = r.compare([sightings[0], sightings[2]]);
    expect(agreeing?.[0]?.forks).toEqual([]);
    expect(agreeing?.[0]?.compared).toBeGreaterThan(0);
    const settled = r.settle(r.verify("a.json", a), agreeing?.[0]);
    expect(JSON.stringify(settled)).toBe(JSON.stringify(r.verify("a.json", a, agreeing?.[0])));
    expect(
      (
        settled as unknown as { properties: { continuity: { checks: { id: string }[] } } }
      ).properties.continuity.checks.at(-1)?.id,
    ).toBe("equivocation.crossInput");
    // No findings: the report as it is. A failed input with findings is verified again.
    const plain = r.verify("a.json", a);
    expect(r.settle(plain)).toBe(plain);
    expect(
      r.settle(
        { source: "a.json", error: { code: "VERIFY_INTERNAL_ERROR", message: "x" }, exitCode: 2 },
        agreeing?.[0],
      ),
    ).toBeUndefined();
  });
});

describe("withoutChecks", () => {
  it("keeps the checks settling reads (FAIL, NOT_CHECKED) and each property's state and detail", () => {
    const report = someReport();
    if (!("properties" in report)) throw new Error("not verified");
    const failing = { state: "FAIL" as const, detail: "x", checks: [{ id: "a", state: "FAIL" as const, detail: "x" }] };
    const judged = { ...report, properties: { ...report.properties, continuity: failing } };
    const slim = withoutChecks(judged);
    if (!("properties" in slim)) throw new Error("not verified");
    for (const [name, p] of Object.entries(judged.properties)) {
      const kept = slim.properties[name as keyof typeof slim.properties];
      expect([kept.state, kept.detail]).toEqual([p.state, p.detail]);
      expect(kept.checks).toEqual(p.state === "FAIL" || p.state === "NOT_CHECKED" ? p.checks : []);
    }
    expect({ ...slim, properties: undefined }).toEqual({ ...judged, properties: undefined });
    const failed: InputReport = { source: "x", error: { code: "INPUT_UNREADABLE", message: "y" }, exitCode: 2 };
    expect(withoutChecks(failed)).toBe(failed);
  });
});

describe("a run over several inputs", () => {
  async function both(args: string[]): Promise<{ spooled: CliRun; again: CliRun; kept: number[] }> {
    const take = vi.spyOn(ReportSpool.prototype, "take");
    const spooled = await runCli(args);
    const kept = [take.mock.results.filter((r) => r.value !== undefined).length];
    take.mockClear();
    // A spool that keeps nothing: every input is read and verified again after the comparison.
    const open = ReportSpool.open.bind(ReportSpool);
    vi.spyOn(ReportSpool, "open").mockImplementation(() => open(0, dir));
    const again = await runCli(args);
    kept.push(take.mock.results.filter((r) => r.value !== undefined).length);
    vi.restoreAllMocks();
    return { spooled, again, kept };
  }

  /** Two copies of one Task's input (a, c), one whose log forks from theirs (b), and the trust file. */
  function forkedInputs() {
    const mine = capture();
    const theirs = capture({ taskId: uuidFromLabel("the other branch") });
    return {
      theirs,
      a: tempFile("a.json", JSON.stringify(toPlain(mine.input))),
      b: tempFile("b.json", JSON.stringify(toPlain(theirs.input))),
      c: tempFile("c.json", JSON.stringify(toPlain(mine.input))),
      trust: tempFile("trust.json", JSON.stringify(toPlain(mine.trust))),
    };
  }

  it("writes the same bytes from the spool as verifying every input again, forks and failures included", async () => {
    const { theirs, a, b, c, trust } = forkedInputs();
    const malformed = join(dir, "malformed.json");
    writeFileSync(malformed, '{"a":1,"a":2}');
    const seen = tempFile("seen.json", JSON.stringify([toPlain(at(theirs.bundle, "manifest", "cllCheckpoint"))]));
    const failures = [malformed, join(dir, "missing.json")];
    // Agreeing inputs (valid-capture is of the same log as the harness's capture), and the same
    // with one that forks from them all.
    const sets = [
      [a, c, vector("valid-capture", "input.json"), ...failures],
      [a, b, c, vector("valid-capture", "input.json"), ...failures],
    ];
    for (const inputs of sets)
      for (const extra of [[], ["--checkpoints", seen]])
        for (const format of [
          ["--format", "text"],
          ["--format", "text", "-v"],
          ["--format", "json"],
          ["--format", "ndjson"],
          ["--format", "junit"],
        ]) {
          const args = ["verify", ...format, ...extra, "--trust", trust, ...inputs];
          const { spooled, again, kept } = await both(args);
          expect(spooled.stdout).toBe(again.stdout);
          expect(spooled.stderr).toBe(again.stderr);
          expect(spooled.code).toBe(again.code);
          // Every report waited in the spool; without it, none did. Those that fork (every copy
          // of the log when --checkpoints names the other branch) are verified again.
          expect(kept).toEqual([inputs.length, 0]);
        }
  });

  it("with the spool: a fork FAILs continuity on both inputs, an agreeing copy PASSes the comparison", async () => {
    const { a, b, c, trust } = forkedInputs();
    const r = await runCli(["verify", "--format", "json", "--trust", trust, a, c]);
    const cross = (input: { properties: { continuity: { checks: { id: string; state: string }[] } } }) =>
      input.properties.continuity.checks.find((x) => x.id === "equivocation.crossInput")?.state;
    expect(JSON.parse(r.stdout).inputs.map(cross)).toEqual(["PASS", "PASS"]);
    const forked = await runCli(["verify", "--format", "json", "--trust", trust, a, b]);
    expect(JSON.parse(forked.stdout).inputs.map(cross)).toEqual(["FAIL", "FAIL"]);
    expect(forked.code).toBe(1);
  });
});
