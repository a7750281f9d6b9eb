/**
 * Input classification and bundle location (a2a-wire.md §2.7, §6.12; contract §3).
 *
 * Shapes, in order: a JSON-RPC 2.0 response whose result is a Task; an A2A v1.0 Task (REST body)
 * or a `{ "task": … }` wrapper; a capture `{ firstTask?, finalTask?, evidenceBundle? }`; a bare
 * evidence bundle. Inside a Task the bundle is looked for in every legal carrier — the evidence
 * Artifact's `raw` (base64) or `data` part, and a bundle-shaped value inline under
 * `metadata[<extension URI>]` — and every place it is found is recorded. A `trustConfig` inside a
 * capture is ignored: trust never comes from the thing being verified.
 */
import { showValue } from "../json/diff.js";
import { isJsonObject, member, hasMember, type JsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { parseStrictJson } from "../json/strict-json.js";
import { base64ToBytesStrict } from "../util/bytes.js";
import { fail, ok, type Result } from "../result.js";
import { EVIDENCE_ARTIFACT_ID, EVIDENCE_MEDIA_TYPE, EXTENSION_URI } from "../profile.js";
import { looksLikeMessage, looksLikeTask, readMessage, readTask, type A2AArtifact, type A2AMessage, type A2ATask } from "./a2a.js";
import { detectV03, detectV03Message } from "./v03.js";

export type InputShape = "jsonrpc-response" | "task" | "capture" | "bundle";

/** How the bundle reached us. `raw` keeps the producer's exact bytes; `data` and `inline` passed through protobuf Struct/Value (numbers may have been widened to doubles). */
export type Carrier = "raw" | "data" | "inline" | "capture" | "bare";

export interface LocatedBundle {
  /** JSON path of the bundle in the input, e.g. `result.artifacts[1].parts[0].raw`. */
  readonly location: string;
  readonly carrier: Carrier;
  readonly bundle: JsonObject;
  /** The evidence Artifact that carried it, for artifact carriers. */
  readonly artifact?: A2AArtifact;
}

export interface LoadedInput {
  readonly shape: InputShape;
  /** The Task the input itself presents as the terminal (observed) Task. */
  readonly observedTask?: A2ATask;
  /** The first Task returned by SendMessage, when the input is a capture that has it. */
  readonly firstTask?: A2ATask;
  /** A direct Message that SendMessage returned instead of a Task, when the capture records one. */
  readonly firstMessage?: A2AMessage;
  /** Every bundle found; the first is the one verified (exact bytes preferred). */
  readonly bundles: readonly LocatedBundle[];
  readonly notes: readonly string[];
}

export interface LoadLimits {
  /** Maximum decoded size of one bundle. */
  readonly maxBundleBytes: number;
}

export const DEFAULT_LOAD_LIMITS: LoadLimits = { maxBundleBytes: 4 * 1024 * 1024 };

const CARRIER_PRIORITY: Record<Carrier, number> = { raw: 0, data: 1, inline: 2, capture: 3, bare: 4 };

interface Classified {
  shape: InputShape;
  finalTask?: { value: JsonValue; path: string };
  firstTask?: { value: JsonValue; path: string };
  firstMessage?: { value: JsonValue; path: string };
  bundle?: { value: JsonValue; path: string; carrier: Carrier };
  notes: string[];
}

export function isBundleShaped(v: JsonValue | undefined): v is JsonObject {
  return (
    isJsonObject(v) && hasMember(v, "extensionVersion") && hasMember(v, "taskEvidencePayload") && hasMember(v, "evidenceId")
  );
}

function classify(v: JsonValue): Result<Classified> {
  if (!isJsonObject(v)) return fail("INPUT_UNKNOWN_SHAPE", "input is not a JSON object", "$");
  if (member(v, "jsonrpc") !== undefined) return classifyJsonRpc(v);
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === "error" && isJsonObject(member(v, "error"))) {
    const e = member(v, "error") as JsonObject;
    const code = member(e, "code");
    const status = member(e, "status");
    const message = member(e, "message");
    return fail(
      "INPUT_REST_ERROR",
      `the input is an A2A HTTP error response${status !== undefined ? ` ${showValue(status)}` : ""}${code !== undefined ? ` (code ${showValue(code)})` : ""}${typeof message === "string" ? `: ${message}` : ""}; it carries no Task`,
      "error",
    );
  }
  if (looksLikeTask(v)) return ok({ shape: "task", finalTask: { value: v, path: "$" }, notes: [] });
  if (keys.length === 1 && keys[0] === "task" && looksLikeTask(member(v, "task"))) {
    return ok({ shape: "task", finalTask: { value: member(v, "task") as JsonValue, path: "task" }, notes: [] });
  }
  if (hasMember(v, "finalTask") || hasMember(v, "evidenceBundle")) return classifyCapture(v);
  if (isBundleShaped(v)) return ok({ shape: "bundle", bundle: { value: v, path: "$", carrier: "bare" }, notes: [] });
  if (Array.isArray(member(v, "tasks")) && hasMember(v, "nextPageToken")) {
    return fail("INPUT_UNKNOWN_SHAPE", "the input is a ListTasks response; pass one Task (GetTask result)", "$");
  }
  return fail(
    "INPUT_UNKNOWN_SHAPE",
    "input is not a JSON-RPC GetTask response, an A2A Task, a capture {firstTask, finalTask, evidenceBundle} or an evidence bundle",
    "$",
  );
}

