/**
 * Every string in a report may come from the input (artifact ids, URLs, file names, messages of the
 * primitive that failed): it is hostile until shown otherwise. Before any format escapes its own
 * metacharacters, characters that can disguise text are made visible as `\uXXXX`:
 *
 * - C0 and C1 controls and DEL: XML 1.0 forbids most of them outright; ESC starts terminal and log
 *   viewer escape sequences; CR rewrites a line on a terminal; NEL, LS and PS break lines in some
 *   viewers;
 * - bidirectional overrides, isolates and marks: they reorder what a reader sees ("Trojan Source"),
 *   so `FAIL` could be shown as something else;
 * - lone surrogates and U+FFFE/U+FFFF: not characters; XML 1.0 forbids them and UTF-8 cannot carry
 *   them.
 *
 * A format that has its own way to carry line breaks or tabs passes them in `keep`. This is
 * util/printable.ts (what the terminal formats use) widened for the markup formats: XML forbids
 * the non-characters outright, and a format that can carry a line break keeps it.
 *
 * A line break or tab a format keeps is the format's own, never the input's: a renderer first
 * makes every string of the report one line (`inertReport`), so a detail cannot break into a line
 * of its own, nor pad itself with spaces to wrap there, and read as a verdict (contract §9.34).
 */
import { escapeSpaceRuns } from "../util/printable.js";
import type { Report } from "./model.js";

const DISGUISE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function visible(text: string, keep: string = ""): string {
  return text.replace(DISGUISE, (c) => (keep.includes(c) ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
}

/** Input text as one line: disguising characters, line breaks and tabs as \uXXXX, no run of more than two spaces. */
export function oneLine(text: string): string {
  return escapeSpaceRuns(visible(text));
}

function inert(value: unknown): unknown {
  if (typeof value === "string") return oneLine(value);
  if (Array.isArray(value)) return value.map(inert);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [oneLine(k), inert(v)]));
}

/**
 * The report with every string in it (and every key of a check's values) made one line: what a
 * renderer that writes line breaks or aligns columns of its own renders.
 */
export function inertReport(report: Report): Report {
  return inert(report) as Report;
}

/**
 * A report field as text. The model types these as strings, but a report built by another version
 * or by hand may carry numbers, nulls or objects; a renderer shows them rather than failing.
 */
export function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "absent";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint" || value === null)
    return String(value);
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ?? String(value);
  } catch {
    return String(value);
  }
}
