/**
 * Strict JSON (RFC 8259) parser for untrusted input.
 *
 * `JSON.parse` does not parse documents here: it keeps the last of two duplicate members (so a
 * parser differential can show one value to us and another to the producer), rounds integers
 * beyond 2^53 and forgets number lexemes. (It only decodes one string literal at a time, whose
 * grammar it shares, and the result is checked.) This parser:
 *   - rejects duplicate member names (compared after escape decoding, exactly, no normalization);
 *   - keeps every number's lexeme, and rejects numbers that cannot round-trip through an IEEE
 *     double (e.g. 2^53+1, 1e400, 0.1000000000000000000001);
 *   - rejects invalid UTF-8, lone surrogates (raw or escaped) and raw control characters;
 *   - caps input size and nesting depth;
 *   - reports the JSON path and byte offset of every fault.
 * It never throws on bad input.
 */
import { JsonNumber, newJsonObject, type JsonValue } from "./value.js";
import { formatPath, type PathSegment } from "./path.js";
import type { JsonCode } from "../codes/json.js";

export interface JsonLimits {
  /** Maximum input length in bytes. */
  readonly maxBytes: number;
  /** Maximum nesting depth of arrays and objects (the top-level value is depth 1). */
  readonly maxDepth: number;
}

export const DEFAULT_JSON_LIMITS: JsonLimits = { maxBytes: 16 * 1024 * 1024, maxDepth: 64 };

export type JsonParseResult =
  | { readonly ok: true; readonly value: JsonValue }
  | {
      readonly ok: false;
      readonly code: JsonCode;
      readonly detail: string;
      /** JSON path of the value at fault. */
      readonly path: string;
      /** Character offset into the decoded text. */
      readonly offset: number;
    };

class ParseFault {
  /**
   * Where the fault is, innermost segment first: each enclosing object or array adds its own as
   * the fault passes through it, so the parse keeps no path while it succeeds.
   */
  readonly inner: PathSegment[] = [];
  constructor(
    readonly code: JsonCode,
    readonly detail: string,
    readonly offset: number,
  ) {}
}

