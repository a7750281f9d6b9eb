/**
 * §9.12–§9.15: the observed Task's wire — which Artifacts are evidence, duplicated ids, shapes the
 * payload must have, status.message, absent versus empty — where a change needs no key at all.
 */
import { EVIDENCE_MEDIA_TYPE, EXTENSION_URI } from "../../../producer/constants.js";
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import { uuidFromLabel } from "../../../producer/a2a.js";
import { ARTIFACT_0 } from "../../properties/harness.js";
import { arrayAt, attacked, copy, honest, obj, objectAt, requestOf, type AdversarialCase } from "../harness.js";

const artifacts = (t: JsonObject): JsonValue[] => arrayAt(t, "artifacts");
const history = (t: JsonObject): JsonValue[] => arrayAt(t, "history");
const evidenceArtifact = (t: JsonObject): JsonObject => objectAt(t, "artifacts", artifacts(t).length - 1);
const FORGED_TEXT = [{ text: "EUR/USD 0.9000" }, { text: "valid until 23:59:59Z" }];

/** The history message at `i` again, same messageId and role, with forged text. */
function forgedCopy(t: JsonObject, i: number): JsonObject {
  const forged = copy(history(t)[i] as JsonObject);
  forged.parts = copy(FORGED_TEXT) as unknown as JsonValue[];
  return forged;
}

/** A content Artifact the payload does not commit to, dressed as evidence by `dress`. */
function disguised(dress: (a: JsonObject) => void): (t: JsonObject) => void {
  return (t) => {
    const a = obj({
      artifactId: uuidFromLabel("smuggled artifact"),
      name: "quote",
      parts: [{ text: "wire 10 000 EUR to account 666" }],
    });
    dress(a);
    artifacts(t).unshift(a);
  };
}

