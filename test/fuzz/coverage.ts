/**
 * The coverage map: which places of the input each property's PASS vouches for, read from the
 * contract (§4, §9) and the property modules' headers. A change at a covered place must not leave
 * a PASSing property PASS. Places no property covers are listed as benign, each with its reason;
 * a change at a place that is in neither list is itself a failure, so the map stays complete.
 *
 * Places are normalized names (sites.ts): `bundle.…` wherever the bundle is carried, `task.…` the
 * terminal Task with `artifacts.E` the evidence Artifact and `artifacts.C` a content one, `first.…`
 * the first Task, `env.…` the envelope; `#` matches an index, `*` one segment, `**` any rest, `+`
 * marks an element inserted into an array.
 */
import { JsonNumber, isJsonObject, jsonEquals, type JsonObject, type JsonValue } from "../../src/json/value.js";
import type { PropertyName, VerifiedInput } from "../../src/index.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { valueAt, type Doc } from "./corpus.js";
import type { Mutation, Op } from "./mutate-raw.js";
import { TRACE_KEY, normalize } from "./sites.js";
import { pyjson } from "../../src/canon/pyjson.js";
import { readMessage } from "../../src/input/a2a.js";
import { exactDecimal, sameMessage } from "./message-oracle.js";

export interface Context {
  readonly mutation: Mutation;
  readonly before: Doc;
  readonly after: Doc;
  /** The unmutated input's report. */
  readonly original: VerifiedInput;
  /** The normalized name of the site. */
  readonly name: readonly string[];
}

/** One row of a coverage map: a place, and the properties that cover it or why none does. */
export interface RuleOf<C> {
  readonly at: string;
  readonly covers?: readonly PropertyName[];
  readonly benign?: string;
  /** Only for these operations. */
  readonly ops?: readonly Op[];
  /** Only when this holds of the change. */
  readonly when?: (c: C) => boolean;
}

type Rule = RuleOf<Context>;

const TERMINAL = ["TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"];
const SIGNED_CHECKPOINT_MEMBERS = [
  "key_id",
  "kind",
  "log_id",
  "mmr_size",
  "prev_root",
  "prev_size",
  "root",
  "timestamp",
  "v",
];

// ---- predicates over a change ----

/** The text a commitment covers: the text parts joined with "\n" (content-binding.md §6). */
function textOf(container: JsonValue | undefined): string | undefined {
  if (!isJsonObject(container) || !Array.isArray(container.parts)) return undefined;
  return container.parts
    .filter((p): p is JsonObject => isJsonObject(p) && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("\n");
}

/** The Artifact or Message (its path in the input) a task site lies in. */
function containerPath(c: Context): (string | number)[] | undefined {
  const rest = c.mutation.site.path.slice(c.before.taskPath.length);
  if ((rest[0] === "artifacts" || rest[0] === "history") && typeof rest[1] === "number")
    return [...c.before.taskPath, rest[0], rest[1]];
  return undefined;
}

/** The committed text of the Artifact or Message changed (a non-text part changes nothing committed). */
const textChanged = (c: Context): boolean => {
  const path = containerPath(c);
  return path !== undefined && textOf(valueAt(c.before.input, path)) !== textOf(valueAt(c.after.input, path));
};

/** A non-text part is in the Artifact or Message after the change: no commitment covers it, so it is never PASS. */
const nonTextAfter = (c: Context): boolean => {
  const path = containerPath(c);
  const container = path === undefined ? undefined : valueAt(c.after.input, path);
  return (
    isJsonObject(container) &&
    Array.isArray(container.parts) &&
    container.parts.some((p) => isJsonObject(p) && typeof p.text !== "string")
  );
};

/** A history Message now names another Task or context than the Task whose history holds it (a spliced Message). */
const namesAnotherTask = (c: Context): boolean => {
  const member = c.name[c.name.length - 1];
  const own = valueAt(c.after.input, [...c.after.taskPath, member === "taskId" ? "id" : "contextId"]);
  return typeof c.mutation.after === "string" && c.mutation.after !== "" && c.mutation.after !== own;
};

/** The witness record at the site is the only stamp that verified: without it nothing else registers the checkpoint. */
const soleVerifiedStamp = (c: Context): boolean => {
  const index = c.mutation.site.path[c.mutation.site.path.indexOf("witnesses") + 1];
  const verified = c.original.properties.externalRegistration.checks.filter(
    (k) => k.id === "witness.signature" && k.state === "PASS",
  );
  return verified.length === 1 && (verified[0]?.subject ?? "").includes(`witnesses[${String(index)}]`);
};

const isStubRecord = (c: Context): boolean => {
  const path = c.mutation.site.path;
  const i = path.indexOf("witnesses");
  const record = valueAt(c.mutation.site.root === "bundle" ? c.before.bundle : c.before.input, path.slice(0, i + 2));
  return isJsonObject(record) && record.is_stub === true;
};

/** An inserted Artifact that is exactly the evidence Artifact again (§9.12 allows several with the same bundle). */
const evidenceCopy = (c: Context): boolean => {
  const e = c.before.evidenceIndex;
  const inserted = c.mutation.after;
  return (
    e !== undefined &&
    e >= 0 &&
    inserted !== undefined &&
    jsonEquals(inserted, valueAt(c.before.input, [...c.before.taskPath, "artifacts", e]) as JsonValue)
  );
};

/** An inserted status.message equal to a history entry (§9.14: one observation, not a duplicate). */
const statusEqualsHistory = (c: Context): boolean => {
  const history = valueAt(c.before.input, [...c.before.taskPath, "history"]);
  const m = c.mutation.after;
  return Array.isArray(history) && m !== undefined && history.some((h) => jsonEquals(h, m));
};

/**
 * Equal as copies of one Message are compared (§3: ProtoJSON spellings are no difference): numbers
 * by their exact decimal value (`60.0` is `60`), everything else as written.
 */
function sameValue(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a instanceof JsonNumber && b instanceof JsonNumber) return exactDecimal(a.lexeme) === exactDecimal(b.lexeme);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameValue(a[k], b[k]));
  }
  return a !== undefined && b !== undefined && jsonEquals(a, b);
}

