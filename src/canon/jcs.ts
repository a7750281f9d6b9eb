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
import { escapeUnit, serialize } from "./serialize.js";

export interface JcsOptions {
  readonly numbers?: "es6" | "safe-integers";
}

export function jcs(value: JsonValue, options: JcsOptions = {}): Result<string> {
  const rule = options.numbers ?? "es6";
  // Default string comparison in JavaScript is by UTF-16 code unit: exactly RFC 8785 §3.2.3.
  return serialize(value, {
    string: jcsString,
    number: (n, at) => {
      const r = jcsNumber(n, rule, "");
      return r.ok ? r : fail(r.code, r.detail, at());
    },
  });
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
    out += escapeUnit(c);
    run = i + 1;
  }
  return out + s.slice(run) + '"';
}
