/**
 * The walk both digest serializations share (pyjson, RFC 8785 JCS): compact, members sorted, no
 * whitespace. A dialect supplies what differs — key order, string form, number form. Paths are
 * kept as segments and formatted only when a dialect reports a fault or a flag, so the common case
 * builds no path strings.
 */
import { JsonNumber, isJsonObject, type JsonValue } from "../json/value.js";
import { formatPath, type PathSegment } from "../json/path.js";
import { fail, ok, type Failure, type Result } from "../result.js";
import { ownString } from "../util/own-string.js";
import { CANON_MAX_DEPTH } from "./limits.js";

export interface Dialect {
  /** Member order; undefined means UTF-16 code unit order (JavaScript's default sort). */
  readonly compareKeys?: (a: string, b: string) => number;
  /** The quoted string form, or undefined when the string has no form (a lone surrogate). */
  readonly string: (s: string) => string | undefined;
  /**
   * The number form, or the failure to report; `at` formats the current path for a diagnostic,
   * and a path pushed on `flags` marks a number the caller is to be told of.
   */
  readonly number: (n: JsonNumber, at: () => string, flags: string[]) => string | Failure;
  /**
   * Member names as written, `"name":`, by name: an object's members repeat the names of its
   * siblings' (a transcript's entries, a list's items), and each is quoted once. Bounded.
   */
  readonly names: Map<string, string>;
}

/** More distinct member names than this, and a dialect's written names are forgotten and begun again. */
const MAX_NAMES = 4096;

/** The serialization, and the paths the dialect flagged (in document order). */
export function serialize(value: JsonValue, dialect: Dialect, flags: string[] = []): Result<string> {
  let out = "";
  // path[0..here) is where the value being written sits; deeper entries are stale.
  const path: PathSegment[] = [];
  let here = 0;
  const at = () => formatPath(path.slice(0, here));
  const names = dialect.names;

  const write = (v: JsonValue, depth: number): Failure | undefined => {
    if (typeof v === "string") {
      const s = dialect.string(v);
      if (s === undefined) {
        here = depth;
        return fail("CANON_LONE_SURROGATE", "string is not well-formed UTF-16", at());
      }
      out += s;
    } else if (v instanceof JsonNumber) {
      here = depth;
      const n = dialect.number(v, at, flags);
      if (typeof n !== "string") return n;
      out += n;
    } else if (v === null) out += "null";
    else if (v === true) out += "true";
    else if (v === false) out += "false";
    else if (Array.isArray(v)) {
      if (depth >= CANON_MAX_DEPTH) {
        here = depth;
        return fail("CANON_TOO_DEEP", `nesting deeper than ${CANON_MAX_DEPTH}`, at());
      }
      out += "[";
      for (let i = 0; i < v.length; i++) {
        if (i > 0) out += ",";
        path[depth] = i;
        const f = write(v[i] as JsonValue, depth + 1);
        if (f) return f;
      }
      out += "]";
    } else if (isJsonObject(v)) {
      if (depth >= CANON_MAX_DEPTH) {
        here = depth;
        return fail("CANON_TOO_DEEP", `nesting deeper than ${CANON_MAX_DEPTH}`, at());
      }
      const keys = sortedKeys(v, dialect.compareKeys);
      out += "{";
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        path[depth] = k;
        let ks = names.get(k);
        if (ks === undefined) {
          const quoted = dialect.string(k);
          if (quoted === undefined) {
            here = depth + 1;
            return fail("CANON_LONE_SURROGATE", "member name is not well-formed UTF-16", at());
          }
          if (names.size >= MAX_NAMES) names.clear();
          ks = quoted + ":";
          // Kept beyond this input: copies, which hold nothing of the input's text.
          names.set(ownString(k), ownString(ks));
        }
        if (i > 0) out += ",";
        out += ks;
        const f = write(v[k] as JsonValue, depth + 1);
        if (f) return f;
      }
      out += "}";
    }
    return undefined;
  };

  const fault = write(value, 0);
  return fault ?? ok(out);
}

/** Below this many members, an insertion sort in place: most objects are small, many already in order. */
const INSERTION_SORT_MAX = 16;

/**
 * The object's member names in the dialect's order (UTF-16 code units without a `compare`, as
 * `Array.prototype.sort` orders strings). A small object is sorted in place, which allocates
 * nothing more and costs one comparison per member when the names are already in order; a larger
 * one goes to `sort`, so the cost stays O(n log n) whatever the order.
 */
function sortedKeys(v: object, compare: ((a: string, b: string) => number) | undefined): string[] {
  const keys = Object.keys(v);
  const n = keys.length;
  if (n > INSERTION_SORT_MAX) return keys.sort(compare);
  for (let i = 1; i < n; i++) {
    const k = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (compare ? compare(keys[j] as string, k) > 0 : (keys[j] as string) > k)) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
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

/** The escape for one UTF-16 code unit: the short form where JSON has one, else lowercase `\uXXXX`. */
export function escapeUnit(c: number): string {
  return SHORT_ESCAPES[c] ?? "\\u" + c.toString(16).padStart(4, "0");
}