/**
 * Members of the first Message's copies their comparison leaves to other rules: the messageId
 * matches the copies, and the server may add (or, ProtoJSON's default, leave empty) the Task's
 * taskId and contextId (§3); one naming another Task is taskBinding's (namesAnotherTask).
 */
const SERVER_MAY_ADD = ["messageId", "taskId", "contextId"];

/**
 * The mutated copy of the first Message (the first or the terminal Task's history[0]) is still the
 * same Message by the rules copies are compared by (§3: ProtoJSON spellings, defaults and nulls
 * equal absence): its copies still agree, so negotiation has nothing to FAIL. Judged by the
 * contract's rules written out independently (message-oracle.ts), not by the verifier's own
 * comparison; a copy that is no well-formed Message agrees with nothing.
 */
const copyStillAgrees = (c: Context): boolean => {
  const task = c.name[0] === "first" ? "firstPath" : "taskPath";
  const at = (d: Doc) => {
    const base = d[task];
    const v = base ? valueAt(d.input, [...base, "history", 0]) : undefined;
    return v !== undefined && readMessage(v, "history[0]", []).ok ? v : undefined;
  };
  const before = at(c.before);
  const after = at(c.after);
  return before !== undefined && after !== undefined && sameMessage(before, after);
};

/** A value written another way with the same exact numbers: one Message's copies still agree. */
const respelledNumber = (c: Context): boolean =>
  c.mutation.op === "replace" && sameValue(c.mutation.before, c.mutation.after);

/** The request's metadata on a later message still says what the request says (requirement.unchanged holds). */
const laterRequirementDiffers = (c: Context): boolean => {
  const path = containerPath(c);
  if (!path) return false;
  const message = valueAt(c.after.input, path);
  const requirement = valueAt(c.after.input, [...c.after.taskPath, "history", 0, "metadata", EXTENSION_URI]);
  const later = isJsonObject(message) && isJsonObject(message.metadata) ? message.metadata[EXTENSION_URI] : undefined;
  return later !== undefined && !(requirement !== undefined && sameValue(later, requirement));
};

/** The first Task's state became terminal (§9.18); another non-terminal state is as good as SUBMITTED. */
const firstStateTerminal = (c: Context): boolean => {
  const state = valueAt(c.after.input, [...(c.after.firstPath ?? []), "status", "state"]);
  return typeof state === "string" && TERMINAL.includes(state);
};

/** A success reference states all of these (a2a-wire.md §6.7): one left out is a FAIL. */
const REQUIRED_REFERENCE = [
  "evidenceId",
  "coreManifestDigest",
  "recordProfile",
  "extensionVersion",
  "evidenceStatus",
  "terminalState",
  "coverageScope",
  "deliveryMode",
];
const LEVELS = ["SIGNED_RECORD", "EXTERNALLY_REGISTERED", "CONTINUITY_WITNESSED"];

/** The terminal Task now states a status that does not meet the negotiated minimum (a higher claim meets it). */
const statusBelowMinimum = (c: Context): boolean => {
  const minimum = valueAt(c.after.input, [
    ...c.after.taskPath,
    "history",
    0,
    "metadata",
    EXTENSION_URI,
    "minimumEvidence",
  ]);
  const after = c.mutation.after;
  const level = typeof after === "string" ? LEVELS.indexOf(after.replace(/^EVIDENCE_STATUS_/, "")) : -1;
  return after !== "EVIDENCE_STATUS_FAILED" && level < LEVELS.indexOf(String(minimum));
};

/** An array replaced by one that still holds every original element (e.g. each twice): nothing was taken away. */
const keepsEveryElement = (c: Context): boolean => {
  const before = c.mutation.before;
  const after = c.mutation.after;
  return Array.isArray(before) && Array.isArray(after) && before.every((x) => after.some((y) => jsonEquals(x, y)));
};

