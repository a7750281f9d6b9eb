/**
 * A Task that has not ended has no terminal record yet (A2A Task Evidence §8.1): while it waits
 * for input or authentication its evidence status is PENDING, and there is nothing to verify but
 * the interim records sealed at its pauses. That is a state of the input, not a fault: it is
 * reported as INPUT_EVIDENCE_PENDING with exit 3 (nothing failed; the caller's policy cannot hold
 * yet), never as a crash and never as a verified record.
 *
 * Only a Task that says so is pending: not terminal, `metadata[<extension URI>].evidenceStatus`
 * EVIDENCE_STATUS_PENDING, and every bundle it carries an interim record (a payload sealed in an
 * interrupted state). A terminal Task is never pending; a non-terminal Task that carries a
 * terminal record, or states another evidence status, is verified, and its contradictions FAIL.
 */
import { memberAt } from "../json/value.js";
import { listCapped } from "../json/diff.js";
import { fail, type Failure } from "../result.js";
import { INTERRUPTED_TASK_STATES, TERMINAL_TASK_STATES } from "../profile.js";
import { extensionMetadata, type A2ATask } from "./a2a.js";
import type { LocatedBundle } from "./locate.js";

export const PENDING_STATUS = "EVIDENCE_STATUS_PENDING";

/** True when the bundle's payload was sealed in an interrupted state: an interim record. */
export function isInterimRecord(b: LocatedBundle): boolean {
  const state = memberAt(b.bundle, "taskEvidencePayload", "terminalState");
  return typeof state === "string" && (INTERRUPTED_TASK_STATES as readonly string[]).includes(state);
}

export function pendingEvidence(task: A2ATask | undefined, bundles: readonly LocatedBundle[]): Failure | undefined {
  if (!task || (TERMINAL_TASK_STATES as readonly string[]).includes(task.state)) return undefined;
  if (memberAt(extensionMetadata(task), "evidenceStatus") !== PENDING_STATUS) return undefined;
  if (!bundles.every(isInterimRecord)) return undefined;
  const ids = bundles.map((b) => {
    const id = memberAt(b.bundle, "evidenceId");
    return `${typeof id === "string" ? id : "(no evidenceId)"} at ${b.location}`;
  });
  const carried =
    ids.length > 0
      ? `; it carries interim record(s) ${listCapped(ids)}, sealed at the pause and verified with the terminal record (keep it in a capture's interimBundles, or pass this Task with --interim)`
      : "";
  return fail(
    "INPUT_EVIDENCE_PENDING",
    `the Task is in ${task.state} and has not ended: its evidence is ${PENDING_STATUS} until it reaches a terminal state, so there is no terminal record to verify yet${carried}`,
    task.path,
  );
}
