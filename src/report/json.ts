/**
 * The JSON report (schemas/report.schema.json). Key order is fixed by construction and there is
 * no wall-clock time in it, so the same input always gives byte-identical output.
 */
import type { Report } from "./model.js";
import type { RenderOptions } from "./options.js";
import { printableJson } from "../util/printable.js";

export function renderJson(report: Report, _options?: RenderOptions): string {
  // JSON.stringify escapes C0 controls but passes C1, U+2028/2029 and bidirectional overrides
  // through; written as \uXXXX they parse to the same strings and cannot spoof a terminal.
  return `${printableJson(JSON.stringify(report, renderable, 2))}\n`;
}

/** A value JSON cannot carry is rendered as a string (contract §9.21): a bigint never throws here. */
function renderable(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
