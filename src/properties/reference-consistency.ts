/**
 * referenceConsistency — every copy of the TaskEvidenceReference agrees with the bundle and with
 * the Task, and the producer does not claim more than the bundle supports (contract §4, §6, §9.9;
 * a2a-wire.md §6.5, §6.13).
 *
 *   bundle.copiesAgree      every located copy of the bundle is identical
 *   reference.bundle        the bundle's own taskEvidenceReference states the bundle's evidenceId,
 *                           coreManifestDigest and recordProfile, and the observed Task's terminal
 *                           state (the payload's, when no Task was observed)
 *   reference.artifact      an EVIDENCE_ARTIFACT bundle's Artifact carries the same reference in its metadata
 *   reference.task          the terminal Task carries the same reference in Task.metadata[<extension URI>]
 *   reference.statusMetadata  a copy in the terminal Task's status.metadata[<extension URI>] (not an
 *                           A2A v1.0 field, but some servers send it) is a copy like the others (§9.30)
 *   reference.status        evidenceStatus is known, never PENDING on a terminal Task; FAILED has a typed reason
 *   reference.deliveryMode  deliveryMode (and evidenceArtifactId, when stated) match where the bundle was found
 *   reference.claimedLevel  the claimed level is not above what the bundle supports
 *
 * The claimed-level rule: a claim FAILs when a property it needs is NOT_PRESENT (the bundle does not
 * carry what was claimed), and is INCONCLUSIVE when a needed property is NOT_CHECKED or INCONCLUSIVE
 * for lack of trust material. When a needed property FAILs, that FAIL already reports the defect;
 * the claim is then not checked, so one tampered object does not also read as a server overclaim,
 * and the detail says so apart from what the other checks established (contract §9.39).
 */
import { memberAt, isJsonObject, member, jsonEquals, type JsonValue } from "../json/value.js";
import { firstDifference, showValue, valueText, type Difference } from "../json/diff.js";
import { joinPath } from "../json/path.js";
import {
  COVERAGE_SCOPE,
  EVIDENCE_LEVELS,
  EVIDENCE_STATUSES,
  EVIDENCE_STATUS_PREFIX,
  EXTENSION_URI,
  EXTENSION_VERSION,
  TYPED_FAILURE_REASON,
  type EvidenceLevel,
} from "../profile.js";
import type { Check, PropertyResult } from "./shared/types.js";
import type { EarlierResults } from "./shared/types.js";
import { LEVEL_NEEDS } from "../level.js";
import { checksFor, type IdOf, decide } from "./shared/checks.js";
import type { EvidenceContext } from "../evidence/context.js";
import { deliveredIn, deliveryModeOf } from "../evidence/delivery.js";
import { isBundleShaped } from "../input/classify.js";
import type { LocatedBundle } from "../input/locate.js";
import { equalAsCarried } from "../evidence/widening.js";
import { extensionMetadata, type A2AArtifact } from "../input/a2a.js";

export const CHECKS = checksFor([
  "bundle.copiesAgree",
  "reference.bundle",
  "reference.artifact",
  "reference.task",
  "reference.statusMetadata",
  "reference.status",
  "reference.deliveryMode",
  "reference.claimedLevel",
]);
const { check } = CHECKS;
type CheckId = IdOf<typeof CHECKS>;

interface ReferenceCopy {
  readonly where: string;
  readonly value: JsonValue | undefined;
}

/** A metadata value is either a reference or, for INLINE_METADATA, a bundle holding one. */
function referenceIn(metadataValue: JsonValue | undefined): JsonValue | undefined {
  return isBundleShaped(metadataValue) ? member(metadataValue, "taskEvidenceReference") : metadataValue;
}

