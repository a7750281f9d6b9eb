/**
 * Number widening through structured carriers (contract §9.1, §9.17; a2a-wire.md §6.12). A
 * bundle in a `data` part or inline in metadata has passed through protobuf Struct/Value, where
 * every number is a double: an emitter may then print `1` as `1.0`, and integers beyond 2^53
 * lose digits. A mismatch such widening explains is not evidence of tampering; one it cannot
 * explain is. "Explains" is decided by re-deriving, never assumed:
 *
 *   structural view    integral numbers written back as integers, for reading sizes and indexes
 *   findNarrowing      the narrowings a carrier could have undone: every integral number written
 *                      otherwise (`1.0`, `1e2`) becomes its integer; every integer beyond 2^53
 *                      becomes each integer that rounds to the same double (two near 2^53, more
 *                      further out). A combination that makes the digest match is INCONCLUSIVE;
 *                      none is a FAIL; more than 256 combinations is INCONCLUSIVE ("too many
 *                      widened candidates"), never a guess.
 *   equalAsCarried     copies compared by the value a double carries, not by lexeme
 *
 * Widening only ever excuses a digest over the same content; the reasons here say so.
 */
import { JsonNumber, isJsonObject, newJsonObject, type JsonValue } from "../json/value.js";

/** The most combinations of candidate integers tried before giving up. */
export const MAX_NARROWINGS = 256;

/**
 * The most work re-derived across all combinations, counted as JSON nodes plus string characters
 * (roughly the bytes each re-derivation serializes and hashes): 256 narrowings of a 4 MiB payload
 * would otherwise hash a gigabyte. Past it the search stops, INCONCLUSIVE, as with too many
 * combinations.
 */
export const MAX_NARROWING_WORK = 8_000_000;

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const TWO_53 = 2 ** 53;

/** Writes every integral number that is not written as an integer (`1.0`, `1e2`) back as one. */
export function narrowIntegralNumbers(v: JsonValue): { value: JsonValue; narrowed: number } {
  let narrowed = 0;
  const walk = (x: JsonValue): JsonValue => {
    if (x instanceof JsonNumber) {
      if (INTEGER.test(x.lexeme)) return x;
      const n = x.toNumber();
      if (Number.isSafeInteger(n)) {
        narrowed++;
        return new JsonNumber(String(n === 0 ? 0 : n));
      }
      return x;
    }
    if (Array.isArray(x)) return x.map(walk);
    if (isJsonObject(x)) {
      const out = newJsonObject();
      for (const k of Object.keys(x)) out[k] = walk(x[k] as JsonValue);
      return out;
    }
    return x;
  };
  const value = walk(v);
  return { value, narrowed };
}

/** The integers whose nearest double is `d` (|d| ≥ 2^53), as lexemes, or undefined past `limit`. */
function integersRoundingTo(d: number, limit: number): string[] | undefined {
  const center = BigInt(d);
  const up = Math.abs(d) * (1 + Number.EPSILON); // a double at least one ulp away: bounds the interval
  const halfWidth = (BigInt(Math.ceil(up)) - BigInt(Math.abs(d))) / 2n + 1n;
  if (halfWidth * 2n + 1n > BigInt(limit) * 4n) return undefined;
  const out: string[] = [];
  for (let k = center - halfWidth; k <= center + halfWidth; k++) {
    if (Number(k) === d) {
      out.push(k.toString());
      if (out.length > limit) return undefined;
    }
  }
  return out;
}

interface Slot {
  readonly holder: JsonValue[] | Record<string, JsonValue>;
  readonly key: string | number;
  readonly original: string;
  readonly candidates: readonly string[];
}

export type Narrowing =
  /** A combination of narrowed numbers under which `matches` holds. */
  | { readonly kind: "match"; readonly value: JsonValue; readonly narrowed: number }
  | { readonly kind: "tooMany"; readonly reason: string }
  | { readonly kind: "none"; readonly tried: number };

