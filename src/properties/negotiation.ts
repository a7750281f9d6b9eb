/**
 * negotiation — the server accepted the caller's evidence requirement before acting, and its
 * terminal status claims no less (contract §4, §9.8; a2a-wire.md §6.3–§6.5). Whether the evidence
 * meets the requirement is the evidence level's, shown beside it (§9.39).
 *
 *   requirement.copiesAgree   with the caller's own `request`: every server copy of it shows the
 *                             requirement the caller sent; without it, every copy of the first Message
 *                             in the input is the same Message, metadata included (ProtoJSON's spellings,
 *                             `60.0` for `60`, are no difference, whichever binding each copy came in) —
 *                             copies that disagree FAIL whichever of them carries the requirement (§9.8)
 *   requirement.wellFormed    requirement ∈ {PREFERRED, REQUIRED}; known profile and level; sane options
 *   acceptance.requested      an acceptance answers a requirement: a first Task that shows
 *                             evidenceAcceptance while the first Message carries no requirement FAILs
 *                             (the requirement was removed from the history, hiding the minimum)
 *   acceptance.sameTask       the first Task is the same Task (id, contextId) as the terminal one, or
 *                             as the record's payload names when no terminal Task is observed
 *   acceptance.accepted       the first Task's evidenceAcceptance.state is ACCEPTED
 *   acceptance.beforeWork     that Task is not terminal and holds no content Artifacts yet (§9.18)
 *   acceptance.terms          same recordProfile and minimumEvidence; maximumRegistrationDelaySeconds no looser
 *   requireTask               the server answered with a Task, not a direct Message (a capture or
 *                             --first-task may record the direct Message it got instead)
 *   evidence.recordProfile    the delivered bundle is under the accepted record profile
 *   deliveryMode.listed       the delivery mode used is one the caller listed
 *   status.meetsMinimum       the terminal evidenceStatus meets minimumEvidence, or is FAILED with a typed
 *                             reason (a server may fail; it may not silently downgrade)
 *   requirement.unchanged     no later Message in the history changed the requirement
 * The requirement is read from the caller's `request` when the capture records it, never from a
 * server copy. With the requirement visible but no first Task in the input, negotiation is INCONCLUSIVE
 * ("acceptance not observed"); with no requirement anywhere, NOT_PRESENT; with no Task at all (a
 * bare bundle), NOT_CHECKED.
 */
import {
  memberAt,
  isJsonObject,
  member,
  jsonEquals,
  isJsonNumber,
  type JsonObject,
  type JsonValue,
} from "../json/value.js";
import { firstDifference, listCapped, showValue } from "../json/diff.js";
import {
  ACCEPTED,
  DELIVERY_MODES,
  EVIDENCE_LEVELS,
  EVIDENCE_STATUS_PREFIX,
  RECORD_PROFILE_V1,
  REQUIREMENTS,
  TERMINAL_TASK_STATES,
  TYPED_FAILURE_REASON,
  levelRank,
  type EvidenceLevel,
} from "../profile.js";
import { extensionMetadata, type A2AArtifact, type A2AMessage, type A2ATask } from "../input/a2a.js";
import { DEFAULT_LOAD_LIMITS, locateInTask } from "../input/locate.js";
import type { Check, PropertyResult } from "./shared/types.js";
import { checksFor, decide } from "./shared/checks.js";
import type { EvidenceContext } from "../evidence/context.js";
import { findFirstMessage, requirementOf, type FirstMessage } from "./shared/requirement.js";
import { disagreeingCopy, sameValue } from "./task-binding/request.js";
import { deliveredIn, deliveryModeOf } from "../evidence/delivery.js";

export const CHECKS = checksFor([
  "requirement.copiesAgree",
  "requirement.wellFormed",
  "acceptance.requested",
  "acceptance.sameTask",
  "acceptance.accepted",
  "acceptance.beforeWork",
  "acceptance.terms",
  "requireTask",
  "evidence.recordProfile",
  "deliveryMode.listed",
  "status.meetsMinimum",
  "requirement.unchanged",
]);
const { check, only } = CHECKS;

