/** When one bench run decides a goal: every outcome of the judgment, on made-up measurements. */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench, without types
import { judge, judgeEveryRun, pairedRatio, roundRatios, spread, unsettled } from "../../bench/trust.mjs";

type Verdict = { verdict: string; trusted: boolean };
const decide = judge as (ratio: number, goal: number, spread: number, loadPerCore: number) => Verdict;
const everyRun = judgeEveryRun as (deltas: number[], goal: number) => string;
const paired = pairedRatio as (a: number[], b: number[]) => { ratio: number; spread: number; ratios: number[] };
const ratiosOf = roundRatios as (a: number[], b: number[]) => number[];
const spreadOf = spread as (xs: number[]) => number;
const more = unsettled as (series: number[][], done: number, cap: number) => boolean;

/** Eleven rounds around `x`, spread ±1.25 `rel` (half the IQR relative to the median). */
const rounds = (x: number, rel: number) => Array.from({ length: 11 }, (_, i) => x * (1 + ((i % 5) - 2) * rel));

describe("judging a ratio against its goal", () => {
  it("a quiet machine and a tight spread: PASS or over, whatever the margin", () => {
    expect(decide(1.29, 1.3, 0.03, 0.4)).toEqual({ verdict: "PASS", trusted: true });
    expect(decide(1.31, 1.3, 0.03, 0.4)).toEqual({ verdict: "over", trusted: true });
  });

  it("a busy machine: UNDECIDED near the goal, with the load and the spread", () => {
    expect(decide(1.35, 1.3, 0.03, 8.2)).toEqual({ verdict: "UNDECIDED (load 8.2/CPU, spread ±3%)", trusted: false });
    expect(decide(1.25, 1.3, 0.03, 8.2).verdict).toMatch(/^UNDECIDED/);
  });

  it("a wide spread on a quiet machine: UNDECIDED near the goal", () => {
    expect(decide(2.6, 2.5, 0.15, 0.5)).toEqual({ verdict: "UNDECIDED (load 0.5/CPU, spread ±15%)", trusted: false });
  });

  it("far from the goal, even a busy run decides it (beyond twice the noise band, at least ±10%)", () => {
    expect(decide(6.07, 2.5, 0.05, 8)).toEqual({ verdict: "over", trusted: false });
    expect(decide(1.0, 1.5, 0.05, 8)).toEqual({ verdict: "PASS", trusted: false });
    // 1.3 is 0.2 below 1.5, within the band of 2 × 10% × 1.3 = 0.26: not decided on a busy machine.
    expect(decide(1.3, 1.5, 0.05, 8).verdict).toMatch(/^UNDECIDED/);
  });

  it("an unknown spread (under three rounds) is never trusted", () => {
    expect(decide(1.29, 1.3, NaN, 0.2)).toEqual({
      verdict: "UNDECIDED (load 0.2/CPU, spread unknown (under 3 rounds))",
      trusted: false,
    });
  });
});

describe("the rounds a measure takes", () => {
  it("more while any series spreads above ±10%, until the cap", () => {
    expect(more([rounds(10, 0.02), rounds(5, 0.2)], 11, 22)).toBe(true);
    expect(more([rounds(10, 0.02), rounds(5, 0.2)], 22, 22)).toBe(false);
    expect(more([rounds(10, 0.02), rounds(5, 0.04)], 11, 22)).toBe(false);
    expect(more([[1, 2]], 2, 4)).toBe(true);
  });

  it("a ratio measure settles on its rounds' ratios, not on each side", () => {
    // The machine's speed drifts ±25% between rounds, and both sides of a round drift together.
    const speed = rounds(1, 0.2);
    const [a, b] = [speed.map((k) => 150 * k), speed.map((k) => 100 * k)];
    expect(spreadOf(a)).toBeCloseTo(0.25, 6);
    expect(more([a, b], 11, 22)).toBe(true);
    expect(more([ratiosOf(a, b)], 11, 22)).toBe(false);
  });
});

