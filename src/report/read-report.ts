/**
 * Reads a JSON report back (`merge`): the strictly parsed document, checked for what combining
 * reports relies on (schemas/report.schema.json's top level, the policy, each input's exit code
 * and property states, the shard member). The inputs are otherwise kept as they were written.
 * A document that is not such a report is refused with the JSON path at fault.
 */
import { EVIDENCE_LEVELS } from "../profile.js";
import { PROPERTY_NAMES, STATES, type Report } from "./model.js";
import { isJsonObject, toPlain, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";

export type ReadReport = { ok: true; report: Report } | { ok: false; detail: string; path: string };

class Refusal {
  constructor(
    readonly detail: string,
    readonly path: string,
  ) {}
}

type Plain = Record<string, unknown>;

const TOP = ["reportVersion", "tool", "shard", "inputs", "policy", "summary", "error"];
const LEVELS_OR_NULL: readonly unknown[] = [null, "NONE", ...EVIDENCE_LEVELS];

function object(v: unknown, path: string, members?: readonly string[]): Plain {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Refusal("not an object", path);
  for (const k of Object.keys(v)) {
    if (members && !members.includes(k)) throw new Refusal(`unknown member "${k}"`, joinPath(path, k));
  }
  return v as Plain;
}

function array(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) throw new Refusal("not an array", path);
  return v;
}

function oneOf(v: unknown, allowed: readonly unknown[], path: string, what: string): void {
  if (!allowed.includes(v)) throw new Refusal(`not ${what}`, path);
}

function count(v: unknown, path: string, least = 0): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < least)
    throw new Refusal(`not an integer of at least ${least}`, path);
  return v;
}

function input(v: unknown, path: string): void {
  const i = object(v, path);
  if (typeof i.source !== "string") throw new Refusal("not a string", joinPath(path, "source"));
  if ("error" in i) {
    error(i.error, joinPath(path, "error"));
    oneOf(i.exitCode, [2, 3], joinPath(path, "exitCode"), "2 or 3");
    return;
  }
  oneOf(i.exitCode, [0, 1, 3], joinPath(path, "exitCode"), "0, 1 or 3");
  const properties = object(i.properties, joinPath(path, "properties"));
  for (const name of PROPERTY_NAMES) {
    const p = object(properties[name], joinPath(path, "properties", name));
    oneOf(p.state, STATES, joinPath(path, "properties", name, "state"), "a property state");
  }
}

function error(v: unknown, path: string): void {
  const e = object(v, path);
  if (typeof e.code !== "string") throw new Refusal("not a string", joinPath(path, "code"));
  if (typeof e.message !== "string") throw new Refusal("not a string", joinPath(path, "message"));
}

function shard(v: unknown, inputs: number, path: string): void {
  const s = object(v, path, ["index", "count", "total", "positions", "digests"]);
  const n = count(s.count, joinPath(path, "count"), 1);
  if (count(s.index, joinPath(path, "index"), 1) > n) throw new Refusal("more than count", joinPath(path, "index"));
  if (s.digests === undefined && s.positions === undefined && s.total === undefined) return;
  const total = count(s.total, joinPath(path, "total"));
  const positions = array(s.positions, joinPath(path, "positions"));
  if (positions.length !== inputs)
    throw new Refusal(`holds ${positions.length} positions for ${inputs} inputs`, joinPath(path, "positions"));
  positions.forEach((p, k) => {
    if (count(p, joinPath(path, "positions", k)) >= total)
      throw new Refusal("not below total", joinPath(path, "positions", k));
  });
  const d = object(s.digests, joinPath(path, "digests"), ["inputs", "trust", "context"]);
  for (const k of ["inputs", "trust", "context"]) {
    const ok = typeof d[k] === "string" && /^sha256:[0-9a-f]{64}$/.test(d[k] as string);
    if (!ok && !(k === "trust" && d[k] === null))
      throw new Refusal("not a sha256: digest", joinPath(path, "digests", k));
  }
}

function check(v: unknown): Report {
  const r = object(v, "$", TOP);
  oneOf(r.reportVersion, [1], "reportVersion", "1");
  const tool = object(r.tool, "tool", ["name", "version"]);
  oneOf(tool.name, ["a2a-evidence"], "tool.name", '"a2a-evidence"');
  if (typeof tool.version !== "string") throw new Refusal("not a string", "tool.version");
  const policy = object(r.policy, "policy", ["require", "minEvidence", "exitCode"]);
  array(policy.require, "policy.require").forEach((p, k) =>
    oneOf(p, PROPERTY_NAMES, joinPath("policy.require", k), "a property name"),
  );
  oneOf(policy.minEvidence, LEVELS_OR_NULL, "policy.minEvidence", "an evidence level or null");
  oneOf(policy.exitCode, [0, 1, 2, 3], "policy.exitCode", "0, 1, 2 or 3");
  const inputs = array(r.inputs, "inputs");
  inputs.forEach((x, k) => input(x, joinPath("inputs", k)));
  if (r.error !== undefined) error(r.error, "error");
  if (r.shard !== undefined) shard(r.shard, inputs.length, "shard");
  return r as unknown as Report;
}

/** The report a strictly parsed JSON document is, or what makes it not one and where. */
export function readReport(value: JsonValue): ReadReport {
  if (!isJsonObject(value)) return { ok: false, detail: "not an object", path: "$" };
  try {
    return { ok: true, report: check(toPlain(value)) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, detail: e.detail, path: e.path };
    throw e;
  }
}
