import { describe, expect, it } from "vitest";
import canonicalize from "canonicalize";
import { jcs, type JcsOptions } from "../../src/canon/jcs.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { JsonNumber, fromPlain, newJsonObject, type JsonValue } from "../../src/json/value.js";
import { bytesToHex, utf8 } from "../../src/util/bytes.js";

function canon(text: string, options?: JcsOptions): string {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) throw new Error(`${parsed.code}: ${parsed.detail}`);
  const r = jcs(parsed.value, options);
  if (!r.ok) throw new Error(`${r.code} at ${r.path}: ${r.detail}`);
  return r.value;
}

function failure(value: JsonValue, options?: JcsOptions) {
  const r = jcs(value, options);
  if (r.ok) throw new Error(`expected a failure, got ${r.value}`);
  return { code: r.code, path: r.path };
}

describe("jcs (RFC 8785)", () => {
  it("sorts member names by UTF-16 code unit: an astral name before U+E000 and U+FB33", () => {
    expect(canon('{"\\ue000":1,"😀":2,"\\ufb33":3,"a":4}')).toBe('{"a":4,"😀":2,"\ue000":1,"\ufb33":3}');
    // Sorting compares the unescaped names, not their escaped forms: U+001F before the space.
    expect(canon('{" ":1,"\\u001f":2}')).toBe('{"\\u001f":2," ":1}');
  });

  it("uses the short escapes and lowercase \\u00xx for the other controls", () => {
    expect(canon('"\\u001B"')).toBe('"\\u001b"');
    expect(canon('"\\u0009"')).toBe('"\\t"');
    expect(canon('"\\b\\f\\n\\r\\"\\\\"')).toBe('"\\b\\f\\n\\r\\"\\\\"');
    expect(canon('"\\u0000\\u001f"')).toBe('"\\u0000\\u001f"');
  });

  it("writes non-ASCII, DEL and '/' raw, as UTF-8", () => {
    const out = canon('"\\u00e9\\u007f\\/\\ud83d\\ude00\\u2028"');
    expect(out).toBe('"é\u007f/😀\u2028"');
    expect(bytesToHex(utf8(out))).toBe("22c3a97f2ff09f9880e280a822");
  });

  it("writes numbers in ECMAScript shortest form", () => {
    expect(
      canon("[60.0,1e2,1E21,1e-7,0.000001,-0,-0.0,4.50,2e-3,5e-324,1.7976931348623157e308,123456789012345680000]"),
    ).toBe("[60,100,1e+21,1e-7,0.000001,0,0,4.5,0.002,5e-324,1.7976931348623157e+308,123456789012345680000]");
  });

  it("reproduces the RFC 8785 §3.2.4 example", () => {
    const input = fromPlain({
      numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001]
        .map(String)
        .map((s) => new JsonNumber(s)),
      string: "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"/",
      literals: [null, true, false],
    });
    expect(jcs(input)).toEqual({
      ok: true,
      value:
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    });
    // The lexeme as the RFC writes it, not as JavaScript rounded it above.
    expect(jcs([new JsonNumber("333333333.33333329")])).toEqual({ ok: true, value: "[333333333.3333333]" });
  });

  it("keeps null, [] and {} (no normalization)", () => {
    expect(canon('{"z":null,"a":{},"m":[],"s":"CPB"}')).toBe('{"a":{},"m":[],"s":"CPB","z":null}');
  });

  it("refuses lone surrogates in values and in member names, with the path", () => {
    const v = newJsonObject();
    v.ok = "\ud83d\ude00";
    v.bad = ["x", "\udc00"];
    expect(failure(v)).toEqual({ code: "CANON_LONE_SURROGATE", path: "bad[1]" });
    const k = newJsonObject();
    k["a\ud800"] = true;
    expect(failure(k)).toEqual({ code: "CANON_LONE_SURROGATE", path: '["a\\ud800"]' });
    expect(failure("\ud800 trailing high")).toEqual({ code: "CANON_LONE_SURROGATE", path: "$" });
    expect(failure("end \ud800")).toEqual({ code: "CANON_LONE_SURROGATE", path: "$" });
  });

  it("refuses a number with no finite value (built in code; the parser refuses it)", () => {
    expect(failure([new JsonNumber("1e400")])).toEqual({ code: "CANON_FLOAT", path: "[0]" });
  });

  it("refuses values nested beyond its cap", () => {
    let v: JsonValue = fromPlain(1);
    for (let i = 0; i < 300; i++) v = i % 2 === 0 ? [v] : fromPlain({ a: v });
    expect(failure(v).code).toBe("CANON_TOO_DEEP");
  });
  it("refuses a member name with a lone surrogate each time it is met, at its path, and names around it as ever", () => {
    for (let round = 0; round < 2; round++) {
      const r = jcs(fromPlain({ ok: 1, x: [{ "a\ud800": 1 }] }));
      expect(r.ok).toBe(false);
      if (!r.ok) expect([r.code, r.path]).toEqual(["CANON_LONE_SURROGATE", 'x[0]["a\\ud800"]']);
      expect(canon('{"x":[{"a\\u00e9":1}],"ok":1}')).toBe('{"ok":1,"x":[{"a\u00e9":1}]}');
    }
  });
});

