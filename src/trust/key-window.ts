/**
 * Keys over time (contract §5.1): a pinned key may carry a window — `validFrom` / `validUntil` for
 * a planned rotation, `revokedAt` for a compromise. This module reads a window from a trust-file
 * key object and writes it for reports; src/keys/judge.ts judges a signature against it.
 *
 * Times are RFC 3339 UTC in whole seconds (`2026-10-01T09:30:00Z`): every time they are compared
 * with (a cosignature's timestamp, a receipt's `iat`, `--at`) counts whole seconds. A malformed
 * time, or a window that ends before it begins, is a trust-file error: a typo must not fail open.
 */
import { joinPath } from "../json/path.js";
import { isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { fail, ok, type Result } from "../result.js";

export interface KeyWindow {
  /** POSIX seconds. */
  readonly validFrom?: bigint;
  readonly validUntil?: bigint;
  readonly revokedAt?: bigint;
  readonly reason?: string;
}

const WINDOW_MEMBERS = ["validFrom", "validUntil", "revokedAt"] as const;
const UTC_SECONDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** POSIX seconds of `YYYY-MM-DDTHH:MM:SSZ`, or undefined when the text is not exactly a real such time. */
export function parseUtcSeconds(text: string): bigint | undefined {
  const m = UTC_SECONDS.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  // Date.UTC rolls 2026-02-30 over to March: a date that does not round-trip does not exist.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return BigInt(ms / 1000);
}

/** A time for reports: `YYYY-MM-DDTHH:MM:SSZ`, or the bare seconds beyond what a Date shows. */
export function showTime(seconds: bigint): string {
  if (seconds > 8_640_000_000_000n || seconds < -8_640_000_000_000n) return `${seconds} s`;
  return new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z");
}

/**
 * The window of a key object `{key, validFrom?, validUntil?, revokedAt?, reason?}` (already
 * matched by the schema), or undefined for a bare key or an object without a time. `path` is the
 * object's path in the trust file.
 */
export function readKeyWindow(v: JsonValue, path: string): Result<KeyWindow | undefined> {
  if (!isJsonObject(v) || member(v, "key") === undefined) return ok(undefined);
  return readWindowMembers(v, path);
}

/** The window members of an object that holds a key among other members (a PEAC key entry). */
export function readWindowMembers(v: JsonObject, path: string): Result<KeyWindow | undefined> {
  const times: { -readonly [K in (typeof WINDOW_MEMBERS)[number]]?: bigint } = {};
  for (const name of WINDOW_MEMBERS) {
    const text = member(v, name);
    if (text === undefined) continue;
    const at = joinPath(path, name);
    const seconds = typeof text === "string" ? parseUtcSeconds(text) : undefined;
    if (seconds === undefined)
      return fail(
        "TRUST_SCHEMA",
        `${JSON.stringify(typeof text === "string" ? text.slice(0, 40) : text)} is not an RFC 3339 UTC time in whole seconds (e.g. 2026-10-01T09:30:00Z)`,
        at,
      );
    times[name] = seconds;
  }
  const { validFrom, validUntil, revokedAt } = times;
  if (validFrom !== undefined && validUntil !== undefined && validUntil < validFrom)
    return fail("TRUST_SCHEMA", "validUntil is before validFrom: the window is empty", joinPath(path, "validUntil"));
  if (validFrom !== undefined && revokedAt !== undefined && revokedAt < validFrom)
    return fail("TRUST_SCHEMA", "revokedAt is before validFrom: the key was never valid", joinPath(path, "revokedAt"));
  const reason = member(v, "reason");
  if (validFrom === undefined && validUntil === undefined && revokedAt === undefined) return ok(undefined);
  return ok({ ...times, ...(typeof reason === "string" ? { reason } : {}) });
}

/** The key spec inside a key object, or the bare key itself. */
export function keySpec(v: JsonValue): JsonValue {
  return isJsonObject(v) && member(v, "key") !== undefined ? (member(v, "key") as JsonValue) : v;
}

/** The window as report values (only the bounds it has). */
export function windowValues(w: KeyWindow): Record<string, string> {
  return {
    ...(w.validFrom !== undefined ? { validFrom: showTime(w.validFrom) } : {}),
    ...(w.validUntil !== undefined ? { validUntil: showTime(w.validUntil) } : {}),
    ...(w.revokedAt !== undefined ? { revokedAt: showTime(w.revokedAt) } : {}),
    ...(w.reason !== undefined ? { reason: w.reason } : {}),
  };
}

/** The window in words: "valid 2026-01-01T00:00:00Z – 2026-06-01T00:00:00Z, revoked at …". */
export function windowText(w: KeyWindow): string {
  const parts: string[] = [];
  if (w.validFrom !== undefined || w.validUntil !== undefined)
    parts.push(
      `valid ${w.validFrom !== undefined ? `from ${showTime(w.validFrom)}` : ""}${w.validFrom !== undefined && w.validUntil !== undefined ? " " : ""}${w.validUntil !== undefined ? `until ${showTime(w.validUntil)}` : ""}`,
    );
  if (w.revokedAt !== undefined)
    parts.push(`revoked at ${showTime(w.revokedAt)}${w.reason !== undefined ? ` (${w.reason})` : ""}`);
  return parts.join(", ");
}
