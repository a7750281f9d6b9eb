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

export type Renderer = (report: Report, options: RenderOptions) => string;

export const FORMATS = {
  text: renderText,
  json: renderJson,
  junit: renderJunit,
  github: renderGithub,
  html: renderHtml,
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
