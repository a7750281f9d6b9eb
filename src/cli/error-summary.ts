/**
 * Said once, in the right place (contract §9.38): the text report on stdout carries each input's
 * error and nothing repeats it on stderr; when the report is for a tool (a machine format), goes
 * to a file (-o) or is not written (-q), one line on stderr says which inputs were not verified.
 */
import { isFailedInput, type FailedInput, type InputError, type InputReport } from "../report/model.js";
import { MAX_LISTED } from "../json/diff.js";
import type { Failure } from "../result.js";
import { printable } from "../util/printable.js";

/** `source: CODE: message (at path)`: one error, as its line says it. */
export function errorText(source: string | undefined, e: Pick<InputError, "code" | "message" | "path">): string {
  return `${source ? `${printable(source)}: ` : ""}${e.code}: ${printable(e.message)}${e.path ? ` (at ${printable(e.path)})` : ""}`;
}

/** `a2a-evidence: source: CODE: message (at path)`: one error, on one line. */
export function errorLine(source: string | undefined, e: InputError): string {
  return `a2a-evidence: ${errorText(source, e)}\n`;
}

/** `a2a-evidence: source: CODE: detail (at path)`: a failure of one file, on the line errorLine gives. */
export function failureLine(source: string | undefined, f: Pick<Failure, "code" | "detail" | "path">): string {
  return errorLine(source, { code: f.code, message: f.detail, ...(f.path ? { path: f.path } : {}) });
}

/** `a2a-evidence: source: INPUT_UNREADABLE: reason`: a file that could not be read, named once. */
export function unreadableLine(source: string, reason: string): string {
  return errorLine(source, { code: "INPUT_UNREADABLE", message: reason });
}

/** How a path is named in reports and messages: standard input is `stdin` everywhere. */
export function nameOf(path: string): string {
  return path === "-" ? "stdin" : path;
}

/** A file the caller gives beside the inputs, as a report-level error names it. */
export type CallerFile = NonNullable<InputError["source"]>;

/** The caller's files beside the inputs, as given on the command line. */
export interface CallerFiles {
  readonly trust?: string | undefined;
  readonly task?: string | undefined;
  readonly firstTask?: string | undefined;
  readonly cosignatures?: string | undefined;
  readonly interim?: readonly string[];
  /** The files of the --resolved URL=FILE flags, in the order given. */
  readonly resolved?: readonly string[];
}

/** A file a flag names, as an error line names it: `--task task.json`. */
export function flagFileName(flag: string, path: string): string {
  return `${flag} ${nameOf(path)}`;
}

/** The trust file, as an error line names it: `trust file trust.json`. */
export function trustFileName(path: string): string {
  return flagFileName("trust file", path);
}

/**
 * A report-level error about one of the caller's files, and for an --interim or --resolved file
 * which of them it is about (from 0). The position travels beside the error, not in it: the report
 * carries the error as it is, and only the line names the file.
 */
export interface CallerFileError {
  readonly error: InputError;
  readonly index?: number | undefined;
}

/**
 * The caller's file a report-level error is about, named as the user gave it (`--task task.json`,
 * `trust file trust.json`); verify and inspect name it alike. An --interim or --resolved file is
 * the `index`-th file given with its flag.
 */
export function callerFileName(source: CallerFile, index: number | undefined, files: CallerFiles): string | undefined {
  const byFlag: Record<CallerFile, string | undefined> = {
    trust: files.trust,
    "--task": files.task,
    "--first-task": files.firstTask,
    "--cosignatures": files.cosignatures,
    "--interim": index === undefined ? undefined : files.interim?.[index],
    "--resolved": index === undefined ? undefined : files.resolved?.[index],
    // A time, not a file (and the command line refuses a bad one before anything is read).
    "--at": undefined,
  };
  const file = byFlag[source];
  if (file === undefined) return undefined;
  return source === "trust" ? trustFileName(file) : flagFileName(source, file);
}

/**
 * A caller's file that could not be read (missing, a directory, unreadable), as the error the run
 * stops with: the reason, after the position of an --interim or --resolved file, so the line names
 * the file once.
 */
export function unreadableFile(source: CallerFile, reason: string, index?: number): CallerFileError {
  const message = index === undefined ? reason : `${source}[${index}]: ${reason}`;
  return { error: { code: "INPUT_UNREADABLE", message, source }, index };
}

export class ErrorSummary {
  private count = 0;
  private inputs = 0;
  private readonly listed: FailedInput[] = [];

  add(input: InputReport): void {
    this.inputs++;
    if (!isFailedInput(input)) return;
    this.count++;
    if (this.listed.length <= MAX_LISTED) this.listed.push(input);
  }

  /** The one line: the input's own error when one input was not verified, else the list of them. */
  line(): string | undefined {
    const first = this.listed[0];
    if (first === undefined) return undefined;
    if (this.count === 1) return errorLine(first.source, first.error);
    const shown = this.listed.slice(0, MAX_LISTED).map((i) => `${printable(i.source)} (${i.error.code})`);
    const more = this.count > shown.length ? ` and ${this.count - shown.length} more` : "";
    return `a2a-evidence: ${this.count} of ${this.inputs} inputs were not verified: ${shown.join(", ")}${more}\n`;
  }
}