export function negotiation(ctx: EvidenceContext): PropertyResult {
  if (!ctx.observedTask && !ctx.firstTask && !ctx.firstMessage) {
    // A bare bundle: there is no Task whose first Message could carry the requirement.
    return only(
      "requirement.wellFormed",
      "NOT_CHECKED",
      "no observed Task: the requirement is in the Task's first Message (pass --task, or --first-task)",
    );
  }
  const first = findFirstMessage(ctx);
  const requirement = requirementOf(first?.message);
  const copies = first ? copiesCheck(first) : undefined;
  // A copy that shows a requirement the Message it copies does not carry is no absent requirement.
  if (copies?.state === "FAIL" && (requirement === undefined || requirement === null)) return decide([copies], "");
  if (!first || requirement === undefined || requirement === null) return noRequirement(ctx, first);
  const checks: Check[] = copies ? [copies] : [];
  const wellFormed = wellFormedCheck(requirement);
  checks.push(wellFormed);
  if (wellFormed.state === "FAIL" || !isJsonObject(requirement)) return decide(checks, "");
  const req = requirement;
  checks.push(unchangedCheck(ctx.observedTask, first.message, req));
  const firstTask = ctx.firstTask;
  if (!firstTask && ctx.firstMessage) return directMessage(checks, req, ctx.firstMessage.messageId);
  if (!firstTask) {
    checks.push(
      check(
        "acceptance.accepted",
        "INCONCLUSIVE",
        "acceptance not observed: the input has no first Task (pass it with --first-task or a capture)",
      ),
    );
    return decide(checks, "");
  }
  checks.push(sameTaskCheck(firstTask, ctx.observedTask, ctx.payload));
  return acceptedChecks(ctx, checks, firstTask, req);
}

/**
 * No requirement in the first Message (or no first Message): NOT_PRESENT, unless the first Task's
 * acceptance shows there was one.
 */
function noRequirement(ctx: EvidenceContext, first: ReturnType<typeof findFirstMessage>): PropertyResult {
  // The acceptance restates the minimum the caller asked for: shown without the requirement it
  // answers, the requirement was taken out of the history, and with it the bar the caller set.
  const accepted = memberAt(extensionMetadata(ctx.firstTask), "evidenceAcceptance");
  if (isJsonObject(accepted)) {
    const said = `the first Task shows evidenceAcceptance (state ${showValue(member(accepted, "state"))}, minimumEvidence ${showValue(member(accepted, "minimumEvidence"))})`;
    if (!first) {
      return only(
        "acceptance.requested",
        "INCONCLUSIVE",
        `${said}, but no Message of the input shows the requirement it answers (history not returned): what the caller asked for cannot be read`,
      );
    }
    return only(
      "acceptance.requested",
      "FAIL",
      `${said}, but the first Message ${first.message.messageId} carries no evidence requirement: the requirement was removed from the history (hiding the minimum the caller set), or the server answered a requirement the caller did not make`,
    );
  }
  return only("requirement.wellFormed", "NOT_PRESENT", "no evidence requirement in the Task's first Message");
}

/** The acceptance on the first Task and what follows from it, after the checks so far. */
function acceptedChecks(
  ctx: EvidenceContext,
  checks: Check[],
  firstTask: NonNullable<EvidenceContext["firstTask"]>,
  req: JsonObject,
): PropertyResult {
  const acceptance = extensionMetadata(firstTask);
  const accepted = memberAt(acceptance, "evidenceAcceptance");
  if (!isJsonObject(accepted) || member(accepted, "state") !== ACCEPTED) {
    const said = isJsonObject(accepted) ? `state ${showValue(member(accepted, "state"))}` : "no evidenceAcceptance";
    if (member(req, "requirement") === "PREFERRED") {
      // A PREFERRED requirement may be declined: nothing was negotiated, so nothing can be met.
      return only(
        "acceptance.accepted",
        "NOT_PRESENT",
        `the PREFERRED requirement was not accepted (${said} on the first Task); nothing was negotiated`,
      );
    }
    checks.push(
      check("acceptance.accepted", "FAIL", `the REQUIRED requirement was not accepted on the first Task (${said})`),
    );
    return decide(checks, "");
  }
  checks.push(check("acceptance.accepted", "PASS", "the first Task shows evidenceAcceptance.state ACCEPTED"));
  checks.push(beforeWorkCheck(firstTask));
  checks.push(termsCheck(req, accepted));
  if (member(req, "requireTask") === true) {
    checks.push(check("requireTask", "PASS", "requireTask: the server answered with a Task, not a direct Message"));
  }
  checks.push(profileCheck(ctx, req));
  checks.push(deliveryModeCheck(ctx, req));
  checks.push(meetsMinimumCheck(ctx, req));
  // What the server accepted and what it claims; whether the evidence meets it is the evidence level's (§9.39).
  return decide(
    checks,
    () =>
      `accepted ${String(member(req, "requirement"))} ${String(member(req, "minimumEvidence"))} before acting; ${terminalClaim(checks)}`,
  );
}

