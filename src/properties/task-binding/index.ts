/**
 * taskBinding — the payload describes the Task the caller observed (contract §4, §9.3–§9.5,
 * §9.12–§9.15, §9.20; content-binding.md §6, §11).
 *
 * The reference demo takes the "observed" artifact ids from the payload itself, which proves
 * nothing. Here every value is recomputed from the observed Task:
 *   task.id, task.contextId, task.terminalState  payload fields == the observed Task's; an absent
 *                                                string equals "" (ProtoJSON), so an absent observed
 *                                                contextId never matches a non-empty one
 *   task.authority, task.tenant                   only when the caller passes --authority / --tenant
 *                                                 (A2A Tasks carry neither)
 *   artifacts.unambiguous                         no two observed Artifacts share an artifactId: the
 *                                                 observation must match the commitment one to one
 *   artifact.binding (per payload artifact)       artifactId, name and contentCommitment are present;
 *                                                 the artifactId is an observed content Artifact, the
 *                                                 name matches, contentCommitment == SHA-256 of its text;
 *                                                 INCONCLUSIVE when it has non-text parts (not bound)
 *   artifacts.coverage                            every observed content Artifact is in the payload;
 *                                                 only Artifacts that are exactly the located bundle
 *                                                 are evidence, everything else is content (§9.12);
 *                                                 INCONCLUSIVE when the Task shows no artifacts member
 *                                                 and does not carry its bundle inline (not observed)
 *   transcript.unambiguous                        no two observed history Messages share a messageId; every
 *                                                 copy of one messageId across the server's Tasks (first,
 *                                                 terminal, paused) is one Message (listed when not)
 *   transcript.sequence                           entries are well-formed, messageIds unique, sequence 0, 1, 2, …
 *   transcript.message (per history message)      present in the transcript, in order, same role,
 *                                                 partCommitment == SHA-256 of its text parts joined by "\n";
 *                                                 a Message naming another Task or context FAILs; one with
 *                                                 non-text parts is INCONCLUSIVE (their content is not bound)
 *   transcript.firstTask (per first-Task message)  the first Task's history is observed too: each Message is
 *                                                 in the transcript, in order, the first one first
 *   transcript.statusMessage                      status.message is observed too (§9.14): the same
 *                                                 content as a history entry with its messageId, and
 *                                                 committed in order when the history does not hold it
 *   transcript.request (per sent Message)         the caller's own `request` / `requests` (contract §3):
 *                                                 every server copy is that Message (a server may add
 *                                                 contextId/taskId), and the request is the Task's first
 *                                                 Message; the record's transcript and every history keep
 *                                                 the order they were sent in (FAIL listed only then);
 *                                                 without a request, the copies of the first Message must
 *                                                 agree (listed only when they do not)
 *   transcript.unobserved                         transcript entries the Task does not show: INCONCLUSIVE
 *                                                 (A2A does not guarantee complete history); so is
 *                                                 a Task that shows no history at all, even against
 *                                                 an empty transcript
 *   transcript.transition (per transition entry)  v3.2 (docs/profile.md): its members, states, order and
 *                                                 contiguity, and its commitment recomputed from the Task
 *   transcript.resumption (per resumption)        the resuming Message is observed and continues this Task
 *   stream.replaced (per replaced version)        a streamed artifact version marked lastChunk and later
 *                                                 replaced by other content: INCONCLUSIVE (§9.28); the
 *                                                 pauses a stream showed are transcript.transition's
 *   protobuf.unknownField (per unknown field)     a gRPC input's Message, Part or Artifact carried a
 *                                                 protobuf field the verifier does not know: INCONCLUSIVE
 *                                                 (contract §3.1), the content it holds is not bound;
 *                                                 a paused Task's under --interim are listed after the
 *                                                 interim checks
 *   interim.cited                                 every supplied interim record is cited, every citation
 *                                                 well-formed (a dropped citation FAILs)
 *   interim.prefix (per cited, supplied record)   it is this Task's record at that pause: same Task, the
 *                                                 transcript up to the pause, effects kept
 *   interim.observed (per record given with its  it describes the paused Task it came with (--interim):
 *   paused Task)                                  the state it waits in, its history, its effects
 *   trace.digest (per Traceability trace)         a trace in metadata is recomputed against the payload's
 *                                                 digest, or reported as informational
 * Work is linear in the Task and the payload; lists in details are capped (§9.20).
 */
