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
import type { JsonNumber, JsonValue } from "../json/value.js";
import { fail, ok, type Result } from "../result.js";
import { serialize, type Dialect } from "./serialize.js";

export interface JcsOptions {
  readonly numbers?: "es6" | "safe-integers";
}

export function jcs(value: JsonValue, options: JcsOptions = {}): Result<string> {
  // Default string comparison in JavaScript is by UTF-16 code unit: exactly RFC 8785 §3.2.3.
  return serialize(value, options.numbers === "safe-integers" ? JCS_SAFE_INTEGERS : JCS_ES6);
}

function jcsDialect(rule: "es6" | "safe-integers"): Dialect {
  return {
    string: jcsString,
    number: (n, at) => {
      const r = jcsNumber(n, rule, "");
      return r.ok ? r.value : fail(r.code, r.detail, at());
    },
    names: new Map(),
  };
}
const JCS_ES6 = jcsDialect("es6");
const JCS_SAFE_INTEGERS = jcsDialect("safe-integers");

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

/** RFC 8785 string form, or undefined for a string with a lone surrogate. */
export function jcsString(s: string): string | undefined {
  // ECMAScript's JSON string form is RFC 8785's for a well-formed string; a lone surrogate has
  // no UTF-8 form, so it has none here (JSON.stringify would write it as an escape).
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  return LONE_SURROGATE.test(s) ? undefined : JSON.stringify(s);
}

const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
