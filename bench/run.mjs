#!/usr/bin/env node
// `npm run bench`: the project's performance numbers (docs/performance.md), measured on whatever
// dist/ holds (npm run build first).
//
//   npm run bench                   every measure and scaling row
//   npm run bench -- --quick        a fast smoke run: fewer rounds, smaller inputs
//   npm run bench -- --vectors      the per-vector in-process table (bench/vectors.mjs)
//   options: --rounds N (CPU rounds per measure), --json FILE (every raw number),
//            --cache DIR (where generated inputs are kept; env A2A_EVIDENCE_BENCH_CACHE)
//
// Every number is CPU time (user + system) of a whole process, or of a batch in one process, paired
// in the same round with its baseline, the order alternating from round to round; a measure is the
// median over the rounds and a ratio is the median of the rounds' own ratios. Beside each marginal
// goal, a line shows (and does not judge) the floor with every input read and parsed by the
// engine's own JSON.parse (bench/reading.mjs): what no verifier can skip. The machine's load is taken
// before and during each measure; a measure whose rounds spread too much runs more of them, up to
// a cap; a goal the run cannot decide (a busy machine, a wide spread, a ratio near its goal) says
// UNDECIDED (bench/trust.mjs). Goals are reported PASS, over or UNDECIDED; the bench never fails
// on them.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { benchEnv, cpuMs, makeRunner, rssMb } from "./rusage.mjs";
import { fmt, group, growthLinear, growthLog, median } from "./growth.mjs";
import { TRUST, judge, judgeEveryRun, pairedRatio, roundRatios, spread, unsettled } from "./trust.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");

// ---------------------------------------------------------------------------------------------
// What is measured, and how hard.

const GOALS = {
  startup: { goal: 1.3, text: "≤ 1.3×" },
  short: { goal: 3, text: "≤ 3×" },
  marginal: { goal: 2.5, text: "≤ 2.5×" },
  inProcess: { goal: 1.5, text: "≤ 1.5×" },
  memory: { goal: 20, text: "± 20 MB every run" },
};

const KiB = 1024;
const MiB = 1024 * KiB;
const FULL = {
  rounds: { startup: 21, marginal: 11, inProcess: 15, memory: 3, scale: 11 },
  // While a measure's rounds spread more than TRUST.spread, it runs more, up to this many times
  // its rounds (the in-process one cannot: each of its bundles is verified once).
  cap: { startup: 3, marginal: 2 },
  // Distinct bundles: the in-process measure verifies each of the first 900 once (15 batches of
  // 60: batches of a few dozen carried ±15% of noise, a major GC more or less), after a warm-up on
  // the last 100; the 200-input run takes the first 200; the 2,000-input run cycles through all.
  distinct: 1000,
  warm: 100,
  // verify() calls of the in-process warm-up: until V8 stops optimizing, within these bounds.
  warmCalls: { min: 1000, max: 20000 },
  // The short run is a CI batch of a few dozen Tasks, most of it before V8 optimizes the verifier.
  many: { short: 50, marginal: 200, memory: 2000 },
  transcript: [100, 1000, 10000],
  leaves: [1000, 10000, 1000000],
  artifactBytes: [64 * KiB, 2 * MiB, 4 * MiB],
};
const MODES = {
  full: FULL,
  // Fewer rounds, and smaller runs than the goals name (200 and 2,000 inputs, 10^6 leaves): the
  // smoke run shows the harness works, in about half a minute.
  quick: {
    ...FULL,
    rounds: { startup: 3, marginal: 2, inProcess: 3, memory: 1, scale: 1 },
    distinct: 8,
    warm: 2,
    warmCalls: { min: 200, max: 400 },
    many: { short: 10, marginal: 20, memory: 200 },
    leaves: [1000, 10000, 100000],
  },
};

function parseArgs(argv) {
  const out = {
    quick: false,
    vectors: false,
    rounds: undefined,
    json: undefined,
    cache: resolve(process.env.A2A_EVIDENCE_BENCH_CACHE || join(tmpdir(), "a2a-evidence-bench")),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    if (a === "--quick") out.quick = true;
    else if (a === "--vectors") out.vectors = true;
    else if (a === "--rounds") {
      out.rounds = Number(value());
      if (!Number.isInteger(out.rounds) || out.rounds < 1) usage("--rounds takes a positive integer");
    } else if (a === "--json") out.json = value();
    else if (a === "--cache") out.cache = resolve(value());
    else if (a === "--help" || a === "-h") usage();
    else usage(`unknown option ${a}`);
  }
  return out;
}

