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
//   node bench/inprocess.mjs <dist/index.js> <trust.json> <plan.json> <rounds> \
//        --measure <bundle.json>... --warm <bundle.json>...
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { prepareFloor } from "./floor.mjs";

const [dist, trustFile, planFile, roundsArg, ...rest] = process.argv.slice(2);
const rounds = Number(roundsArg);
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

// Warm-up on the other bundles, many times over, so V8 has optimised what a long run optimises:
// after 300 calls it was still optimizing some 20 functions per 100 bundles, and a bundle cost
// about a fifth more than after 1,000 (docs/performance.md).
for (let i = 0; i < Math.max(1000, warm.length * 10); i++) verifyWarm();
for (let i = 0; i < 2000; i++) floor.one();
// Every measured bundle once, spread over the rounds; the floor's batches take as long.
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
process.stdout.write(JSON.stringify({ verifyUs, floorUs, batch: { verify: nVerify, floor: nFloor } }) + "\n");