function classifyJsonRpc(v: JsonObject): Result<Classified> {
  if (member(v, "jsonrpc") !== "2.0") return fail("INPUT_UNKNOWN_SHAPE", 'a JSON-RPC message must have "jsonrpc": "2.0"', "jsonrpc");
  const error = member(v, "error");
  if (error !== undefined) {
    const e = isJsonObject(error) ? error : undefined;
    const code = e ? member(e, "code") : undefined;
    const message = e ? member(e, "message") : undefined;
    const reasons: string[] = [];
    const data = e ? member(e, "data") : undefined;
    if (Array.isArray(data)) {
      for (const d of data) {
        const reason = isJsonObject(d) ? member(d, "reason") : undefined;
        if (typeof reason === "string") reasons.push(reason);
      }
    }
    return fail(
      "INPUT_JSONRPC_ERROR",
      `JSON-RPC error${code !== undefined ? ` ${showValue(code)}` : ""}${typeof message === "string" ? `: ${message}` : ""}${reasons.length ? ` (${reasons.join(", ")})` : ""}; the response carries no Task`,
      "error",
    );
  }
  if (member(v, "method") !== undefined) {
    return fail("INPUT_JSONRPC_REQUEST", "the input is a JSON-RPC request, not a response; pass the GetTask response", "method");
  }
  const result = member(v, "result");
  if (looksLikeTask(result)) return ok({ shape: "jsonrpc-response", finalTask: { value: result, path: "result" }, notes: [] });
  if (isJsonObject(result) && Object.keys(result).length === 1 && looksLikeTask(member(result, "task"))) {
    return ok({ shape: "jsonrpc-response", finalTask: { value: member(result, "task") as JsonValue, path: "result.task" }, notes: [] });
  }
  return fail("INPUT_UNKNOWN_SHAPE", "the JSON-RPC result is not a Task", "result");
}

