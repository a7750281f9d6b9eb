/** What every renderer is given besides the report. Renderers are pure: no env, files or clock. */
import type { Style } from "./style.js";

export interface RenderOptions {
  /** List every check under every property, with the values it compared. */
  readonly verbose: boolean;
  /** Colour, already decided by the caller (TTY, NO_COLOR, --no-color, format). */
  readonly style: Style;
  /**
   * The columns the text report fits (contract §9.37): the terminal's width on a TTY, else 100
   * (the default). Machine formats ignore it.
   */
  readonly width?: number;
}
