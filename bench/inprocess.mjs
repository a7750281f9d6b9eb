#!/usr/bin/env node
// Warm in-process cost of one bundle: the library's verify() (dist/index.js, the trust file loaded
// once with loadTrustConfig) against the same floor bench/floor.mjs replays, in one process after
// warm-up. Each round times one batch of each, in alternating order, by this process's CPU time
// (user + system, process.cpuUsage(), every thread counted: GC is part of the cost). Prints one
// JSON object: per-round µs per bundle for both.
//
//   node bench/inprocess.mjs <dist/index.js> <trust.json> <plan.json> <rounds> <bundle.json>...
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { prepareFloor } from "./floor.mjs";

const [dist, trustFile, planFile, roundsArg, ...bundleFiles] = process.argv.slice(2);
const rounds = Number(roundsArg);
const lib = await import(pathToFileURL(dist).href);
const parsed = lib.parseStrictJson(readFileSync(trustFile));
if (!parsed.ok) throw new Error(`trust file: ${parsed.detail}`);
const trust = lib.loadTrustConfig(parsed.value);
if (!trust.ok) throw new Error(`trust file: ${trust.detail}`);
const bundles = bundleFiles.map((f) => ({ source: f, data: new Uint8Array(readFileSync(f)) }));
const floor = prepareFloor(JSON.parse(readFileSync(planFile, "utf8")));

let next = 0;
function verifyOne() {
  const input = bundles[next++ % bundles.length];
  const report = lib.verify({ inputs: [input], trust: trust.value });
  if (report.policy.exitCode !== 0) throw new Error(`${input.source}: exit ${report.policy.exitCode} in-process`);
}

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

// Warm-up: every bundle verified several times, so V8 has optimised what a long run optimises.
for (let i = 0; i < Math.max(300, bundles.length * 3); i++) verifyOne();
for (let i = 0; i < 2000; i++) floor.one();
const target = Number(process.env.A2A_EVIDENCE_BENCH_BATCH_MS ?? 150);
const nVerify = calibrate(verifyOne, target);
const nFloor = calibrate(floor.one, target);

const verifyUs = [];
const floorUs = [];
for (let r = 0; r < rounds; r++) {
  if (r % 2 === 0) {
    verifyUs.push(batch(verifyOne, nVerify) / nVerify);
    floorUs.push(batch(floor.one, nFloor) / nFloor);
  } else {
    floorUs.push(batch(floor.one, nFloor) / nFloor);
    verifyUs.push(batch(verifyOne, nVerify) / nVerify);
  }
}
process.stdout.write(JSON.stringify({ verifyUs, floorUs, batch: { verify: nVerify, floor: nFloor } }) + "\n");
