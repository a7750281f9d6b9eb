/**
 * The report formats, registered by name: adding a format is one renderer file and one row here.
 * Every renderer has the same signature and is pure; the CLI picks one by `--format`.
 */
import type { Report } from "./model.js";
import type { RenderOptions } from "./options.js";
import { renderJson } from "./json.js";
import { renderText } from "./text.js";
import { renderJunit } from "./junit.js";
import { renderGithub } from "./github.js";
import { renderHtml } from "./html.js";
import { inertReport } from "./untrusted.js";
import { renderNdjson, ndjsonInput, ndjsonTail } from "./ndjson.js";
import { jsonHead, jsonInput, jsonTail } from "./json.js";
import { textInput, textTail } from "./text.js";
import type { InputReport, ShardReport } from "./model.js";
import type { Tally } from "./summary.js";

export type Renderer = (report: Report, options: RenderOptions) => string;

export const FORMATS = {
  text: renderText,
  json: renderJson,
  junit: renderJunit,
  github: renderGithub,
  // The page keeps line breaks of its own; every string of the report is made one line first.
  html: (report, options) => renderHtml(inertReport(report), options),
  ndjson: renderNdjson,
} as const satisfies Record<string, Renderer>;

export type FormatName = keyof typeof FORMATS;

export const FORMAT_NAMES = Object.keys(FORMATS) as FormatName[];

/** Whether the format is for people (colour may apply) rather than for tools. */
export function isTextFormat(format: FormatName): boolean {
  return format === "text";
}

export function render(format: FormatName, report: Report, options: RenderOptions): string {
  return FORMATS[format](report, options);
}

/**
 * A format that can be written input by input, so a run over any number of inputs holds one input
 * at a time: its pieces concatenate to exactly what the format's renderer writes for the whole
 * report. The others (junit, github, html) are rendered once every input is in.
 */
export interface StreamingRenderer {
  /** `shard`: the shard of a run the report is of (`verify --shard`), for the formats that say so. */
  readonly head: (shard?: ShardReport) => string;
  readonly input: (input: InputReport, index: number) => string;
  readonly tail: (tally: Tally, policy: Report["policy"]) => string;
}

export function streamingRenderer(format: FormatName, options: RenderOptions): StreamingRenderer | undefined {
  switch (format) {
    case "text":
      return {
        head: () => "",
        input: (i, k) => textInput(i, k, options),
        tail: (tally) => (tally.inputs === 0 ? "\n" : textTail(tally, options)),
      };
    case "json":
      return {
        head: jsonHead,
        input: jsonInput,
        tail: (tally, policy) => jsonTail(tally.inputs, policy, tally.inputs > 1 ? tally.summary() : undefined),
      };
    case "ndjson":
      return {
        head: () => "",
        input: (i) => ndjsonInput(i),
        tail: (tally, policy) => ndjsonTail(policy, tally.inputs > 1 ? tally.summary() : undefined),
      };
    case "junit":
    case "github":
    case "html":
      return undefined;
  }
}
