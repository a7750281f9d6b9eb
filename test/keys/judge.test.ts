/**
 * The time rules of contract §5.1 on times finer than a second: an --at with a fraction is read as
 * its whole second (rounded down) and marked as lying within the second after it.
 */
import { describe, expect, it } from "vitest";
import { earliest, judgeAt, type TimeSource } from "../../src/keys/judge.js";
import { withinSecondAfter } from "../../src/witness/time.js";

const B = 1_790_000_000n;
const exact = (seconds: bigint, source = "a witness"): TimeSource => ({ seconds, source });
const within = (seconds: bigint, text: string): TimeSource => ({ seconds, source: "--at", withinSecond: text });

describe("withinSecondAfter", () => {
  it("is true only for a fraction with a digit other than 0", () => {
    expect(withinSecondAfter("2026-10-01T12:00:00.5Z")).toBe(true);
    expect(withinSecondAfter("2026-10-01T12:00:00.0001+02:00")).toBe(true);
    expect(withinSecondAfter("2026-10-01T12:00:00.000Z")).toBe(false);
    expect(withinSecondAfter("2026-10-01T12:00:00Z")).toBe(false);
  });
});

describe("earliest", () => {
  it("at one whole second, a time at it is earlier than one within the second after it, in either order", () => {
    const at = exact(B);
    const after = within(B, "…T12:00:00.5Z");
    expect(earliest([after, at])).toBe(at);
    expect(earliest([at, after])).toBe(at);
    expect(earliest([within(B - 1n, "x"), at])?.seconds).toBe(B - 1n);
  });
});

describe("judgeAt on a whole-second bound", () => {
  it("validUntil: a time within the second after it is after it", () => {
    expect(judgeAt({ validUntil: B }, exact(B)).state).toBe("PASS");
    expect(judgeAt({ validUntil: B }, within(B, "x")).state).toBe("INCONCLUSIVE");
    expect(judgeAt({ validUntil: B }, within(B - 1n, "x")).state).toBe("PASS");
  });
  it("revokedAt and validFrom: rounding down is exact", () => {
    expect(judgeAt({ revokedAt: B }, within(B - 1n, "x")).state).toBe("PASS");
    expect(judgeAt({ revokedAt: B }, within(B, "x")).state).toBe("FAIL");
    expect(judgeAt({ validFrom: B }, within(B - 1n, "x")).state).toBe("FAIL");
    expect(judgeAt({ validFrom: B }, within(B, "x")).state).toBe("PASS");
  });
});
