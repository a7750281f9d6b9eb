/**
 * The I-JSON (RFC 7493) gate PEAC runs over a JWS header and payload before parsing them
 * (crypto/src/ijson.ts), fused with the parse itself, so no second parser can read the bytes
 * differently: duplicate member names (after unescaping), numbers whose magnitude exceeds
 * 2^53−1 (whatever their form: `1e300`, `9007199254740992.5`), lone surrogates, Unicode
 * noncharacters, bad escapes and invalid UTF-8 are refused with PEAC's codes; any other syntax
 * error is E_INVALID_FORMAT. Numbers keep their lexemes. Never throws.
 */
import { JsonNumber, newJsonObject, type JsonValue } from "../json/value.js";
import { fail, ok, type Result } from "../result.js";
import type { PeacCode } from "../codes/peac.js";
import { printable } from "../util/printable.js";

/**
 * Nesting cap of the scanner itself (the kernel constraint, depth 32, is checked on the claims
 * afterwards): a 256 KiB payload of `[` must not exhaust the stack.
 */
const MAX_SCAN_DEPTH = 64;
const MAX_SAFE_DIGITS = "9007199254740991";
const utf8 = new TextDecoder("utf-8", { fatal: true });

class Fault {
  constructor(
    readonly code: PeacCode,
    readonly detail: string,
  ) {}
}

export function parseIJson(bytes: Uint8Array): Result<JsonValue> {
  const s = new Scanner(bytes);
  try {
    const v = s.value(1);
    s.ws();
    if (!s.atEnd()) return fail("E_INVALID_FORMAT", `I-JSON: trailing data at byte ${s.i}`);
    return ok(v);
  } catch (e) {
    if (e instanceof Fault) return fail(e.code, `I-JSON: ${e.detail} (byte ${s.i})`);
    throw e;
  }
}

class Scanner {
  i = 0;
  constructor(private readonly b: Uint8Array) {}

  atEnd(): boolean {
    return this.i >= this.b.length;
  }

  ws(): void {
    for (;;) {
      const c = this.b[this.i];
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else return;
    }
  }

  private syntax(detail: string): never {
    throw new Fault("E_INVALID_FORMAT", detail);
  }

  private badString(detail: string): never {
    throw new Fault("E_IJSON_INVALID_STRING", detail);
  }

  value(depth: number): JsonValue {
    this.ws();
    if (this.atEnd()) this.syntax("unexpected end of input");
    const c = this.b[this.i] as number;
    if (c === 0x7b || c === 0x5b) {
      if (depth > MAX_SCAN_DEPTH) throw new Fault("E_CONSTRAINT_VIOLATION", `nesting deeper than ${MAX_SCAN_DEPTH}`);
      return c === 0x7b ? this.object(depth) : this.array(depth);
    }
    if (c === 0x22) return this.string();
    if (c === 0x74) return this.literal("true", true);
    if (c === 0x66) return this.literal("false", false);
    if (c === 0x6e) return this.literal("null", null);
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    return this.syntax(`unexpected byte 0x${c.toString(16)}`);
  }

  private literal<T extends JsonValue>(text: string, v: T): T {
    for (let k = 0; k < text.length; k++)
      if (this.b[this.i + k] !== text.charCodeAt(k)) this.syntax(`invalid literal, expected ${text}`);
    this.i += text.length;
    return v;
  }

