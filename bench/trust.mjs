// When one bench run can decide a goal, and when it cannot. Kept apart from run.mjs so that the
// judgment can be tested without running a benchmark.
//
// A measure is trusted when the spread between its rounds (half the interquartile range relative
// to the median, both sides of a ratio combined) is at most SPREAD and the machine's 1-minute load
// average, per CPU, stayed at most LOAD_PER_CORE before and during it. A trusted measure is judged
// PASS or over. An untrusted one is still judged when the goal lies outside twice its noise band
// (its spread, and at least SPREAD): on a busy machine a ratio far from its goal still decides
// it. Otherwise the line says UNDECIDED, with the load and the spread that made it so, rather than
// a number that looks authoritative.
import { iqr, median } from "./growth.mjs";

export const TRUST = {
  /** Spread (±½ IQR, relative) above which a measure runs more rounds, and is not trusted. */
  spread: 0.1,
  /** 1-minute load average per CPU above which a measure is not trusted. */
  loadPerCore: 1.5,
  /** Rounds added at a time while a measure has not settled. */
  step: 2,
};

/** Half the interquartile range, relative to the median: the noise a number carries. */
export const spread = (xs) => (xs.length < 3 ? NaN : iqr(xs) / 2 / Math.abs(median(xs)));

/** The noise of a ratio of two medians: the two sides' spreads combined (NaN when unknown). */
export const ratioSpread = (a, b) => Math.hypot(spread(a), spread(b));

/**
 * PASS, over or UNDECIDED for a ratio against a ceiling `goal`, given its spread and the highest
 * load per CPU seen around it. Returns the verdict and whether the measure was trusted.
 */
export function judge(ratio, goal, spreadRel, loadPerCore) {
  const known = Number.isFinite(spreadRel);
  const trusted = known && spreadRel <= TRUST.spread && loadPerCore <= TRUST.loadPerCore;
  const band = 2 * Math.max(known ? spreadRel : 0, TRUST.spread) * ratio;
  const clear = Math.abs(ratio - goal) > band;
  const verdict = ratio <= goal ? "PASS" : "over";
  if (trusted || clear) return { verdict, trusted };
  const s = known ? `±${(spreadRel * 100).toFixed(0)}%` : "unknown (under 3 rounds)";
  return { verdict: `UNDECIDED (load ${loadPerCore.toFixed(1)}/CPU, spread ${s})`, trusted };
}

/** The memory goal holds on every run: each round's difference within ± `goal` MB. */
export function judgeEveryRun(deltas, goal) {
  return deltas.every((d) => Math.abs(d) <= goal) ? "PASS" : "over";
}

/** Whether a measure should run more rounds: some series spreads more than SPREAD, and the cap allows. */
export function unsettled(series, done, cap) {
  if (done >= cap) return false;
  return series.some((xs) => !(spread(xs) <= TRUST.spread));
}
