/**
 * What a property produces: a state, a one-line detail and the checks that decided it. These are
 * the report's building blocks; the report model (src/report/model.ts) re-exports them. A check
 * itself is the base layer's (src/check.ts), which the key windows build too.
 */
import type { Check, State } from "../../check.js";

export { STATES, type Check, type State } from "../../check.js";

export interface PropertyResult {
  readonly state: State;
  readonly detail: string;
  readonly checks: readonly Check[];
}

/** The results of the properties before this one, for a property that judges claims about them. */
export type EarlierResults = Readonly<Partial<Record<string, PropertyResult>>>;
