/**
 * Detection of A2A v0.3-shaped objects (a2a-wire.md §3). The verifier checks v1.0 wire shapes and
 * must not silently normalise v0.3 ones: enum bindings (terminal state, role) would otherwise be
 * compared across two vocabularies.
 */
import { isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { joinPath, type PathSegment } from "../json/path.js";

const V03_KINDS = new Set(["task", "message", "text", "file", "data", "status-update", "artifact-update"]);
const V03_STATES = new Set([
  "submitted",
  "working",
  "input-required",
  "completed",
  "canceled",
  "failed",
  "rejected",
  "auth-required",
  "unknown",
]);

/** Signals that the object is an A2A v0.3 Task (or Message), each with its path; empty for v1.0. */
export function detectV03(task: JsonValue, path: string): string[] {
  const signals: string[] = [];
  if (!isJsonObject(task)) return signals;
  kindSignal(task, path, [], signals);
  const status = member(task, "status");
  if (isJsonObject(status)) {
    const state = member(status, "state");
    if (typeof state === "string" && V03_STATES.has(state))
      signals.push(`state "${state}" at ${joinPath(path, "status", "state")}`);
    if (state === "TASK_STATE_CANCELLED")
      signals.push(`state "TASK_STATE_CANCELLED" (v0.3 proto spelling) at ${joinPath(path, "status", "state")}`);
    const message = member(status, "message");
    if (isJsonObject(message)) messageSignals(message, path, ["status", "message"], signals);
  }
  const history = member(task, "history");
  if (Array.isArray(history)) {
    for (let i = 0; i < history.length; i++) {
      const m = history[i];
      if (isJsonObject(m)) messageSignals(m, path, ["history", i], signals);
    }
  }
  const artifacts = member(task, "artifacts");
  if (Array.isArray(artifacts)) {
    for (let i = 0; i < artifacts.length; i++) {
      const a = artifacts[i];
      if (!isJsonObject(a)) continue;
      kindSignal(a, path, ["artifacts", i], signals);
      partsSignals(member(a, "parts"), path, ["artifacts", i], signals);
    }
  }
  return signals;
}

/** Signals that a Message is v0.3-shaped; empty for v1.0. */
export function detectV03Message(message: JsonValue, path: string): string[] {
  const signals: string[] = [];
  if (isJsonObject(message)) messageSignals(message, path, [], signals);
  return signals;
}

/**
 * Where an object sits: `path`, then `below` it. Formatted only for a signal: a v1.0 input, the
 * usual one, has none.
 */
function at(path: string, below: readonly PathSegment[]): string {
  return below.length === 0 ? path : joinPath(path, ...below);
}

function kindSignal(obj: JsonObject, path: string, below: readonly PathSegment[], signals: string[]): void {
  const kind = member(obj, "kind");
  if (typeof kind === "string" && V03_KINDS.has(kind)) signals.push(`"kind":"${kind}" at ${at(path, below)}`);
}

function messageSignals(m: JsonObject, path: string, below: readonly PathSegment[], signals: string[]): void {
  kindSignal(m, path, below, signals);
  const role = member(m, "role");
  if (role === "user" || role === "agent") signals.push(`role "${role}" at ${at(path, [...below, "role"])}`);
  if (member(m, "content") !== undefined && member(m, "parts") === undefined) {
    signals.push(`Message "content" instead of "parts" (v0.3 proto) at ${at(path, below)}`);
  }
  partsSignals(member(m, "parts"), path, below, signals);
}

function partsSignals(
  parts: JsonValue | undefined,
  path: string,
  below: readonly PathSegment[],
  signals: string[],
): void {
  if (!Array.isArray(parts)) return;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (!isJsonObject(p)) continue;
    const pp = [...below, "parts", i];
    kindSignal(p, path, pp, signals);
    if (isJsonObject(member(p, "file"))) signals.push(`nested "file" part at ${at(path, pp)}`);
  }
}
