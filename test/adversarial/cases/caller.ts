/**
 * §9.16, §9.18: what the verifier takes from the caller (--task, --first-task) never silently
 * overrides what the input shows, and an acceptance must come before the work.
 */
import { isFailedInput } from "../../../src/index.js";
import { getTaskResponse } from "../../../producer/envelope.js";
import { EXTENSION_URI } from "../../../producer/constants.js";
import { uuidFromLabel } from "../../../producer/a2a.js";
import { jsonObject } from "../../../producer/json-text.js";
import {
  arrayAt,
  attacked,
  copy,
  honest,
  objectAt,
  requestOf,
  type AdversarialCase,
  type Expected,
} from "../harness.js";
import type { JsonObject } from "../../../src/json/value.js";

const evidenceArtifact = (t: JsonObject): JsonObject => objectAt(t, "artifacts", arrayAt(t, "artifacts").length - 1);

function refusedInput(report: { inputs: readonly unknown[] }): void {
  const first = report.inputs[0] as Parameters<typeof isFailedInput>[0] | undefined;
  if (first && !isFailedInput(first)) throw new Error("the input was verified, not refused");
}

/** A bare bundle presented with `--task <the Task>`, where `task` may be changed first. */
function bareWithTask(change: (task: JsonObject) => void = () => undefined) {
  const e = honest();
  const task = copy(e.finalTask);
  change(task);
  return requestOf(e, {
    inputs: [{ source: "attack", data: e.bundle }],
    task: getTaskResponse(7, task),
    firstTask: e.firstTask,
  });
}

/** The honest capture whose terminal Task's status.metadata also carries the Task's reference copy, changed by `change`. */
function statusCopy(change: (ref: JsonObject) => void = () => undefined) {
  return requestOf(
    attacked({
      finalTask: (t) => {
        const ref = copy(objectAt(t, "metadata", EXTENSION_URI));
        change(ref);
        objectAt(t, "status").metadata = jsonObject({ [EXTENSION_URI]: ref });
      },
    }),
  );
}

const statusCopyCheck =
  (state: string): Expected["more"] =>
  (_r, input) => {
    const c = input?.properties.referenceConsistency.checks.find((k) => k.id === "reference.statusMetadata");
    if (c?.state !== state || !c.subject?.endsWith(`.status.metadata[${JSON.stringify(EXTENSION_URI)}]`))
      throw new Error(`reference.statusMetadata is ${c?.state} at ${c?.subject}`);
  };

export const STATUS_COPY_CASES: readonly AdversarialCase[] = [
  {
    name: "status.metadata reference copy that names another record",
    rule: "§9.30",
    attack: "the terminal Task's status.metadata[EXT] carries a reference copy whose evidenceId is another record's",
    request: () => statusCopy((ref) => void (ref.evidenceId = "0".repeat(64))),
    expected: {
      exitCode: 1,
      property: "referenceConsistency",
      state: "FAIL",
      check: "reference.statusMetadata",
      detail: /the terminal Task's status\.metadata's reference differs from the bundle's at [^"]*evidenceId/,
      more: statusCopyCheck("FAIL"),
    },
  },
  {
    name: "status.metadata reference copy that says PENDING on a terminal Task",
    rule: "§9.30",
    attack: "the terminal Task's status.metadata[EXT] copy says EVIDENCE_STATUS_PENDING while the others are terminal",
    request: () => statusCopy((ref) => void (ref.evidenceStatus = "EVIDENCE_STATUS_PENDING")),
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "reference.statusMetadata" },
  },
  {
    name: "status.metadata reference copy that agrees",
    rule: "§9.30",
    attack: "(control) the terminal Task's status.metadata[EXT] carries the Task's own reference copy",
    request: () => statusCopy(),
    expected: {
      exitCode: 0,
      property: "referenceConsistency",
      state: "PASS",
      check: "reference.statusMetadata",
      more: statusCopyCheck("PASS"),
    },
  },
];

