/**
 * A small structural validator over the parsed JSON model, for porting PEAC's zod schemas rule by
 * rule (Wire02ClaimsSchema and its extension groups). Each rule is a function that records issues
 * for the value at a path; `undefined` is an absent member. Semantics follow zod 4 exactly where
 * PEAC depends on them: string lengths in UTF-16 code units, `int` is a safe integer, `url` is
 * `URL.canParse` of the trimmed text, `strict` objects refuse unknown members.
 */
import { isJsonNumber, isJsonObject, member, type JsonValue } from "../json/value.js";
import type { PathSegment } from "../json/path.js";

export interface Issue {
  readonly path: readonly PathSegment[];
  readonly message: string;
}

export type Rule = (v: JsonValue | undefined, path: readonly PathSegment[], out: Issue[]) => void;

const MAX_ISSUES = 20;

function push(out: Issue[], path: readonly PathSegment[], message: string): void {
  if (out.length < MAX_ISSUES) out.push({ path, message });
}

export function issuesOf(rule: Rule, v: JsonValue | undefined): Issue[] {
  const out: Issue[] = [];
  rule(v, [], out);
  return out;
}

function required(v: JsonValue | undefined, path: readonly PathSegment[], out: Issue[]): v is JsonValue {
  if (v === undefined) {
    push(out, path, "Required");
    return false;
  }
  return true;
}

export function optional(rule: Rule): Rule {
  return (v, path, out) => {
    if (v !== undefined) rule(v, path, out);
  };
}

export interface StringRule {
  readonly min?: number;
  readonly max?: number;
  readonly length?: number;
  readonly pattern?: RegExp;
  readonly url?: boolean;
  readonly refine?: readonly [(s: string) => boolean, string];
}

export function str(o: StringRule = {}): Rule {
  return (v, path, out) => {
    if (!required(v, path, out)) return;
    if (typeof v !== "string") return push(out, path, "expected string");
    if (o.min !== undefined && v.length < o.min) push(out, path, `string shorter than ${o.min}`);
    if (o.max !== undefined && v.length > o.max) push(out, path, `string longer than ${o.max}`);
    if (o.length !== undefined && v.length !== o.length) push(out, path, `string length must be ${o.length}`);
    if (o.pattern !== undefined && !o.pattern.test(v)) push(out, path, `string does not match ${o.pattern.source}`);
    if (o.url && !URL.canParse(v.trim())) push(out, path, "Invalid URL");
    if (o.refine && !o.refine[0](v)) push(out, path, o.refine[1]);
  };
}

export function enumOf(values: readonly string[]): Rule {
  return (v, path, out) => {
    if (!required(v, path, out)) return;
    if (typeof v !== "string" || !values.includes(v)) push(out, path, `expected one of ${values.join("|")}`);
  };
}

export function literal(value: string): Rule {
  return (v, path, out) => {
    if (!required(v, path, out)) return;
    if (v !== value) push(out, path, `expected ${JSON.stringify(value)}`);
  };
}

/** The number JSON.parse would give: PEAC's schemas see doubles, not lexemes. */
export function numberValue(v: JsonValue | undefined): number | undefined {
  return isJsonNumber(v) ? Number(v.lexeme) : undefined;
}

export function int(o: { readonly min?: number; readonly max?: number } = {}): Rule {
  return (v, path, out) => {
    if (!required(v, path, out)) return;
    const n = numberValue(v);
    if (n === undefined) return push(out, path, "expected number");
    if (!Number.isSafeInteger(n)) return push(out, path, "expected int");
    if (o.min !== undefined && n < o.min) push(out, path, `number below ${o.min}`);
    if (o.max !== undefined && n > o.max) push(out, path, `number above ${o.max}`);
  };
}

export function bool(): Rule {
  return (v, path, out) => {
    if (!required(v, path, out)) return;
    if (typeof v !== "boolean") push(out, path, "expected boolean");
  };
}

export function arr(
  item: Rule,
  o: {
    readonly min?: number;
    readonly max?: number;
    readonly refine?: readonly [(a: JsonValue[]) => boolean, string];
  } = {},
): Rule {
  return (v, path, out) => {
    if (!required(v, path, out)) return;
    if (!Array.isArray(v)) return push(out, path, "expected array");
    if (o.min !== undefined && v.length < o.min) push(out, path, `array shorter than ${o.min}`);
    if (o.max !== undefined && v.length > o.max) push(out, path, `array longer than ${o.max}`);
    v.forEach((e, i) => item(e, [...path, i], out));
    if (o.refine && !o.refine[0](v)) push(out, path, o.refine[1]);
  };
}

/** Any JSON object (zod `z.record(z.string(), z.unknown())`). */
export function record(): Rule {
  return (v, path, out) => {
    if (!required(v, path, out)) return;
    if (!isJsonObject(v)) push(out, path, "expected object");
  };
}

export function obj(shape: Readonly<Record<string, Rule>>, mode: "strict" | "passthrough" = "strict"): Rule {
  return (v, path, out) => {
    if (!required(v, path, out)) return;
    if (!isJsonObject(v)) return push(out, path, "expected object");
    for (const name of Object.keys(shape)) (shape[name] as Rule)(member(v, name), [...path, name], out);
    if (mode === "strict") {
      const unknown = Object.keys(v).filter((k) => !Object.prototype.hasOwnProperty.call(shape, k));
      if (unknown.length > 0)
        push(out, path, `unrecognized key(s): ${unknown.map((k) => JSON.stringify(k)).join(", ")}`);
    }
  };
}

/** Runs rules in order on one value (zod's chained checks and refinements). */
export function all(...rules: Rule[]): Rule {
  return (v, path, out) => {
    for (const r of rules) r(v, path, out);
  };
}

export function uniqueStrings(a: JsonValue[]): boolean {
  return new Set(a.map((x) => (typeof x === "string" ? x : JSON.stringify(x)))).size === a.length;
}

/**
 * The text `JSON.stringify(JSON.parse(text))` gives for a parsed value: numbers in their ECMAScript
 * shortest form (not their lexeme), strings with JSON.stringify's escapes. PEAC measures carrier
 * and extension budgets on exactly this text; member order does not change its length.
 */
export function ecmaJsonLength(v: JsonValue): number {
  if (v === null) return 4;
  if (typeof v === "boolean") return v ? 4 : 5;
  if (typeof v === "string") return Buffer.byteLength(JSON.stringify(v), "utf8");
  if (isJsonNumber(v)) return String(Number(v.lexeme)).length;
  if (Array.isArray(v)) return 2 + Math.max(0, v.length - 1) + v.reduce((n, e) => n + ecmaJsonLength(e), 0);
  const keys = Object.keys(v);
  return (
    2 +
    Math.max(0, keys.length - 1) +
    keys.reduce((n, k) => n + Buffer.byteLength(JSON.stringify(k), "utf8") + 1 + ecmaJsonLength(v[k] as JsonValue), 0)
  );
}
