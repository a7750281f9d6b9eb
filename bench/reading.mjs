#!/usr/bin/env node
// The floor and the reading no verifier can skip: for each input, what bench/floor.mjs does for a
// bundle, after reading the input's file and parsing it, and the bundle it carries, with the
// engine's own JSON.parse (UTF-8 decode, base64 decode, JSON.parse: native code, no strictness,
// no check). It stands for the least a run over these inputs can cost, however its checks were
// written: its ratio to the floor, shown beside each marginal goal, is the part of that goal the
// verifier's own work never had.
//
//   node bench/reading.mjs <plan.json> <input.json>...
//
// The inputs are the bench's GetTask responses, whose bundle is the base64 `raw` part of an
// artifact; an input without one is an error (exit 1), not a cheaper pass.
import { readFileSync } from "node:fs";
import { prepareFloor } from "./floor.mjs";

const [planFile, ...files] = process.argv.slice(2);
const floor = prepareFloor(JSON.parse(readFileSync(planFile, "utf8")));

/** The bundle an input carries, parsed; throws when it carries none. */
function carried(file) {
  const input = JSON.parse(readFileSync(file).toString("utf8"));
  for (const artifact of input?.result?.artifacts ?? [])
    for (const part of artifact?.parts ?? [])
      if (typeof part?.raw === "string") return JSON.parse(Buffer.from(part.raw, "base64").toString("utf8"));
  throw new Error(`${file}: no artifact part carries a bundle (raw)`);
}

let x = 0;
for (const file of files) {
  x ^= Object.keys(carried(file)).length;
  x ^= floor.one();
}
// The result is printed so no work is dead.
process.stdout.write(`${x}\n`);
