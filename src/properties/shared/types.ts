/**
 * What a property produces: a state, a one-line detail and the checks that decided it. These are
 * the report's building blocks; the report model (src/report/model.ts) re-exports them.
 */
import type { FailureCode } from "../../codes/index.js";

export const STATES = ["PASS", "FAIL", "NOT_PRESENT", "NOT_CHECKED", "INCONCLUSIVE"] as const;
export type State = (typeof STATES)[number];

export interface Check {
  /** Stable id, e.g. `evidenceId.recompute`; each property declares its ids (see `checksFor`). */
  readonly id: string;
  readonly state: State;
  readonly detail: string;
  /** What the check was about when the id repeats, e.g. `nonEvidenceArtifacts[0]` or a ts_url. */
  readonly subject?: string;
  /** The failure code of the primitive that decided a FAIL or INCONCLUSIVE, when there is one. */
  readonly code?: FailureCode;
  /** The values compared (hashes, sizes, ids), for auditors. */
  readonly values?: Readonly<Record<string, string>>;
  /** Who operates the service or witness the check is about (contract §9.19), when it is about one. */
  readonly operator?: "independent" | "producer-operated" | "unspecified";
}

export interface PropertyResult {
  readonly state: State;
  readonly detail: string;
  readonly checks: readonly Check[];
}

/** The results of the properties before this one, for a property that judges claims about them. */
export type EarlierResults = Readonly<Partial<Record<string, PropertyResult>>>;
