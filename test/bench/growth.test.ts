/** The scaling rows' judgments of growth, on made-up measurements: every outcome each can give. */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench, without types
import { growthLinear, growthLog } from "../../bench/growth.mjs";

type Row = { size: number; cpuMs: number[]; rssMb: number[]; proofHashes?: number };
const judge = growthLinear as (rows: Row[], unit: string, perUnit: number) => string;
const judgeLog = growthLog as (rows: Row[]) => string;

/** Eleven rounds around `cpu` ms, spread ±`jitter` ms, and a steady RSS. */
function row(size: number, cpu: number, jitter: number, rss = 50, proofHashes = 0): Row {
  const cpuMs = Array.from({ length: 11 }, (_, i) => cpu + ((i % 5) - 2) * (jitter / 2));
  return { size, cpuMs, rssMb: cpuMs.map(() => rss), proofHashes };
}

describe("linear growth", () => {
  it("linear: the second step costs per unit what the first did", () => {
    expect(judge([row(100, 100, 1), row(1000, 150, 1), row(10000, 650, 1)], "1,000 messages", 1000)).toMatch(
      /^linear: 55\.556 → 55\.556 ms CPU/,
    );
  });
  it("superlinear: more than twice as much per unit", () => {
    expect(judge([row(100, 100, 1), row(1000, 150, 1), row(10000, 1500, 1)], "1,000 messages", 1000)).toMatch(
      /^superlinear: /,
    );
  });
  it("not judged when the first step is within the noise", () => {
    expect(judge([row(100, 100, 40), row(1000, 104, 40), row(10000, 1500, 40)], "MiB", 1)).toMatch(
      /^first step within noise, not judged: /,
    );
  });
  it("nothing for fewer than three sizes", () => {
    expect(judge([row(100, 100, 1), row(1000, 150, 1)], "MiB", 1)).toBe("");
  });
});

describe("logarithmic growth", () => {
  const sizes = [1000, 10_000, 1_000_000];
  it("logarithmic: the largest log costs at most 3 ms or a tenth more", () => {
    const rows = sizes.map((s, i) => row(s, 100 + i * 4, 2, 50, 23 + i * 30));
    expect(judgeLog(rows)).toBe(
      "logarithmic (flat within noise): ×1,000 leaves (proof hashes 23 → 53 → 83) → +8.0 ms CPU, +0.0 MB",
    );
  });
  it("not judged: more than a tenth, but within the noise of the medians", () => {
    const rows = sizes.map((s, i) => row(s, 100 + i * 6, 40));
    expect(judgeLog(rows)).toMatch(/^within noise, not judged: .* → \+12\.0 ms CPU/);
  });
  it("grows: more than a tenth and beyond the noise", () => {
    const rows = sizes.map((s, i) => row(s, 100 + i * 6, 2));
    expect(judgeLog(rows)).toMatch(/^grows: .* → \+12\.0 ms CPU/);
  });
  it("grows: 10 MB more memory, whatever the CPU", () => {
    const rows = sizes.map((s, i) => row(s, 100, 2, 50 + i * 6));
    expect(judgeLog(rows)).toMatch(/^grows: .* → \+0\.0 ms CPU, \+12\.0 MB$/);
  });
});
