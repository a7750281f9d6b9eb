/**
 * The closing summary of a run over several inputs: how many inputs ended in each exit class and
 * how many reached each state of each property. Kept as counts (and, for the closing line, the
 * first sources of each exit class), so a run over any number of inputs summarises in constant
 * memory.
 */
import {
  PROPERTY_NAMES,
  STATES,
  isFailedInput,
  type InputReport,
  type PropertyName,
  type State,
  type Summary,
} from "./model.js";
import { MAX_LISTED } from "../json/diff.js";
import { EXIT_ORDER } from "../policy.js";
import { errorText, policyReasons } from "./explain.js";

export type { Summary } from "./model.js";

export class Tally {
  private count = 0;
  private readonly exits: Record<"0" | "1" | "2" | "3", number> = { "0": 0, "1": 0, "2": 0, "3": 0 };
  private readonly states = Object.fromEntries(
    PROPERTY_NAMES.map((p) => [p, Object.fromEntries(STATES.map((s) => [s, 0]))]),
  ) as Record<PropertyName, Record<State, number>>;
  private readonly sources: Record<"0" | "1" | "2" | "3", string[]> = { "0": [], "1": [], "2": [], "3": [] };

  add(input: InputReport): void {
    this.count++;
    const code = String(input.exitCode) as "0" | "1" | "2" | "3";
    this.exits[code]++;
    // One more than listed, so the closing line knows to say "and N more".
    if (this.sources[code].length <= MAX_LISTED) this.sources[code].push(input.source);
    if (isFailedInput(input)) return;
    for (const p of PROPERTY_NAMES) this.states[p][input.properties[p].state]++;
  }

  get inputs(): number {
    return this.count;
  }

  /** The worst exit code so far: 1 > 2 > 3 > 0 (contract §6). */
  worst(): 0 | 1 | 2 | 3 {
    return EXIT_ORDER.find((c) => this.exits[String(c) as "0"] > 0) ?? 0;
  }

  /** The sources with this exit code, as many as are kept, and how many there are. */
  sourcesOf(code: 0 | 1 | 2 | 3): { listed: readonly string[]; total: number } {
    return { listed: this.sources[String(code) as "0"], total: this.exits[String(code) as "0"] };
  }

  summary(): Summary {
    return { inputs: this.count, exitCodes: { ...this.exits }, properties: structuredClone(this.states) };
  }
}

/** The summary of inputs held in memory. */
export function summarize(inputs: readonly InputReport[]): Tally {
  const t = new Tally();
  for (const i of inputs) t.add(i);
  return t;
}

/** One input of a run as a summary table shows it. */
export interface InputRow {
  readonly source: string;
  readonly exitCode: InputReport["exitCode"];
  /** The achieved evidence level; null when the input was not verified. */
  readonly achieved: string | null;
  /**
   * Why the exit code is not 0: the first FAIL (exit 1), the first unmet part of the policy
   * (exit 3), or why the input was not verified. Null for exit 0.
   */
  readonly reason: string | null;
}

export function inputRow(input: InputReport): InputRow {
  if (isFailedInput(input))
    return { source: input.source, exitCode: input.exitCode, achieved: null, reason: errorText(input.error) };
  return {
    source: input.source,
    exitCode: input.exitCode,
    achieved: input.evidenceLevel.achieved,
    reason: policyReasons(input)[0] ?? null,
  };
}