export const TASK_WIRE_CASES: readonly AdversarialCase[] = [
  // §9.12 — only an Artifact whose parts are exactly the bundle is evidence.
  {
    name: "content artifact under the evidence artifactId",
    rule: "§9.12",
    attack: "an uncommitted text Artifact named task-evidence-bundle beside an inline bundle",
    request: () =>
      requestOf(
        attacked({ finalTask: disguised((a) => void (a.artifactId = "task-evidence-bundle")) }, { carrier: "inline" }),
      ),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "artifacts.coverage" },
  },
  {
    name: "content artifact under the extension URI",
    rule: "§9.12",
    attack: "an uncommitted text Artifact whose extensions list the evidence extension",
    request: () => requestOf(attacked({ finalTask: disguised((a) => void (a.extensions = [EXTENSION_URI])) })),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "artifacts.coverage" },
  },
  {
    name: "content artifact under the evidence media type",
    rule: "§9.12",
    attack: "an uncommitted text part that declares the evidence media type",
    request: () =>
      requestOf(
        attacked({ finalTask: disguised((a) => void ((a.parts as JsonObject[])[0]!.mediaType = EVIDENCE_MEDIA_TYPE)) }),
      ),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "artifacts.coverage" },
  },
  {
    name: "content artifact under the evidence metadata key",
    rule: "§9.12",
    attack: "an uncommitted text Artifact carrying a reference under metadata[EXT]",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) =>
            disguised(
              (a) => void (a.metadata = obj({ [EXTENSION_URI]: copy(objectAt(t, "metadata", EXTENSION_URI)) })),
            )(t),
        }),
      ),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "artifacts.coverage" },
  },
  {
    name: "text part beside the bundle",
    rule: "§9.12",
    attack: "a second, text part appended to the evidence Artifact after the bundle",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) => void arrayAt(evidenceArtifact(t), "parts").push(obj({ text: "also: refund approved" })),
        }),
      ),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "artifacts.coverage" },
  },
  {
    name: "second evidence artifact with a disagreeing reference",
    rule: "§9.12",
    attack:
      "a copy of the evidence Artifact (same bundle, another artifactId) whose reference claims CONTINUITY_WITNESSED",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) => {
            const second = copy(evidenceArtifact(t));
            second.artifactId = "task-evidence-bundle-copy";
            objectAt(second, "metadata", EXTENSION_URI).evidenceStatus = "EVIDENCE_STATUS_CONTINUITY_WITNESSED";
            artifacts(t).push(second);
          },
        }),
      ),
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "reference.artifact" },
  },
  {
    name: "second evidence artifact with another record",
    rule: "§9.12",
    attack: "a second evidence Artifact carrying another validly signed record (other taskId)",
    request: () => {
      const other = attacked({ payload: (p) => void (p.taskId = uuidFromLabel("another task")) });
      return requestOf(
        attacked({
          finalTask: (t) =>
            void artifacts(t).push(
              obj({ ...copy(evidenceArtifact(other.finalTask)), artifactId: "task-evidence-bundle-2" }),
            ),
        }),
      );
    },
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "bundle.copiesAgree" },
  },
  // §9.13 — ambiguity is a FAIL; a payload entry missing a required member is a FAIL.
  {
    name: "forged artifact before the honest one under its artifactId",
    rule: "§9.13",
    attack: "an Artifact with the committed artifactId and other text, inserted before the honest one",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) =>
            void artifacts(t).unshift(obj({ artifactId: ARTIFACT_0, name: "quote", parts: FORGED_TEXT })),
        }),
      ),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "artifacts.unambiguous" },
  },
  {
    name: "identical copy of an observed artifact",
    rule: "§9.13",
    attack: "the committed Artifact repeated verbatim",
    request: () =>
      requestOf(attacked({ finalTask: (t) => void artifacts(t).splice(1, 0, copy(artifacts(t)[0] as JsonObject)) })),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "artifacts.unambiguous" },
  },
  {
    name: "identical copy of a history message, adjacent",
    rule: "§9.13",
    attack: "the agent's message repeated verbatim right after itself",
    request: () => requestOf(attacked({ finalTask: (t) => void history(t).push(copy(history(t)[1] as JsonObject)) })),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "transcript.unambiguous" },
  },
  {
    name: "identical copy of a history message, not adjacent",
    rule: "§9.13",
    attack: "the user's request repeated verbatim after the agent's reply",
    request: () => requestOf(attacked({ finalTask: (t) => void history(t).push(copy(history(t)[0] as JsonObject)) })),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "transcript.unambiguous" },
  },
  {
    name: "history message under a reused messageId with other content",
    rule: "§9.13",
    attack: "a second agent message with the committed messageId and other text, after the honest one",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) => void history(t).push(forgedCopy(t, 1)),
        }),
      ),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "transcript.unambiguous" },
  },
  ...(["name", "artifactId", "contentCommitment"] as const).map((member): AdversarialCase => ({
    name: `payload artifact without ${member}`,
    rule: "§9.13",
    attack: `the producer seals a nonEvidenceArtifacts entry that lacks ${member}`,
    request: () => requestOf(attacked({ payload: (p) => void delete objectAt(p, "nonEvidenceArtifacts", 0)[member] })),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "artifact.binding" },
  })),
  ...(
    [
      ["messageId", "transcript.sequence"],
      ["role", "transcript.message"],
      ["partCommitment", "transcript.message"],
      ["sequence", "transcript.sequence"],
    ] as const
  ).map(([member, check]): AdversarialCase => ({
    name: `transcript entry without ${member}`,
    rule: "§9.13",
    attack: `the producer seals a transcript entry that lacks ${member}`,
    request: () => requestOf(attacked({ payload: (p) => void delete objectAt(p, "transcript", 1)[member] })),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check },
  })),
  // §9.14 — status.message is an observed Message.
  {
    name: "status message no transcript entry covers",
    rule: "§9.14",
    attack: "the agent's final reply only in status.message, under a messageId the transcript lacks",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) =>
            void (objectAt(t, "status").message = obj({
              messageId: uuidFromLabel("final reply"),
              role: "ROLE_AGENT",
              parts: [{ text: "transfer executed" }],
            })),
        }),
      ),
    expected: {
      exitCode: [1, 3],
      property: "taskBinding",
      state: ["FAIL", "INCONCLUSIVE"],
      check: "transcript.statusMessage",
      more: exitFollowsTaskBinding,
    },
  },
  {
    name: "status message with a transcript messageId and other content, history truncated",
    rule: "§9.14",
    attack: "history cut to the request; status.message reuses the agent entry's messageId with other text",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) => {
            const forged = forgedCopy(t, 1);
            history(t).splice(1);
            objectAt(t, "status").message = forged;
          },
        }),
      ),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "transcript.statusMessage" },
  },
  {
    name: "status message disagreeing with its history copy",
    rule: "§9.14",
    attack: "status.message has the last history entry's messageId but other text",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) => void (objectAt(t, "status").message = forgedCopy(t, 1)),
        }),
      ),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "transcript.statusMessage" },
  },
  {
    name: "status message equal to its history copy",
    rule: "§9.14",
    attack: "(control) status.message is the last history entry, as the SDKs write it: one observation",
    request: () =>
      requestOf(
        attacked({ finalTask: (t) => void (objectAt(t, "status").message = copy(history(t)[1] as JsonObject)) }),
      ),
    expected: { exitCode: 0, property: "taskBinding", state: "PASS", check: "transcript.message" },
  },
  // §9.15 — an absent string equals "".
  {
    name: "observed Task without contextId",
    rule: "§9.15",
    attack: "contextId removed from the terminal and the first Task",
    request: () =>
      requestOf(attacked({ finalTask: (t) => void delete t.contextId, firstTask: (t) => void delete t.contextId })),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "task.contextId" },
  },
  {
    name: "observed Task with an empty contextId",
    rule: "§9.15",
    attack: "contextId emptied in the terminal and the first Task",
    request: () =>
      requestOf(attacked({ finalTask: (t) => void (t.contextId = ""), firstTask: (t) => void (t.contextId = "") })),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "task.contextId" },
  },
  {
    name: "empty tenant against a named one",
    rule: "§9.15",
    attack: "the payload names tenant-eu-1; the caller addressed the empty tenant",
    request: () => requestOf(honest({ tenantId: "tenant-eu-1" }), { tenant: "" }),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "task.tenant" },
  },
];

/** An INCONCLUSIVE taskBinding exits 3 under the default policy, a FAIL 1. */
function exitFollowsTaskBinding(
  report: { policy: { exitCode: number } },
  input: { properties: { taskBinding: { state: string } } } | undefined,
): void {
  const want = input?.properties.taskBinding.state === "FAIL" ? 1 : 3;
  if (report.policy.exitCode !== want) throw new Error(`exit ${report.policy.exitCode}, expected ${want}`);
}