function usage(message) {
  if (message) process.stderr.write(`bench: ${message}\n`);
  process.stderr.write(
    "usage: npm run bench [-- --quick] [-- --vectors] [-- --rounds N] [-- --json FILE] [-- --cache DIR]\n",
  );
  process.exit(message ? 2 : 0);
}

// ---------------------------------------------------------------------------------------------
// Small statistics.

const pct = (x) => (Number.isFinite(x) ? `±${(x * 100).toFixed(0)}%` : x === Infinity ? "±∞" : "±?");
const kb = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`);
const rounds_ = (n) => `${n} round${n === 1 ? "" : "s"}`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
/** The 1-minute load average per CPU. */
const loadPerCore = () => loadavg()[0] / cpus().length;

// ---------------------------------------------------------------------------------------------
// The inputs: generated by bench/inputs.ts (tsx) into a cache folder named by everything they
// depend on, so a second run reuses them and any change to the producer makes new ones.

/** A digest of everything an input file depends on besides its name: the generator and the producer. */
function sourcesDigest() {
  const h = createHash("sha256");
  const files = [join(here, "inputs.ts"), join(root, "node_modules", "cborg", "package.json")];
  for (const dir of ["producer", "src/canon"])
    for (const f of readdirSync(join(root, dir)).sort()) if (f.endsWith(".ts")) files.push(join(root, dir, f));
  files.push(join(root, "src", "json", "value.ts"), join(root, "src", "util", "bytes.ts"));
  for (const f of files) h.update(relative(root, f)).update(readFileSync(f));
  return h.digest("hex").slice(0, 16);
}

/**
 * The folder of inputs for these sources, completed for this spec: the full run and the quick one
 * share the files they have in common (the first bundles, most scaling inputs).
 */
function prepareInputs(spec, cacheRoot) {
  const name = sourcesDigest();
  const dir = join(cacheRoot, name);
  const listing = `inputs-${createHash("sha256").update(JSON.stringify(spec)).digest("hex").slice(0, 12)}.json`;
  if (!existsSync(join(dir, listing))) {
    mkdirSync(cacheRoot, { recursive: true });
    // Inputs of other sources (an older producer) are only in the way; only our own folders go.
    for (const old of readdirSync(cacheRoot))
      if (/^[0-9a-f]{16}$/.test(old) && old !== name) rmSync(join(cacheRoot, old), { recursive: true, force: true });
    progress(`generating inputs in ${dir} (kept for the next run; the largest log takes a while)`);
    const tsx = createRequire(import.meta.url).resolve("tsx/cli");
    execFileSync(process.execPath, [tsx, join(here, "inputs.ts"), JSON.stringify({ ...spec, dir, listing })], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env: benchEnv(),
    });
  }
  const listed = JSON.parse(readFileSync(join(dir, listing), "utf8"));
  return {
    dir,
    trust: join(dir, "trust.json"),
    planFile: join(dir, "plan.json"),
    plan: JSON.parse(readFileSync(join(dir, "plan.json"), "utf8")),
    ...listed,
  };
}

/** `n` input files (relative to the cache folder), distinct names, cycling through the distinct bundles. */
function manyInputs(inputs, n) {
  // Named by how many bundles they cycle through: the quick run and the full one share the folder.
  const many = join(inputs.dir, `many-${inputs.bundles.length}`);
  mkdirSync(many, { recursive: true });
  const out = [];
  for (let i = 0; i < n; i++) {
    const file = join(many, `i${String(i).padStart(4, "0")}.json`);
    if (!existsSync(file)) {
      const source = inputs.bundles[i % inputs.bundles.length];
      try {
        linkSync(source, file);
      } catch {
        copyFileSync(source, file);
      }
    }
    out.push(relative(inputs.dir, file));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Running and pairing.

function progress(line) {
  process.stderr.write(`bench: ${line}\n`);
}

const problems = [];

/**
 * `n` rounds of `jobs`, each job once per round, the order reversed every other round; with
 * `warmup`, one more round first whose numbers are dropped (file cache, CPU frequency). Returns
 * each job's results by round, so a job and its baseline pair up by index.
 */
async function rounds(runner, cwd, n, jobs, { warmup = true, label, first = 0, out: into }) {
  const out = into ?? Object.fromEntries(jobs.map((j) => [j.name, []]));
  for (let r = warmup && first === 0 ? -1 : first; r < first + n; r++) {
    const order = r % 2 === 0 ? jobs : [...jobs].reverse();
    for (const job of order) {
      const res = await runner.run(job.argv, { cwd, unset: job.unset ?? [] });
      if (res.error) throw new Error(`${label}: ${job.name}: ${res.error}`);
      if (res.code !== 0) {
        const problem = `${label}: ${job.name} exited ${res.code}, not 0: these numbers are of a run that did not verify`;
        if (!problems.includes(problem)) problems.push(problem);
      }
      if (r >= 0) out[job.name].push(res);
    }
  }
  return out;
}

/**
 * `rounds`, then more of them, TRUST.step at a time, while any of the series `watch` computes
 * spreads more than TRUST.spread, up to `cap` times `n` rounds. Also returns how many rounds ran
 * and the highest load per CPU seen before, between and after them.
 */
async function settle(runner, cwd, n, cap, jobs, { label, watch }) {
  let peak = loadPerCore();
  const out = await rounds(runner, cwd, n, jobs, { label });
  let done = n;
  peak = Math.max(peak, loadPerCore());
  while (unsettled(watch(out), done, Math.round(n * cap))) {
    progress(`${label}: spread above ±${TRUST.spread * 100}% after ${rounds_(done)}; ${TRUST.step} more`);
    await rounds(runner, cwd, TRUST.step, jobs, { label, warmup: false, first: done, out });
    done += TRUST.step;
    peak = Math.max(peak, loadPerCore());
  }
  return { out, done, peak };
}

// ---------------------------------------------------------------------------------------------

/** The launcher the package's `bin` names: what `npx a2a-evidence` runs. */
function resolveCli() {
  const bin = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin?.["a2a-evidence"];
  if (typeof bin !== "string" || !existsSync(join(root, bin)))
    throw new Error("package.json names no a2a-evidence launcher that exists");
  return join(root, bin);
}

function machine() {
  const c = cpus();
  const model = c[0]?.model?.trim() ?? "unknown CPU";
  return `${c.length} × ${model}`;
}

function builtAt(file) {
  try {
    return statSync(file)
      .mtime.toISOString()
      .replace(/\.\d+Z$/, "Z");
  } catch {
    return "missing";
  }
}

/** The signature checks the verify report must show PASS for the floor plan to be this bundle's. */
const SIGNATURE_CHECKS = new Set(["envelope.verify", "checkpoint.signature", "witness.signature", "chain.link"]);

async function sanity(runner, inputs, cli) {
  const out = join(inputs.dir, "report.json");
  const res = await runner.run([cli, "verify", "--format", "json", "--trust", inputs.trust, inputs.bundles[0]], {
    stdout: out,
  });
  let report;
  try {
    report = JSON.parse(readFileSync(out, "utf8"));
  } catch {
    throw new Error(`the CLI wrote no JSON report for the base bundle (exit ${res.code}); is dist/ built?`);
  }
  if (res.code !== 0)
    problems.push(`the base bundle exits ${res.code}, not 0: the bench measures a failing verification`);
  const checks = Object.values(report.inputs[0]?.properties ?? {}).flatMap((p) => p.checks);
  const signatures = checks.filter((c) => SIGNATURE_CHECKS.has(c.id) && c.state === "PASS").length;
  const messages = checks.filter((c) => c.id === "transcript.message" && c.state === "PASS").length;
  const agrees = signatures === inputs.plan.expect.signatureChecks && messages === inputs.plan.expect.messages;
  if (!agrees) {
    problems.push(
      `the floor plan counts ${inputs.plan.expect.signatureChecks} signatures and ${inputs.plan.expect.messages} messages; the report shows ${signatures} signature checks and ${messages} transcript checks PASS`,
    );
  }
  return { signatures, messages, agrees };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.vectors) {
    await import("./vectors.mjs");
    return;
  }
  const modeName = args.quick ? "quick" : "full";
  const mode = MODES[modeName];
  const { marginal: MARGINAL_INPUTS, memory: MEMORY_INPUTS } = mode.many;
  const R = { ...mode.rounds };
  if (args.rounds !== undefined) {
    R.startup = R.marginal = args.rounds;
    // Each in-process round verifies bundles never verified before: at most one round per bundle.
    R.inProcess = Math.min(args.rounds, mode.distinct - mode.warm);
    R.memory = Math.max(1, Math.round(args.rounds / 7));
    R.scale = Math.max(1, Math.round(args.rounds / 2));
  }
  for (const f of ["dist/index.js", "dist/a2a-evidence.cjs"]) {
    if (!existsSync(join(root, f))) {
      process.stderr.write(`bench: ${f} is missing; run \`npm run build\` first\n`);
      process.exit(2);
    }
  }
  const cli = resolveCli();
  const started = new Date();
  const loadBefore = load();
  const perCoreBefore = loadPerCore();
  const inputs = prepareInputs(
    { distinct: mode.distinct, transcript: mode.transcript, leaves: mode.leaves, artifactBytes: mode.artifactBytes },
    args.cache,
  );
  const runner = makeRunner();
  const floorScript = join(here, "floor.mjs");
  const results = {
    date: started.toISOString(),
    mode: modeName,
    inputsPerRun: mode.many,
    node: process.version,
    machine: machine(),
    runner: runner.name,
    rounds: R,
    measures: {},
    scaling: {},
  };
  const loads = {};

  try {
    const check = await sanity(runner, inputs, cli);
    const base = inputs.bundles[0];
    const manyShort = manyInputs(inputs, mode.many.short);
    const manyMarginal = manyInputs(inputs, MARGINAL_INPUTS);
    const manyMemory = manyInputs(inputs, MEMORY_INPUTS);
    const verifyArgv = (files, extra = []) => [cli, "verify", ...extra, "--trust", inputs.trust, ...files];

    const ctx = { runner, inputs, cli, R, mode, verifyArgv };
    results.measures.startup = await measureStartup(ctx, results.measures);
    loads.startup = load();
    Object.assign(results.measures, await measureMarginal(ctx, floorScript, base, manyShort, manyMarginal));
    loads.marginal = load();

    // 3. Warm in-process verify() against the floor in-process.
    progress(`warm in-process verify() vs the floor in-process (${rounds_(R.inProcess)})`);
    const inprocLoad = loadPerCore();
    const inproc = JSON.parse(
      execFileSync(
        process.execPath,
        [
          join(here, "inprocess.mjs"),
          join(root, "dist", "index.js"),
          inputs.trust,
          inputs.planFile,
          String(R.inProcess),
          `${mode.warmCalls.min}:${mode.warmCalls.max}`,
          "--measure",
          ...inputs.bundles.slice(0, mode.distinct - mode.warm),
          "--warm",
          ...inputs.bundles.slice(mode.distinct - mode.warm),
        ],
        {
          env: benchEnv(),
          maxBuffer: 1 << 24,
        },
      ).toString(),
    );
    loads.inProcess = load();
    const iv = inproc.verifyUs.map((u) => u / 1000);
    const iff = inproc.floorUs.map((u) => u / 1000);
    results.measures.inProcess = {
      verifyMs: iv,
      floorMs: iff,
      batch: inproc.batch,
      warmCalls: inproc.warmCalls,
      settled: inproc.settled,
      ...judged(iv, iff, GOALS.inProcess.goal, R.inProcess, Math.max(inprocLoad, loadPerCore())),
    };

    // 4. Peak RSS of a 2,000-input JSON report against a 200-input one.
    progress(`peak RSS, ${group(MEMORY_INPUTS)} vs ${MARGINAL_INPUTS} inputs, --format json (${rounds_(R.memory)})`);
    const mem = await rounds(
      runner,
      inputs.dir,
      R.memory,
      [
        { name: "small", argv: verifyArgv(manyMarginal, ["--format", "json"]) },
        { name: "large", argv: verifyArgv(manyMemory, ["--format", "json"]) },
      ],
      { warmup: false, label: "memory" },
    );
    loads.memory = load();
    const rSmall = mem.small.map(rssMb);
    const rLarge = mem.large.map(rssMb);
    results.measures.memory = {
      rssSmallMb: rSmall,
      rssLargeMb: rLarge,
      cpuSmallMs: mem.small.map(cpuMs),
      cpuLargeMs: mem.large.map(cpuMs),
      deltaMb: median(rLarge) - median(rSmall),
      // The goal holds on every run, not only for the medians: each round's pair.
      deltasMb: rLarge.map((l, i) => l - rSmall[i]),
    };
    results.measures.memory.verdict = judgeEveryRun(results.measures.memory.deltasMb, GOALS.memory.goal);

    // Scaling rows: one input of each size, every size once per round.
    for (const family of ["transcript", "leaves", "artifact"]) {
      const rows = inputs.scale.filter((x) => x.family === family);
      progress(`scaling: ${family} (${rows.map((r) => group(r.size)).join(", ")}; ${rounds_(R.scale)})`);
      const res = await rounds(
        runner,
        inputs.dir,
        R.scale,
        rows.map((r) => ({ name: String(r.size), argv: verifyArgv([r.file]) })),
        { warmup: false, label: `scaling ${family}` },
      );
      results.scaling[family] = rows.map((r) => ({
        size: r.size,
        bytes: statSync(r.file).size,
        cpuMs: res[String(r.size)].map(cpuMs),
        rssMb: res[String(r.size)].map(rssMb),
        ...(family === "leaves" ? { proofHashes: proofHashes(r.file) } : {}),
      }));
    }
    loads.scaling = load();

    results.inputs = describeInputs(inputs, check);
    results.loadavg = { before: loadBefore, ...loads, after: load() };
    results.trust = { ...TRUST, loadPerCoreBefore: perCoreBefore };
    results.caps = mode.cap;
    printReport(results, inputs, cli, check, mode.many);
    if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
  } finally {
    runner.close();
  }
  if (problems.length > 0) process.exitCode = 1;
}

