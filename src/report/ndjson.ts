/**
 * The NDJSON report, for streaming consumers: one line per input, `{"input": <input report>}`,
 * written as soon as the input is verified, then one closing line `{"run": {reportVersion, tool,
 * policy, summary?, error?}}`. Each line is compact JSON (schemas/report-ndjson.schema.json); the
 * objects are the JSON report's.
 */
import { TOOL, type InputReport, type Report } from "./model.js";
import type { RenderOptions } from "./options.js";
import { summarize, type Summary } from "./summary.js";
import { printableJson } from "../util/printable.js";

function line(value: unknown): string {
  return `${printableJson(JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)))}\n`;
}

export function ndjsonInput(input: InputReport): string {
  return line({ input });
}

export function ndjsonTail(policy: Report["policy"], summary: Summary | undefined, error?: Report["error"]): string {
  return line({
    run: { reportVersion: 1, tool: TOOL, policy, ...(summary ? { summary } : {}), ...(error ? { error } : {}) },
  });
}

export function renderNdjson(report: Report, _options?: RenderOptions): string {
  const summary = report.inputs.length > 1 ? summarize(report.inputs).summary() : undefined;
  return report.inputs.map(ndjsonInput).join("") + ndjsonTail(report.policy, summary, report.error);
}