/** Adds the member name or index a fault passed through; anything else passes untouched. */
function within(e: unknown, segment: PathSegment): unknown {
  if (e instanceof ParseFault) e.inner.push(segment);
  return e;
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Parses UTF-8 bytes or an already decoded string. */
export function parseStrictJson(input: Uint8Array | string, limits: JsonLimits = DEFAULT_JSON_LIMITS): JsonParseResult {
  let text: string;
  if (typeof input === "string") {
    if (Buffer.byteLength(input, "utf8") > limits.maxBytes) {
      return {
        ok: false,
        code: "JSON_TOO_LARGE",
        detail: `input exceeds ${limits.maxBytes} bytes`,
        path: "$",
        offset: 0,
      };
    }
    text = input;
  } else {
    if (input.length > limits.maxBytes) {
      return {
        ok: false,
        code: "JSON_TOO_LARGE",
        detail: `input is ${input.length} bytes; the limit is ${limits.maxBytes}`,
        path: "$",
        offset: 0,
      };
    }
    try {
      text = decoder.decode(input);
    } catch {
      const at = firstInvalidUtf8(input);
      return { ok: false, code: "JSON_INVALID_UTF8", detail: `invalid UTF-8 at byte ${at}`, path: "$", offset: at };
    }
  }
  // A UTF-8 byte order mark carries no content; editors on some platforms add one.
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const parser = new Parser(text, start, limits.maxDepth);
  try {
    const value = parser.parseDocument();
    return { ok: true, value };
  } catch (e) {
    if (e instanceof ParseFault) {
      return { ok: false, code: e.code, detail: e.detail, path: formatPath(e.inner.reverse()), offset: e.offset };
    }
    /* c8 ignore next */
    throw e;
  }
}

/**
 * The characters a string holds as they are, from a position (sticky): the run ends at the
 * closing quote, or at what needs the careful path (an escape, a control character, a
 * surrogate). Anchored and one pass: long base64 parts make this the parser's main cost, and an
 * unanchored search for the first special character costs about three times as much.
 */
const PLAIN_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;
const SURROGATE = /[\ud800-\udfff]/;

class Parser {
  private pos: number;
  private depth = 0;

  constructor(
    private readonly text: string,
    start: number,
    private readonly maxDepth: number,
  ) {
    this.pos = start;
  }

  parseDocument(): JsonValue {
    this.skipWs();
    if (this.pos >= this.text.length)
      throw new ParseFault("JSON_SYNTAX", "empty input: expected a JSON value", this.pos);
    const v = this.parseValue();
    this.skipWs();
    if (this.pos < this.text.length) {
      throw new ParseFault("JSON_TRAILING_DATA", `unexpected ${this.describeChar()} after the JSON value`, this.pos);
    }
    return v;
  }

  private describeChar(): string {
    if (this.pos >= this.text.length) return "end of input";
    const c = this.text.codePointAt(this.pos) as number;
    return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
  }

  /**
   * Bounded by the length, not by charCodeAt's NaN past the end: the end of every document is
   * reached here, and reading past it would undo the optimized code made before it was.
   */
  private skipWs(): void {
    const t = this.text;
    let p = this.pos;
    for (; p < t.length; p++) {
      const c = t.charCodeAt(p);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    }
    this.pos = p;
  }

  private parseValue(): JsonValue {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b /* { */:
        return this.parseObject();
      case 0x5b /* [ */:
        return this.parseArray();
      case 0x22 /* " */:
        return this.parseString();
      case 0x74 /* t */:
        return this.parseLiteral("true", true);
      case 0x66 /* f */:
        return this.parseLiteral("false", false);
      case 0x6e /* n */:
        return this.parseLiteral("null", null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
        throw new ParseFault("JSON_SYNTAX", `unexpected ${this.describeChar()}: expected a JSON value`, this.pos);
    }
  }

  private parseLiteral<T extends JsonValue>(word: string, value: T): T {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length;
      return value;
    }
    throw new ParseFault("JSON_SYNTAX", `unexpected ${this.describeChar()}: expected a JSON value`, this.pos);
  }

  private enter(): void {
    if (++this.depth > this.maxDepth) {
      throw new ParseFault("JSON_TOO_DEEP", `nesting deeper than ${this.maxDepth} levels`, this.pos);
    }
  }

  /** The closing bracket `close` (its char code), consumed: the object or array is left. */
  private closes(close: number): boolean {
    if (this.text.charCodeAt(this.pos) !== close) return false;
    this.pos++;
    this.depth--;
    return true;
  }

  /** After a member or an element: a comma (false: more follow) or the closing bracket (true, consumed). */
  private endsAt(close: number): boolean {
    this.skipWs();
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x2c) {
      this.pos++;
      this.skipWs();
      return false;
    }
    if (c === close) {
      this.pos++;
      this.depth--;
      return true;
    }
    throw new ParseFault(
      "JSON_SYNTAX",
      `unexpected ${this.describeChar()}: expected ',' or '${String.fromCharCode(close)}'`,
      this.pos,
    );
  }

  private parseObject(): JsonValue {
    this.enter();
    const obj = newJsonObject();
    this.pos++; // {
    this.skipWs();
    if (this.closes(0x7d)) return obj;
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) {
        throw new ParseFault("JSON_SYNTAX", `unexpected ${this.describeChar()}: expected a member name`, this.pos);
      }
      const keyOffset = this.pos;
      const key = this.parseString();
      if (Object.prototype.hasOwnProperty.call(obj, key)) {
        throw within(
          new ParseFault("JSON_DUPLICATE_MEMBER", `duplicate member name ${JSON.stringify(key)}`, keyOffset),
          key,
        );
      }
      this.skipWs();
      if (this.text.charCodeAt(this.pos) !== 0x3a) {
        throw new ParseFault("JSON_SYNTAX", `unexpected ${this.describeChar()}: expected ':'`, this.pos);
      }
      this.pos++;
      this.skipWs();
      try {
        obj[key] = this.parseValue();
      } catch (e) {
        throw within(e, key);
      }
      if (this.endsAt(0x7d)) return obj;
    }
  }

  private parseArray(): JsonValue {
    this.enter();
    const arr: JsonValue[] = [];
    this.pos++; // [
    this.skipWs();
    if (this.closes(0x5d)) return arr;
    for (;;) {
      try {
        arr.push(this.parseValue());
      } catch (e) {
        throw within(e, arr.length);
      }
      if (this.endsAt(0x5d)) return arr;
    }
  }

  private parseString(): string {
    const t = this.text;
    const begin = ++this.pos; // opening quote
    // Fast path: up to the next quote there is no escape, surrogate or control character.
    PLAIN_RUN.lastIndex = begin;
    PLAIN_RUN.test(t);
    const end = PLAIN_RUN.lastIndex;
    if (t.charCodeAt(end) === 0x22) {
      this.pos = end + 1;
      return t.slice(begin, end);
    }
    const quote = t.indexOf('"', end);
    if (quote >= 0) {
      const escaped = this.escapedString(begin, quote);
      if (escaped !== undefined) return escaped;
    }
    return this.walkString(begin);
  }

  /**
   * The unit-by-unit walk of a string from `begin` (after its opening quote): the definition, and
   * the one path that names what is wrong.
   */
  private walkString(begin: number): string {
    const t = this.text;
    let p = begin;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x5c || c < 0x20 || (c >= 0xd800 && c <= 0xdfff) || Number.isNaN(c)) break;
      p++;
    }
    let out = t.slice(begin, p);
    for (;;) {
      if (p >= t.length) throw new ParseFault("JSON_SYNTAX", "unterminated string", begin - 1);
      const c = t.charCodeAt(p);
      if (c === 0x22) {
        this.pos = p + 1;
        return out;
      }
      if (c < 0x20) {
        throw new ParseFault(
          "JSON_CONTROL_CHARACTER",
          `raw control character U+${c.toString(16).padStart(4, "0").toUpperCase()} in a string`,
          p,
        );
      }
      if (c >= 0xd800 && c <= 0xdbff) {
        const d = t.charCodeAt(p + 1);
        if (!(d >= 0xdc00 && d <= 0xdfff)) throw new ParseFault("JSON_LONE_SURROGATE", "lone surrogate in a string", p);
        out += t.slice(p, p + 2);
        p += 2;
        continue;
      }
      if (c >= 0xdc00 && c <= 0xdfff) throw new ParseFault("JSON_LONE_SURROGATE", "lone surrogate in a string", p);
      if (c !== 0x5c) {
        out += t[p];
        p++;
        continue;
      }
      out += this.escape(p);
      p = this.pos;
    }
  }

  /** The escape sequence at `p` (a backslash), decoded; `pos` is left just after it. */
  private escape(p: number): string {
    this.pos = p + 2;
    switch (this.text.charCodeAt(p + 1)) {
      case 0x22:
        return '"';
      case 0x5c:
        return "\\";
      case 0x2f:
        return "/";
      case 0x62:
        return "\b";
      case 0x66:
        return "\f";
      case 0x6e:
        return "\n";
      case 0x72:
        return "\r";
      case 0x74:
        return "\t";
      case 0x75:
        return this.unicodeEscape(p);
      default:
        throw new ParseFault("JSON_SYNTAX", "invalid escape sequence in a string", p);
    }
  }

  /** The `\uXXXX` escape at `p` (a surrogate pair takes two), decoded; `pos` is left just after it. */
  private unicodeEscape(p: number): string {
    const t = this.text;
    const hi = this.hex4(p + 2);
    if (hi >= 0xd800 && hi <= 0xdbff) {
      // A high surrogate must be followed by an escaped low surrogate.
      if (t.charCodeAt(p + 6) !== 0x5c || t.charCodeAt(p + 7) !== 0x75) {
        throw new ParseFault("JSON_LONE_SURROGATE", "lone surrogate escape in a string", p);
      }
      const lo = this.hex4(p + 8);
      if (!(lo >= 0xdc00 && lo <= 0xdfff))
        throw new ParseFault("JSON_LONE_SURROGATE", "lone surrogate escape in a string", p);
      this.pos = p + 12;
      return String.fromCharCode(hi, lo);
    }
    if (hi >= 0xdc00 && hi <= 0xdfff)
      throw new ParseFault("JSON_LONE_SURROGATE", "lone surrogate escape in a string", p);
    this.pos = p + 6;
    return String.fromCharCode(hi);
  }

  /**
   * A string with escapes (a JSON document carried in a text part is mostly `\"`): its end is the
   * first quote preceded by an even run of backslashes, and ECMAScript's JSON.parse decodes the
   * same string grammar natively. It accepts lone surrogates, and joins an escaped high surrogate
   * with a raw low one (Python keeps those as two code points: a parser differential), both of
   * which this parser refuses; so a string with any surrogate, and anything JSON.parse rejects,
   * goes to the unit-by-unit walk, which decides and says what is wrong.
   */
  private escapedString(begin: number, firstQuote: number): string | undefined {
    const t = this.text;
    let q = firstQuote;
    for (;;) {
      let b = q - 1;
      while (b >= begin && t.charCodeAt(b) === 0x5c) b--;
      if ((q - 1 - b) % 2 === 0) break;
      q = t.indexOf('"', q + 1);
      if (q < 0) return undefined;
    }
    let value: unknown;
    try {
      value = JSON.parse(`"${t.slice(begin, q)}"`);
    } catch {
      return undefined;
    }
    if (typeof value !== "string" || SURROGATE.test(value)) return undefined;
    this.pos = q + 1;
    return value;
  }

  private hex4(at: number): number {
    const s = this.text.slice(at, at + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(s)) throw new ParseFault("JSON_SYNTAX", "invalid \\u escape in a string", at - 2);
    return parseInt(s, 16);
  }

  private parseNumber(): JsonNumber {
    const t = this.text;
    const begin = this.pos;
    let p = begin;
    if (t.charCodeAt(p) === 0x2d) p++;
    const first = t.charCodeAt(p);
    if (first === 0x30) {
      p++;
    } else if (first >= 0x31 && first <= 0x39) {
      while (isDigit(t.charCodeAt(p))) p++;
    } else {
      throw new ParseFault("JSON_SYNTAX", "invalid number", begin);
    }
    if (t.charCodeAt(p) === 0x2e) {
      p++;
      if (!isDigit(t.charCodeAt(p)))
        throw new ParseFault("JSON_SYNTAX", "invalid number: digit expected after '.'", begin);
      while (isDigit(t.charCodeAt(p))) p++;
    }
    const e = t.charCodeAt(p);
    if (e === 0x65 || e === 0x45) {
      p++;
      const s = t.charCodeAt(p);
      if (s === 0x2b || s === 0x2d) p++;
      if (!isDigit(t.charCodeAt(p)))
        throw new ParseFault("JSON_SYNTAX", "invalid number: digit expected in exponent", begin);
      while (isDigit(t.charCodeAt(p))) p++;
    }
    // A leading zero followed by digits ("01") leaves a digit here.
    if (isDigit(t.charCodeAt(p))) throw new ParseFault("JSON_SYNTAX", "invalid number: leading zero", begin);
    const lexeme = t.slice(begin, p);
    this.pos = p;
    if (!roundTrips(lexeme)) {
      throw new ParseFault(
        "JSON_LOSSY_NUMBER",
        `number ${lexeme.length > 40 ? lexeme.slice(0, 40) + "…" : lexeme} cannot be represented exactly as an IEEE-754 double`,
        begin,
      );
    }
    return new JsonNumber(lexeme);
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * True when the decimal value of a JSON number lexeme is exactly the value of the double it
 * parses to, written in shortest form. `60.0`, `1e2`, `0.95` and `-0` round-trip; `2^53+1`,
 * `1e400` and `0.1000000000000000000001` do not.
 */
export function roundTrips(lexeme: string): boolean {
  const n = Number(lexeme);
  if (!Number.isFinite(n)) return false;
  // Fast path for short integers.
  if (lexeme.length <= 15 && /^-?\d+$/.test(lexeme)) return true;
  return decimalKey(lexeme) === decimalKey(String(n));
}

/**
 * True when two number lexemes are one value however written (`60`, `60.0`, `6e1`; `-0` and `0`,
 * which a double printed by a decoder does not tell apart), compared exactly: two different
 * decimals are never one, however close (`0.1` and `0.10000000000000001`), and a lexeme that does
 * not round-trip (see `roundTrips`) equals only itself.
 */
export function sameDecimal(a: string, b: string): boolean {
  return a === b || (roundTrips(a) && roundTrips(b) && decimalKey(a) === decimalKey(b));
}

/** Normal form of a decimal lexeme: sign, significant digits without trailing zeros, exponent. */
function decimalKey(lexeme: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(lexeme);
  /* c8 ignore next */
  if (!m) return `invalid:${lexeme}`;
  const sign = m[1] as string;
  const intPart = m[2] as string;
  const frac = m[3] ?? "";
  const exp = Number(m[4] ?? "0");
  let digits = intPart + frac;
  let pointExp = exp - frac.length; // value = digits × 10^pointExp
  const lead = digits.search(/[^0]/);
  if (lead === -1) return "0"; // zero, of either sign
  digits = digits.slice(lead);
  const trail = digits.length - digits.replace(/0+$/, "").length;
  digits = digits.slice(0, digits.length - trail);
  pointExp += trail;
  return `${sign}${digits}e${pointExp}`;
}

function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i] as number;
    let need: number;
    let min: number;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = c & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return b.length;
}