/** A ratio shown beside a goal and not judged: its per-round series, the rounds' ratios, their median and spread. */
function shown(a, b) {
  const { ratio, spread: s, ratios } = pairedRatio(a, b);
  return { msPerBundle: a, ratio, ratios, spread: s };
}

/**
 * A ratio measure of `a` to `b` (series of the same rounds), its verdict against its goal, and
 * what decided it: its rounds' ratios, their spread, the load.
 */
function judged(a, b, goal, done, peak) {
  const { ratio, spread: s, ratios } = pairedRatio(a, b);
  return { ratio, ratios, rounds: done, spread: s, loadPerCore: peak, ...judge(ratio, goal, s, peak) };
}

/**
 * 1. One bundle through the CLI against bare Node. NODE_EXTRA_CA_CERTS makes every Node process
 * parse that certificate file as it starts, before any of its code runs: on machines that set it,
 * bare Node costs several times what it costs elsewhere. The goal is measured in the environment
 * the bench is given (both sides pay it); the same pair is also measured without the variable, so
 * the report shows what the tool costs where Node starts bare.
 */
async function measureStartup({ runner, inputs, R, mode, verifyArgv }, measures) {
  progress(`one-bundle verify vs node -e 0 (${rounds_(R.startup)})`);
  const base = inputs.bundles[0];
  const extraCa = process.env.NODE_EXTRA_CA_CERTS ? ["NODE_EXTRA_CA_CERTS"] : [];
  const jobs = [
    { name: "verify", argv: verifyArgv([base]) },
    { name: "node", argv: ["-e", "0"] },
    ...(extraCa.length > 0
      ? [
          { name: "verifyBare", argv: verifyArgv([base]), unset: extraCa },
          { name: "nodeBare", argv: ["-e", "0"], unset: extraCa },
        ]
      : []),
  ];
  const watch = (o) => [roundRatios(o.verify.map(cpuMs), o.node.map(cpuMs))];
  const run = await settle(runner, inputs.dir, R.startup, mode.cap.startup, jobs, { label: "startup", watch });
  const s = run.out;
  const sv = s.verify.map(cpuMs);
  const sn = s.node.map(cpuMs);
  if (extraCa.length > 0) {
    const bv = s.verifyBare.map(cpuMs);
    const bn = s.nodeBare.map(cpuMs);
    measures.startupWithoutExtraCa = {
      extraCaCerts: process.env.NODE_EXTRA_CA_CERTS,
      verifyMs: bv,
      nodeMs: bn,
      ...pairedRatio(bv, bn),
    };
  }
  return { verifyMs: sv, nodeMs: sn, ...judged(sv, sn, GOALS.startup.goal, run.done, run.peak) };
}