function classifyCapture(v: JsonObject): Result<Classified> {
  const notes: string[] = [];
  const out: Classified = { shape: "capture", notes };
  const final = member(v, "finalTask");
  if (final !== undefined && final !== null) {
    if (!looksLikeTask(final)) return fail("INPUT_NOT_A_TASK", '"finalTask" is not an A2A Task', "finalTask");
    out.finalTask = { value: final, path: "finalTask" };
  }
  const first = member(v, "firstTask");
  if (first !== undefined && first !== null) {
    // SendMessage may answer with a direct Message instead of a Task; a capture records what came.
    const response = firstResponse(first, "firstTask");
    if (!response) return fail("INPUT_NOT_A_TASK", '"firstTask" is neither an A2A Task nor a Message', "firstTask");
    out[response.kind === "task" ? "firstTask" : "firstMessage"] = response;
  }
  const eb = member(v, "evidenceBundle");
  if (eb !== undefined && eb !== null) {
    if (!isJsonObject(eb)) return fail("INPUT_BUNDLE_NOT_OBJECT", '"evidenceBundle" is not a JSON object', "evidenceBundle");
    out.bundle = { value: eb, path: "evidenceBundle", carrier: "capture" };
  }
  if (hasMember(v, "trustConfig")) notes.push("trustConfig in the input is ignored: trust comes only from --trust");
  return ok(out);
}

/** A SendMessage result: a Task, a Message, or either wrapped as `{task}` / `{message}`. */
function firstResponse(v: JsonValue, path: string): { kind: "task" | "message"; value: JsonValue; path: string } | undefined {
  if (looksLikeTask(v)) return { kind: "task", value: v, path };
  if (looksLikeMessage(v)) return { kind: "message", value: v, path };
  if (isJsonObject(v) && Object.keys(v).length === 1) {
    const task = member(v, "task");
    if (looksLikeTask(task)) return { kind: "task", value: task, path: joinPath(path, "task") };
    const message = member(v, "message");
    if (looksLikeMessage(message)) return { kind: "message", value: message, path: joinPath(path, "message") };
  }
  return undefined;
}

function readMessageChecked(value: JsonValue, path: string): Result<A2AMessage> {
  const signals = detectV03Message(value, path);
  if (signals.length > 0) {
    return fail("INPUT_A2A_V03", `input is an A2A v0.3 Message (evidence: ${signals.slice(0, 3).join("; ")}); this verifier checks A2A v1.0 wire shapes`, path);
  }
  return readMessage(value, path, []);
}

function readTaskChecked(value: JsonValue, path: string): Result<A2ATask> {
  const signals = detectV03(value, path);
  if (signals.length > 0) {
    return fail(
      "INPUT_A2A_V03",
      `input is an A2A v0.3 Task (evidence: ${signals.slice(0, 3).join("; ")}); this verifier checks A2A v1.0 wire shapes — re-fetch with header "A2A-Version: 1.0" (JSON-RPC method "GetTask", REST path without "/v1")`,
      path,
    );
  }
  return readTask(value, path);
}

function isEvidenceArtifact(a: A2AArtifact, notes: string[]): boolean {
  const byExtension = a.extensions.includes(EXTENSION_URI);
  const byMediaType = a.parts.some((p) => p.mediaType === EVIDENCE_MEDIA_TYPE);
  const byId = a.artifactId === EVIDENCE_ARTIFACT_ID;
  if (byExtension !== byMediaType && (byExtension || byMediaType)) {
    notes.push(
      `${a.path}: evidence artifact identified by ${byExtension ? "its extensions list" : "its part media type"} only; the extensions list and the part media type should agree`,
    );
  }
  return byExtension || byMediaType || byId;
}

