/**
 * `--at <time>`, as every command that judges times takes it (verify, inspect, a vector's
 * args.json): the caller's own RFC 3339 date-time with an offset, in the one grammar the time
 * rules read (witness/time.ts). Anything else is refused before a file is read.
 */
import { parseRfc3339 } from "../witness/time.js";
import { printable } from "../util/printable.js";
import { UsageError } from "./io.js";

/** The option's help text. */
export const AT_HELP =
  "judge time rules (key windows, receipt and cosignature times) against this RFC 3339 time; without it they are NOT_CHECKED";

/** Why `text` is no `--at` time (one line, without the option's name); undefined when it is one. */
export function atProblem(text: string): string | undefined {
  return parseRfc3339(text).ok
    ? undefined
    : `"${printable(text)}" is not an RFC 3339 date-time with an offset (e.g. 2026-10-01T09:30:00Z)`;
}

/** `--at` as given: a time that is no RFC 3339 date-time with an offset is a usage error. */
export function checkAtOption(at: string | undefined): void {
  const problem = at === undefined ? undefined : atProblem(at);
  if (problem !== undefined) throw new UsageError(`--at: ${problem}`);
}