/**
 * 2. The marginal bundle of a short (50-input) and of a 200-input run against the floor's
 * marginal bundle, all four runs and their 1-input baselines in the same rounds.
 */
async function measureMarginal({ runner, inputs, R, mode, verifyArgv }, floorScript, base, short, many) {
  const [nShort, nMany] = [short.length, many.length];
  progress(`marginal CPU per bundle, ${nShort}- and ${nMany}-input runs vs the floor (${rounds_(R.marginal)})`);
  const floor = (n) => [floorScript, inputs.planFile, String(n)];
  // The floor with each input read and parsed natively (bench/reading.mjs): shown, not judged.
  const reading = (files) => [join(here, "reading.mjs"), inputs.planFile, ...files];
  const jobs = [
    { name: "cli1", argv: verifyArgv([base]) },
    { name: "floor1", argv: floor(1) },
    { name: "reading1", argv: reading([base]) },
    { name: "cliShort", argv: verifyArgv(short) },
    { name: "floorShort", argv: floor(nShort) },
    { name: "readingShort", argv: reading(short) },
    { name: "cliMany", argv: verifyArgv(many) },
    { name: "floorMany", argv: floor(nMany) },
    { name: "readingMany", argv: reading(many) },
  ];
  const per = (big, one, n) => big.map((b, i) => (cpuMs(b) - cpuMs(one[i])) / (n - 1));
  const series = (o) => ({
    shortCli: per(o.cliShort, o.cli1, nShort),
    shortFloor: per(o.floorShort, o.floor1, nShort),
    shortReading: per(o.readingShort, o.reading1, nShort),
    cli: per(o.cliMany, o.cli1, nMany),
    floor: per(o.floorMany, o.floor1, nMany),
    reading: per(o.readingMany, o.reading1, nMany),
  });
  const watch = (o) => {
    const x = series(o);
    return [roundRatios(x.shortCli, x.shortFloor), roundRatios(x.cli, x.floor)];
  };
  const run = await settle(runner, inputs.dir, R.marginal, mode.cap.marginal, jobs, { label: "marginal", watch });
  const [m, done, peak] = [run.out, run.done, run.peak];
  const x = series(m);
  const raw = (name) => m[name].map(cpuMs);
  return {
    short: {
      cliMsPerBundle: x.shortCli,
      floorMsPerBundle: x.shortFloor,
      cliShortMs: raw("cliShort"),
      floorShortMs: raw("floorShort"),
      ...judged(x.shortCli, x.shortFloor, GOALS.short.goal, done, peak),
      reading: shown(x.shortReading, x.shortFloor),
    },
    marginal: {
      cliMsPerBundle: x.cli,
      floorMsPerBundle: x.floor,
      cli1Ms: raw("cli1"),
      cliManyMs: raw("cliMany"),
      floor1Ms: raw("floor1"),
      floorManyMs: raw("floorMany"),
      ...judged(x.cli, x.floor, GOALS.marginal.goal, done, peak),
      reading: shown(x.reading, x.floor),
    },
  };
}