describe("a ratio from paired rounds", () => {
  it("is the median of the rounds' own ratios, its noise their spread", () => {
    const speed = rounds(1, 0.2);
    const a = speed.map((k, i) => 150 * k * (1 + ((i % 3) - 1) * 0.02));
    const b = speed.map((k) => 100 * k);
    const r = paired(a, b);
    expect(r.ratios).toHaveLength(11);
    expect(r.ratio).toBeCloseTo(1.5, 6);
    expect(r.spread).toBeCloseTo(0.015, 6);
    // The two sides' spreads combined would have called the same rounds ±35% and left them UNDECIDED.
    expect(Math.hypot(spreadOf(a), spreadOf(b))).toBeGreaterThan(0.34);
    expect(decide(r.ratio, 1.3, r.spread, 0.4)).toEqual({ verdict: "over", trusted: true });
  });

  it("is not the quotient of the two sides' medians when the rounds disagree", () => {
    // Each side's median falls in a different round: 30 / 20 = 1.5, where the rounds' ratios are 2, 1, 3, 1, 2.
    const r = paired([10, 20, 30, 40, 50], [5, 20, 10, 40, 25]);
    expect(r.ratios).toEqual([2, 1, 3, 1, 2]);
    expect(r.ratio).toBe(2);
    expect(r.spread).toBeCloseTo(0.25, 9);
  });

  it("a round measured in a slow spell on one side only does not move the median", () => {
    const b = rounds(100, 0.01).map((x, i) => (i === 7 ? x * 1.5 : x));
    const a = rounds(100, 0.01).map((x, i) => x * 1.4 * (i === 3 ? 1.5 : 1));
    expect(paired(a, b).ratio).toBeCloseTo(1.4, 6);
  });

  it("a round whose baseline is not positive counts as an infinite ratio: the spread widens, nothing is lost", () => {
    const b = [1, 1, 0, 1, 1];
    const a = [2, 2, 2, 2, 2];
    expect(ratiosOf(a, b)).toEqual([2, 2, Infinity, 2, 2]);
    // Whatever the round's own measure: nothing, or less than nothing.
    expect(ratiosOf([0, -1, 0], [0, 0, -1])).toEqual([Infinity, Infinity, Infinity]);
    // Four rounds, the middle two infinite: the median is infinite, not the NaN of interpolating between them.
    expect(paired([2, 2, 2, 2], [1, 0, 0, 0]).ratio).toBe(Infinity);
    expect(paired(a, b).ratio).toBe(2);
    expect(paired([2, 2, 2], [1, -1, 0]).ratio).toBe(Infinity);
    expect(decide(Infinity, 2.5, paired([2, 2, 2], [1, -1, 0]).spread, 0.1).trusted).toBe(false);
    // Three rounds or more whose infinite ratios leave the spread without bound say so: they are
    // not the unknown spread of fewer than three rounds.
    expect(paired([2, 2, 2], [1, -1, 0]).spread).toBe(Infinity);
    expect(paired([2, 2, 2, 2], [1, 0, 0, 0]).spread).toBe(Infinity);
    expect(decide(3.9, 3, Infinity, 3.5)).toEqual({
      verdict: "UNDECIDED (load 3.5/CPU, spread unbounded (a round's baseline was not above zero))",
      trusted: false,
    });
    expect(decide(Infinity, 3, Infinity, 0.2).verdict).toMatch(/^UNDECIDED .*unbounded/);
  });

  it("two series of different rounds are refused", () => {
    expect(() => ratiosOf([1, 2, 3], [1, 2])).toThrow(/differ in length: 3 and 2/);
  });

  it("under three rounds the spread is unknown", () => {
    expect(paired([2, 2], [1, 1]).spread).toBeNaN();
  });
});

describe("memory, on every run", () => {
  it("PASS only when each round's difference is within the goal", () => {
    expect(everyRun([5.7, -3, 19.9], 20)).toBe("PASS");
    expect(everyRun([5.7, 21, 3], 20)).toBe("over");
  });
});