export function referenceConsistency(ctx: EvidenceContext, properties: EarlierResults): PropertyResult {
  const checks: Check[] = [];
  if (ctx.bundles.length > 1) checks.push(bundleCopiesCheck(ctx));
  const bundleRef = member(ctx.bundle, "taskEvidenceReference");
  const copies: ReferenceCopy[] = [{ where: "taskEvidenceReference", value: bundleRef }];
  checks.push(bundleReferenceCheck(ctx, bundleRef));
  // Every evidence Artifact owes the reference (§9.12: several are allowed, each compared), and
  // so does --task's (§9.16); the one the verified bundle came from is compared even when it is
  // not exactly the bundle.
  for (const { artifact, prefix } of referenceOwners(ctx)) {
    const value = referenceIn(extensionMetadata(artifact));
    const where = `${prefix}${joinPath(artifact.path, "metadata", EXTENSION_URI)}`;
    copies.push({ where, value });
    checks.push(copyCheck("reference.artifact", where, value, bundleRef, "the evidence Artifact"));
  }
  if (ctx.observedTask) {
    const value = referenceIn(ctx.taskReference);
    const where = joinPath(ctx.observedTask.path, "metadata", EXTENSION_URI);
    copies.push({ where, value });
    checks.push(copyCheck("reference.task", where, value, bundleRef, "the terminal Task"));
  } else {
    // Listed, not dropped (contract §4): the copy the terminal Task owes was not compared.
    checks.push(
      check(
        "reference.task",
        "NOT_CHECKED",
        "no observed Task: the reference copy in Task.metadata[<extension URI>] was not compared (pass --task)",
      ),
    );
  }
  const statusCopy = statusMetadataCopy(ctx);
  if (statusCopy !== undefined) {
    copies.push(statusCopy);
    checks.push(
      copyCheck(
        "reference.statusMetadata",
        statusCopy.where,
        statusCopy.value,
        bundleRef,
        "the terminal Task's status.metadata",
      ),
    );
  }
  checks.push(statusCheck(copies));
  checks.push(deliveryCheck(ctx, copies));
  const claim = claimedLevelCheck(bundleRef ?? referenceIn(ctx.taskReference), properties);
  checks.push(claim);
  return decide(checks, () => passDetail(ctx, checks, claim));
}

/**
 * What the PASSing checks established, then each check that did not run and why (contract §9.39),
 * so that a PASS line never reads as a verdict on what was not assessed.
 */
function passDetail(ctx: EvidenceContext, checks: readonly Check[], claim: Check): string {
  // A bare bundle has only its own copy: say so rather than "every copy".
  const copies = ctx.observedTask
    ? "every reference copy agrees with the bundle"
    : "the bundle's own reference agrees with it";
  const established =
    claim.state === "PASS"
      ? `${copies} and the claimed level is supported`
      : claim.state === "NOT_PRESENT"
        ? `${copies}; ${claim.detail}`
        : copies;
  return [established, ...checks.filter((c) => c.state === "NOT_CHECKED").map(notRun)].join("; ");
}

/** `<what>: not checked, <why>` for a check that did not run. */
function notRun(c: Check): string {
  switch (c.id) {
    case "reference.task":
      return "the Task's copies: not checked, no observed Task (pass --task)";
    case "reference.deliveryMode":
      return "delivery mode: not checked, the bundle was not delivered in a Task";
    case "reference.claimedLevel": {
      const failed = Object.entries(c.values ?? {})
        .filter(([, state]) => state === "FAIL")
        .map(([p]) => p);
      return `claimed level: not checked, ${failed.join(", ")} ${failed.length === 1 ? "FAILs" : "FAIL"}`;
    }
    default:
      return `${c.id}${c.subject ? ` [${c.subject}]` : ""}: not checked, ${c.detail}`;
  }
}

/**
 * The reference copy some servers also put in the terminal Task's `status.metadata[<extension
 * URI>]` (contract §9.30). Nothing owes it, so an absent (or null) one is no copy; a present one is
 * compared, checked for its status and its delivery mode like every other copy.
 */
function statusMetadataCopy(ctx: EvidenceContext): ReferenceCopy | undefined {
  const task = ctx.observedTask;
  const metadata = task?.statusMetadata;
  if (task === undefined || !isJsonObject(metadata)) return undefined;
  const value = member(metadata, EXTENSION_URI);
  if (value === undefined || value === null) return undefined;
  return { where: joinPath(task.path, "status", "metadata", EXTENSION_URI), value: referenceIn(value) };
}