/** A deep copy, so candidates can be written into it without touching the presented value. */
function clone(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(clone);
  if (isJsonObject(v)) {
    const out = newJsonObject();
    for (const k of Object.keys(v)) out[k] = clone(v[k] as JsonValue);
    return out;
  }
  return v;
}

/**
 * Looks for a narrowing of `value` under which `matches` holds. `matches` is tried on at most
 * MAX_NARROWINGS candidates; with no number a carrier could have changed it is never called.
 */
export function findNarrowing(value: JsonValue, matches: (candidate: JsonValue) => boolean): Narrowing {
  const copy = clone(value);
  const slots: Slot[] = [];
  let combinations = 1;
  let nodes = 0;
  const walk = (x: JsonValue, holder: Slot["holder"] | undefined, key: string | number): string | undefined => {
    nodes++;
    if (typeof x === "string") nodes += x.length;
    if (x instanceof JsonNumber) {
      const n = x.toNumber();
      if (!Number.isFinite(n) || !Number.isInteger(n) || holder === undefined) return undefined;
      if (Math.abs(n) < TWO_53) {
        if (!INTEGER.test(x.lexeme))
          slots.push({ holder, key, original: x.lexeme, candidates: [String(n === 0 ? 0 : n)] });
        return undefined;
      }
      const candidates = integersRoundingTo(n, MAX_NARROWINGS);
      if (!candidates) return `${x.lexeme} is a double that more than ${MAX_NARROWINGS} integers round to`;
      slots.push({ holder, key, original: x.lexeme, candidates });
      combinations *= candidates.length;
      return combinations > MAX_NARROWINGS ? `more than ${MAX_NARROWINGS} combinations` : undefined;
    }
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        const r = walk(x[i] as JsonValue, x, i);
        if (r) return r;
      }
    } else if (isJsonObject(x)) {
      for (const k of Object.keys(x)) {
        const r = walk(x[k] as JsonValue, x, k);
        if (r) return r;
      }
    }
    return undefined;
  };
  const tooMany = walk(copy, undefined, "");
  if (tooMany) return { kind: "tooMany", reason: `too many widened candidates (${tooMany})` };
  if (slots.length === 0) return { kind: "none", tried: 0 };
  if (nodes * combinations > MAX_NARROWING_WORK) {
    return {
      kind: "tooMany",
      reason: `too many widened candidates (${combinations} combination(s) of a value this large)`,
    };
  }
  const set = (slot: Slot, lexeme: string) => {
    (slot.holder as Record<string | number, JsonValue>)[slot.key] = new JsonNumber(lexeme);
  };
  const index = slots.map(() => 0);
  for (let tried = 1; ; tried++) {
    let narrowed = 0;
    slots.forEach((slot, i) => {
      const lexeme = slot.candidates[index[i] as number] as string;
      if (lexeme !== slot.original) narrowed++;
      set(slot, lexeme);
    });
    if (narrowed > 0) {
      // Each candidate is a value of its own: `matches` may remember what it read of the last.
      const candidate = clone(copy);
      if (matches(candidate)) return { kind: "match", value: candidate, narrowed };
    }
    let i = 0;
    while (i < slots.length && (index[i] as number) + 1 >= (slots[i] as Slot).candidates.length) index[i++] = 0;
    if (i === slots.length) return { kind: "none", tried };
    index[i] = (index[i] as number) + 1;
  }
}

/** The sentence an INCONCLUSIVE widened check ends with: why the exact preimage is lost. */
export function widenedReason(carrier: string, narrowed: number): string {
  return `matches only with ${narrowed} widened number(s) narrowed back to integers: the ${carrier} carrier passed numbers through doubles, so the exact preimage is lost`;
}

/** Structural equality with numbers compared by the double they carry (copies across carriers). */
export function equalAsCarried(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a instanceof JsonNumber) return b instanceof JsonNumber && a.toNumber() === b.toNumber();
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equalAsCarried(x, b[i]));
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equalAsCarried(a[k], b[k]))
    );
  }
  return false;
}
