/**
 * The benchmark harness runs end to end: `npm run bench -- --quick` generates its inputs, checks
 * that the floor plan matches what the verify report shows, measures every goal and scaling row,
 * and prints them. Only the shape of the output is asserted, never a time: the numbers depend on
 * the machine and its load (docs/performance.md).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";
// @ts-expect-error: a plain ES module of the bench, without types
import { spread } from "../../bench/trust.mjs";

const spreadOf = spread as (xs: number[]) => number;

const BUILT =
  existsSync(join(REPO_ROOT, "dist", "index.js")) && existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));
if (!BUILT) process.stderr.write("SKIPPED: bench test: dist/ is not built (npm run build)\n");

const work = mkdtempSync(join(tmpdir(), "a2a-evidence-bench-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** How a ratio measure was judged: the rounds it took, their spread, the load around it. */
interface Judged {
  readonly ratio: number;
  /** Each round's own ratio of the two sides: the ratio is their median. */
  readonly ratios: number[];
  readonly rounds: number;
  readonly spread: number;
  readonly loadPerCore: number;
  readonly trusted: boolean;
  readonly verdict: string;
}

/** A ratio shown beside a goal, not judged: the floor with each input read and parsed natively. */
interface Shown {
  readonly msPerBundle: number[];
  readonly ratio: number;
  readonly ratios: number[];
  readonly spread: number;
}

interface Results {
  readonly rounds: {
    readonly startup: number;
    readonly marginal: number;
    readonly inProcess: number;
    readonly memory: number;
    readonly scale: number;
  };
  readonly measures: {
    readonly startup: Judged & { readonly verifyMs: number[]; readonly nodeMs: number[] };
    readonly short: Judged & {
      readonly cliMsPerBundle: number[];
      readonly floorMsPerBundle: number[];
      readonly cliShortMs: number[];
      readonly floorShortMs: number[];
      readonly reading: Shown;
    };
    readonly marginal: Judged & {
      readonly cliMsPerBundle: number[];
      readonly floorMsPerBundle: number[];
      readonly floor1Ms: number[];
      readonly floorManyMs: number[];
      readonly reading: Shown;
    };
    readonly inProcess: Judged & { readonly verifyMs: number[]; readonly floorMs: number[] };
    readonly memory: {
      readonly rssSmallMb: number[];
      readonly rssLargeMb: number[];
      readonly deltaMb: number;
      readonly deltasMb: number[];
      readonly verdict: string;
    };
  };
  readonly scaling: Record<string, { readonly size: number; readonly cpuMs: number[]; readonly rssMb: number[] }[]>;
  readonly inputs: {
    readonly reportAgrees: boolean;
    readonly floor: {
      readonly ed25519: number;
      readonly es256: number;
      readonly keyImports: number;
      readonly sha256: number;
    };
  };
}

/** The start-up measure without NODE_EXTRA_CA_CERTS, when the bench ran with it set. */
type WithBare = Results & {
  readonly measures: {
    readonly startupWithoutExtraCa?: Pick<Judged, "ratio" | "ratios" | "spread"> & {
      readonly verifyMs: number[];
      readonly nodeMs: number[];
    };
  };
};

const positive = (xs: readonly number[]) => xs.every((x) => Number.isFinite(x) && x > 0);

