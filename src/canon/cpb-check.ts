/**
 * Conformance check of a record against the input rules of JCS-N (the CPB `cpb-check` vectors,
 * content-binding.md §15.1). Instead of canonicalizing, it lists every place where the record
 * as received is not already in JCS-N form, so a producer learns what to fix rather than
 * getting a digest that silently differs from its own.
 *
 * Two rules, named as the vectors name them:
 *   - "R", wire representation (§3.3 step 1): a number token that is not an integer token within
 *     ±(2^53−1) (`12.50`, `1e2`, `-0`, `9007199254740992`), or a member name that repeats another
 *     name of its object, exactly or after NFC;
 *   - "P", absent-field normal form (§3.3 step 3): an object member whose value is null, [] or
 *     {}. Array elements are exempt; members of objects inside arrays are not. Each such member
 *     is reported where it is, not its parents that normalization would empty afterwards.
 * A record is "verified" when neither rule is broken anywhere.
 */
import { isJsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { parseStrictJson } from "../json/strict-json.js";
import { fail, ok, type Result } from "../result.js";
import { isAbsentFieldValue, wireFaults } from "./jcs-n.js";

export type CpbRule = "P" | "R";

export interface CpbViolation {
  /** Location in the vectors' notation: `$["payload"]["items"][0]`. */
  readonly path: string;
  readonly rule: CpbRule;
  readonly detail: string;
}

export interface CpbCheckReport {
  readonly verdict: "verified" | "non-conforming";
  /** Every violation, sorted by path. */
  readonly violations: readonly CpbViolation[];
}

/**
 * A parsed record, or a raw one (`record_raw` in the vectors): JSON text whose duplicate names,
 * `-0`, fractions and exponents only a token-level reading can see.
 */
export type CpbRecordInput = { readonly record: JsonValue } | { readonly recordRaw: string | Uint8Array };

export function checkJcsNRecord(input: CpbRecordInput): Result<CpbCheckReport> {
  if ("record" in input) return checkParsed(input.record);
  const parsed = parseStrictJson(input.recordRaw);
  if (parsed.ok) return checkParsed(parsed.value);
  // A repeated name leaves no single data model to judge P on (which of the two values?), and a
  // number that is not exactly a double is outside the integer-token rule: both are R, and the
  // check ends there. Anything else the parser refuses is not JSON at all.
  if (parsed.code === "JSON_DUPLICATE_MEMBER" || parsed.code === "JSON_LOSSY_NUMBER") {
    return ok(report([{ path: cpbPath(parsed.path), rule: "R", detail: parsed.detail }]));
  }
  return fail(parsed.code, parsed.detail, parsed.path);
}

function checkParsed(record: JsonValue): Result<CpbCheckReport> {
  const violations: CpbViolation[] = [];
  for (const f of wireFaults(record)) {
    if (f.code === "CANON_TOO_DEEP") return f;
    violations.push({ path: cpbPath(f.path), rule: "R", detail: f.detail });
  }
  collectAbsentFieldMembers(record, "$", violations);
  violations.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return ok(report(violations));
}

function report(violations: CpbViolation[]): CpbCheckReport {
  return { verdict: violations.length === 0 ? "verified" : "non-conforming", violations };
}

/** Rule P. Runs after wireFaults, which has already bounded the nesting depth. */
function collectAbsentFieldMembers(v: JsonValue, path: string, out: CpbViolation[]): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) collectAbsentFieldMembers(v[i] as JsonValue, joinPath(path, i), out);
    return;
  }
  if (!isJsonObject(v)) return;
  for (const name of Object.keys(v)) {
    const m = v[name] as JsonValue;
    const at = joinPath(path, name);
    if (isAbsentFieldValue(m))
      out.push({ path: cpbPath(at), rule: "P", detail: `member value ${absentForm(m)} is not in normal form` });
    else collectAbsentFieldMembers(m, at, out);
  }
}

function absentForm(v: JsonValue): string {
  if (v === null) return "null";
  return Array.isArray(v) ? "[]" : "{}";
}

/**
 * The project's paths (`payload.items[0]["x-y"]`, see json/path.ts) in the vectors' notation
 * (`$["payload"]["items"][0]["x-y"]`): bare member names get quoted brackets; bracketed
 * segments are already in that form.
 */
const PROJECT_SEGMENT = /(?:^|\.)([A-Za-z_$][A-Za-z0-9_$]*)|(\[(?:\d+|"(?:[^"\\]|\\.)*")\])/g;

function cpbPath(projectPath: string): string {
  if (projectPath === "$") return "$";
  return (
    "$" +
    projectPath.replace(PROJECT_SEGMENT, (_seg, name: string | undefined, bracket: string) =>
      name !== undefined ? `["${name}"]` : bracket,
    )
  );
}