/** The accepted registration delay became looser than requested, or no longer a number (a tighter one is a better offer). */
const delayLoosened = (c: Context): boolean => {
  const after = c.mutation.after;
  const asked = valueAt(c.after.input, [
    ...(c.after.firstPath ?? []),
    "history",
    0,
    "metadata",
    EXTENSION_URI,
    "maximumRegistrationDelaySeconds",
  ]);
  const n = (v: JsonValue | undefined) =>
    v !== undefined && v !== null && typeof v === "object" && "toNumber" in v
      ? (v as { toNumber(): number }).toNumber()
      : NaN;
  return !(n(after) >= 0 && n(after) <= (Number.isNaN(n(asked)) ? 60 : n(asked)));
};

/** An inserted first-Task Artifact that is content, not evidence (§9.18: acceptance before work). */
const contentBeforeAcceptance = (c: Context): boolean => c.name[1] === "artifacts";

// ---- the map ----

const RECORD: readonly PropertyName[] = [
  "contentBinding",
  "producerSignature",
  "taskBinding",
  "localInclusion",
  "checkpointSignature",
  "externalRegistration",
  "identityAuthorityBinding",
  "referenceConsistency",
];

// ---- the lifecycle additions (docs/profile.md) ----

const pyjsonText = (v: JsonValue | undefined): string | undefined => {
  if (v === undefined) return undefined;
  const r = pyjson(v);
  return r.ok ? r.value.text : undefined;
};

/** The payload digests the Task's trace, and the change alters what it digests. */
const traceDigestChanged = (c: Context): boolean => {
  const digests = valueAt(c.before.bundle, ["taskEvidencePayload", "traceDigests"]);
  const taskDigested = Array.isArray(digests) && digests.some((d) => isJsonObject(d) && d.holder === "task");
  const at = [...c.before.taskPath, "metadata", TRACE_KEY];
  return taskDigested && pyjsonText(valueAt(c.before.input, at)) !== pyjsonText(valueAt(c.after.input, at));
};

/** The changed history Message is one a transition entry is bound to: its taskId and contextId are committed. */
const boundByTransition = (c: Context): boolean => {
  const path = containerPath(c);
  const message = path ? valueAt(c.before.input, path) : undefined;
  const transcript = valueAt(c.before.bundle, ["taskEvidencePayload", "transcript"]);
  const id = isJsonObject(message) ? message.messageId : undefined;
  return (
    typeof id === "string" &&
    Array.isArray(transcript) &&
    transcript.some((e) => isJsonObject(e) && e.kind === "transition" && e.messageId === id)
  );
};

/** The interim record at the site, before and after (a capture's `interimBundles[i]`). */
const interimMember = (c: Context, member: string): [JsonValue | undefined, JsonValue | undefined] => {
  const i = c.mutation.site.path[1];
  return [
    valueAt(c.before.input, ["interimBundles", i as number, member]),
    valueAt(c.after.input, ["interimBundles", i as number, member]),
  ];
};
const interimDigestChanged =
  (member: string) =>
  (c: Context): boolean => {
    const [before, after] = interimMember(c, member);
    return pyjsonText(before) !== pyjsonText(after);
  };
const interimValueChanged =
  (member: string) =>
  (c: Context): boolean => {
    const [before, after] = interimMember(c, member);
    return !jsonEquals(before, after);
  };

