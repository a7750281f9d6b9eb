/**
 * The JSON data model every verifier step works on.
 *
 * Numbers keep their source lexeme: a digest must be recomputed over exactly what the producer
 * committed to, and `JSON.parse` would turn `60.0` into `60` and round `2^53 + 1`. Objects have a
 * null prototype, so a member named `__proto__` is an ordinary member and never a prototype.
 */

export class JsonNumber {
  readonly lexeme: string;
  constructor(lexeme: string) {
    this.lexeme = lexeme;
  }
  /** True when the lexeme is an integer token: no fraction, no exponent. */
  get isIntegerLexeme(): boolean {
    return INTEGER_LEXEME.test(this.lexeme);
  }
  toNumber(): number {
    return Number(this.lexeme);
  }
  toString(): string {
    return this.lexeme;
  }
}

const INTEGER_LEXEME = /^-?(?:0|[1-9][0-9]*)$/;

export type JsonObject = { [member: string]: JsonValue };
export type JsonArray = JsonValue[];
export type JsonValue = null | boolean | string | JsonNumber | JsonArray | JsonObject;

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);
}

export function isJsonNumber(v: unknown): v is JsonNumber {
  return v instanceof JsonNumber;
}

/**
 * What every parsed object is an instance of: its prototype is an empty, frozen object that has
 * no prototype itself, so no member is inherited (`__proto__`, `constructor`, `toString` are
 * ordinary members or absent) exactly as with `Object.create(null)`; but objects made by a
 * constructor get V8's fast, shape-based properties, where `Object.create(null)` ones are hash
 * tables from the start, and member reads on the hot path are several times faster.
 */
const JsonObjectBase = function JsonObject(this: object): void {} as unknown as new () => JsonObject;
JsonObjectBase.prototype = Object.freeze(Object.create(null) as object) as JsonObject;

export function newJsonObject(): JsonObject {
  return new JsonObjectBase();
}

/** Own member lookup that is safe for any member name. */
export function member(obj: JsonObject, name: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(obj, name) ? obj[name] : undefined;
}

/**
 * The value at a chain of member names, or undefined when any step is absent or not an object:
 * `memberAt(task, "metadata", uri, "evidenceStatus")`.
 */
export function memberAt(v: JsonValue | undefined, ...names: readonly string[]): JsonValue | undefined {
  let cur = v;
  for (const n of names) {
    if (!isJsonObject(cur)) return undefined;
    cur = member(cur, n);
  }
  return cur;
}

export function hasMember(obj: JsonObject, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, name);
}

/**
 * The value of an integer token within ±(2^53−1), or undefined. `1.0`, `1e2` and `-0` are not
 * integer tokens here: a counter or index written that way was not written by a conforming
 * producer, and accepting it would let two lexemes name one position.
 */
export function asSafeInteger(v: JsonValue | undefined): number | undefined {
  if (!(v instanceof JsonNumber) || !v.isIntegerLexeme || v.lexeme === "-0") return undefined;
  const n = Number(v.lexeme);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Structural equality; numbers compare by lexeme, objects by member set (order ignored). */
export function jsonEquals(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (a instanceof JsonNumber) return b instanceof JsonNumber && a.lexeme === b.lexeme;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEquals(a[i], b[i])) return false;
    return true;
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) {
      if (!hasMember(b, k) || !jsonEquals(a[k], b[k])) return false;
    }
    return true;
  }
  return false;
}

/**
 * Converts a plain JavaScript value (as built in code, e.g. by tests or the producer) into the
 * data model. Numbers become their ECMAScript shortest form; non-finite numbers are refused.
 */
export function fromPlain(x: unknown): JsonValue {
  if (x === null || typeof x === "boolean" || typeof x === "string") return x;
  if (typeof x === "number") {
    if (!Number.isFinite(x)) throw new TypeError("non-finite number has no JSON form");
    return new JsonNumber(Object.is(x, -0) ? "0" : String(x));
  }
  if (typeof x === "bigint") return new JsonNumber(x.toString());
  if (x instanceof JsonNumber) return x;
  if (Array.isArray(x)) return x.map(fromPlain);
  if (typeof x === "object") {
    const out = newJsonObject();
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) {
      if (v !== undefined) out[k] = fromPlain(v);
    }
    return out;
  }
  throw new TypeError(`no JSON form for ${typeof x}`);
}

/** The inverse of fromPlain, numbers as JavaScript numbers (lossy by design: display only). */
export function toPlain(v: JsonValue): unknown {
  if (v instanceof JsonNumber) return v.toNumber();
  if (Array.isArray(v)) return v.map(toPlain);
  if (isJsonObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      Object.defineProperty(out, k, {
        value: toPlain(v[k] as JsonValue),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return v;
}
