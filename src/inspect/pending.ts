/**
 * A Task that has not ended (docs/profile.md §5; docs/inputs.md, "Paused Tasks and interim
 * records"): verify reports it as INPUT_EVIDENCE_PENDING, exit 3, and verifies nothing — there is
 * no terminal record yet. What can be explained is the Task's state and evidence status, and each
 * interim record it carries (with the capture's interimBundles and --interim's), derived step by
 * step as the terminal record would be and set beside the paused Task it came with.
 *
 * It is reached only after loadEvidence said the input is pending: the Task and its bundles are
 * located again by the input stage's own functions, never guessed at here.
 */
import { extensionMetadata } from "../input/a2a.js";
import { classify } from "../input/classify.js";
import { loadTaskInput, type Observation } from "../input/load.js";
import { CARRIER_PRIORITY, type LocatedBundle } from "../input/locate.js";
import { isFoldedStream } from "../input/stream/fold.js";
import { asJsonInput, type InputValue } from "../input/decode.js";
import { memberAt, type JsonObject } from "../json/value.js";
import { EvidenceContext, type VerifyOptions } from "../evidence/context.js";
import { interimRecords } from "../evidence/interim.js";
import type { Failure } from "../result.js";
import type { TrustConfig } from "../trust/config.js";
import { TOOL_VERSION } from "../version.js";
import { listed } from "./common.js";
import { recordSection } from "./interim.js";
import { INSPECT_VERSION, type InspectOptions, type PendingExplanation } from "./model.js";

const byCarrier = (bundles: readonly LocatedBundle[]) =>
  [...bundles].sort((a, b) => CARRIER_PRIORITY[a.carrier] - CARRIER_PRIORITY[b.carrier]);

export function pendingExplanation(
  source: string,
  value: InputValue,
  caller: Observation,
  failure: Failure,
  trust: TrustConfig | undefined,
  options: VerifyOptions,
  o: InspectOptions & { readonly cosignatures: boolean },
): PendingExplanation | undefined {
  // The input's own Task, located as verify located it; else (a bare bundle) the --task Task's.
  const own = loadTaskInput(value, "task");
  const held = own.ok ? own.value.task : caller.task;
  if (!held?.observedTask) return undefined;
  const task = held.observedTask;
  const fromTaskFile = !own.ok;
  let carried: LocatedBundle[] = byCarrier(held.bundles);
  if (fromTaskFile) {
    const json = asJsonInput(value);
    const c = isFoldedStream(json) ? undefined : classify(json);
    const bare = c?.ok ? c.value.bundle : undefined;
    carried = [
      ...(bare ? [{ location: bare.path, carrier: bare.carrier, bundle: bare.value as JsonObject }] : []),
      ...carried.map((b) => ({ ...b, location: `--task:${b.location}` })),
    ];
  }
  // Each bundle the paused Task carries is an interim record (that is what makes it pending), shown with that Task.
  const evidence = new Set(held.evidenceArtifacts);
  const pausedTask = { task, content: (task.artifacts ?? []).filter((a) => !evidence.has(a)) };
  const located: LocatedBundle[] = [
    ...carried.map((b) => ({ ...b, pausedTask })),
    ...(fromTaskFile
      ? held.interimBundles.map((b) => ({ ...b, location: `--task:${b.location}` }))
      : held.interimBundles),
    ...(caller.interim ?? []),
  ];
  const first = located[0];
  // Each record in the very context verify's interim checks build for it.
  const records = first
    ? interimRecords(
        new EvidenceContext(
          {
            shape: held.shape,
            bundles: [first],
            evidenceArtifacts: new Set(),
            origin: {},
            notes: [],
            interimBundles: located,
          },
          trust,
          options,
        ),
      )
    : [];
  const status = memberAt(extensionMetadata(task), "evidenceStatus");
  return {
    inspectVersion: INSPECT_VERSION,
    tool: { name: "a2a-evidence", version: TOOL_VERSION },
    source,
    shape: own.ok ? held.shape : "bundle",
    options: { bytes: o.bytes, all: o.all, trust: trust !== undefined, cosignatures: o.cosignatures },
    pending: {
      code: "INPUT_EVIDENCE_PENDING",
      detail: failure.detail,
      task: `${fromTaskFile ? "--task:" : ""}${task.path}`,
      state: task.state,
      evidenceStatus: typeof status === "string" ? status : null,
    },
    interim: {
      citations: { items: [], omitted: 0 },
      records: listed(records, o, (r) =>
        recordSection(r, o, undefined, fromTaskFile && r.located.pausedTask ? "--task:" : undefined),
      ),
    },
    notes: listed(fromTaskFile ? held.notes.map((n) => `--task: ${n}`) : held.notes, o, (n) => n),
  };
}
