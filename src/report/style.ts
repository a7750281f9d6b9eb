/**
 * Colour for the text report, behind one switch. The caller decides (TTY, NO_COLOR, --no-color,
 * format) and passes the answer in; without colour every function is the identity. Plain ANSI
 * SGR codes: no colour library is loaded at start-up for a report that is usually piped.
 */
import type { State } from "./model.js";

export interface Style {
  readonly state: (s: State, text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

export function makeStyle(color: boolean): Style {
  if (!color) return { state: (_s, t) => t, dim: plain, bold: plain };
  const byState: Record<State, (t: string) => string> = {
    PASS: sgr(32, 39),
    FAIL: sgr(31, 39),
    INCONCLUSIVE: sgr(33, 39),
    NOT_CHECKED: sgr(36, 39),
    NOT_PRESENT: sgr(90, 39),
  };
  return { state: (s, t) => byState[s](t), dim: sgr(90, 39), bold: sgr(1, 22) };
}