function decodeRawBundle(raw: string, path: string, limits: LoadLimits): Result<JsonObject> {
  // Each base64 character carries 6 bits: refuse before decoding anything oversized.
  if (Math.floor((raw.length * 3) / 4) > limits.maxBundleBytes + 2) {
    return fail("INPUT_BUNDLE_TOO_LARGE", `the bundle exceeds ${limits.maxBundleBytes} bytes`, path);
  }
  const bytes = base64ToBytesStrict(raw);
  if (!bytes) return fail("INPUT_BUNDLE_BASE64", "the raw part is not strict standard base64 (padded, no stray characters)", path);
  if (bytes.length > limits.maxBundleBytes) {
    return fail("INPUT_BUNDLE_TOO_LARGE", `the bundle is ${bytes.length} bytes; the limit is ${limits.maxBundleBytes}`, path);
  }
  const parsed = parseStrictJson(bytes, { maxBytes: limits.maxBundleBytes, maxDepth: 64 });
  if (!parsed.ok) {
    return fail("INPUT_BUNDLE_NOT_JSON", `the decoded bundle is not strict JSON: ${parsed.detail} at ${parsed.path} (${parsed.code})`, path);
  }
  if (!isJsonObject(parsed.value)) return fail("INPUT_BUNDLE_NOT_OBJECT", "the decoded bundle is not a JSON object", path);
  return ok(parsed.value);
}

/** Every bundle carried by a Task, in every legal carrier. */
function locateInTask(task: A2ATask, limits: LoadLimits, notes: string[]): Result<LocatedBundle[]> {
  const found: LocatedBundle[] = [];
  for (const artifact of task.artifacts ?? []) {
    if (!isEvidenceArtifact(artifact, notes)) continue;
    let carried = 0;
    for (const part of artifact.parts) {
      if (part.content === "raw") {
        const at = joinPath(part.path, "raw");
        const r = decodeRawBundle(part.raw as string, at, limits);
        if (!r.ok) return r;
        found.push({ location: at, carrier: "raw", bundle: r.value, artifact });
        carried++;
      } else if (part.content === "data") {
        const at = joinPath(part.path, "data");
        if (!isJsonObject(part.data)) return fail("INPUT_BUNDLE_NOT_OBJECT", "the evidence data part is not a JSON object", at);
        found.push({ location: at, carrier: "data", bundle: part.data, artifact });
        carried++;
      } else if (part.content === "url") {
        notes.push(`${joinPath(part.path, "url")}: evidence by URL is not fetched (offline verifier): ${part.url as string}`);
      }
    }
    const inline = artifact.metadata ? member(artifact.metadata, EXTENSION_URI) : undefined;
    if (isBundleShaped(inline)) {
      found.push({ location: joinPath(artifact.path, "metadata", EXTENSION_URI), carrier: "inline", bundle: inline, artifact });
      carried++;
    }
    if (carried === 0) notes.push(`${artifact.path}: evidence artifact carries no bundle`);
  }
  const inline = task.metadata ? member(task.metadata, EXTENSION_URI) : undefined;
  if (isBundleShaped(inline)) {
    found.push({ location: joinPath(task.path, "metadata", EXTENSION_URI), carrier: "inline", bundle: inline });
  }
  return ok(found);
}

/** Classifies a parsed input and locates every evidence bundle in it. Never throws. */
export function loadInput(value: JsonValue, limits: LoadLimits = DEFAULT_LOAD_LIMITS): Result<LoadedInput> {
  const c = classify(value);
  if (!c.ok) return c;
  const notes = [...c.value.notes];
  let observedTask: A2ATask | undefined;
  let firstTask: A2ATask | undefined;
  if (c.value.finalTask) {
    const r = readTaskChecked(c.value.finalTask.value, c.value.finalTask.path);
    if (!r.ok) return r;
    observedTask = r.value;
    notes.push(...r.value.notes);
  }
  if (c.value.firstTask) {
    const r = readTaskChecked(c.value.firstTask.value, c.value.firstTask.path);
    if (!r.ok) return r;
    firstTask = r.value;
  }
  let firstMessage: A2AMessage | undefined;
  if (c.value.firstMessage) {
    const r = readMessageChecked(c.value.firstMessage.value, c.value.firstMessage.path);
    if (!r.ok) return r;
    firstMessage = r.value;
  }
  const bundles: LocatedBundle[] = [];
  if (observedTask) {
    const r = locateInTask(observedTask, limits, notes);
    if (!r.ok) return r;
    bundles.push(...r.value);
  }
  if (c.value.bundle) {
    bundles.push({ location: c.value.bundle.path, carrier: c.value.bundle.carrier, bundle: c.value.bundle.value as JsonObject });
  }
  if (bundles.length === 0) {
    return fail("INPUT_NO_EVIDENCE", noEvidenceDetail(observedTask), observedTask?.path ?? "$");
  }
  // Stable sort: exact bytes first, then structured carriers, then the capture's parsed copy.
  bundles.sort((a, b) => CARRIER_PRIORITY[a.carrier] - CARRIER_PRIORITY[b.carrier]);
  return ok({
    shape: c.value.shape,
    ...(observedTask ? { observedTask } : {}),
    ...(firstTask ? { firstTask } : {}),
    ...(firstMessage ? { firstMessage } : {}),
    bundles,
    notes,
  });
}