export const RULES: readonly Rule[] = [
  // A capture's interim records (docs/profile.md §3.3): each is verified as a record.
  {
    at: "env.interimBundles.#.taskEvidencePayload",
    covers: ["contentBinding"],
    when: interimDigestChanged("taskEvidencePayload"),
  },
  {
    at: "env.interimBundles.#.taskEvidencePayload.**",
    covers: ["contentBinding"],
    when: interimDigestChanged("taskEvidencePayload"),
  },
  { at: "env.interimBundles.#.manifest", covers: ["contentBinding"], when: interimDigestChanged("manifest") },
  { at: "env.interimBundles.#.manifest.**", covers: ["contentBinding"], when: interimDigestChanged("manifest") },
  { at: "env.interimBundles.#.evidenceId", covers: ["contentBinding"], when: interimValueChanged("evidenceId") },
  {
    at: "env.interimBundles.#.coreManifestDigest",
    covers: ["contentBinding"],
    when: interimValueChanged("coreManifestDigest"),
  },
  { at: "env.interimBundles.#.recordProfile", covers: ["taskBinding"], when: interimValueChanged("recordProfile") },
  {
    at: "env.interimBundles.#.extensionVersion",
    covers: ["taskBinding"],
    when: interimValueChanged("extensionVersion"),
  },
  { at: "env.interimBundles.#.capsule", covers: ["producerSignature"], when: interimValueChanged("capsule") },
  { at: "env.interimBundles.#.capsule.**", covers: ["producerSignature"], when: interimValueChanged("capsule") },
  // A transition's bound Message: its own Task binding is committed (§2.4) and checked (transcript.resumption).
  { at: "task.history.#.taskId", covers: ["taskBinding"], when: boundByTransition },
  { at: "task.history.#.contextId", covers: ["taskBinding"], when: boundByTransition },
  {
    at: "task.artifacts.C.extensions.**",
    benign:
      "a content Artifact's extensions list is not committed: a trace Artifact is content whatever it lists (docs/profile.md §4)",
  },
  // A Traceability trace in Task.metadata (§4): covered when the payload digests it, informational otherwise.
  { at: "task.metadata.TRACE", covers: ["taskBinding"], when: traceDigestChanged },
  { at: "task.metadata.TRACE.**", covers: ["taskBinding"], when: traceDigestChanged },
  {
    at: "task.metadata.TRACE.**",
    benign:
      "a Traceability trace in metadata is informational unless the payload carries its digest (docs/profile.md §4), and a change that keeps its pyjson keeps its digest",
  },

  // The bundle: integrity (contentBinding, producerSignature) and the log (localInclusion, checkpointSignature, externalRegistration).
  { at: "bundle", covers: RECORD },
  { at: "bundle.taskEvidencePayload", covers: ["contentBinding", "taskBinding"] },
  { at: "bundle.taskEvidencePayload.**", covers: ["contentBinding"] },
  { at: "bundle.taskEvidencePayload.taskId", covers: ["taskBinding"] },
  { at: "bundle.taskEvidencePayload.contextId", covers: ["taskBinding"] },
  { at: "bundle.taskEvidencePayload.terminalState", covers: ["taskBinding"] },
  // Entries are matched by artifactId (their order is not committed); a member the shape does not define is not compared.
  { at: "bundle.taskEvidencePayload.nonEvidenceArtifacts", covers: ["taskBinding"], ops: ["replace", "remove"] },
  { at: "bundle.taskEvidencePayload.nonEvidenceArtifacts.+", covers: ["taskBinding"], ops: ["insert"] },
  {
    at: "bundle.taskEvidencePayload.nonEvidenceArtifacts.#",
    covers: ["taskBinding"],
    ops: ["replace", "remove", "duplicate"],
  },
  ...["artifactId", "name", "contentCommitment"].map((m): Rule => ({
    at: `bundle.taskEvidencePayload.nonEvidenceArtifacts.#.${m}`,
    covers: ["taskBinding"],
    ops: ["replace", "remove"],
  })),
  { at: "bundle.taskEvidencePayload.transcript", covers: ["taskBinding"], ops: ["replace", "remove"] },
  { at: "bundle.taskEvidencePayload.transcript.+", covers: ["taskBinding"], ops: ["insert"] },
  {
    at: "bundle.taskEvidencePayload.transcript.#",
    covers: ["taskBinding"],
    ops: ["replace", "remove", "duplicate", "swap"],
  },
  ...["messageId", "role", "partCommitment", "sequence"].map((m): Rule => ({
    at: `bundle.taskEvidencePayload.transcript.#.${m}`,
    covers: ["taskBinding"],
    ops: ["replace", "remove"],
  })),
  { at: "bundle.taskEvidencePayload.authority", covers: ["identityAuthorityBinding"] },
  { at: "bundle.evidenceId", covers: ["contentBinding"] },
  { at: "bundle.coreManifestDigest", covers: ["contentBinding"] },
  {
    at: "bundle.manifest",
    covers: ["contentBinding", "localInclusion", "checkpointSignature", "externalRegistration"],
  },
  { at: "bundle.manifest.**", covers: ["contentBinding"] },
  { at: "bundle.manifest.producerEnvelope", covers: ["producerSignature"], ops: ["replace", "remove"] },
  ...["capsuleId", "keyId", "signature"].map((m): Rule => ({
    at: `bundle.manifest.producerEnvelope.${m}`,
    covers: ["producerSignature"],
    ops: ["replace", "remove"],
  })),
  { at: "bundle.manifest.cllCheckpoint", covers: ["checkpointSignature", "localInclusion", "externalRegistration"] },
  ...SIGNED_CHECKPOINT_MEMBERS.map((m): Rule => ({
    at: `bundle.manifest.cllCheckpoint.${m}`,
    covers: ["checkpointSignature", "externalRegistration"],
  })),
  { at: "bundle.manifest.cllCheckpoint.signature", covers: ["checkpointSignature"] },
  { at: "bundle.manifest.cllCheckpoint.mmr_size", covers: ["localInclusion"] },
  { at: "bundle.manifest.cllCheckpoint.root", covers: ["localInclusion"] },
  {
    at: "bundle.manifest.cllCheckpoint.witnesses",
    covers: ["externalRegistration"],
    ops: ["replace", "remove"],
    when: (c) => !keepsEveryElement(c),
  },
  {
    at: "bundle.manifest.cllCheckpoint.witnesses.#",
    covers: ["externalRegistration"],
    ops: ["replace", "remove"],
    when: soleVerifiedStamp,
  },
  {
    at: "bundle.manifest.cllCheckpoint.witnesses.#.ts_url",
    covers: ["externalRegistration"],
    when: (c) => soleVerifiedStamp(c) && !isStubRecord(c),
  },
  ...["entry_hash", "receipt_b64", "tree_size", "leaf_index"].map((m): Rule => ({
    at: `bundle.manifest.cllCheckpoint.witnesses.#.${m}`,
    covers: ["externalRegistration"],
    when: (c) => !isStubRecord(c),
  })),
  { at: "bundle.manifest.localInclusionProof", covers: ["localInclusion"] },
  { at: "bundle.manifest.localInclusionProof.**", covers: ["localInclusion"] },
  { at: "bundle.manifest.priorCheckpoint.**", covers: ["continuity"] },
  // A continuity witness cosigns the checkpoint's note (log, size, root) and the chain from the prior one.
  ...["log_id", "mmr_size", "root", "prev_size", "prev_root", "key_id"].map((m): Rule => ({
    at: `bundle.manifest.cllCheckpoint.${m}`,
    covers: ["continuity"],
  })),
  // Every vector's witnesses are exactly the quorum (both checkpoints cosigned): each line counts.
  {
    at: "bundle.continuityEvidence",
    covers: ["continuity"],
    ops: ["replace", "remove"],
    when: (c) => !keepsEveryElement(c),
  },
  { at: "bundle.continuityEvidence.#", covers: ["continuity"], ops: ["replace", "remove"] },
  {
    at: "bundle.continuityEvidence.#.lines",
    covers: ["continuity"],
    ops: ["replace", "remove"],
    when: (c) => !keepsEveryElement(c),
  },
  {
    at: "bundle.continuityEvidence.#.*",
    covers: ["continuity"],
    ops: ["replace", "remove"],
    when: (c) => c.name[3] !== "lines",
  },
  { at: "bundle.continuityEvidence.#.lines.#", covers: ["continuity"], ops: ["replace", "remove"] },
  {
    at: "bundle.continuityEvidence.**",
    benign: "cosignature lines count once each, in any order (§9.22); a member or entry no witness signed adds nothing",
  },
  { at: "bundle.manifest.consistencyProof.**", covers: ["continuity"] },
  { at: "bundle.manifest.capturePolicyId", covers: ["captureCoverage"] },
  { at: "bundle.capsule", covers: ["producerSignature", "localInclusion"] },
  { at: "bundle.capsule.**", covers: ["producerSignature"] },
  { at: "bundle.capsule.capsule_id", covers: ["localInclusion"] },
  { at: "bundle.capsule.key_id", covers: ["identityAuthorityBinding"] },
  {
    at: "bundle.capsule.model_attestation.compute_attestation.agent_input_digest",
    covers: ["contentBinding"],
    ops: ["replace", "remove"],
  },
  // Either output digest must equal the terminalState's; one of them may be absent.
  {
    at: "bundle.capsule.model_attestation.compute_attestation.agent_output_digest",
    covers: ["contentBinding"],
    ops: ["replace"],
  },
  { at: "bundle.capsule.effect.response_digest", covers: ["contentBinding"], ops: ["replace"] },
  { at: "bundle.taskEvidenceReference", covers: ["referenceConsistency"] },
  { at: "bundle.taskEvidenceReference.*", covers: ["referenceConsistency"], ops: ["replace"] },
  {
    at: "bundle.taskEvidenceReference.*",
    covers: ["referenceConsistency"],
    ops: ["remove"],
    when: (c) => c.before.carrier !== "inline" || REQUIRED_REFERENCE.includes(c.name[2] as string),
  },
  {
    at: "bundle.taskEvidenceReference.*",
    benign:
      "inline, the bundle's reference is the only copy: a member the reference does not define (evidenceArtifactId, failureReason) that it omits contradicts nothing",
    ops: ["remove"],
  },
  // A member the reference does not define is compared only between copies; inline, the bundle's is the only copy.
  {
    at: "bundle.taskEvidenceReference.*",
    covers: ["referenceConsistency"],
    ops: ["insert"],
    when: (c) => c.before.carrier !== "inline",
  },
  {
    at: "bundle.taskEvidenceReference.*",
    benign: "inline, the bundle's reference is the only copy, and a member it does not define states nothing",
    ops: ["insert"],
  },
  { at: "bundle.taskEvidenceReference.*.*.**", covers: ["referenceConsistency"] },
  {
    at: "bundle.recordProfile",
    covers: ["contentBinding", "producerSignature", "taskBinding", "referenceConsistency"],
  },
  { at: "bundle.extensionVersion", covers: ["contentBinding", "producerSignature", "taskBinding"] },
  {
    at: "bundle.*",
    benign:
      "a bundle member the profile does not define is not evidence of anything (the digests cover the payload and manifest, not the wrapper)",
    ops: ["insert"],
  },
  {
    at: "bundle.manifest.cllCheckpoint.witnesses.+",
    benign: "an added stamp counts only if it verifies under a pinned key; the ones already there still do (§9.7)",
    ops: ["insert"],
  },
  {
    at: "bundle.manifest.cllCheckpoint.witnesses.#",
    benign: "stamps count one by one: their order and repeats change none of them (§9.7)",
    ops: ["duplicate", "swap"],
  },
  {
    at: "bundle.manifest.cllCheckpoint.witnesses.**",
    benign: "stub stamps never count (§9.7, §9.11), and another stamp still verifies",
  },

  // The terminal Task the caller observed.
  { at: "task", covers: ["taskBinding"] },
  { at: "task.id", covers: ["taskBinding", "negotiation"] },
  { at: "task.contextId", covers: ["taskBinding", "negotiation"] },
  { at: "task.status", covers: ["taskBinding"], ops: ["replace", "remove"] },
  { at: "task.status.state", covers: ["taskBinding", "referenceConsistency"] },
  { at: "task.status.timestamp", benign: "timestamps are reported, never trusted as proof of time (§4)" },
  { at: "task.status.message", covers: ["taskBinding"], when: (c) => !statusEqualsHistory(c) },
  { at: "task.status.message", benign: "a status.message equal to a history entry is the same observation (§9.14)" },
  {
    at: "task.status.*",
    benign: "TaskStatus members other than state and message are not evidence (a2a-wire.md §1)",
    ops: ["insert"],
  },
  { at: "task.artifacts", covers: ["taskBinding"], ops: ["replace", "remove"] },
  { at: "task.artifacts.+", covers: ["taskBinding"], ops: ["insert"], when: (c) => !evidenceCopy(c) },
  {
    at: "task.artifacts.+",
    benign: "several evidence Artifacts carrying the same bundle are allowed (§9.12)",
    ops: ["insert"],
  },
  { at: "task.artifacts.C", covers: ["taskBinding"], ops: ["replace", "remove", "duplicate"] },
  { at: "task.artifacts.E", covers: ["taskBinding", "referenceConsistency"], ops: ["replace", "remove"] },
  {
    at: "task.artifacts.E",
    benign: "several evidence Artifacts carrying the same bundle are allowed (§9.12)",
    ops: ["duplicate"],
  },
  {
    at: "task.artifacts.*",
    benign: "the payload matches Artifacts by artifactId: their order is not committed",
    ops: ["swap", "reorder"],
  },
  { at: "task.artifacts.C.artifactId", covers: ["taskBinding"] },
  { at: "task.artifacts.C.name", covers: ["taskBinding"] },
  { at: "task.artifacts.C.parts", covers: ["taskBinding"], when: (c) => textChanged(c) || nonTextAfter(c) },
  { at: "task.artifacts.C.parts.**", covers: ["taskBinding"], when: (c) => textChanged(c) || nonTextAfter(c) },
  {
    at: "task.artifacts.C.parts.**",
    benign:
      "only the text parts are committed (content-binding.md §6): a text part's other members (mediaType, filename, metadata) are labels, not content",
  },
  { at: "task.artifacts.C.parts", benign: "only the text parts are committed (content-binding.md §6)" },
  {
    at: "task.artifacts.C.*",
    benign:
      "an Artifact's description, metadata and extensions are not committed by the payload (content-binding.md §6; §9.12: markers do not make content evidence)",
  },
  { at: "task.artifacts.E.parts", covers: ["taskBinding"], ops: ["insert"] },
  { at: "task.artifacts.E.parts.+", covers: ["taskBinding"], ops: ["insert"] },
  { at: "task.artifacts.E.parts.#", covers: ["contentBinding", "referenceConsistency"], ops: ["replace", "remove"] },
  { at: "task.artifacts.E.parts.#.raw", covers: ["contentBinding"] },
  { at: "task.artifacts.E.metadata", covers: ["referenceConsistency"], ops: ["replace", "remove"] },
  { at: "task.artifacts.E.metadata.EXT", covers: ["referenceConsistency"] },
  { at: "task.artifacts.E.metadata.EXT.**", covers: ["referenceConsistency"] },
  {
    at: "task.artifacts.E.**",
    benign:
      "the evidence Artifact's id, name, extensions, filename and media type are markers: it is identified by its bundle (§9.12), and the reference states no evidenceArtifactId",
  },
  { at: "task.history", covers: ["taskBinding"] },
  { at: "task.history.+", covers: ["taskBinding"], ops: ["insert"] },
  { at: "task.history.#", covers: ["taskBinding"], ops: ["replace", "remove", "duplicate", "swap"] },
  { at: "task.history.#.messageId", covers: ["taskBinding"] },
  { at: "task.history.#.role", covers: ["taskBinding"] },
  { at: "task.history.#.parts", covers: ["taskBinding"], when: (c) => textChanged(c) || nonTextAfter(c) },
  { at: "task.history.#.parts.**", covers: ["taskBinding"], when: (c) => textChanged(c) || nonTextAfter(c) },
  { at: "task.history.#.taskId", covers: ["taskBinding"], when: namesAnotherTask },
  { at: "task.history.#.contextId", covers: ["taskBinding"], when: namesAnotherTask },
  // In a capture the first Message's copies must agree (§9.8): the terminal Task's copy, matched by messageId.
  {
    at: "task.history.0.*",
    covers: ["negotiation"],
    when: (c) =>
      c.before.firstPath !== undefined &&
      !SERVER_MAY_ADD.includes(String(c.name[3])) &&
      !respelledNumber(c) &&
      !copyStillAgrees(c),
  },
  {
    at: "task.history.0.*.*.**",
    covers: ["negotiation"],
    when: (c) => c.before.firstPath !== undefined && !respelledNumber(c) && !copyStillAgrees(c),
  },
  { at: "task.history.#.metadata.**", covers: ["negotiation"], when: laterRequirementDiffers },
  { at: "task.history.#.metadata", covers: ["negotiation"], when: laterRequirementDiffers },
  {
    at: "task.history.#.**",
    benign:
      "a history Message's extensions and metadata are not committed by the transcript (content-binding.md §6: messageId, role, text); its own taskId and contextId may be absent or this Task's",
  },
  { at: "task.metadata", covers: ["referenceConsistency"], ops: ["replace", "remove"] },
  { at: "task.metadata.EXT", covers: ["referenceConsistency"] },
  { at: "task.metadata.EXT.**", covers: ["referenceConsistency"] },
  { at: "task.metadata.EXT.evidenceStatus", covers: ["negotiation"], ops: ["replace"], when: statusBelowMinimum },
  { at: "task.metadata.*", benign: "Task.metadata under other keys is not evidence" },
  {
    at: "task.*",
    benign: "Task members this profile does not read (a2a-wire.md §1: unknown members are ignored)",
    ops: ["insert"],
  },

  // PEAC receipts, wherever the Task carries them (peacReceipts: each carrier signed by its pinned issuer, unmodified).
  // null under the key is no carrier at all, like an absent one.
  { at: "task.**.metadata.PEAC", covers: ["peacReceipts"], ops: ["replace"], when: (c) => c.mutation.after !== null },
  {
    at: "task.**.metadata.PEAC.carriers",
    covers: ["peacReceipts"],
    ops: ["replace"],
    when: (c) => !keepsEveryElement(c),
  },
  { at: "task.**.metadata.PEAC.carriers.#", covers: ["peacReceipts"], ops: ["replace"] },
  { at: "task.**.metadata.PEAC.carriers.#.receipt_jws", covers: ["peacReceipts"], ops: ["replace"] },
  { at: "task.**.metadata.PEAC.carriers.#.receipt_ref", covers: ["peacReceipts"], ops: ["replace"] },
  {
    at: "task.**.metadata.PEAC.**",
    benign:
      "PEAC receipts count one by one (a removed or repeated carrier leaves the others' verdicts), and the meta block (format, transport, size limit) is a hint no signature covers",
  },
  {
    at: "task.status.metadata.**",
    benign: "TaskStatus has no metadata in A2A v1.0: only PEAC receipts are read there",
  },
  {
    at: "task.artifacts.C.metadata.**",
    benign: "an Artifact's metadata is not committed by the payload (content-binding.md §6)",
  },

  // The first Task (captures): the acceptance.
  { at: "first", covers: ["negotiation"], ops: ["replace", "remove"] },
  { at: "first.id", covers: ["negotiation"] },
  { at: "first.contextId", covers: ["negotiation"] },
  { at: "first.status", covers: ["negotiation"], ops: ["replace", "remove"], when: firstStateTerminal },
  {
    at: "first.status",
    benign:
      "a first Task in any non-terminal state (an absent state is TASK_STATE_UNSPECIFIED) is before the work (§9.18)",
    ops: ["replace", "remove"],
  },
  { at: "first.status.state", covers: ["negotiation"], when: firstStateTerminal },
  { at: "first.status.state", benign: "any non-terminal state is before the work (§9.18)" },
  { at: "first.artifacts.**", covers: ["negotiation"], when: contentBeforeAcceptance },
  { at: "first.artifacts", covers: ["negotiation"], ops: ["insert"] },
  {
    at: "first.metadata.EXT.evidenceAcceptance.maximumRegistrationDelaySeconds",
    covers: ["negotiation"],
    when: delayLoosened,
  },
  {
    at: "first.metadata.EXT.evidenceAcceptance.maximumRegistrationDelaySeconds",
    benign: "a tighter registration delay than requested is a better offer (§9.8: no looser)",
  },
  { at: "first.metadata.EXT.evidenceAcceptance", covers: ["negotiation"] },
  {
    at: "first.metadata.EXT.evidenceAcceptance.*",
    covers: ["negotiation"],
    ops: ["replace", "remove"],
    when: (c) => c.name[4] !== "maximumRegistrationDelaySeconds" || delayLoosened(c),
  },
  { at: "first.metadata.EXT", covers: ["negotiation"], ops: ["replace", "remove"] },
  { at: "first.metadata", covers: ["negotiation"], ops: ["replace", "remove"] },
  { at: "first.history.0", covers: ["negotiation"], ops: ["replace"] },
  {
    at: "first.history.0.messageId",
    benign:
      "a first message under another messageId is not a copy of the request (§9.8 matches copies by messageId); the terminal Task's history still carries the request",
  },
  {
    at: "first.history.0.*",
    covers: ["negotiation"],
    when: (c) => !SERVER_MAY_ADD.includes(String(c.name[3])) && !respelledNumber(c) && !copyStillAgrees(c),
  },
  { at: "first.history.0.*.*.**", covers: ["negotiation"], when: (c) => !respelledNumber(c) && !copyStillAgrees(c) },
  {
    at: "first.**",
    benign:
      "the first Task's other members (its interim evidenceStatus, further history, metadata under other keys) are not what the acceptance rule reads (§9.8, §9.18); the terminal Task's history carries the request",
  },

  // The envelope.
  { at: "env.id", benign: "the JSON-RPC id pairs a response with its request; it is no evidence" },
  {
    at: "env.**",
    benign:
      "envelope members are not evidence; a broken envelope makes the input unreadable (exit 2), not a property PASS",
  },
];