describe.skipIf(!BUILT)("npm run bench -- --quick", () => {
  const json = join(work, "results.json");
  let status: number | null = null;
  let stdout = "";
  let stderr = "";

  beforeAll(() => {
    const r = spawnSync(
      process.execPath,
      [join(REPO_ROOT, "bench", "run.mjs"), "--quick", "--json", json, "--cache", join(work, "cache")],
      {
        cwd: REPO_ROOT,
        encoding: "utf8",
        timeout: 600_000,
      },
    );
    status = r.status;
    stdout = r.stdout;
    stderr = r.stderr;
  }, 660_000);

  it("runs end to end and exits 0", () => {
    expect(stderr).not.toMatch(/Error/);
    expect(status).toBe(0);
  });

  it("prints one line per goal, with the goal, PASS, over or UNDECIDED, and the load per CPU", () => {
    expect(status).toBe(0);
    const goals: [RegExp, string][] = [
      [/^one-bundle verify vs node -e 0 /m, "≤ 1.3×"],
      [/^marginal CPU per bundle, 10-input run vs floor /m, "≤ 3×"],
      [/^marginal CPU per bundle, 20-input run vs floor /m, "≤ 2.5×"],
      [/^warm in-process verify\(\) per bundle vs floor /m, "≤ 1.5×"],
    ];
    for (const [head, goal] of goals) {
      const line = stdout.split("\n").find((l) => head.test(`${l}\n`));
      expect(line, `no line matching ${head}`).toBeDefined();
      expect(line).toContain(goal);
      expect(line).toMatch(
        / (PASS|over|UNDECIDED \(load [\d.]+\/CPU, spread (±\d+%|unknown \(under 3 rounds\)|unbounded \([^)]*\))\)) /,
      );
      expect(line).toMatch(/\d+ rounds?.*, load [\d.]+\/CPU/);
    }
    const memory = stdout.split("\n").find((l) => /^peak RSS, [\d,]+ vs \d+ inputs, --format json /.test(l));
    expect(memory).toContain("± 20 MB every run");
    expect(memory).toMatch(/ (PASS|over) /);
    expect(stdout).toMatch(/^load average \(1, 5, 15 min\): [\d.]+ [\d.]+ [\d.]+ before/m);
    expect(stdout).toMatch(/^trust {4}load [\d.]+ per CPU before the run; /m);
    expect(stdout).not.toContain("PROBLEM");
  });

  it("records, per goal, the rounds it took, their spread, the load, and a verdict that follows from them", () => {
    const r = JSON.parse(readFileSync(json, "utf8")) as Results;
    const m = r.measures;
    for (const [x, planned] of [
      [m.startup, r.rounds.startup],
      [m.short, r.rounds.marginal],
      [m.marginal, r.rounds.marginal],
      [m.inProcess, r.rounds.inProcess],
    ] as const) {
      expect(x.rounds).toBeGreaterThanOrEqual(planned);
      expect(x.loadPerCore).toBeGreaterThanOrEqual(0);
      if (x.verdict.startsWith("UNDECIDED")) expect(x.trusted).toBe(false);
      else expect(["PASS", "over"]).toContain(x.verdict);
    }
    expect(m.short.rounds).toBe(m.marginal.rounds);
    // Each ratio (the start-up one shown without NODE_EXTRA_CA_CERTS too) is the median of its
    // rounds' own ratios, side by side in the same round, and its spread is theirs.
    const bare = (r as WithBare).measures.startupWithoutExtraCa;
    const paired: [Pick<Judged, "ratio" | "ratios" | "spread">, readonly number[], readonly number[]][] = [
      [m.startup, m.startup.verifyMs, m.startup.nodeMs],
      ...(bare ? [[bare, bare.verifyMs, bare.nodeMs] as [typeof bare, number[], number[]]] : []),
      [m.short, m.short.cliMsPerBundle, m.short.floorMsPerBundle],
      [m.marginal, m.marginal.cliMsPerBundle, m.marginal.floorMsPerBundle],
      [m.inProcess, m.inProcess.verifyMs, m.inProcess.floorMs],
      // The floor with the inputs read, shown beside each marginal goal, against the same floor.
      [m.short.reading, m.short.reading.msPerBundle, m.short.floorMsPerBundle],
      [m.marginal.reading, m.marginal.reading.msPerBundle, m.marginal.floorMsPerBundle],
    ];
    for (const [x, a, b] of paired) {
      // JSON writes an infinite ratio (a round whose baseline was not positive) as null.
      const ratios = x.ratios.map((q) => q ?? Infinity);
      expect(ratios).toHaveLength(a.length);
      expect(b).toHaveLength(a.length);
      ratios.forEach((q, i) => expect(q).toBeCloseTo(b[i]! > 0 ? a[i]! / b[i]! : Infinity, 9));
      const sorted = [...ratios].sort((p, q) => p - q);
      const mid = (sorted.length - 1) / 2;
      const median = (sorted[Math.floor(mid)]! + sorted[Math.ceil(mid)]!) / 2;
      if (Number.isFinite(median)) expect(x.ratio).toBeCloseTo(median, 9);
      else expect(x.ratio).toBeNull();
      const noise = spreadOf(ratios);
      if (Number.isFinite(noise)) expect(x.spread).toBeCloseTo(noise, 9);
      else expect(x.spread).toBeNull();
    }
    expect(m.memory.deltasMb).toHaveLength(r.rounds.memory);
    expect(m.memory.verdict).toBe(m.memory.deltasMb.every((d) => Math.abs(d) <= 20) ? "PASS" : "over");
  });

  it("shows start-up without NODE_EXTRA_CA_CERTS exactly when it is set (it makes bare Node parse a file)", () => {
    const r = JSON.parse(readFileSync(json, "utf8")) as Results & {
      measures: { startupWithoutExtraCa?: { verifyMs: number[]; nodeMs: number[]; ratio: number } };
    };
    const bare = r.measures.startupWithoutExtraCa;
    if (process.env.NODE_EXTRA_CA_CERTS) {
      expect(stdout).toMatch(/^ {2}the same, NODE_EXTRA_CA_CERTS unset .*×\s+\(shown\)/m);
      expect(stdout).toMatch(/^env {6}NODE_EXTRA_CA_CERTS=/m);
      expect(bare?.verifyMs).toHaveLength(r.measures.startup.rounds);
      expect(positive([...(bare?.verifyMs ?? []), ...(bare?.nodeMs ?? [])])).toBe(true);
    } else {
      expect(stdout).not.toContain("NODE_EXTRA_CA_CERTS");
      expect(bare).toBeUndefined();
    }
  });

  it("shows, under each marginal goal, the floor with every input read and parsed natively", () => {
    const r = JSON.parse(readFileSync(json, "utf8")) as Results;
    const lines = stdout.split("\n");
    for (const [x, n] of [
      [r.measures.short, 10],
      [r.measures.marginal, 20],
    ] as const) {
      expect(x.reading.msPerBundle).toHaveLength(x.rounds);
      const goal = lines.findIndex((l) => l.startsWith(`marginal CPU per bundle, ${n}-input run vs floor `));
      expect(goal).toBeGreaterThanOrEqual(0);
      // The next line, with no goal and no verdict of its own.
      expect(lines[goal + 1]).toMatch(
        // A marginal of a busy machine's noisy rounds may come out at or below zero (the quick run).
        /^ {2}the floor \+ reading each input \(JSON\.parse\) +-?[\d.]+ \/ -?[\d.]+ ms → (-?[\d.]+|∞)× +\(shown\) +\d+ rounds, ±(\d+%|∞|\?) \(sides /,
      );
      expect(lines[goal + 1]).not.toMatch(/PASS|over|UNDECIDED/);
    }
  });

  it("prints every scaling row with its growth", () => {
    for (const row of [
      "transcript, 10,000 messages",
      "log, 10^3 leaves",
      "log, 10^4 leaves",
      "artifact, 4 MiB",
      "inputs, --format json",
    ])
      expect(stdout).toContain(row);
    expect(stdout).toMatch(/transcript, 10,000 messages .*(linear|superlinear|too small to see)/);
    expect(stdout).toMatch(/log, 10\^5 leaves .*(logarithmic|within noise, not judged|grows)/);
    expect(stdout).toMatch(/inputs, --format json .*memory (flat|grows)/);
  });

  it("writes every raw number, one per round, and a floor that matches the report", () => {
    const r = JSON.parse(readFileSync(json, "utf8")) as Results;
    const m = r.measures;
    expect(m.startup.verifyMs).toHaveLength(m.startup.rounds);
    expect(m.startup.nodeMs).toHaveLength(m.startup.rounds);
    expect(m.marginal.cliMsPerBundle).toHaveLength(m.marginal.rounds);
    expect(m.marginal.floorMsPerBundle).toHaveLength(m.marginal.rounds);
    expect(m.short.cliMsPerBundle).toHaveLength(m.marginal.rounds);
    expect(m.inProcess.verifyMs).toHaveLength(r.rounds.inProcess);
    expect(m.memory.rssLargeMb).toHaveLength(r.rounds.memory);
    for (const xs of [
      m.startup.verifyMs,
      m.startup.nodeMs,
      // Raw CPU times only: a per-bundle difference of two noisy runs may come out at or below zero.
      m.marginal.floor1Ms,
      m.marginal.floorManyMs,
      m.short.cliShortMs,
      m.short.floorShortMs,
      m.inProcess.verifyMs,
      m.inProcess.floorMs,
      m.memory.rssSmallMb,
      m.memory.rssLargeMb,
    ]) {
      expect(positive(xs)).toBe(true);
    }
    expect(Object.keys(r.scaling).sort()).toEqual(["artifact", "leaves", "transcript"]);
    for (const rows of Object.values(r.scaling)) {
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(positive([...row.cpuMs, ...row.rssMb])).toBe(true);
    }
    expect(r.inputs.reportAgrees).toBe(true);
    expect(r.inputs.floor).toMatchObject({ ed25519: 4, es256: 1, keyImports: 3 });
    expect(r.inputs.floor.sha256).toBeGreaterThan(50);
  });
});

