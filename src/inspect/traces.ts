/**
 * Traceability traces in the observed Task's metadata (docs/profile.md §4): for each digest the
 * payload carries in `traceDigests`, the trace at its holder, its pyjson bytes and their SHA-256
 * (and, when they differ, the narrowing of Struct-widened numbers verify searches for); for each
 * trace no digest names, that it is informational. The callee evidence IDs a trace's steps cite
 * are listed, never fetched or followed. The rows follow taskBinding's `trace.digest`, in its order.
 */
import { showValue } from "../json/diff.js";
import { isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import type { A2ATask } from "../input/a2a.js";
import { calleeCitations, metadataTraces, type MetadataTrace } from "../input/trace.js";
import { holders } from "../evidence/traces.js";
import { pyjson } from "../canon/pyjson.js";
import { isHex64 } from "../util/bytes.js";
import { listed, malformed, stepFailure, text } from "./common.js";
import { narrowing, pyjsonText } from "./digests.js";
import type { InspectOptions, Listed, TraceRow } from "./model.js";

const HOLDERS = ["task", "message", "artifact"];

type Item =
  | { readonly kind: "entry"; readonly entry: JsonValue; readonly index: number }
  | { readonly kind: "uncovered"; readonly trace: MetadataTrace };

/** `prefix` names a --task file's paths, as the other commitments do. */
export function traceRows(payload: JsonObject, task: A2ATask, prefix: string, o: InspectOptions): Listed<TraceRow> {
  const observed = metadataTraces(task);
  const byHolder = new Map(observed.map((t) => [`${t.holder} ${t.id}`, t]));
  const listedValue = member(payload, "traceDigests");
  if (listedValue !== undefined && !Array.isArray(listedValue)) {
    // verify stops here too: with no list, no trace can be matched to a digest or said to have none.
    const row: TraceRow = {
      entry: "traceDigests",
      holder: null,
      id: null,
      traceDigest: null,
      at: null,
      preimage: null,
      recomputed: null,
      equal: false,
      callees: none,
      detail: "not an array",
      failure: malformed(
        `taskEvidencePayload.traceDigests is not an array: ${showValue(listedValue)}`,
        "taskEvidencePayload.traceDigests",
      ),
    };
    return { items: [row], omitted: 0 };
  }
  const entries = listedValue ?? [];
  const covered = new Set<MetadataTrace>();
  for (const e of entries) {
    const t = isJsonObject(e) ? byHolder.get(`${String(member(e, "holder"))} ${String(member(e, "id"))}`) : undefined;
    if (t && well(e)) covered.add(t);
  }
  const items: Item[] = [
    ...entries.map((entry, index) => ({ kind: "entry" as const, entry, index })),
    ...observed.filter((t) => !covered.has(t)).map((trace) => ({ kind: "uncovered" as const, trace })),
  ];
  const present = holders(task);
  return listed(items, o, (item) =>
    item.kind === "entry"
      ? entryRow(item.entry, item.index, task, byHolder, present, prefix, o)
      : uncoveredRow(item.trace, prefix, o),
  );
}

/** The shape verify requires of an entry before it looks for its trace. */
function well(e: JsonValue): e is JsonObject {
  if (!isJsonObject(e)) return false;
  const keys = Object.keys(e);
  return (
    keys.length === 3 &&
    ["holder", "id", "traceDigest"].every((k) => keys.includes(k)) &&
    HOLDERS.includes(member(e, "holder") as string) &&
    typeof member(e, "id") === "string" &&
    isHex64(member(e, "traceDigest"))
  );
}

function callees(trace: JsonValue, o: InspectOptions): TraceRow["callees"] {
  return listed(calleeCitations(trace), o, (c) => ({ step: c.step, callee: c.callee, evidenceId: c.evidenceId }));
}

const none = { items: [], omitted: 0 };

function entryRow(
  entry: JsonValue,
  index: number,
  task: A2ATask,
  byHolder: ReadonlyMap<string, MetadataTrace>,
  present: ReadonlySet<string>,
  prefix: string,
  o: InspectOptions,
): TraceRow {
  const at = `traceDigests[${index}]`;
  const e = isJsonObject(entry) ? entry : undefined;
  const s = (name: string) => {
    const v = e ? member(e, name) : undefined;
    return typeof v === "string" ? v : null;
  };
  const base: TraceRow = {
    entry: at,
    holder: s("holder"),
    id: s("id"),
    traceDigest: s("traceDigest"),
    at: null,
    preimage: null,
    recomputed: null,
    equal: false,
    callees: none,
    detail: "",
  };
  if (!well(entry))
    return {
      ...base,
      detail: "not an entry {holder, id, traceDigest} with a known holder, a string id and a 64-hex digest",
      failure: malformed(`${showValue(entry)} is not a well-formed traceDigests entry`, `taskEvidencePayload.${at}`),
    };
  const { holder, id, traceDigest } = base as { holder: string; id: string; traceDigest: string };
  if (holder === "task" && id !== task.id)
    return { ...base, detail: `names a trace on Task ${id}, not on this Task ${task.id}` };
  const trace = byHolder.get(`${holder} ${id}`);
  if (!trace) {
    return {
      ...base,
      detail: present.has(`${holder} ${id}`)
        ? `the observed ${holder} ${id} carries no Traceability trace`
        : `the ${holder} ${id} is not in the observed Task (history or artifacts may be incomplete)`,
    };
  }
  const r = pyjson(trace.value);
  const found = {
    ...base,
    at: `${prefix}${trace.path}`,
    callees: callees(trace.value, o),
    detail: "digested by the payload",
  };
  if (!r.ok) return { ...found, failure: stepFailure(r) };
  const preimage = text(r.value.text, o);
  const equal = preimage.sha256 === traceDigest;
  // Metadata is a protobuf Struct: a Python emitter writes 3 as 3.0, so verify searches for a narrowing.
  const searched = equal ? undefined : narrowing(trace.value, traceDigest, pyjsonText, o);
  return { ...found, preimage, recomputed: preimage.sha256, equal, ...(searched ? { narrowed: searched } : {}) };
}

function uncoveredRow(trace: MetadataTrace, prefix: string, o: InspectOptions): TraceRow {
  return {
    entry: null,
    holder: trace.holder,
    id: trace.id,
    traceDigest: null,
    at: `${prefix}${trace.path}`,
    preimage: null,
    recomputed: null,
    equal: false,
    callees: callees(trace.value, o),
    detail: "not digested by the payload: informational, not covered by evidence",
  };
}