export function matches(pattern: readonly string[], name: readonly string[]): boolean {
  if (pattern.length === 0) return name.length === 0;
  const [head, ...rest] = pattern;
  if (head === "**") return rest.length === 0 || name.some((_, i) => matches(rest, name.slice(i)));
  if (name.length === 0) return false;
  const seg = name[0] as string;
  const ok = head === "*" || head === seg || (head === "#" && /^\d+$/.test(seg)) || (head === "+" && /^\d+$/.test(seg));
  return ok && matches(rest, name.slice(1));
}

export interface Classification {
  readonly covers: Set<PropertyName>;
  readonly benign?: string;
}

export type Compiled<C> = ReadonlyArray<RuleOf<C> & { readonly pattern: readonly string[] }>;

export function compile<C>(rules: readonly RuleOf<C>[]): Compiled<C> {
  return rules.map((r) => ({ ...r, pattern: r.at.split(".") }));
}

/** The name of a change's place: an element added to an array is named by its array and `+`. */
export function insertName(name: readonly string[], op: Op, path: readonly (string | number)[]): string[] {
  return op === "insert" && typeof path[path.length - 1] === "number" ? [...name.slice(0, -1), "+"] : [...name];
}

/** The union of every matching rule's properties; the first matching benign reason when none covers it. */
export function applyRules<C>(rules: Compiled<C>, name: readonly string[], op: Op, ctx: C): Classification {
  const covers = new Set<PropertyName>();
  let benign: string | undefined;
  for (const r of rules) {
    if (r.ops && !r.ops.includes(op)) continue;
    if (!matches(r.pattern, name)) continue;
    if (r.when && !r.when(ctx)) continue;
    if (r.covers) r.covers.forEach((p) => covers.add(p));
    else benign ??= r.benign;
  }
  return covers.size === 0 && benign !== undefined ? { covers, benign } : { covers };
}