function noEvidenceDetail(task: A2ATask | undefined): string {
  if (!task) return "no evidence bundle in the input";
  const ref = task.metadata ? member(task.metadata, EXTENSION_URI) : undefined;
  const status = isJsonObject(ref) ? member(ref, "evidenceStatus") : undefined;
  const reason = isJsonObject(ref) ? member(ref, "failureReason") : undefined;
  const said =
    typeof status === "string"
      ? `; the Task's evidence reference says ${status}${typeof reason === "string" ? ` (${reason})` : ""}`
      : "";
  return `no evidence bundle found in the Task (no evidence Artifact with a raw or data part, nothing inline under metadata["${EXTENSION_URI}"])${said}`;
}

export interface Observation {
  readonly task?: A2ATask;
  readonly firstTask?: A2ATask;
  readonly firstMessage?: A2AMessage;
}

/**
 * What an input given with --task or --first-task observed. --task: the final Task (from a capture,
 * also its first response). --first-task: SendMessage's first response — a Task, or a direct
 * Message (bare, wrapped as `{message}`, or as a JSON-RPC result).
 */
export function loadTaskInput(value: JsonValue, role: "task" | "first-task"): Result<Observation> {
  if (role === "first-task") {
    const rpcResult = isJsonObject(value) && member(value, "jsonrpc") === "2.0" ? member(value, "result") : undefined;
    const direct = firstResponse(rpcResult ?? value, rpcResult !== undefined ? "result" : "$");
    if (direct?.kind === "message") {
      const m = readMessageChecked(direct.value, direct.path);
      return m.ok ? ok({ firstMessage: m.value }) : m;
    }
  }
  const c = classify(value);
  if (!c.ok) return c;
  if (role === "first-task") {
    const chosen = c.value.firstTask ?? c.value.finalTask;
    if (chosen) {
      const t = readTaskChecked(chosen.value, chosen.path);
      return t.ok ? ok({ firstTask: t.value }) : t;
    }
    if (c.value.firstMessage) {
      const m = readMessageChecked(c.value.firstMessage.value, c.value.firstMessage.path);
      return m.ok ? ok({ firstMessage: m.value }) : m;
    }
    return fail("INPUT_NOT_A_TASK", "the --first-task input holds no A2A Task or Message", "$");
  }
  if (!c.value.finalTask) return fail("INPUT_NOT_A_TASK", "the --task input holds no A2A Task", "$");
  const task = readTaskChecked(c.value.finalTask.value, c.value.finalTask.path);
  if (!task.ok) return task;
  const out: { task: A2ATask; firstTask?: A2ATask; firstMessage?: A2AMessage } = { task: task.value };
  if (c.value.firstTask) {
    const first = readTaskChecked(c.value.firstTask.value, c.value.firstTask.path);
    if (!first.ok) return first;
    out.firstTask = first.value;
  }
  if (c.value.firstMessage) {
    const m = readMessageChecked(c.value.firstMessage.value, c.value.firstMessage.path);
    if (!m.ok) return m;
    out.firstMessage = m.value;
  }
  return ok(out);
}