  private object(depth: number): JsonValue {
    this.i++;
    const out = newJsonObject();
    const names = new Set<string>();
    this.ws();
    if (this.b[this.i] === 0x7d) {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.b[this.i] !== 0x22) this.syntax("expected a member name");
      const name = this.string();
      if (names.has(name))
        throw new Fault(
          "E_IJSON_DUPLICATE_MEMBER_NAME",
          `duplicate member name ${printable(JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name))}`,
        );
      names.add(name);
      this.ws();
      if (this.b[this.i] !== 0x3a) this.syntax("expected ':'");
      this.i++;
      out[name] = this.value(depth + 1);
      this.ws();
      const next = this.b[this.i];
      this.i++;
      if (next === 0x2c) continue;
      if (next === 0x7d) return out;
      this.i--;
      this.syntax("expected ',' or '}'");
    }
  }

  private array(depth: number): JsonValue {
    this.i++;
    const out: JsonValue[] = [];
    this.ws();
    if (this.b[this.i] === 0x5d) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.ws();
      const next = this.b[this.i];
      this.i++;
      if (next === 0x2c) continue;
      if (next === 0x5d) return out;
      this.i--;
      this.syntax("expected ',' or ']'");
    }
  }

  private string(): string {
    this.i++;
    let out = "";
    let run = this.i;
    const flush = (end: number): void => {
      if (end <= run) return;
      let chunk: string;
      try {
        chunk = utf8.decode(this.b.subarray(run, end));
      } catch {
        this.badString("invalid UTF-8 in a string");
      }
      for (const ch of chunk)
        if (isNoncharacter(ch.codePointAt(0) as number)) this.badString("noncharacter in a string");
      out += chunk;
    };
    for (;;) {
      if (this.atEnd()) this.badString("unterminated string");
      const c = this.b[this.i] as number;
      if (c === 0x22) {
        flush(this.i);
        this.i++;
        return out;
      }
      if (c < 0x20) this.syntax("unescaped control character in a string");
      if (c !== 0x5c) {
        this.i++;
        continue;
      }
      flush(this.i);
      this.i++;
      if (this.atEnd()) this.badString("unterminated escape");
      const e = this.b[this.i] as number;
      this.i++;
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) out += simple;
      else if (e === 0x75) out += this.unicodeEscape();
      else this.badString("invalid escape");
      run = this.i;
    }
  }

  private unicodeEscape(): string {
    const hi = this.hex4();
    if (hi >= 0xdc00 && hi <= 0xdfff) this.badString("lone low surrogate");
    if (hi < 0xd800 || hi > 0xdbff) {
      if (isNoncharacter(hi)) this.badString("noncharacter in a string");
      return String.fromCharCode(hi);
    }
    if (this.b[this.i] !== 0x5c || this.b[this.i + 1] !== 0x75) this.badString("lone high surrogate");
    this.i += 2;
    const lo = this.hex4();
    if (lo < 0xdc00 || lo > 0xdfff) this.badString("high surrogate not followed by a low surrogate");
    if (isNoncharacter(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00))) this.badString("noncharacter in a string");
    return String.fromCharCode(hi, lo);
  }

  private hex4(): number {
    if (this.i + 4 > this.b.length) this.badString("truncated \\u escape");
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const ch = this.b[this.i + k] as number;
      const d =
        ch >= 0x30 && ch <= 0x39
          ? ch - 0x30
          : ch >= 0x41 && ch <= 0x46
            ? ch - 55
            : ch >= 0x61 && ch <= 0x66
              ? ch - 87
              : -1;
      if (d < 0) this.badString("invalid hex digit in \\u escape");
      v = v * 16 + d;
    }
    this.i += 4;
    return v;
  }

  private digits(): string {
    const start = this.i;
    while ((this.b[this.i] as number) >= 0x30 && (this.b[this.i] as number) <= 0x39) this.i++;
    return ascii(this.b, start, this.i);
  }

  private number(): JsonValue {
    const start = this.i;
    if (this.b[this.i] === 0x2d) this.i++;
    const c = this.b[this.i] as number;
    if (!(c >= 0x30 && c <= 0x39)) this.syntax("number without integer digits");
    const intDigits = c === 0x30 ? (this.i++, "0") : this.digits();
    let fracDigits = "";
    if (this.b[this.i] === 0x2e) {
      this.i++;
      fracDigits = this.digits();
      if (fracDigits === "") this.syntax("number without fraction digits");
    }
    let expDigits = "";
    let expNegative = false;
    if (this.b[this.i] === 0x65 || this.b[this.i] === 0x45) {
      this.i++;
      if (this.b[this.i] === 0x2b) this.i++;
      else if (this.b[this.i] === 0x2d) {
        expNegative = true;
        this.i++;
      }
      expDigits = this.digits();
      if (expDigits === "") this.syntax("number without exponent digits");
    }
    if (exceedsSafeMagnitude(intDigits, fracDigits, expDigits, expNegative)) {
      throw new Fault("E_IJSON_NUMBER_OUT_OF_RANGE", "number beyond ±(2^53−1); large values must be strings");
    }
    return new JsonNumber(ascii(this.b, start, this.i));
  }
}

const SIMPLE_ESCAPES: Readonly<Record<number, string>> = {
  0x22: '"',
  0x5c: "\\",
  0x2f: "/",
  0x62: "\b",
  0x66: "\f",
  0x6e: "\n",
  0x72: "\r",
  0x74: "\t",
};

function ascii(b: Uint8Array, start: number, end: number): string {
  return Buffer.from(b.buffer, b.byteOffset + start, end - start).toString("latin1");
}

function stripLeadingZeros(d: string): string {
  let j = 0;
  while (j < d.length - 1 && d[j] === "0") j++;
  return d.slice(j);
}

/** Compares the magnitude with 2^53−1 on the digits, never through a double (PEAC's rule, exactly). */
function exceedsSafeMagnitude(intDigits: string, fracDigits: string, expDigits: string, expNegative: boolean): boolean {
  const sig = stripLeadingZeros(intDigits + fracDigits);
  if (sig === "0") return false;
  const e = expDigits === "" ? 0 : stripLeadingZeros(expDigits);
  const expMagnitude = e === 0 || e === "0" ? 0 : (e as string).length > 9 ? 1_000_000_000 : Number(e);
  const decimalExp = (expNegative ? -expMagnitude : expMagnitude) - fracDigits.length;
  const intDigitCount = sig.length + decimalExp;
  if (intDigitCount !== MAX_SAFE_DIGITS.length) return intDigitCount > MAX_SAFE_DIGITS.length;
  if (decimalExp >= 0) return sig + "0".repeat(decimalExp) > MAX_SAFE_DIGITS;
  const intPart = sig.slice(0, MAX_SAFE_DIGITS.length);
  if (intPart !== MAX_SAFE_DIGITS) return intPart > MAX_SAFE_DIGITS;
  return /[1-9]/.test(sig.slice(MAX_SAFE_DIGITS.length));
}

function isNoncharacter(cp: number): boolean {
  return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp >= 0xfffe && ((cp & 0xffff) === 0xfffe || (cp & 0xffff) === 0xffff));
}