/** What the terminal status claims, as status.meetsMinimum read it (it PASSes when this is said). */
function terminalClaim(checks: readonly Check[]): string {
  const status = checks.find((c) => c.id === "status.meetsMinimum")?.values?.status;
  return status !== undefined
    ? `terminal status claims ${status}`
    : "terminal status reports EVIDENCE_STATUS_FAILED with a typed reason";
}

/** SendMessage answered with a Message: no Task, so no acceptance, and requireTask is broken if set. */
function directMessage(checks: Check[], req: JsonObject, messageId: string): PropertyResult {
  const said = `the server answered the request with a direct Message (${messageId}), not a Task`;
  if (member(req, "requireTask") === true) {
    checks.push(check("requireTask", "FAIL", `${said}, though requireTask was set: a direct Message is not success`));
  } else if (member(req, "requirement") === "PREFERRED") {
    return only(
      "acceptance.accepted",
      "NOT_PRESENT",
      `${said}; the PREFERRED requirement was not taken up, nothing was negotiated`,
    );
  } else {
    checks.push(check("acceptance.accepted", "FAIL", `${said}: the REQUIRED requirement was never accepted`));
  }
  return decide(checks, "");
}

/** The evidence delivered is under the record profile the server accepted (an evidence of another profile does not meet it). */
function profileCheck(ctx: EvidenceContext, req: JsonObject): Check {
  const id = "evidence.recordProfile";
  const delivered = member(ctx.bundle, "recordProfile");
  const accepted = member(req, "recordProfile");
  if (delivered === accepted) return check(id, "PASS", `the evidence is under the accepted record profile`);
  return check(
    id,
    "FAIL",
    `the evidence is under record profile ${showValue(delivered)}, not the accepted ${showValue(accepted)}`,
  );
}

/** The copies of the first Message against each other, or against the caller's own `request`; undefined when there is nothing to compare. */
function copiesCheck(first: FirstMessage): Check | undefined {
  if (first.sent) return first.copies.length > 0 ? sentCopiesCheck(first) : undefined;
  if (first.copies.length < 2) return undefined;
  const id = "requirement.copiesAgree";
  const found = disagreeingCopy(first.copies);
  if (found) {
    const { reference, copy, difference: d } = found;
    return check(
      id,
      "FAIL",
      `copies of the first Message ${first.message.messageId} disagree: ${copy.path} has ${showValue(d.right)} at ${d.path}, ${reference.path} has ${showValue(d.left)}`,
    );
  }
  return check(id, "PASS", `${first.copies.length} copies of the first Message ${first.message.messageId} agree`);
}

/** Every server copy of the caller's request shows the requirement the caller sent (read from the request, §9.8). */
function sentCopiesCheck(first: FirstMessage): Check {
  const id = "requirement.copiesAgree";
  const sent = requirementOf(first.message);
  for (const c of first.copies) {
    const d = firstDifference(sent, requirementOf(c), "$", sameValue);
    if (d) {
      const at = d.path === "$" ? "" : ` at ${d.path}`;
      return check(
        id,
        "FAIL",
        `the server's copy ${c.path} of the request ${first.message.messageId} shows the evidence requirement with ${showValue(d.right)}${at}, the caller sent ${showValue(d.left)}: the requirement is the caller's, not the server's copy`,
      );
    }
  }
  return check(
    id,
    "PASS",
    `the server's ${first.copies.length === 1 ? "copy" : `${first.copies.length} copies`} of the request ${first.message.messageId} show the requirement the caller sent`,
  );
}

function isNonNegativeNumber(v: JsonValue | undefined): boolean {
  return isJsonNumber(v) && Number.isFinite(v.toNumber()) && v.toNumber() >= 0;
}

