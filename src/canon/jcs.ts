/**
 * RFC 8785 JSON Canonicalization Scheme (CPB algorithm `jcs`; AAC format-4 JSON-DIGEST).
 *
 * Members sort by UTF-16 code units; strings use the minimal escapes (`\" \\ \b \f \n \r \t`,
 * other controls as lowercase `\u00xx`) and carry everything else as raw UTF-8; numbers are
 * ECMAScript's shortest form. Nulls and empty containers are kept. Lone surrogates are refused:
 * they have no UTF-8 form.
 *
 * `numbers: "safe-integers"` is the AAC / profile restriction: a fraction or exponent is refused
 * (CANON_FLOAT) and so is an integer beyond ±(2^53−1) (CANON_UNSAFE_INTEGER), instead of being
 * rounded through a double.
 */
import { JsonNumber, isJsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { fail, ok, type Result } from "../result.js";
import { CANON_MAX_DEPTH } from "./limits.js";

export interface JcsOptions {
  readonly numbers?: "es6" | "safe-integers";
}

export function jcs(value: JsonValue, options: JcsOptions = {}): Result<string> {
  const out: string[] = [];
  const fault = write(value, out, options.numbers ?? "es6", "$", 0);
  return fault ?? ok(out.join(""));
}

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

/** ECMAScript Number-to-string of a number lexeme, under the chosen number rule. */
export function jcsNumber(n: JsonNumber, rule: "es6" | "safe-integers", path: string): Result<string> {
  if (rule === "safe-integers") {
    if (!INTEGER.test(n.lexeme)) return fail("CANON_FLOAT", `number ${n.lexeme} is not an integer`, path);
    const v = Number(n.lexeme);
    if (!Number.isSafeInteger(v)) return fail("CANON_UNSAFE_INTEGER", `integer ${n.lexeme} is outside ±(2^53−1)`, path);
    return ok(String(v === 0 ? 0 : v));
  }
  const v = n.toNumber();
  if (!Number.isFinite(v)) return fail("CANON_FLOAT", `number ${n.lexeme} has no finite value`, path);
  return ok(v === 0 ? "0" : String(v));
}

function write(v: JsonValue, out: string[], rule: "es6" | "safe-integers", path: string, depth: number): Result<never> | undefined {
  if (v === null) out.push("null");
  else if (v === true) out.push("true");
  else if (v === false) out.push("false");
  else if (typeof v === "string") {
    const s = jcsString(v);
    if (s === undefined) return fail("CANON_LONE_SURROGATE", "string is not well-formed UTF-16", path);
    out.push(s);
  } else if (v instanceof JsonNumber) {
    const r = jcsNumber(v, rule, path);
    if (!r.ok) return r;
    out.push(r.value);
  } else if (Array.isArray(v)) {
    if (depth >= CANON_MAX_DEPTH) return fail("CANON_TOO_DEEP", `nesting deeper than ${CANON_MAX_DEPTH}`, path);
    out.push("[");
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(",");
      const f = write(v[i] as JsonValue, out, rule, joinPath(path, i), depth + 1);
      if (f) return f;
    }
    out.push("]");
  } else if (isJsonObject(v)) {
    if (depth >= CANON_MAX_DEPTH) return fail("CANON_TOO_DEEP", `nesting deeper than ${CANON_MAX_DEPTH}`, path);
    // Default string comparison in JavaScript is by UTF-16 code unit: exactly RFC 8785 §3.2.3.
    const keys = Object.keys(v).sort();
    out.push("{");
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      const ks = jcsString(k);
      if (ks === undefined) return fail("CANON_LONE_SURROGATE", "member name is not well-formed UTF-16", joinPath(path, k));
      if (i > 0) out.push(",");
      out.push(ks, ":");
      const f = write(v[k] as JsonValue, out, rule, joinPath(path, k), depth + 1);
      if (f) return f;
    }
    out.push("}");
  }
  return undefined;
}

const SHORT_ESCAPES: Record<number, string> = {
  0x22: '\\"',
  0x5c: "\\\\",
  0x08: "\\b",
  0x0c: "\\f",
  0x0a: "\\n",
  0x0d: "\\r",
  0x09: "\\t",
};

/** RFC 8785 string form, or undefined for a string with a lone surrogate. */
export function jcsString(s: string): string | undefined {
  let out = '"';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = s.charCodeAt(i + 1);
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return undefined;
    }
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(run, i);
    out += SHORT_ESCAPES[c] ?? "\\u" + c.toString(16).padStart(4, "0");
    run = i + 1;
  }
  return out + s.slice(run) + '"';
}
