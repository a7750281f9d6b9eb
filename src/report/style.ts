/**
 * Colour for the text report, behind one switch. chalk does not honour NO_COLOR by itself, so the
 * caller decides (TTY, NO_COLOR, --no-color, format) and passes the answer in.
 */
import { Chalk, type ChalkInstance } from "chalk";
import type { State } from "./model.js";

export interface Style {
  readonly state: (s: State, text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

export function makeStyle(color: boolean): Style {
  const c: ChalkInstance = new Chalk({ level: color ? 1 : 0 });
  const byState: Record<State, (t: string) => string> = {
    PASS: c.green,
    FAIL: c.red,
    INCONCLUSIVE: c.yellow,
    NOT_CHECKED: c.cyan,
    NOT_PRESENT: c.gray,
  };
  return { state: (s, t) => byState[s](t), dim: c.gray, bold: c.bold };
}
