/**
 * The JSON report (schemas/report.schema.json). Key order is fixed by construction and there is
 * no wall-clock time in it, so the same input always gives byte-identical output. It can also be
 * written in pieces — head, one input at a time, tail — that concatenate to exactly the same bytes,
 * so a run over thousands of inputs never holds the whole document.
 */
import type { InputReport, Report, ShardReport } from "./model.js";
import type { RenderOptions } from "./options.js";
import type { Summary } from "./summary.js";
import { TOOL } from "./model.js";
import { printableJson } from "../util/printable.js";

/** A value JSON cannot carry is rendered as a string (contract §9.21): a bigint never throws here. */
function renderable(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/** JSON.stringify with the report's rules, indented as if `depth` levels deep in the document. */
function stringify(value: unknown, depth: number): string {
  // JSON.stringify escapes C0 controls but passes C1, U+2028/2029 and bidirectional overrides
  // through; written as \uXXXX they parse to the same strings and cannot spoof a terminal.
  const text = printableJson(JSON.stringify(value, renderable, 2));
  return depth === 0 ? text : text.replace(/\n/g, `\n${"  ".repeat(depth)}`);
}

export function renderJson(report: Report, _options?: RenderOptions): string {
  return `${stringify(report, 0)}\n`;
}

/** Everything before the first input: `{"reportVersion": 1, "tool": …, "shard"?: …, "inputs": [`. */
export function jsonHead(shard?: ShardReport): string {
  const part = shard === undefined ? "" : `\n  "shard": ${stringify(shard, 1)},`;
  return `{\n  "reportVersion": 1,\n  "tool": ${stringify(TOOL, 1)},${part}\n  "inputs": [`;
}

export function jsonInput(input: InputReport, index: number): string {
  return `${index > 0 ? "," : ""}\n    ${stringify(input, 2)}`;
}

/** Everything after the last input: the policy, and the summary of a run over several inputs. */
export function jsonTail(count: number, policy: Report["policy"], summary: Summary | undefined): string {
  return `${count > 0 ? "\n  " : ""}],\n  "policy": ${stringify(policy, 1)}${summary ? `,\n  "summary": ${stringify(summary, 1)}` : ""}\n}\n`;
}