describe('jcs with numbers: "safe-integers" (the AAC / profile rule)', () => {
  it("refuses fractions and exponents, even integral ones", () => {
    expect(failure(fromPlain({ a: [new JsonNumber("60.0")] }), { numbers: "safe-integers" })).toEqual({
      code: "CANON_FLOAT",
      path: "a[0]",
    });
    expect(failure(new JsonNumber("1e2"), { numbers: "safe-integers" })).toEqual({ code: "CANON_FLOAT", path: "$" });
  });

  it("refuses integers beyond ±(2^53−1) instead of rounding them", () => {
    expect(failure(fromPlain({ n: new JsonNumber("9007199254740992") }), { numbers: "safe-integers" })).toEqual({
      code: "CANON_UNSAFE_INTEGER",
      path: "n",
    });
    expect(failure(new JsonNumber("-1000000000000000000000"), { numbers: "safe-integers" })).toEqual({
      code: "CANON_UNSAFE_INTEGER",
      path: "$",
    });
    expect(canon("[9007199254740991,-9007199254740991]", { numbers: "safe-integers" })).toBe(
      "[9007199254740991,-9007199254740991]",
    );
  });

  it("writes the token -0 as 0, as the AAC reference (Python int) does", () => {
    expect(canon("[-0]", { numbers: "safe-integers" })).toBe("[0]");
  });
});

/** Deterministic PRNG (mulberry32), so a failing case can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Code points that exercise escaping, UTF-8 width and the UTF-16 sort. */
const CODE_POINTS = [
  0x00, 0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1b, 0x1f, 0x20, 0x22, 0x2f, 0x41, 0x5c, 0x61, 0x7e, 0x7f, 0x80, 0xe9, 0x301,
  0x2028, 0x20ac, 0xd7ff, 0xe000, 0xfb33, 0xfeff, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff,
];

/**
 * A random value as JSON text with varied number spellings (`1.5`, `15e-1`, `1.50E+0`, `-0.0`),
 * plus the plain JavaScript value the oracle canonicalizes.
 */
function randomDocument(rand: () => number): { text: string; plain: unknown } {
  const int = (n: number) => Math.floor(rand() * n);
  const randomString = () =>
    String.fromCodePoint(...Array.from({ length: int(6) }, () => CODE_POINTS[int(CODE_POINTS.length)] as number));
  const spell = (lexeme: string): string => {
    const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(lexeme) as RegExpExecArray;
    const sign = m[1] as string;
    const frac = m[3] ?? "";
    const digits = ((m[2] as string) + frac).replace(/^0+(?=\d)/, "");
    const exp = Number(m[4] ?? "0") - frac.length;
    switch (int(5)) {
      case 0:
        return `${sign}${digits}e${exp}`;
      case 1:
        return `${sign}${digits}00E${exp - 2 >= 0 ? "+" : ""}${exp - 2}`;
      case 2:
        return `${sign}${digits.slice(0, 1)}.${digits.slice(1) || "0"}0e${exp + digits.length - 1}`;
      default:
        return lexeme;
    }
  };
  const randomNumber = (): { text: string; plain: number } => {
    switch (int(5)) {
      case 0:
        return { text: ["-0", "-0.0", "0e5", "-0E-3"][int(4)] as string, plain: -0 };
      case 1: {
        const n = Math.floor((rand() - 0.5) * 2 * Number.MAX_SAFE_INTEGER);
        return { text: String(n), plain: n };
      }
      default: {
        const d = (rand() - 0.5) * 10 ** (int(60) - 30) * ([1, 1, 1e250, 1e-250][int(4)] as number);
        return { text: spell(String(d)), plain: d };
      }
    }
  };
  const value = (depth: number): { text: string; plain: unknown } => {
    const kind = depth >= 4 ? int(4) : int(6);
    if (kind === 0)
      return [
        { text: "null", plain: null },
        { text: "true", plain: true },
        { text: "false", plain: false },
      ][int(3)] as { text: string; plain: unknown };
    if (kind === 1) {
      const s = randomString();
      return { text: JSON.stringify(s), plain: s };
    }
    if (kind === 2 || kind === 3) return randomNumber();
    if (kind === 4) {
      const items = Array.from({ length: int(5) }, () => value(depth + 1));
      return { text: `[ ${items.map((x) => x.text).join(" ,\n")} ]`, plain: items.map((x) => x.plain) };
    }
    const plain: Record<string, unknown> = {};
    const parts: string[] = [];
    for (let i = int(6); i > 0; i--) {
      const name = randomString();
      if (name === "__proto__" || Object.prototype.hasOwnProperty.call(plain, name)) continue;
      const v = value(depth + 1);
      plain[name] = v.plain;
      parts.push(`${JSON.stringify(name)} :\t${v.text}`);
    }
    return { text: `{${parts.join(",")}}`, plain };
  };
  return value(0);
}

describe("jcs against the canonicalize package (differential)", () => {
  it("agrees on 500 random documents with safe integers, floats, Unicode and nesting", () => {
    const rand = prng(0x8785);
    for (let i = 0; i < 500; i++) {
      const { text, plain } = randomDocument(rand);
      const parsed = parseStrictJson(text);
      if (!parsed.ok) throw new Error(`case ${i}: ${parsed.code} ${parsed.detail} in ${text}`);
      const ours = jcs(parsed.value);
      expect(ours, `case ${i}: ${text}`).toEqual({ ok: true, value: canonicalize(plain) });
    }
  });
});