/** The Artifacts that owe a reference copy, each once, in the order their bundles were located. */
function referenceOwners(ctx: EvidenceContext): { artifact: A2AArtifact; prefix: string }[] {
  const out: { artifact: A2AArtifact; prefix: string }[] = [];
  const seen = new Set<A2AArtifact>();
  for (const b of ctx.bundles) {
    const a = b.artifact;
    if (!a || seen.has(a) || (b !== ctx.located && !ctx.evidence.evidenceArtifacts.has(a))) continue;
    seen.add(a);
    out.push({ artifact: a, prefix: b.location.startsWith("--task:") ? "--task:" : "" });
  }
  return out;
}

function bundleCopiesCheck(ctx: EvidenceContext): Check {
  const id = "bundle.copiesAgree";
  const primary = ctx.bundles[0] as LocatedBundle;
  let byValue = false;
  for (const other of ctx.bundles.slice(1)) {
    if (jsonEquals(primary.bundle, other.bundle)) continue;
    // A copy that passed through a protobuf Struct/Value may have its integers widened (1 → 1.0):
    // that is transport, not disagreement, so such copies are compared by numeric value.
    if (isStructured(primary) || isStructured(other)) {
      if (equalAsCarried(primary.bundle, other.bundle)) {
        byValue = true;
        continue;
      }
    }
    const d = firstDifference(primary.bundle, other.bundle) as Difference;
    return check(
      id,
      "FAIL",
      `the bundle at ${other.location} differs from the one at ${primary.location} at ${d.path}: ${showValue(d.right)} vs ${showValue(d.left)}`,
    );
  }
  const where = ctx.bundles.map((b) => b.location).join(", ");
  return check(
    id,
    "PASS",
    byValue
      ? `all ${ctx.bundles.length} copies of the bundle agree (${where}); numbers compared by value, since a structured carrier widens integers`
      : `all ${ctx.bundles.length} copies of the bundle are identical (${where})`,
  );
}

function isStructured(b: LocatedBundle): boolean {
  return b.carrier === "data" || b.carrier === "inline";
}

const CLAIMED_FIELDS = ["evidenceId", "coreManifestDigest", "recordProfile"] as const;
/**
 * A success reference states these too (a2a-wire.md §6.7): a copy without them agrees with
 * nothing, and every other copy is compared with this one, so a missing member is a FAIL here,
 * never a comparison skipped.
 */
const STATED_FIELDS = ["terminalState", "coverageScope", "deliveryMode"] as const;