import { member } from "../../json/value.js";
import type { Check, PropertyResult } from "../shared/types.js";
import { decide } from "../shared/checks.js";
import type { EvidenceContext } from "../../evidence/context.js";
import { withInterim } from "../shared/interim.js";
import { unseenChecks } from "../shared/unseen.js";
import { streamShownChecks } from "./stream.js";
import { interimCitationChecks } from "./interim.js";
import { traceDigestChecks } from "./traces.js";
import { copiesDisagreement, requestChecks } from "./request.js";
import { CAPTURE_POLICY_V2, unusedResolvedChecks, type PartsRules } from "./parts.js";
import { CHECKS, check, only } from "./checks.js";
import { fieldCheck, optionCheck, terminalStateCheck } from "./task.js";
import { artifactChecks, carriesBundleInline } from "./artifacts.js";
import { transcriptChecks } from "./messages.js";

export { CHECKS };

export function taskBinding(ctx: EvidenceContext): PropertyResult {
  const payload = ctx.payload;
  if (!payload) return only("task.observed", "NOT_PRESENT", "the bundle carries no taskEvidencePayload");
  const task = ctx.observedTask;
  // The interim records the caller supplied are observed too, with or without the terminal Task;
  // so is what a paused Task given with --interim holds in fields the verifier cannot read.
  const interim = [...interimCitationChecks(ctx, payload, check), ...unseenChecks(ctx.evidence.interimUnseen, check)];
  const sent = requestChecks(ctx, payload, check);
  if (!task) {
    // Without the terminal Task nothing is bound, but a server copy that contradicts what the
    // caller sent is a contradiction all the same.
    return withInterim(
      only(
        "task.observed",
        "NOT_CHECKED",
        "no observed Task: verify a GetTask response or Task, or pass the observed Task with --task",
      ),
      [...interim, ...sent.filter((c) => c.state === "FAIL")],
    );
  }
  const rules: PartsRules = {
    requireAll: member(payload, "capturePolicyId") === CAPTURE_POLICY_V2,
    ...(ctx.options.resolved ? { resolved: ctx.options.resolved } : {}),
    used: new Set(),
  };
  const checks: Check[] = [
    fieldCheck("task.id", payload, "taskId", task.id, "Task id"),
    fieldCheck("task.contextId", payload, "contextId", task.contextId, "Task contextId"),
    terminalStateCheck(payload, task),
    optionCheck("task.authority", payload, "authority", ctx.options.authority, "--authority"),
    optionCheck("task.tenant", payload, "tenantId", ctx.options.tenant, "--tenant"),
    ...artifactChecks(payload, task, ctx.evidence.evidenceArtifacts, carriesBundleInline(ctx), rules),
    ...transcriptChecks(payload, task, ctx.firstTask, rules),
    ...sent,
    ...streamShownChecks(ctx.evidence.streamShown, member(payload, "transcript"), check),
    ...unseenChecks(ctx.evidence.unseen, check),
    ...interim,
    // After the checks that compare each copy with the record: those say which copy is not committed.
    ...copiesChecks(ctx),
    ...traceDigestChecks(ctx, payload, task, check),
    ...unusedResolvedChecks(rules, check),
  ];
  return decide(checks, "payload binds the observed task, terminal state, artifacts and transcript");
}

/** Copies of one Message in several of the server's Tasks that disagree (listed only then). */
function copiesChecks(ctx: EvidenceContext): Check[] {
  const fault = copiesDisagreement(ctx);
  return fault ? [check("transcript.unambiguous", "FAIL", fault, { subject: "server copies" })] : [];
}
