// When one bench run can decide a goal, and when it cannot. Kept apart from run.mjs so that the
// judgment can be tested without running a benchmark.
//
// A ratio measure is judged on its rounds' own ratios: each round runs both sides, so each round
// gives one ratio, and the measure is their median. The machine's speed moves from round to round
// (shared caches, frequency, the host's other guests), and a round's two sides move together: the
// spread of the rounds' ratios is the noise of the ratio, where the spreads of the two sides
// combined also count what they share. A measure is trusted when that spread (half the
// interquartile range relative to the median) is at most SPREAD and the machine's 1-minute load
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

/**
 * Each round's ratio of `a` to `b`, two series measured in the same rounds. A round whose `b` is
 * not positive (a marginal cost lost in its round's noise) gives Infinity, which widens the
 * spread rather than vanishing from it.
 */
export function roundRatios(a, b) {
  if (a.length !== b.length) throw new Error(`a ratio's two series differ in length: ${a.length} and ${b.length}`);
  return a.map((x, i) => (b[i] > 0 ? x / b[i] : Infinity));
}

/**
 * A ratio measure: the median of its rounds' ratios, and their spread: NaN under three rounds,
 * Infinity when rounds whose baseline was not positive leave it without bound.
 */
export function pairedRatio(a, b) {
  const ratios = roundRatios(a, b);
  const s = spread(ratios);
  return { ratio: median(ratios), spread: ratios.length < 3 || Number.isFinite(s) ? s : Infinity, ratios };
}

/**
 * PASS, over or UNDECIDED for a ratio against a ceiling `goal`, given its spread and the highest
 * load per CPU seen around it. Returns the verdict and whether the measure was trusted.
 */
export function judge(ratio, goal, spreadRel, loadPerCore) {
  const known = Number.isFinite(spreadRel);
  const trusted = known && spreadRel <= TRUST.spread && loadPerCore <= TRUST.loadPerCore;
  // An unbounded spread decides nothing; an unknown one (under three rounds) leaves the least band.
  const band = 2 * Math.max(Number.isNaN(spreadRel) ? 0 : spreadRel, TRUST.spread) * ratio;
  const clear = Math.abs(ratio - goal) > band;
  const verdict = ratio <= goal ? "PASS" : "over";
  if (trusted || clear) return { verdict, trusted };
  const s = known
    ? `±${(spreadRel * 100).toFixed(0)}%`
    : spreadRel === Infinity
      ? "unbounded (a round's baseline was not above zero)"
      : "unknown (under 3 rounds)";
  return { verdict: `UNDECIDED (load ${loadPerCore.toFixed(1)}/CPU, spread ${s})`, trusted };
}

/** The memory goal holds on every run: each round's difference within ± `goal` MB. */
export function judgeEveryRun(deltas, goal) {
  return deltas.every((d) => Math.abs(d) <= goal) ? "PASS" : "over";
}

/**
 * Whether a measure should run more rounds: some series (a ratio measure's round ratios) spreads
 * more than SPREAD, and the cap allows.
 */
export function unsettled(series, done, cap) {
  if (done >= cap) return false;
  return series.some((xs) => !(spread(xs) <= TRUST.spread));
}