function describeInputs(inputs, check) {
  const p = inputs.plan;
  const sha = p.sha256.reduce((n, h) => n + h.count, 0);
  const shaBytes = p.sha256.reduce((n, h) => n + h.count * h.bytes, 0);
  const ed = p.signatures.filter((x) => x.alg === "Ed25519").length;
  const es = p.signatures.filter((x) => x.alg === "ES256").length;
  return {
    bundleBytes: statSync(inputs.bundles[0]).size,
    distinct: inputs.bundles.length,
    floor: { ed25519: ed, es256: es, keyImports: p.keys.length, sha256: sha, sha256Bytes: shaBytes },
    reportAgrees: check.agrees,
  };
}

// ---------------------------------------------------------------------------------------------
// The report.

/** Rounds (and how many were added while the spread settled), the noise of the ratio and of each side, the load that judged it. */
function trustNote(x, planned, a, b) {
  const more = x.rounds > planned ? ` (${planned} + ${x.rounds - planned} to settle)` : "";
  return `${rounds_(x.rounds)}${more}, ${pct(x.spread)} (sides ${pct(spread(a))} / ${pct(spread(b))}), load ${fmt(x.loadPerCore, 1)}/CPU${x.trusted ? "" : " (untrusted)"}`;
}

/** The rounds and the noise of a ratio shown beside a goal (not judged): of the ratio, and of each side. */
function shownNote(rounds, x, a, b) {
  return `${rounds_(rounds)}, ${pct(x.spread)} (sides ${pct(spread(a))} / ${pct(spread(b))})`;
}

