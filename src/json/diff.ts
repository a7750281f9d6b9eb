/** The first difference between two JSON values, for "copies disagree" details. */
import { JsonNumber, isJsonObject, hasMember, type JsonValue } from "./value.js";
import { joinPath } from "./path.js";

export interface Difference {
  readonly path: string;
  readonly left: JsonValue | undefined;
  readonly right: JsonValue | undefined;
}

/** Two numbers are the same when their lexemes are (the default), or by the caller's rule. */
export type SameNumber = (a: JsonNumber, b: JsonNumber) => boolean;

const sameLexeme: SameNumber = (a, b) => a.lexeme === b.lexeme;

export function firstDifference(
  a: JsonValue | undefined,
  b: JsonValue | undefined,
  path = "$",
  sameNumber: SameNumber = sameLexeme,
): Difference | undefined {
  if (a === b) return undefined;
  if (a instanceof JsonNumber && b instanceof JsonNumber)
    return sameNumber(a, b) ? undefined : { path, left: a, right: b };
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(a[i], b[i], joinPath(path, i), sameNumber);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of [...keys].sort()) {
      const d = firstDifference(
        hasMember(a, k) ? a[k] : undefined,
        hasMember(b, k) ? b[k] : undefined,
        joinPath(path, k),
        sameNumber,
      );
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return { path, left: a, right: b };
}

/** A short JSON rendering of a value for a detail line (absent shows as "absent"). */
export function showValue(v: JsonValue | undefined, max = 80): string {
  if (v === undefined) return "absent";
  const s =
    v instanceof JsonNumber
      ? v.lexeme
      : typeof v === "object" && v !== null
        ? Array.isArray(v)
          ? `[…${v.length}]`
          : "{…}"
        : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** A value as an auditor reads it in a report's `values`: strings bare, numbers by lexeme, absent as "absent". */
export function valueText(v: JsonValue | undefined): string {
  return typeof v === "string" ? v : showValue(v, 200);
}

/** The most items a detail lists before it says how many more there are (contract §9.20). */
export const MAX_LISTED = 20;

/**
 * Items joined for a detail line, at most `max` of them, then "and N more": a hostile input with
 * thousands of offending items must not make a report thousands of times larger.
 */
export function listCapped(items: readonly string[], max = MAX_LISTED): string {
  if (items.length <= max) return items.join(", ");
  return `${items.slice(0, max).join(", ")} and ${items.length - max} more`;
}
