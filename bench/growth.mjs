// How the bench's scaling rows judge growth, and the small statistics they and the report use.
// Kept apart from run.mjs so that the judgments can be tested without running a benchmark.

export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  // Exactly on a measurement, or between two equal ones, that measurement (Infinity included,
  // where the interpolation gives NaN).
  return lo === hi || s[lo] === s[hi] ? s[lo] : s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
export const median = (xs) => quantile(xs, 0.5);
/** The interquartile range: the spread of the middle half of the measurements. */
export const iqr = (xs) => quantile(xs, 0.75) - quantile(xs, 0.25);
export const fmt = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : x === Infinity ? "∞" : "–");
export const group = (n) => n.toLocaleString("en-US");

/** Three standard errors of a difference of two medians, each ≈ 0.93 · IQR / √n (normal noise). */
function noiseOfDifference(a, b) {
  return (3 * 0.93 * Math.hypot(iqr(a), iqr(b))) / Math.sqrt(a.length);
}

/**
 * Linear growth: the cost per unit of the second step (×4 or ×10 the size) is at most twice the
 * first step's; superlinear otherwise. A first step whose CPU difference is within the noise of
 * the medians cannot be compared, and is said so rather than judged.
 */
export function growthLinear(rows, unit, perUnit) {
  if (rows.length < 3) return "";
  const [a, b, c] = rows.map((r) => ({ s: r.size, cpu: median(r.cpuMs), rss: median(r.rssMb) }));
  const low = (b.cpu - a.cpu) / (b.s - a.s);
  const high = (c.cpu - b.cpu) / (c.s - b.s);
  const rss = (c.rss - a.rss) / (c.s - a.s);
  const visible = b.cpu - a.cpu > Math.max(1, noiseOfDifference(rows[0].cpuMs, rows[1].cpuMs));
  const shape = !visible ? "first step within noise, not judged" : high / low <= 2 ? "linear" : "superlinear";
  return `${shape}: ${fmt(low * perUnit, 3)} → ${fmt(high * perUnit, 3)} ms CPU and ${fmt(rss * perUnit, 2)} MB per ${unit}`;
}

/**
 * Logarithmic: the largest log costs at most 3 ms (or a tenth) more CPU and 10 MB more than the
 * smallest. A CPU difference above that but within the noise of the two medians (three standard
 * errors, as for the linear rows) is said to be so rather than judged either way.
 */
export function growthLog(rows) {
  const a = rows[0];
  const c = rows[rows.length - 1];
  const dc = median(c.cpuMs) - median(a.cpuMs);
  const dr = median(c.rssMb) - median(a.rssMb);
  const shape =
    dr > 10
      ? "grows"
      : dc <= Math.max(3, 0.1 * median(a.cpuMs))
        ? "logarithmic (flat within noise)"
        : dc <= noiseOfDifference(a.cpuMs, c.cpuMs)
          ? "within noise, not judged"
          : "grows";
  return `${shape}: ×${group(c.size / a.size)} leaves (proof hashes ${rows.map((r) => r.proofHashes).join(" → ")}) → ${dc >= 0 ? "+" : ""}${fmt(dc)} ms CPU, ${dr >= 0 ? "+" : ""}${fmt(dr)} MB`;
}