function wellFormedCheck(requirement: JsonValue): Check {
  const id = "requirement.wellFormed";
  if (!isJsonObject(requirement)) return check(id, "FAIL", "the evidence requirement is not an object");
  const r = requirement;
  const problems: string[] = [];
  const kind = member(r, "requirement");
  if (!(REQUIREMENTS as readonly JsonValue[]).includes(kind ?? null))
    problems.push(`requirement ${showValue(kind)} is not PREFERRED or REQUIRED`);
  const profile = member(r, "recordProfile");
  if (profile !== RECORD_PROFILE_V1) problems.push(`recordProfile ${showValue(profile)} is not a known record profile`);
  const minimum = member(r, "minimumEvidence");
  if (!(EVIDENCE_LEVELS as readonly JsonValue[]).includes(minimum ?? null))
    problems.push(`minimumEvidence ${showValue(minimum)} is not a known level`);
  const modes = member(r, "deliveryModes");
  if (
    modes !== undefined &&
    (!Array.isArray(modes) ||
      modes.length === 0 ||
      modes.some((m) => !(DELIVERY_MODES as readonly JsonValue[]).includes(m)))
  ) {
    problems.push(`deliveryModes ${showValue(modes)} is not a non-empty list of known delivery modes`);
  }
  const delay = member(r, "maximumRegistrationDelaySeconds");
  if (delay !== undefined && !isNonNegativeNumber(delay))
    problems.push(`maximumRegistrationDelaySeconds ${showValue(delay)} is not a non-negative number`);
  const requireTask = member(r, "requireTask");
  if (requireTask !== undefined && typeof requireTask !== "boolean")
    problems.push(`requireTask ${showValue(requireTask)} is not a boolean`);
  if (problems.length > 0) return check(id, "FAIL", `malformed evidence requirement: ${problems.join("; ")}`);
  return check(
    id,
    "PASS",
    `requirement ${String(kind)}, minimumEvidence ${String(minimum)}, profile ${String(profile)}`,
  );
}

function unchangedCheck(task: A2ATask | undefined, first: A2AMessage, req: JsonObject): Check {
  const id = "requirement.unchanged";
  for (const m of task?.history ?? []) {
    if (m.messageId === first.messageId) continue;
    const later = requirementOf(m);
    // Compared as copies of one requirement are: `60.0` in one binding is `60` in another.
    if (later !== undefined && firstDifference(later, req, "$", sameValue) !== undefined) {
      return check(
        id,
        "FAIL",
        `message ${m.messageId} in the Task history carries a different evidence requirement, and the Task went on with it: a changed requirement must be rejected, not applied`,
      );
    }
  }
  return check(id, "PASS", "no later Message in the history changes the requirement");
}

function sameTaskCheck(firstTask: A2ATask, observed: A2ATask | undefined, payload: JsonObject | undefined): Check {
  const id = "acceptance.sameTask";
  if (!observed) {
    // Without the terminal Task the record itself names its Task: an acceptance of another Task
    // says nothing about this one, so it cannot make negotiation PASS.
    const taskId = payload ? member(payload, "taskId") : undefined;
    const contextId = payload ? member(payload, "contextId") : undefined;
    if (typeof taskId !== "string")
      return check(
        id,
        "INCONCLUSIVE",
        "no terminal Task and no payload taskId to compare the first Task with: the acceptance may be another Task's",
      );
    const context = typeof contextId === "string" ? contextId : "";
    if (firstTask.id !== taskId || (firstTask.contextId ?? "") !== context) {
      return check(
        id,
        "FAIL",
        `the first Task (${firstTask.id}, context ${showValue(firstTask.contextId ?? "")}) is not the Task the record names (${taskId}, context ${showValue(context)})`,
      );
    }
    return check(id, "PASS", `the first Task is the Task ${taskId} the record names (no terminal Task observed)`);
  }
  if (firstTask.id !== observed.id || firstTask.contextId !== observed.contextId) {
    return check(
      id,
      "FAIL",
      `the first Task (${firstTask.id}, context ${String(firstTask.contextId)}) is not the terminal Task (${observed.id}, context ${String(observed.contextId)})`,
    );
  }
  return check(id, "PASS", `the first Task and the terminal Task are the same Task ${observed.id}`);
}

/**
 * Acceptance comes before acting (contract §9.18): a first Task that is already terminal, or
 * already holds content Artifacts, accepted the requirement after the work was done — an
 * acceptance that could no longer change what the server did.
 */
function beforeWorkCheck(firstTask: A2ATask): Check {
  const id = "acceptance.beforeWork";
  if ((TERMINAL_TASK_STATES as readonly string[]).includes(firstTask.state)) {
    return check(
      id,
      "FAIL",
      `accepted after the work was done: the Task carrying evidenceAcceptance is already ${firstTask.state}`,
    );
  }
  const evidence = locateInTask(firstTask, DEFAULT_LOAD_LIMITS, []);
  const isEvidence = evidence.ok ? new Set(evidence.value.evidenceArtifacts) : new Set<A2AArtifact>();
  const content = (firstTask.artifacts ?? []).filter((a) => !isEvidence.has(a));
  if (content.length > 0) {
    return check(
      id,
      "FAIL",
      `accepted after the work was done: the Task carrying evidenceAcceptance already holds ${content.length} artifact(s) (${listCapped(content.map((a) => a.artifactId))})`,
    );
  }
  return check(
    id,
    "PASS",
    `accepted before acting: the Task carrying evidenceAcceptance is ${firstTask.state} with no content artifacts`,
  );
}

