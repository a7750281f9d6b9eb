#!/usr/bin/env node
// Warm in-process cost of one bundle: the library's verify() (dist/index.js, the trust file loaded
// once with loadTrustConfig) against the same floor bench/floor.mjs replays, in one process after
// warm-up. Each round times one batch of each, in alternating order, by this process's CPU time
// (user + system, process.cpuUsage(), every thread counted: GC is part of the cost). Prints one
// JSON object: per-round µs per bundle for both.
//
// The warm-up verifies other bundles than the measured ones, and every measured bundle is
// verified exactly once: the verifier remembers signature outcomes it has seen (per key), which
// is right for a run that meets one checkpoint again and again, but a bundle verified twice would
// time that memory, not the work a new Task's evidence costs.
//
//   node bench/inprocess.mjs <dist/index.js> <trust.json> <plan.json> <rounds> <min>:<max> \
//        --measure <bundle.json>... --warm <bundle.json>...
//
// <min>:<max> bounds the warm-up calls of verify() (see below).
import { readFileSync } from "node:fs";
import { getHeapCodeStatistics } from "node:v8";
import { pathToFileURL } from "node:url";
import { prepareFloor } from "./floor.mjs";
import { warmUp } from "./warmup.mjs";

const [dist, trustFile, planFile, roundsArg, warmArg, ...rest] = process.argv.slice(2);
const rounds = Number(roundsArg);
const [minWarm, maxWarm] = warmArg.split(":").map(Number);
const measureFiles = rest.slice(rest.indexOf("--measure") + 1, rest.indexOf("--warm"));
const warmFiles = rest.slice(rest.indexOf("--warm") + 1);
if (measureFiles.length < rounds || warmFiles.length === 0)
  throw new Error("inprocess: need --measure (at least one bundle per round) and --warm bundles");
const lib = await import(pathToFileURL(dist).href);
const parsed = lib.parseStrictJson(readFileSync(trustFile));
if (!parsed.ok) throw new Error(`trust file: ${parsed.detail}`);
const trust = lib.loadTrustConfig(parsed.value);
if (!trust.ok) throw new Error(`trust file: ${trust.detail}`);
const load = (f) => ({ source: f, data: new Uint8Array(readFileSync(f)) });
const measured = measureFiles.map(load);
const warm = warmFiles.map(load);
const floor = prepareFloor(JSON.parse(readFileSync(planFile, "utf8")));

function verifyOne(input) {
  const report = lib.verify({ inputs: [input], trust: trust.value });
  if (report.policy.exitCode !== 0) throw new Error(`${input.source}: exit ${report.policy.exitCode} in-process`);
}
let nextWarm = 0;
const verifyWarm = () => verifyOne(warm[nextWarm++ % warm.length]);
let nextMeasured = 0;
const verifyMeasured = () => verifyOne(measured[nextMeasured++]);

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
/** µs of CPU for `n` calls of `f`. */
function batch(f, n) {
  const start = cpu();
  for (let i = 0; i < n; i++) f();
  return cpu() - start;
}
/** How many calls take about `ms` of CPU. */
function calibrate(f, ms) {
  let n = 1;
  for (;;) {
    const us = batch(f, n);
    if (us >= ms * 1000 || n >= 1 << 20) return Math.max(1, Math.round((n * ms * 1000) / Math.max(us, 1)));
    n *= 2;
  }
}

// Warm-up on the other bundles, many times over, until V8 has optimized what a long run
// optimizes. A function V8 optimizes runs once or a few times per bundle, and each change of what
// its inline caches have seen puts its turn back: after 1,000 calls the optimizing compiler still
// spent about 0.35 ms per bundle of the next 900 (a fifth of their CPU, and counted, since it is
// this process's), and it went quiet only after about 6,000 (docs/performance.md). So the
// warm-up goes on, in batches of 100 calls, until the code V8 holds has grown by at most 1 kB in
// each of five batches in a row (bench/warmup.mjs): at least <min> calls, at most <max>.
const { batches: warmBatches, settled } = warmUp(
  () => {
    for (let i = 0; i < 100; i++) verifyWarm();
  },
  () => getHeapCodeStatistics().code_and_metadata_size,
  minWarm / 100,
  maxWarm / 100,
);
for (let i = 0; i < 2000; i++) floor.one();
// Every measured bundle once, spread over the rounds. Each floor batch takes about as long as a
// batch of warm-up calls, which cost about half as much as measured ones (their signature
// outcomes are remembered); the per-call means do not depend on the batch's length.
const nVerify = Math.floor(measured.length / rounds);
const nFloor = calibrate(floor.one, batch(verifyWarm, nVerify) / 1000);

const verifyUs = [];
const floorUs = [];
for (let r = 0; r < rounds; r++) {
  if (r % 2 === 0) {
    verifyUs.push(batch(verifyMeasured, nVerify) / nVerify);
    floorUs.push(batch(floor.one, nFloor) / nFloor);
  } else {
    floorUs.push(batch(floor.one, nFloor) / nFloor);
    verifyUs.push(batch(verifyMeasured, nVerify) / nVerify);
  }
}
process.stdout.write(
  JSON.stringify({
    verifyUs,
    floorUs,
    batch: { verify: nVerify, floor: nFloor },
    warmCalls: warmBatches * 100,
    settled,
  }) + "\n",
);