/** Hashes the bundle's log proofs carry (inclusion path and peaks, consistency paths and old peaks): what grows with the log. */
function proofHashes(file) {
  const input = JSON.parse(readFileSync(file, "utf8"));
  const artifact = input.result.artifacts.find((a) => a.artifactId === "task-evidence-bundle");
  const { localInclusionProof: i, consistencyProof: c } = JSON.parse(
    Buffer.from(artifact.parts[0].raw, "base64").toString("utf8"),
  ).manifest;
  return i.witness.length + i.peaksLeft.length + i.peaksRight.length + c.witness.flat().length + c.old_peaks.length;
}

function printReport(
  results,
  inputs,
  cli,
  check,
  { short: SHORT_INPUTS, marginal: MARGINAL_INPUTS, memory: MEMORY_INPUTS },
) {
  const m = results.measures;
  const info = results.inputs;
  const f = info.floor;
  const R = results.rounds;
  const out = [];
  const line = (s = "") => out.push(s);
  line(
    `a2a-evidence bench (${results.mode}) · ${results.date.replace(/\.\d+Z$/, "Z")} · Node ${results.node} · ${process.platform} ${process.arch} · ${results.machine}`,
  );
  line(`load average (1, 5, 15 min): ${results.loadavg.before} before · ${results.loadavg.after} after`);
  const busiest = Math.max(...Object.values(results.loadavg).map((l) => Number(l.split(" ")[0])));
  const cores = cpus().length;
  if (busiest > cores)
    line(
      `note     the machine was busy (load up to ${busiest.toFixed(1)} on ${cores} CPUs): CPU times run higher than on an idle machine; the ratios, paired round by round, are the numbers to compare`,
    );
  line(
    `trust    load ${fmt(results.trust.loadPerCoreBefore, 1)} per CPU before the run; a goal is judged when its rounds spread at most ${pct(TRUST.spread)} and the load stays at most ${TRUST.loadPerCore} per CPU, or when it lies outside twice the noise band; otherwise UNDECIDED. A measure that spreads more runs more rounds (up to ×${results.caps.startup} startup, ×${results.caps.marginal} marginal)`,
  );
  line(
    `CLI      node ${relative(root, cli)} → dist/a2a-evidence.cjs (built ${builtAt(join(root, "dist", "a2a-evidence.cjs"))}); library dist/index.js`,
  );
  line(
    `CPU      user + system, ${makeRunnerDescription(results.runner)}; paired rounds, order alternating: each side the median of its rounds, a ratio (→) the median of the rounds' own ratios, its noise theirs`,
  );
  if (m.startupWithoutExtraCa)
    line(
      `env      NODE_EXTRA_CA_CERTS=${m.startupWithoutExtraCa.extraCaCerts}: every Node process parses that file as it starts (bare Node ${fmt(median(m.startup.nodeMs))} ms with it, ${fmt(median(m.startupWithoutExtraCa.nodeMs))} ms without); the start-up goal is judged as given, and shown without it below it`,
    );
  line(
    `input    ${kb(info.bundleBytes)} GetTask response: 8 messages, 2 artifacts, a 5,000-leaf log with a prior checkpoint and consistency proof, receipts Ed25519 + ES256; ${info.distinct} distinct bundles`,
  );
  line(
    `floor    ${f.ed25519} Ed25519 + ${f.es256} ES256 verifies, ${f.sha256} SHA-256 calls over ${kb(f.sha256Bytes)} per bundle (its ${f.keyImports} keys imported once per run) — counted from the producer's construction; ` +
      (check.agrees
        ? `the report's ${check.signatures} signature and ${check.messages} transcript checks agree`
        : "the report DISAGREES (see problems)"),
  );
  line();
  const rows = [
    [
      "one-bundle verify vs node -e 0",
      `${fmt(median(m.startup.verifyMs))} / ${fmt(median(m.startup.nodeMs))} ms → ${fmt(m.startup.ratio, 2)}×`,
      GOALS.startup.text,
      m.startup.verdict,
      trustNote(m.startup, R.startup, m.startup.verifyMs, m.startup.nodeMs),
    ],
    ...(m.startupWithoutExtraCa
      ? [
          [
            "  the same, NODE_EXTRA_CA_CERTS unset",
            `${fmt(median(m.startupWithoutExtraCa.verifyMs))} / ${fmt(median(m.startupWithoutExtraCa.nodeMs))} ms → ${fmt(m.startupWithoutExtraCa.ratio, 2)}×`,
            "(shown)",
            "",
            shownNote(
              m.startup.rounds,
              m.startupWithoutExtraCa,
              m.startupWithoutExtraCa.verifyMs,
              m.startupWithoutExtraCa.nodeMs,
            ),
          ],
        ]
      : []),
    ...[
      [m.short, SHORT_INPUTS, GOALS.short],
      [m.marginal, MARGINAL_INPUTS, GOALS.marginal],
    ].flatMap(([x, n, goal]) => [
      [
        `marginal CPU per bundle, ${n}-input run vs floor`,
        `${fmt(median(x.cliMsPerBundle), 3)} / ${fmt(median(x.floorMsPerBundle), 3)} ms → ${fmt(x.ratio, 2)}×`,
        goal.text,
        x.verdict,
        trustNote(x, R.marginal, x.cliMsPerBundle, x.floorMsPerBundle),
      ],
      [
        "  the floor + reading each input (JSON.parse)",
        `${fmt(median(x.reading.msPerBundle), 3)} / ${fmt(median(x.floorMsPerBundle), 3)} ms → ${fmt(x.reading.ratio, 2)}×`,
        "(shown)",
        "",
        shownNote(x.rounds, x.reading, x.reading.msPerBundle, x.floorMsPerBundle),
      ],
    ]),
    [
      "warm in-process verify() per bundle vs floor",
      `${fmt(median(m.inProcess.verifyMs), 3)} / ${fmt(median(m.inProcess.floorMs), 3)} ms → ${fmt(m.inProcess.ratio, 2)}×`,
      GOALS.inProcess.text,
      m.inProcess.verdict,
      `${trustNote(m.inProcess, R.inProcess, m.inProcess.verifyMs, m.inProcess.floorMs)}; batches of ${m.inProcess.batch.verify} / ${m.inProcess.batch.floor} after ${group(m.inProcess.warmCalls)} warm-up calls${m.inProcess.settled ? "" : " (V8 still optimizing)"}`,
    ],
    [
      `peak RSS, ${group(MEMORY_INPUTS)} vs ${MARGINAL_INPUTS} inputs, --format json`,
      `${fmt(median(m.memory.rssLargeMb))} vs ${fmt(median(m.memory.rssSmallMb))} MB = ${m.memory.deltaMb >= 0 ? "+" : ""}${fmt(m.memory.deltaMb)} MB`,
      GOALS.memory.text,
      m.memory.verdict,
      `${rounds_(R.memory)}, each ${m.memory.deltasMb.map((d) => `${d >= 0 ? "+" : ""}${fmt(d)}`).join(", ")} MB, load ${results.loadavg.memory.split(" ")[0]}`,
    ],
  ];
  table(line, ["measure", "measured", "goal", "", "rounds, noise of the ratio (±½ IQR; of each side), load"], rows);
  line();
  line(
    `scaling (one input per run unless said; medians of ${rounds_(R.scale)}; load ${results.loadavg.scaling.split(" ")[0]})`,
  );
  const sc = results.scaling;
  const srows = [];
  const sizeName = {
    transcript: (n) => `transcript, ${group(n)} messages`,
    leaves: (n) => `log, 10^${Math.round(Math.log10(n))} leaves`,
    artifact: (n) => `artifact, ${n >= MiB ? `${n / MiB} MiB` : `${n / KiB} KiB`}`,
  };
  const growth = {
    transcript: (r) => growthLinear(r, "1,000 messages", 1000),
    leaves: growthLog,
    artifact: (r) => growthLinear(r, "MiB", MiB),
  };
  for (const family of ["transcript", "leaves", "artifact"]) {
    const list = sc[family];
    list.forEach((r, i) =>
      srows.push([
        sizeName[family](r.size),
        kb(r.bytes),
        fmt(median(r.cpuMs)),
        fmt(median(r.rssMb)),
        i === list.length - 1 ? growth[family](list) : "",
      ]),
    );
  }
  const c200 = median(m.memory.cpuSmallMs);
  const c2000 = median(m.memory.cpuLargeMs);
  srows.push([
    `${MARGINAL_INPUTS} inputs, --format json`,
    kb(MARGINAL_INPUTS * info.bundleBytes),
    fmt(c200),
    fmt(median(m.memory.rssSmallMb)),
    "",
  ]);
  srows.push([
    `${group(MEMORY_INPUTS)} inputs, --format json`,
    kb(MEMORY_INPUTS * info.bundleBytes),
    fmt(c2000),
    fmt(median(m.memory.rssLargeMb)),
    `${Math.abs(m.memory.deltaMb) <= GOALS.memory.goal ? "memory flat" : "memory grows"}: ${fmt(m.memory.deltaMb)} MB for ${group(MEMORY_INPUTS - MARGINAL_INPUTS)} more inputs; ${fmt((c2000 - c200) / (MEMORY_INPUTS - MARGINAL_INPUTS), 3)} ms CPU each`,
  ]);
  table(line, ["row", "input", "CPU ms", "peak RSS MB", "growth"], srows);
  if (problems.length > 0) {
    line();
    for (const p of problems) line(`PROBLEM: ${p}`);
  }
  process.stdout.write(out.join("\n") + "\n");
}

function makeRunnerDescription(name) {
  return name === "wait4"
    ? "each child's own rusage from wait4(2), µs"
    : "each child's own rusage at its exit (python3 missing, no wait4), µs";
}

function table(line, head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const fmtRow = (r) =>
    r
      .map((c, i) => String(c).padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  line(fmtRow(head));
  for (const r of rows) line(fmtRow(r));
}

await main();
