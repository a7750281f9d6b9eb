/**
 * The observed Task's own fields (task.id, task.contextId, task.terminalState, task.authority,
 * task.tenant), and the comparisons the other parts share: ProtoJSON string equality, an index by
 * id that names the repeated ids, and the note that several text parts are bound as one text.
 */
import { showValue, valueText } from "../../json/diff.js";
import { member, type JsonObject, type JsonValue } from "../../json/value.js";
import { TERMINAL_TASK_STATES } from "../../profile.js";
import type { A2ATask } from "../../input/a2a.js";
import type { Check } from "../shared/types.js";
import { check, type CheckId } from "./checks.js";

/** ProtoJSON: an absent string field and "" are the same value (§9.15); null is how a payload writes "none". */
export function sameString(claimed: JsonValue | undefined, observed: string | undefined): boolean {
  const c = claimed === undefined || claimed === null ? "" : claimed;
  return typeof c === "string" && c === (observed ?? "");
}

export function fieldCheck(
  id: CheckId,
  payload: JsonObject,
  name: string,
  observed: string | undefined,
  what: string,
): Check {
  const claimed = member(payload, name);
  const values = { payload: valueText(claimed), observed: valueText(observed) };
  if (sameString(claimed, observed)) {
    return check(
      id,
      "PASS",
      `payload ${name} equals the observed ${what} ${observed === undefined || observed === "" ? "(empty)" : observed}`,
      { values },
    );
  }
  return check(
    id,
    "FAIL",
    `payload ${name} ${showValue(claimed)} != observed ${what} ${observed === undefined ? "(absent, which is empty)" : showValue(observed)}`,
    { values },
  );
}

export function terminalStateCheck(payload: JsonObject, task: A2ATask): Check {
  const id = "task.terminalState";
  const claimed = member(payload, "terminalState");
  const values = { payload: valueText(claimed), observed: task.state };
  if (!(TERMINAL_TASK_STATES as readonly string[]).includes(task.state)) {
    return check(
      id,
      "FAIL",
      `the observed Task is in ${task.state}, not a terminal state: evidence describes a terminal Task`,
      { values },
    );
  }
  if (claimed === task.state)
    return check(id, "PASS", `payload terminalState equals the observed ${task.state}`, { values });
  return check(id, "FAIL", `payload terminalState ${showValue(claimed)} != observed Task state ${task.state}`, {
    values,
  });
}

export function optionCheck(
  id: CheckId,
  payload: JsonObject,
  name: string,
  expected: string | undefined,
  flag: string,
): Check {
  const claimed = member(payload, name);
  if (expected === undefined) {
    return check(
      id,
      "NOT_CHECKED",
      `payload ${name} ${showValue(claimed)} not compared: not observable in A2A; pass ${flag} to compare`,
    );
  }
  const values = { payload: valueText(claimed), expected };
  if (sameString(claimed, expected))
    return check(id, "PASS", `payload ${name} equals ${flag} ${expected === "" ? "(empty)" : expected}`, { values });
  return check(id, "FAIL", `payload ${name} ${showValue(claimed)} != ${flag} ${showValue(expected)}`, { values });
}

/** The first value of each key and the keys seen more than once, in one pass. */
export function indexBy<T>(items: readonly T[], key: (t: T) => string): { byKey: Map<string, T>; repeated: string[] } {
  const byKey = new Map<string, T>();
  const repeated = new Set<string>();
  for (const item of items) {
    const k = key(item);
    if (byKey.has(k)) repeated.add(k);
    else byKey.set(k, item);
  }
  return { byKey, repeated: [...repeated] };
}

/** §9.27: several text parts are bound as their joined text; the detail says the split is not. */
export function splitNotCommitted(textParts: number): string {
  return textParts > 1
    ? ` (its ${textParts} text parts are bound as their text joined with "\\n": the split into parts is not committed)`
    : "";
}
