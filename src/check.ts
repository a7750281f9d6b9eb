/**
 * What a check is: a state, a one-line detail, and what it was about. The report's smallest
 * building block, here in the base layer so that every layer that judges (the key windows, the
 * properties) builds the same shape; the report model (src/report/model.ts) re-exports it.
 */
import type { FailureCode } from "./codes/index.js";

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
