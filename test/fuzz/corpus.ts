/**
 * The fuzz seeds: every valid vector of `vectors/`, read from its committed files, and the
 * exchanges the producer builds for them (the vector generator writes those very bytes), plus the
 * property tests' capture in each carrier. A seed is opened into a document: the input, the
 * terminal and first Task inside it, and the evidence bundle decoded from whichever carrier holds it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { fromPlain, isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { base64ToBytesStrict, bytesToBase64, utf8 } from "../../src/util/bytes.js";
import { EVIDENCE_MEDIA_TYPE, EXTENSION_URI } from "../../producer/constants.js";
import { buildExchange, type Exchange } from "../../producer/exchange.js";
import type { ExchangeOptions } from "../../producer/options.js";
import { VECTORS } from "../../producer/vectors.js";
import { isGrpcVector } from "../../producer/vectors-grpc.js";
import { isBindingVector } from "../../producer/vectors-binding.js";
import { withOwnLog } from "../../producer/render.js";
import { isStreamVector, type StreamVectorDefinition } from "../../producer/vectors-stream.js";
import { REPO_ROOT } from "../helpers/external.js";
import { CAPTURE } from "../properties/harness.js";

export type Path = ReadonlyArray<string | number>;

export interface Seed {
  readonly name: string;
  readonly input: JsonObject;
  readonly trust: JsonValue;
  /** How to rebuild it with the producer, for re-signed (semantic) mutants. */
  readonly options: ExchangeOptions;
}

function parse(bytes: Uint8Array | string): JsonValue {
  const r = parseStrictJson(bytes);
  if (!r.ok) throw new Error(`${r.detail} at ${r.path}`);
  return r.value;
}

// A pending-* vector is a Task that has not ended: it has no record to mutate.
// A gRPC vector's input is protobuf bytes, not JSON to mutate member by member; the valid-binding-*
// vectors are one Task in four forms (its JSON forms add nothing the seeds do not already hold).
const VALID = VECTORS.filter(
  (v) =>
    v.mutation === null &&
    !isStreamVector(v) &&
    !isGrpcVector(v) &&
    !isBindingVector(v) &&
    v.expected.properties !== null,
);

/** The valid vectors whose input is a stream of events (SSE or NDJSON), mutated event by event (stream.test.ts). */
export const STREAM_SEEDS: readonly StreamVectorDefinition[] = VECTORS.filter(
  (v): v is StreamVectorDefinition => v.mutation === null && isStreamVector(v),
);

export const SEEDS: readonly Seed[] = [
  ...VALID.map((v) => ({
    name: v.name,
    input: parse(readFileSync(join(REPO_ROOT, "vectors", v.name, "input.json"))) as JsonObject,
    trust: parse(readFileSync(join(REPO_ROOT, "vectors", v.name, "trust.json"))),
    options: withOwnLog(v).options,
  })),
  ...(["raw", "data", "inline"] as const).map((carrier) => {
    const options: ExchangeOptions = { ...CAPTURE, carrier };
    const e = buildExchange(options);
    return { name: `capture-${carrier}`, input: e.input, trust: e.trust, options };
  }),
];

const exchanges = new Map<string, Exchange>();
/** The producer's exchange for a seed (built once). */
export function exchangeOf(seed: Seed): Exchange {
  let e = exchanges.get(seed.name);
  if (!e) exchanges.set(seed.name, (e = buildExchange(seed.options)));
  return e;
}

export type Carrier = "raw" | "data" | "inline";

/** An input opened for mutation: where the Tasks and the bundle are. */
export interface Doc {
  readonly input: JsonObject;
  readonly taskPath: Path;
  readonly firstPath?: Path;
  readonly carrier: Carrier;
  /** Index of the evidence Artifact in the terminal Task (raw and data carriers). */
  readonly evidenceIndex?: number;
  /** Path of the bundle in the input (data, inline) or of the raw string (raw). */
  readonly bundlePath: Path;
  /** The bundle: decoded from the raw part, or the object inside the input. */
  readonly bundle: JsonObject;
}

export function valueAt(root: JsonValue, path: Path): JsonValue | undefined {
  let cur: JsonValue | undefined = root;
  for (const seg of path)
    cur =
      typeof seg === "number" ? (Array.isArray(cur) ? cur[seg] : undefined) : isJsonObject(cur) ? cur[seg] : undefined;
  return cur;
}

function taskPathOf(input: JsonObject): { task: Path; first?: Path } {
  if ("jsonrpc" in input) return { task: ["result"] };
  if ("finalTask" in input) return { task: ["finalTask"], first: ["firstTask"] };
  if (Object.keys(input).length === 1 && "task" in input) return { task: ["task"] };
  return { task: [] };
}

/** Opens a copy of `input` (a producer-shaped one) for mutation. */
export function open(input: JsonObject): Doc {
  const copy = fromPlain(input) as JsonObject;
  const { task: taskPath, first: firstPath } = taskPathOf(copy);
  const task = valueAt(copy, taskPath) as JsonObject;
  const artifacts = Array.isArray(task.artifacts) ? task.artifacts : [];
  const evidenceIndex = artifacts.findIndex(
    (a) =>
      isJsonObject(a) &&
      Array.isArray(a.parts) &&
      a.parts.some((p) => isJsonObject(p) && p.mediaType === EVIDENCE_MEDIA_TYPE),
  );
  const base = { input: copy, taskPath, ...(firstPath ? { firstPath } : {}) };
  if (evidenceIndex < 0) {
    const bundlePath = [...taskPath, "metadata", EXTENSION_URI];
    return { ...base, carrier: "inline", bundlePath, bundle: valueAt(copy, bundlePath) as JsonObject };
  }
  const part = valueAt(copy, [...taskPath, "artifacts", evidenceIndex, "parts", 0]) as JsonObject;
  if (typeof part.raw === "string") {
    const bundle = parse(base64ToBytesStrict(part.raw) as Uint8Array) as JsonObject;
    return {
      ...base,
      carrier: "raw",
      evidenceIndex,
      bundlePath: [...taskPath, "artifacts", evidenceIndex, "parts", 0, "raw"],
      bundle,
    };
  }
  const bundlePath = [...taskPath, "artifacts", evidenceIndex, "parts", 0, "data"];
  return { ...base, carrier: "data", evidenceIndex, bundlePath, bundle: valueAt(copy, bundlePath) as JsonObject };
}

/**
 * JSON text with member order and number lexemes kept, and lone surrogates escaped (they are what
 * an attacker would send; the strict parser must refuse them, not the fuzzer).
 */
export function jsonTextAsIs(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.map(jsonTextAsIs).join(",")}]`;
  if (isJsonObject(v))
    return `{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}:${jsonTextAsIs(v[k] as JsonValue)}`)
      .join(",")}}`;
  if (v !== null && typeof v === "object") return v.lexeme;
  return JSON.stringify(v);
}

/** The input with a raw carrier's (possibly changed) bundle written back, member order and lexemes kept. */
export function close(doc: Doc, bundleChanged: boolean): JsonObject {
  if (doc.carrier === "raw" && bundleChanged) {
    const parent = valueAt(doc.input, doc.bundlePath.slice(0, -1)) as JsonObject;
    parent.raw = bytesToBase64(utf8(jsonTextAsIs(doc.bundle)));
  }
  return doc.input;
}