function bundleReferenceCheck(ctx: EvidenceContext, ref: JsonValue | undefined): Check {
  const id = "reference.bundle";
  if (ref === undefined || ref === null) return check(id, "FAIL", "the bundle carries no taskEvidenceReference");
  if (!isJsonObject(ref)) return check(id, "FAIL", "taskEvidenceReference is not an object");
  if (member(ref, "extensionVersion") !== EXTENSION_VERSION) {
    return check(
      id,
      "FAIL",
      `taskEvidenceReference.extensionVersion is ${showValue(member(ref, "extensionVersion"))}, expected "1"`,
    );
  }
  const failed = member(ref, "evidenceStatus") === "EVIDENCE_STATUS_FAILED";
  const unstated = failed ? [] : STATED_FIELDS.filter((f) => member(ref, f) === undefined || member(ref, f) === null);
  if (unstated.length > 0) {
    return check(
      id,
      "FAIL",
      `taskEvidenceReference lacks ${unstated.join(", ")}: a reference to a record states them, and one that does not agrees with nothing`,
    );
  }
  // A FAILED reference states no evidence (a2a-wire.md §6.7); one that names a record states it whole.
  const statesNone = failed && CLAIMED_FIELDS.every((f) => member(ref, f) === undefined);
  for (const f of CLAIMED_FIELDS) {
    const stated = member(ref, f);
    if (statesNone) continue;
    const bundleValue = member(ctx.bundle, f);
    if (!jsonEquals(stated, bundleValue)) {
      return check(
        id,
        "FAIL",
        `taskEvidenceReference.${f} ${showValue(stated)} != bundle ${f} ${showValue(bundleValue)}`,
        {
          values: { reference: valueText(stated), bundle: valueText(bundleValue) },
        },
      );
    }
  }
  // The reference states the Task's terminal state: compared with the observed Task when there is
  // one (the payload's own terminalState is taskBinding's), else with the payload.
  const terminal = member(ref, "terminalState");
  const [stateWhere, state] = ctx.observedTask
    ? ["the observed Task's state", ctx.observedTask.state]
    : ["payload terminalState", ctx.payload ? member(ctx.payload, "terminalState") : undefined];
  if (terminal !== undefined && terminal !== state) {
    return check(
      id,
      "FAIL",
      `taskEvidenceReference.terminalState ${showValue(terminal)} != ${stateWhere} ${showValue(state)}`,
    );
  }
  const scope = member(ref, "coverageScope");
  if (scope !== undefined && scope !== COVERAGE_SCOPE) {
    return check(id, "FAIL", `taskEvidenceReference.coverageScope ${showValue(scope)} is not ${COVERAGE_SCOPE}`);
  }
  return check(
    id,
    "PASS",
    "the bundle's taskEvidenceReference states the bundle's evidenceId, coreManifestDigest, recordProfile and terminalState",
  );
}

function copyCheck(
  id: CheckId,
  where: string,
  value: JsonValue | undefined,
  bundleRef: JsonValue | undefined,
  owner: string,
): Check {
  if (value === undefined || value === null) {
    return check(id, "FAIL", `${owner} does not carry the evidence result it owes at ${where}`, { subject: where });
  }
  if (bundleRef === undefined || bundleRef === null)
    return check(id, "NOT_CHECKED", "no bundle reference to compare with", { subject: where });
  if (jsonEquals(value, bundleRef))
    return check(id, "PASS", `${owner}'s reference equals the bundle's`, { subject: where });
  const d = firstDifference(bundleRef, value) as Difference;
  return check(
    id,
    "FAIL",
    `${owner}'s reference differs from the bundle's at ${d.path}: ${showValue(d.right)} vs ${showValue(d.left)} in the bundle`,
    {
      subject: where,
    },
  );
}

function statusCheck(copies: readonly ReferenceCopy[]): Check {
  const id = "reference.status";
  for (const c of copies) {
    if (!isJsonObject(c.value)) continue;
    const status = member(c.value, "evidenceStatus");
    if (status === "EVIDENCE_STATUS_PENDING") {
      return check(id, "FAIL", `${c.where} says EVIDENCE_STATUS_PENDING on a terminal Task`);
    }
    if (typeof status !== "string" || !(EVIDENCE_STATUSES as readonly string[]).includes(status)) {
      return check(id, "FAIL", `${c.where}.evidenceStatus ${showValue(status)} is not a known evidence status`);
    }
    if (status === "EVIDENCE_STATUS_FAILED") {
      const reason = member(c.value, "failureReason");
      if (typeof reason !== "string" || !TYPED_FAILURE_REASON.test(reason)) {
        return check(id, "FAIL", `${c.where} says EVIDENCE_STATUS_FAILED without a typed failureReason ("CODE: text")`);
      }
    }
  }
  const stated = copies.map((c) => memberAt(c.value, "evidenceStatus")).find((s) => typeof s === "string");
  return check(id, "PASS", `evidence status ${String(stated ?? "(none)")} is a terminal status`);
}

