/**
 * The JSON report (schemas/report.schema.json). Key order is fixed by construction and there is
 * no wall-clock time in it, so the same input always gives byte-identical output.
 */
import type { Report } from "./model.js";

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