const compiled = compile(RULES);

/** What a change's site is covered by: the union of every matching rule; benign when none covers it. */
export function classify(c: Omit<Context, "name">): Classification {
  const name = normalize(c.before, c.mutation.site);
  const named = insertName(name, c.mutation.op, c.mutation.site.path);
  const { covers, benign } = applyRules(compiled, named, c.mutation.op, { ...c, name: named });
  if (c.before.carrier !== "raw" && name[0] === "bundle" && widenedOnly(c.mutation)) {
    // §9.1: a structured carrier's numbers are read for structure as the integers they stand
    // for; only the digests and signatures over the presented bytes cannot be PASS any more.
    for (const p of covers) if (!WIDENING_SENSITIVE.includes(p)) covers.delete(p);
    if (covers.size === 0)
      return { covers, benign: "a structured carrier widens integers: read for structure as the integer (§9.1)" };
  }
  return covers.size > 0 ? { covers } : benign !== undefined ? { covers, benign } : { covers };
}

const WIDENING_SENSITIVE: readonly PropertyName[] = [
  "contentBinding",
  "producerSignature",
  "checkpointSignature",
  "externalRegistration",
];

/** The change writes an integer as an integral double (5 → 5.0): what a protobuf Struct does to it. */
function widenedOnly(m: Mutation): boolean {
  const isNum = (v: JsonValue | undefined): v is JsonNumber => v instanceof JsonNumber;
  return (
    m.op === "replace" &&
    isNum(m.before) &&
    isNum(m.after) &&
    m.before.isIntegerLexeme &&
    m.before.toNumber() === m.after.toNumber()
  );
}
