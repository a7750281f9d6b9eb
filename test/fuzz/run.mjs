#!/usr/bin/env node
// Long fuzz runs: `npm run fuzz [-- --seed N] [--runs M]`. Without --seed a random one is drawn and
// printed first, so any failure can be replayed with the same two numbers.
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";

const args = process.argv.slice(2);
function option(name) {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = Number(args[i + 1]);
  if (!Number.isSafeInteger(value)) {
    process.stderr.write(`--${name} needs an integer\n`);
    process.exit(2);
  }
  return value;
}
const seed = option("seed") ?? randomInt(2 ** 31 - 1);
const runs = option("runs") ?? 200000;
process.stdout.write(`fuzz seed ${seed}, ${runs} runs (replay: npm run fuzz -- --seed ${seed} --runs ${runs})\n`);
const vitest = spawnSync(
  process.execPath,
  ["node_modules/vitest/vitest.mjs", "run", "test/fuzz", "--testTimeout", String(24 * 3600 * 1000)],
  {
    stdio: "inherit",
    env: { ...process.env, FUZZ_SEED: String(seed), FUZZ_RUNS: String(runs) },
  },
);
process.stdout.write(
  `fuzz seed ${seed}, ${runs} runs: ${vitest.status === 0 ? "no counterexample" : "FAILED (replay with the line above)"}\n`,
);
process.exit(vitest.status ?? 1);
