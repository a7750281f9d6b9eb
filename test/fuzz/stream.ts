/**
 * Stream inputs: the producer's events for each valid stream vector, changed one at a time —
 * dropped, repeated, reordered, cut short, or one event's JSON changed like any raw site — and
 * framed again exactly as the vector frames them. Only the invariants that hold for any input
 * apply (never a throw, the schema, the §4 rule, the exit code, the per-input cap): what the fold of
 * a changed stream shows is the stream property tests' to pin down.
 *
 * verify() does not fold streams yet: like the `vectors` command, a stream is folded first and
 * verified as the capture it observed; a stream the fold refuses must be refused with a typed
 * result, never an exception. Once verify() folds streams itself, pass it the text instead.
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { loadTrustConfig, type TrustConfig } from "../../src/index.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { foldStream } from "../../src/input/stream/framing.js";
import { streamCapture } from "../../src/input/stream/task.js";
import { fromPlain, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { buildExchange } from "../../producer/exchange.js";
import { renderNdjson, renderSse, streamEvents } from "../../producer/stream.js";
import type { StreamVectorDefinition } from "../../producer/vectors-stream.js";
import { REPO_ROOT } from "../helpers/external.js";
import { STREAM_SEEDS } from "./corpus.js";
import { withOwnLog } from "../../producer/render.js";
import { run } from "./invariants.js";
import { generic, stringsOf } from "./mutate-raw.js";

interface StreamSeed {
  readonly def: StreamVectorDefinition;
  readonly events: readonly JsonObject[];
  readonly trust: TrustConfig;
}

function frame(def: StreamVectorDefinition, events: readonly JsonObject[]): string {
  const { framing, binding } = def.stream;
  const id = def.options.jsonRpcId ?? 1;
  return framing === "sse"
    ? renderSse(events, { ...def.stream.sse, binding, jsonRpcId: id })
    : renderNdjson(events, binding, id);
}

const seeds = new Map<string, StreamSeed>();
function seedOf(i: number): StreamSeed {
  const def = STREAM_SEEDS[i] as StreamVectorDefinition;
  let s = seeds.get(def.name);
  if (!s) {
    const events = streamEvents(buildExchange(withOwnLog(def).options));
    const file = def.stream.framing === "sse" ? "input.sse" : "input.ndjson";
    // The events framed again are the committed file, byte for byte: the mutants start from the vector itself.
    expect(frame(def, events)).toBe(readFileSync(join(REPO_ROOT, "vectors", def.name, file), "utf8"));
    const trustJson = parseStrictJson(readFileSync(join(REPO_ROOT, "vectors", def.name, "trust.json")));
    if (!trustJson.ok) throw new Error(trustJson.detail);
    const trust = loadTrustConfig(trustJson.value);
    if (!trust.ok) throw new Error(trust.detail);
    const honest = verifyStream(frame(def, events), trust.value);
    expect(
      honest?.report.policy.exitCode,
      `${def.name} does not verify as it stands: ${JSON.stringify(honest?.report.inputs[0])}`.slice(0, 600),
    ).toBe(def.expected.exitCode);
    seeds.set(def.name, (s = { def, events, trust: trust.value }));
  }
  return s;
}

export interface StreamPlan {
  readonly seed: number;
  readonly op: number;
  readonly event: number;
  readonly other: number;
  readonly site: number;
  readonly variant: number;
  readonly pick: number;
}

export const STREAM_PLAN: fc.Arbitrary<StreamPlan> = fc.record({
  seed: fc.nat(Math.max(STREAM_SEEDS.length - 1, 0)),
  op: fc.nat(5),
  event: fc.nat(),
  other: fc.nat(),
  site: fc.nat(),
  variant: fc.nat(15),
  pick: fc.nat(),
});

/** Paths of every value inside an event. */
function pathsOf(
  v: JsonValue,
  path: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([...path, i]), pathsOf(x, [...path, i], out)));
  else if (v !== null && typeof v === "object" && !("lexeme" in v)) {
    for (const k of Object.keys(v)) {
      out.push([...path, k]);
      pathsOf((v as JsonObject)[k] as JsonValue, [...path, k], out);
    }
  }
  return out;
}

export function streamProperty(plan: StreamPlan): void {
  if (STREAM_SEEDS.length === 0) return;
  const seed = seedOf(plan.seed);
  const events = seed.events.map((e) => fromPlain(e) as JsonObject);
  const i = plan.event % events.length;
  const j = plan.other % events.length;
  switch (plan.op) {
    case 0:
      events.splice(i, 1);
      break;
    case 1:
      events.splice(j, 0, fromPlain(events[i] as JsonObject) as JsonObject);
      break;
    case 2:
      [events[i], events[j]] = [events[j] as JsonObject, events[i] as JsonObject];
      break;
    case 3:
      events.splice(Math.max(1, i));
      break;
    default: {
      const event = events[i] as JsonObject;
      const paths = pathsOf(event);
      const path = paths[plan.site % paths.length] as Array<string | number>;
      generic(event, { root: "input", path }, plan.variant % 10, plan.variant, plan.pick, () => stringsOf(event));
    }
  }
  let text: string;
  try {
    text = frame(seed.def, events);
  } catch (e) {
    // A lone surrogate has no UTF-8 form: such a stream cannot be written, so there is nothing to verify.
    if ((e as { name?: string }).name === "ProducerError") return;
    throw e;
  }
  verifyStream(text, seed.trust);
}

/** The stream folded and verified as the capture it observed; undefined when the fold refuses it. */
function verifyStream(text: string, trust: TrustConfig): ReturnType<typeof run> | undefined {
  const folded = foldStream(text);
  if (!folded.ok) return undefined;
  if (folded.value.kind !== "task") return undefined;
  return run(streamCapture(folded.value), trust);
}