export const CALLER_CASES: readonly AdversarialCase[] = [
  {
    name: "first-task beside the capture's own first Task",
    rule: "§9.16",
    attack: "a capture that carries its first Task, verified with --first-task naming a friendlier one",
    request: () => {
      const e = honest();
      const friendly = copy(e.firstTask);
      objectAt(friendly, "metadata", EXTENSION_URI, "evidenceAcceptance").minimumEvidence = "SIGNED_RECORD";
      return requestOf(e, { firstTask: friendly });
    },
    expected: { exitCode: 2, more: refusedInput },
  },
  {
    name: "first-task beside the capture's own first Message",
    rule: "§9.16",
    attack:
      "a capture whose first response was a direct Message (requireTask broken), verified with --first-task naming a Task",
    request: () => {
      const e = honest();
      const input = jsonObject({ finalTask: copy(e.finalTask), firstTask: copy(objectAt(e.firstTask, "history", 0)) });
      return requestOf(e, { inputs: [{ source: "attack", data: input }], firstTask: e.firstTask });
    },
    expected: { exitCode: 2, more: refusedInput },
  },
  {
    name: "task beside a Task the input carries",
    rule: "§9.16",
    attack: "(control) a GetTask response verified with --task naming another Task",
    request: () => {
      const e = honest({ envelope: "jsonrpc" });
      return requestOf(e, { task: attacked({ finalTask: (t) => void (t.id = uuidFromLabel("elsewhere")) }).finalTask });
    },
    expected: { exitCode: 2, more: refusedInput },
  },
  {
    name: "task whose evidence artifact carries another record",
    rule: "§9.16",
    attack: "a bare bundle with --task whose evidence Artifact carries a different, validly signed record",
    request: () => {
      const other = attacked({ payload: (p) => void (p.sealTime = "2026-10-01T09:31:00.000000+00:00") });
      return bareWithTask((t) => void arrayAt(t, "artifacts").splice(-1, 1, copy(evidenceArtifact(other.finalTask))));
    },
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "bundle.copiesAgree" },
  },
  {
    name: "task whose evidence artifact reference disagrees",
    rule: "§9.16",
    attack: "a bare bundle with --task whose evidence Artifact's reference names another evidenceId",
    request: () =>
      bareWithTask((t) => void (objectAt(evidenceArtifact(t), "metadata", EXTENSION_URI).evidenceId = "0".repeat(64))),
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "reference.artifact" },
  },
  {
    name: "task whose metadata carries another record inline",
    rule: "§9.16",
    attack: "a bare bundle with --task whose Task.metadata[EXT] is a different, validly signed bundle",
    request: () => {
      const other = attacked({ payload: (p) => void (p.sealTime = "2026-10-01T09:31:00.000000+00:00") });
      return bareWithTask((t) => void (objectAt(t, "metadata")[EXTENSION_URI] = copy(other.bundle)));
    },
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "bundle.copiesAgree" },
  },
  {
    name: "bare bundle with its own Task",
    rule: "§9.16",
    attack: "(control) a bare bundle with --task and --first-task naming the exchange's own Tasks",
    request: () => bareWithTask(),
    expected: { exitCode: 0, property: "referenceConsistency", state: "PASS", check: "reference.task" },
  },
  {
    name: "first-task that is another Task",
    rule: "§9.16",
    attack: "(control) a GetTask response with --first-task naming another Task's acceptance",
    request: () => {
      const e = honest({ envelope: "jsonrpc" });
      const other = copy(e.firstTask);
      other.id = uuidFromLabel("elsewhere");
      return requestOf(e, { firstTask: other });
    },
    expected: { exitCode: 1, property: "negotiation", state: "FAIL", check: "acceptance.sameTask" },
  },
  {
    name: "acceptance on a terminal first Task",
    rule: "§9.18",
    attack: "the first Task that carries evidenceAcceptance is already COMPLETED",
    request: () =>
      requestOf(attacked({ firstTask: (t) => void (objectAt(t, "status").state = "TASK_STATE_COMPLETED") })),
    expected: { exitCode: 1, property: "negotiation", state: "FAIL", check: "acceptance.beforeWork" },
  },
  {
    name: "acceptance after an artifact was produced",
    rule: "§9.18",
    attack: "the first Task that carries evidenceAcceptance already carries the response Artifact",
    request: () =>
      requestOf(
        attacked({ firstTask: (t) => void (t.artifacts = [copy(objectAt(honest().finalTask, "artifacts", 0))]) }),
      ),
    expected: { exitCode: 1, property: "negotiation", state: "FAIL", check: "acceptance.beforeWork" },
  },
  {
    name: "acceptance on a working first Task",
    rule: "§9.18",
    attack: "(control) the first Task is WORKING, with no Artifact yet",
    request: () => requestOf(attacked({ firstTask: (t) => void (objectAt(t, "status").state = "TASK_STATE_WORKING") })),
    expected: { exitCode: 0, property: "negotiation", state: "PASS", check: "acceptance.accepted" },
  },
];
