/**
 * The log a checkpoint names is its log_id exactly as signed. A library caller may pass an input
 * as a parsed value, whose strings JSON text could not carry: a lone surrogate. The signing body
 * escapes each UTF-16 unit (`\ud800`, `\udc00`, `\ufffd` are three signed log_ids), so the
 * comparison keeps each log_id as it is: two logs whose ids differ only there are two logs, not
 * one log forked; one log_id is one log, whether an input or a --checkpoints entry states it.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/json/value.js";
import { parseCheckpoint, type Checkpoint } from "../../src/log/checkpoint.js";
import { isFailedInput, type Report } from "../../src/report/model.js";
import { verify } from "../../src/verify.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { at, capture } from "../properties/harness.js";

/** An honest exchange in a data part (so that its bundle is a parsed value) whose log is `logId`. */
const inLog = (logId: string, label: string) =>
  capture({ carrier: "data", logId, taskId: uuidFromLabel(`log-id strings ${label}`) });
type Built = ReturnType<typeof inLog>;

function currentOf(e: Built): Checkpoint {
  const r = parseCheckpoint(at(e.bundle, "manifest", "cllCheckpoint"), "--checkpoints[0]");
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

/** Per input: its equivocation.crossInput state and code, and whether its checkpoint's signature PASSes. */
function crossInput(report: Report) {
  return report.inputs.map((i) => {
    if (isFailedInput(i)) return ["not verified"];
    const c = i.properties.continuity.checks.find((x) => x.id === "equivocation.crossInput");
    return [c?.state, c?.code, i.properties.checkpointSignature.state];
  });
}

const inputs = (...all: Built[]) => all.map((e, k) => ({ source: `${k}.json`, data: e.input }));

describe("log_ids that differ only in a lone surrogate", () => {
  it.each([
    ["a\\ud800 and a\\udc00", "a\ud800", "a\udc00"],
    ["a\\ud800 and a\\ufffd", "a\ud800", "a\ufffd"],
  ])("%s: two logs, two inputs, no fork", (_, x, y) => {
    const a = inLog(x, "a");
    const b = inLog(y, "b");
    expect(crossInput(verify({ inputs: inputs(a, b), trust: a.trust }))).toEqual([
      ["NOT_PRESENT", undefined, "PASS"],
      ["NOT_PRESENT", undefined, "PASS"],
    ]);
  });

  it("an input and a --checkpoints entry of another such log: no fork", () => {
    const a = inLog("a\ud800", "a");
    const seen = currentOf(inLog("a\ufffd", "b"));
    const report = verify({ inputs: inputs(a), trust: a.trust, checkpoints: [seen] });
    expect(crossInput(report)).toEqual([["NOT_PRESENT", undefined, "PASS"]]);
  });

  it("one such log_id is one log: two roots at one size FAIL, between inputs and with a --checkpoints entry", () => {
    const a = inLog("a\ud800", "a");
    const b = inLog("a\ud800", "b");
    expect(crossInput(verify({ inputs: inputs(a, b), trust: a.trust }))).toEqual([
      ["FAIL", "EQUIVOCATION_FORK", "PASS"],
      ["FAIL", "EQUIVOCATION_FORK", "PASS"],
    ]);
    const report = verify({ inputs: inputs(a), trust: a.trust, checkpoints: [currentOf(b)] });
    expect(crossInput(report)).toEqual([["FAIL", "EQUIVOCATION_FORK", "PASS"]]);
    expect(report.policy.exitCode).toBe(1);
    expect(JSON.stringify((at(b.bundle, "manifest", "cllCheckpoint") as JsonObject).log_id)).toBe('"a\\ud800"');
  });
});
