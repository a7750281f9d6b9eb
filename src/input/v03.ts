/**
 * Detection of A2A v0.3-shaped objects (a2a-wire.md §3). The verifier checks v1.0 wire shapes and
 * must not silently normalise v0.3 ones: enum bindings (terminal state, role) would otherwise be
 * compared across two vocabularies.
 */
import { isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";

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
  kindSignal(task, path, signals);
  const status = member(task, "status");
  if (isJsonObject(status)) {
    const state = member(status, "state");
    const statePath = joinPath(path, "status", "state");
    if (typeof state === "string" && V03_STATES.has(state)) signals.push(`state "${state}" at ${statePath}`);
    if (state === "TASK_STATE_CANCELLED")
      signals.push(`state "TASK_STATE_CANCELLED" (v0.3 proto spelling) at ${statePath}`);
    const message = member(status, "message");
    if (isJsonObject(message)) messageSignals(message, joinPath(path, "status", "message"), signals);
  }
  const history = member(task, "history");
  if (Array.isArray(history)) {
    history.forEach((m, i) => {
      if (isJsonObject(m)) messageSignals(m, joinPath(path, "history", i), signals);
    });
  }
  const artifacts = member(task, "artifacts");
  if (Array.isArray(artifacts)) {
    artifacts.forEach((a, i) => {
      if (!isJsonObject(a)) return;
      const ap = joinPath(path, "artifacts", i);
      kindSignal(a, ap, signals);
      partsSignals(member(a, "parts"), ap, signals);
    });
  }
  return signals;
}

/** Signals that a Message is v0.3-shaped; empty for v1.0. */
export function detectV03Message(message: JsonValue, path: string): string[] {
  const signals: string[] = [];
  if (isJsonObject(message)) messageSignals(message, path, signals);
  return signals;
}

function kindSignal(obj: JsonObject, path: string, signals: string[]): void {
  const kind = member(obj, "kind");
  if (typeof kind === "string" && V03_KINDS.has(kind)) signals.push(`"kind":"${kind}" at ${path}`);
}

function messageSignals(m: JsonObject, path: string, signals: string[]): void {
  kindSignal(m, path, signals);
  const role = member(m, "role");
  if (role === "user" || role === "agent") signals.push(`role "${role}" at ${joinPath(path, "role")}`);
  if (member(m, "content") !== undefined && member(m, "parts") === undefined) {
    signals.push(`Message "content" instead of "parts" (v0.3 proto) at ${path}`);
  }
  partsSignals(member(m, "parts"), path, signals);
}

function partsSignals(parts: JsonValue | undefined, path: string, signals: string[]): void {
  if (!Array.isArray(parts)) return;
  parts.forEach((p, i) => {
    if (!isJsonObject(p)) return;
    const pp = joinPath(path, "parts", i);
    kindSignal(p, pp, signals);
    if (isJsonObject(member(p, "file"))) signals.push(`nested "file" part at ${pp}`);
  });
}
