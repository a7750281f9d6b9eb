/**
 * The JSON report (schemas/report.schema.json). Key order is fixed by construction and there is
 * no wall-clock time in it, so the same input always gives byte-identical output.
 */
import type { Report } from "./model.js";
import type { RenderOptions } from "./options.js";

export function renderJson(report: Report, _options?: RenderOptions): string {
  return `${JSON.stringify(report, renderable, 2)}\n`;
}

/** A value JSON cannot carry is rendered as a string (contract §9.21): a bigint never throws here. */
function renderable(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
