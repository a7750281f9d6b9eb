/**
 * The terminal payload's citations of interim records (docs/profile.md, v3.2 additions; A2A Task
 * Evidence §8.1.6, §12): `interimEvidence`, one `{evidenceId, sequence}` per interim record, in
 * transcript order, where `sequence` is the transition into the interrupted state it was sealed at.
 *
 *   interim.cited   each citation is well-formed and names a transition into an interrupted state;
 *                   each supplied interim record is cited (a record the caller holds that the
 *                   terminal payload leaves out is a dropped citation: FAIL); a citation whose
 *                   record is not supplied is listed, not verified
 *   interim.prefix  a cited, supplied record is this Task's record at that pause: the same record
 *                   profile and extension version, the same Task,
 *                   authority, tenant and capture policy; sealed in the state that transition
 *                   entered; its transcript is the terminal transcript up to and including that
 *                   transition; every effect it recorded is in the terminal record unchanged, and
 *                   every effect the record of an earlier pause recorded is in it; it cites exactly
 *                   the interim records before it
 *   interim.observed a record given with the paused Task that carried it (--interim) describes that
 *                   Task: its id and context, the state it waits in, every Message of its history
 *                   and its status.message, and every effect (content Artifact) it shows — the
 *                   effects done before the pause are recorded before it — and no effect it does
 *                   not show
 *
 * The checks are interim.ts's (interim.cited), prefix.ts's and observed.ts's; this file reads the
 * citations, through the evidence layer (src/evidence/citations.ts).
 */
import type { Check, State } from "../shared/types.js";
import type { CheckExtras } from "../shared/checks.js";

export {
  citationFault,
  effectsOf,
  ownCitations,
  sameCitations,
  stateAt,
  transcriptOf,
  type Citation,
} from "../../evidence/citations.js";

export type Make = (
  id: "interim.cited" | "interim.prefix" | "interim.observed",
  state: State,
  detail: string,
  extras?: CheckExtras,
) => Check;

/** The members that say whose record it is: an interim record must say the same as the terminal one. */
export const SAME_TASK_MEMBERS = ["taskId", "contextId", "authority", "tenantId", "capturePolicyId"] as const;
