/**
 * The one time the verifier ever compares with: the caller's `--at`, an RFC 3339 date-time
 * (full date, "T", full time with seconds and a "Z" or ±hh:mm offset). The verifier never reads
 * a clock; without `--at`, no timestamp is checked against anything.
 */
import { RFC3339_OFFSET_DATETIME } from "../peac/extensions.js";
import { fail, ok, type Result } from "../result.js";

/**
 * POSIX seconds of an RFC 3339 date-time with an offset — the one grammar `--at` has, whichever
 * property reads it; fractions are dropped (cosignatures count whole seconds).
 */
export function parseRfc3339(text: string): Result<bigint> {
  const ms = RFC3339_OFFSET_DATETIME.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) {
    return fail(
      "TIME_INVALID",
      `${JSON.stringify(text.slice(0, 40))} is not an RFC 3339 date-time with an offset (e.g. 2026-10-01T09:30:00Z)`,
    );
  }
  return ok(BigInt(Math.floor(ms / 1000)));
}

/**
 * Whether an RFC 3339 time (one `parseRfc3339` reads) lies strictly after the second it gives: its
 * fraction has a digit other than 0. `parseRfc3339` drops the fraction, which keeps every
 * comparison of a whole-second bound with `<` or `>=` exact, but not one with `<=`: a time half a
 * second after a bound B is read as B, and B <= B.
 */
export function withinSecondAfter(text: string): boolean {
  return /\.\d*[1-9]/.test(text);
}

/** A cosignature timestamp for reports: `<seconds> (<ISO date>)` while a Date can show it. */
export function showTimestamp(seconds: bigint): string {
  // Date covers ±8.64e15 ms; beyond that only the number is meaningful.
  if (seconds > 8_640_000_000_000n) return seconds.toString();
  return `${seconds} (${new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z")})`;
}
