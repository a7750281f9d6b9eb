/** When the in-process warm-up ends: the code V8 holds has stopped growing, within the bounds. */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench, without types
import { QUIET_BATCHES, QUIET_BYTES, warmUp } from "../../bench/warmup.mjs";

type WarmUp = (
  batch: () => void,
  codeBytes: () => number,
  min: number,
  max: number,
) => { batches: number; settled: boolean };
const run = warmUp as WarmUp;

/** A code size that grows by `growth[k]` after batch k (and not at all after the list ends). */
function simulate(growth: readonly number[], min: number, max: number) {
  let size = 1_000_000;
  let k = 0;
  const result = run(
    () => {
      size += growth[k] ?? 0;
      k++;
    },
    () => size,
    min,
    max,
  );
  return { ...result, ran: k };
}

describe("warm-up", () => {
  it("stops after five quiet batches in a row, once past the minimum", () => {
    const growth = [90_000, 40_000, 30_000, 500, 0, 0, 0, 0, 0, 0];
    expect(simulate(growth, 2, 100)).toEqual({ batches: 8, settled: true, ran: 8 });
  });
  it("a batch that grows the code starts the count again", () => {
    const growth = [0, 0, 0, 0, 5_000, 0, 0, 0, 0, 0];
    expect(simulate(growth, 1, 100)).toEqual({ batches: 10, settled: true, ran: 10 });
  });
  it("growth of exactly the allowance is quiet, a byte more is not", () => {
    expect(simulate(Array(5).fill(QUIET_BYTES), 1, 100)).toMatchObject({ batches: QUIET_BATCHES, settled: true });
    expect(simulate([QUIET_BYTES + 1, 0, 0, 0, 0, 0], 1, 100)).toMatchObject({ batches: 6, settled: true });
  });
  it("runs at least the minimum even when quiet from the start", () => {
    expect(simulate([], 12, 100)).toEqual({ batches: 12, settled: true, ran: 12 });
  });
  it("stops at the maximum and says the code had not settled", () => {
    expect(simulate(Array(50).fill(10_000), 1, 20)).toEqual({ batches: 20, settled: false, ran: 20 });
  });
});
