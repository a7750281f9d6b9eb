/**
 * How many runs and which seed. `npm test` uses a fixed seed and 20 000 runs in all; `npm run fuzz`
 * sets FUZZ_SEED (random unless `--seed N`) and FUZZ_RUNS (`--runs M`), and prints the seed so a
 * failure can be replayed.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261001);
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 20000);

/** Runs for a block that takes `share` of the total. */
export function runsFor(share: number): number {
  return Math.max(1, Math.round(FUZZ_RUNS * share));
}

/** A per-block seed, so the blocks do not repeat each other's inputs. */
export function seedFor(block: number): number {
  return (FUZZ_SEED + block * 7919) | 0;
}

/** Per-input cap: far above what any input here costs (a few ms), far below the quadratic blow-ups §9.20 forbids. */
export const PER_INPUT_MS = 2000;