function termsCheck(req: JsonObject, accepted: JsonObject): Check {
  const id = "acceptance.terms";
  const problems: string[] = [];
  for (const f of ["recordProfile", "minimumEvidence"]) {
    if (!jsonEquals(member(req, f), member(accepted, f))) {
      problems.push(`${f} accepted as ${showValue(member(accepted, f))}, requested ${showValue(member(req, f))}`);
    }
  }
  const asked = member(req, "maximumRegistrationDelaySeconds");
  if (asked !== undefined) {
    const given = member(accepted, "maximumRegistrationDelaySeconds");
    if (!isNonNegativeNumber(given)) {
      problems.push(`maximumRegistrationDelaySeconds accepted as ${showValue(given)}, requested ${showValue(asked)}`);
    } else if (isJsonNumber(asked) && isJsonNumber(given) && given.toNumber() > asked.toNumber()) {
      problems.push(
        `maximumRegistrationDelaySeconds accepted as ${given.lexeme}, looser than the requested ${asked.lexeme}`,
      );
    }
  }
  if (problems.length > 0) return check(id, "FAIL", `the acceptance changes the terms: ${problems.join("; ")}`);
  return check(id, "PASS", "accepted with the requested record profile, minimum level and registration delay");
}

function deliveryModeCheck(ctx: EvidenceContext, req: JsonObject): Check {
  const id = "deliveryMode.listed";
  const modes = member(req, "deliveryModes");
  if (!Array.isArray(modes)) return check(id, "NOT_CHECKED", "the requirement lists no delivery modes");
  const where = deliveredIn(ctx);
  const used = where ? deliveryModeOf(where) : undefined;
  if (used === undefined)
    return check(id, "NOT_CHECKED", "the bundle was not delivered in a Task, so its delivery mode is unknown");
  if (modes.includes(used)) return check(id, "PASS", `delivered as ${used}, which the caller listed`);
  return check(
    id,
    "FAIL",
    `delivered as ${used}, which the caller did not list (${modes.map((m) => showValue(m)).join(", ")})`,
  );
}

function meetsMinimumCheck(ctx: EvidenceContext, req: JsonObject): Check {
  const id = "status.meetsMinimum";
  const minimum = member(req, "minimumEvidence") as EvidenceLevel;
  const ref = ctx.taskReference;
  const fromTask = isJsonObject(ref)
    ? member(ref, "evidenceStatus") !== undefined
      ? ref
      : member(ref, "taskEvidenceReference")
    : undefined;
  const stated = isJsonObject(fromTask) ? fromTask : member(ctx.bundle, "taskEvidenceReference");
  const status = memberAt(stated, "evidenceStatus");
  if (typeof status !== "string") return check(id, "FAIL", "the terminal Task states no evidence status");
  if (status === "EVIDENCE_STATUS_FAILED") {
    const reason = memberAt(stated, "failureReason");
    if (typeof reason === "string" && TYPED_FAILURE_REASON.test(reason)) {
      return check(
        id,
        "PASS",
        `the server reported EVIDENCE_STATUS_FAILED with a typed reason (${reason}) rather than downgrading`,
      );
    }
    return check(id, "FAIL", "the server reported EVIDENCE_STATUS_FAILED without a typed failureReason");
  }
  const level = status.startsWith(EVIDENCE_STATUS_PREFIX) ? status.slice(EVIDENCE_STATUS_PREFIX.length) : status;
  if (!(EVIDENCE_LEVELS as readonly string[]).includes(level)) {
    return check(id, "FAIL", `terminal evidence status ${status} does not meet ${minimum}`);
  }
  if (levelRank(level as EvidenceLevel) >= levelRank(minimum)) {
    return check(id, "PASS", `terminal status claims ${level}, not below the negotiated ${minimum}`, {
      values: { status: level, minimum },
    });
  }
  return check(
    id,
    "FAIL",
    `terminal status ${level} is below the negotiated ${minimum}, and the server did not report FAILED: a silent downgrade`,
    {
      values: { status: level, minimum },
    },
  );
}