function deliveryCheck(ctx: EvidenceContext, copies: readonly ReferenceCopy[]): Check {
  const id = "reference.deliveryMode";
  const where = deliveredIn(ctx);
  const used = where ? deliveryModeOf(where) : undefined;
  for (const c of copies) {
    if (!isJsonObject(c.value)) continue;
    const mode = member(c.value, "deliveryMode");
    if (mode !== undefined && used !== undefined && mode !== used) {
      return check(
        id,
        "FAIL",
        `${c.where}.deliveryMode is ${showValue(mode)} but the bundle was delivered as ${used} at ${(where as LocatedBundle).location}`,
      );
    }
    // A Task was observed and carries the bundle nowhere: the delivery the reference states did not happen there.
    if (mode !== undefined && used === undefined && ctx.observedTask) {
      if (mode === "EVIDENCE_ARTIFACT" && ctx.observedTask.artifacts === undefined) {
        return check(
          id,
          "INCONCLUSIVE",
          `${c.where}.deliveryMode is EVIDENCE_ARTIFACT, but the observed Task carries no artifacts member (not requested or not returned): the delivery was not observed`,
        );
      }
      return check(
        id,
        "FAIL",
        `${c.where}.deliveryMode is ${showValue(mode)}, but the observed Task carries the bundle nowhere (it was found only at ${ctx.located.location})`,
      );
    }
    const artifactId = member(c.value, "evidenceArtifactId");
    // Only a bundle delivered in a Task has a place to compare with; a bare or captured bundle does not.
    if (artifactId !== undefined && where !== undefined) {
      const actual = where.artifact?.artifactId;
      if (artifactId !== actual) {
        return check(
          id,
          "FAIL",
          `${c.where}.evidenceArtifactId ${showValue(artifactId)} != the artifact that carried the bundle (${actual === undefined ? "none: it was inline in Task.metadata" : showValue(actual)})`,
        );
      }
    }
  }
  if (used === undefined)
    return check(
      id,
      "NOT_CHECKED",
      `the bundle was not delivered in a Task (${ctx.located.carrier}), so the delivery mode cannot be compared`,
    );
  return check(id, "PASS", `delivered as ${used} at ${(where as LocatedBundle).location}, as stated`);
}

function claimedLevelCheck(ref: JsonValue | undefined, properties: EarlierResults): Check {
  const id = "reference.claimedLevel";
  const status = memberAt(ref, "evidenceStatus");
  if (typeof status !== "string") return check(id, "NOT_PRESENT", "no evidence status is claimed");
  const level = status.startsWith(EVIDENCE_STATUS_PREFIX) ? status.slice(EVIDENCE_STATUS_PREFIX.length) : status;
  if (!(EVIDENCE_LEVELS as readonly string[]).includes(level)) {
    return check(id, "PASS", `claimed ${status}: no evidence level is claimed`);
  }
  const needs = LEVEL_NEEDS[level as EvidenceLevel];
  const states = needs.map((p) => [p, properties[p]?.state ?? "NOT_CHECKED"] as const);
  const values = Object.fromEntries(states);
  const missing = states.filter(([, s]) => s === "NOT_PRESENT").map(([p]) => p);
  if (missing.length > 0) {
    return check(id, "FAIL", `claims ${level} but the bundle carries nothing for ${missing.join(", ")}`, { values });
  }
  // A FAIL is reported by its own property; the claim is then not assessed, whatever else holds.
  const failed = states.filter(([, s]) => s === "FAIL").map(([p]) => p);
  if (failed.length > 0) {
    return check(
      id,
      "NOT_CHECKED",
      `claims ${level}; not checked: ${failed.join(", ")} ${failed.length === 1 ? "FAILs" : "FAIL"} (reported there)`,
      { values },
    );
  }
  const unproven = states.filter(([, s]) => s === "NOT_CHECKED" || s === "INCONCLUSIVE");
  if (unproven.length > 0) {
    return check(
      id,
      "INCONCLUSIVE",
      `claims ${level}, which cannot be confirmed: ${unproven.map(([p, s]) => `${p} ${s}`).join(", ")} (see there)`,
      { values },
    );
  }
  return check(id, "PASS", `claimed ${level} is supported: ${needs.join(", ")} PASS`, { values });
}