/** Runs one command through the harness's runner, chosen by A2A_EVIDENCE_BENCH_RUNNER, in a child Node. */
function measureWith(
  runner: string,
  argv: readonly string[],
): { name: string; result: { code: number; userUs: number; sysUs: number; maxRssKb: number } } {
  const script = `import(${JSON.stringify(join(REPO_ROOT, "bench", "rusage.mjs"))}).then(async (m) => {
    const r = m.makeRunner();
    const result = await r.run(${JSON.stringify(argv)});
    r.close();
    process.stdout.write(JSON.stringify({ name: r.name, result }));
  })`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    env: { ...process.env, A2A_EVIDENCE_BENCH_RUNNER: runner },
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as ReturnType<typeof measureWith>;
}

const HAS_WAIT4 = spawnSync("python3", ["-c", "import os; os.wait4; os.posix_spawn"], { stdio: "ignore" }).status === 0;
if (!HAS_WAIT4)
  process.stderr.write("SKIPPED: bench test: no python3 with os.wait4 here; only the exit-hook runner is tested\n");

describe("measuring one child process", () => {
  // Busy for a while, then an exit code of its own: both must come back, and memory it really touched.
  const busy = ["-e", "const a = []; for (let i = 0; i < 2e5; i++) a.push({ i }); process.exitCode = 3;"];

  it.skipIf(!HAS_WAIT4)("wait4: the child's own CPU, peak RSS and exit code", () => {
    const { name, result } = measureWith("wait4", busy);
    expect(name).toBe("wait4");
    expect(result.code).toBe(3);
    expect(result.userUs + result.sysUs).toBeGreaterThan(0);
    expect(result.maxRssKb).toBeGreaterThan(10_000);
  });

  it("exit hook (no python3): the child's own CPU, peak RSS and exit code", () => {
    const { name, result } = measureWith("exit", busy);
    expect(name).toBe("exit");
    expect(result.code).toBe(3);
    expect(result.userUs + result.sysUs).toBeGreaterThan(0);
    expect(result.maxRssKb).toBeGreaterThan(10_000);
  });
});
