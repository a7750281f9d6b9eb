/**
 * Said once, in the right place (contract §9.38): the text report on stdout carries each input's
 * error and nothing repeats it on stderr; when the report is for a tool (a machine format), goes
 * to a file (-o) or is not written (-q), one line on stderr says which inputs were not verified.
 */
import { isFailedInput, type FailedInput, type InputError, type InputReport } from "../report/model.js";
import { MAX_LISTED } from "../json/diff.js";
import { printable } from "../util/printable.js";

/** `a2a-evidence: source: CODE: message (at path)`: one error, on one line. */
export function errorLine(source: string | undefined, e: InputError): string {
  return `a2a-evidence: ${source ? `${printable(source)}: ` : ""}${e.code}: ${printable(e.message)}${e.path ? ` (at ${printable(e.path)})` : ""}\n`;
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
