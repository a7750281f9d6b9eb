/**
 * Interim records as inputs (A2A Task Evidence §8.1.6; docs/profile.md, v3.2 additions). An
 * interim record is sealed when a Task pauses, and delivered on the paused Task in the evidence
 * Artifact the terminal record later replaces; a client keeps it in its capture
 * (`interimBundles`) or passes it beside the terminal Task (`--interim`). Either way it is located
 * here, and judged by the properties with the terminal record.
 */
import { memberAt, type JsonObject, type JsonValue } from "../json/value.js";
import { showValue } from "../json/diff.js";
import { fail, ok, type Failure, type Result } from "../result.js";
import { isInterimRecord } from "./pending.js";
import { classifyInput, type Classified } from "./classify.js";
import type { InputValue } from "./decoded.js";
import { DEFAULT_LOAD_LIMITS, locateInTask, type LoadLimits, type LocatedBundle } from "./locate.js";
import { readV1Task } from "./read.js";

/** The interim bundles a capture carries, where it carries them. */
export function captureInterims(found: readonly { value: JsonValue; path: string }[]): LocatedBundle[] {
  return found.map((f) => ({ location: f.path, carrier: "capture", bundle: f.value as JsonObject }));
}

/**
 * One `--interim` input: an interim bundle, or the paused Task (a GetTask response, a Task, a
 * `{task}` wrapper, a stream that ended at the pause) whose evidence Artifact carries one. A capture is refused: it carries its own
 * `interimBundles`, and taking only part of it would silently drop the rest.
 */
export function loadInterimInput(
  value: InputValue,
  index: number,
  limits: LoadLimits = DEFAULT_LOAD_LIMITS,
): Result<LocatedBundle[]> {
  const prefix = `--interim[${index}]`;
  // A stream that ends at the pause folds into the paused Task, like any other stream input.
  const c: Result<Classified> = classifyInput(value);
  if (!c.ok) return fail(c.code, `${prefix}: ${c.detail}`, c.path);
  if (c.value.shape === "bundle" && c.value.bundle) {
    const b: LocatedBundle = {
      location: `${prefix}:${c.value.bundle.path}`,
      carrier: "bare",
      bundle: c.value.bundle.value as JsonObject,
    };
    return isInterimRecord(b) ? ok([b]) : notInterim(prefix, b);
  }
  if (c.value.shape === "capture" || !c.value.finalTask) {
    return fail(
      "INPUT_INTERIM_NO_BUNDLE",
      `${prefix}: --interim takes an interim bundle or the paused Task that carries one, not a capture`,
      "$",
    );
  }
  const task = readV1Task(c.value.finalTask.value, c.value.finalTask.path);
  if (!task.ok) return fail(task.code, `${prefix}: ${task.detail}`, task.path);
  const located = locateInTask(task.value, limits, []);
  if (!located.ok) return fail(located.code, `${prefix}: ${located.detail}`, located.path);
  if (located.value.bundles.length === 0) {
    return fail(
      "INPUT_INTERIM_NO_BUNDLE",
      `${prefix}: the Task (${task.value.state}) carries no evidence bundle`,
      task.value.path,
    );
  }
  // The terminal record is the input's to carry; what --interim adds is the records of the pauses.
  const interim = located.value.bundles.filter(isInterimRecord);
  if (interim.length === 0) return notInterim(prefix, located.value.bundles[0] as LocatedBundle);
  const evidence = new Set(located.value.evidenceArtifacts);
  const pausedTask = { task: task.value, content: (task.value.artifacts ?? []).filter((a) => !evidence.has(a)) };
  return ok(interim.map((b) => ({ ...b, location: `${prefix}:${b.location}`, pausedTask })));
}

function notInterim(prefix: string, b: LocatedBundle): Failure {
  const state = memberAt(b.bundle, "taskEvidencePayload", "terminalState");
  return fail(
    "INPUT_INTERIM_NO_BUNDLE",
    `${prefix}: the bundle at ${b.location} is not an interim record: its payload was sealed in ${showValue(state)}, not in TASK_STATE_INPUT_REQUIRED or TASK_STATE_AUTH_REQUIRED (a terminal record is verified as the input)`,
    b.location,
  );
}
