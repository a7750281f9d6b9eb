import { describe, expect, it } from "vitest";
import {
  CborFloat,
  CborTagged,
  COSE_MAX_BYTES,
  decodeStrictCbor,
  describeCbor,
  readArray,
  readBool,
  readBytes,
  readInt,
  readMap,
  readText,
  readUint,
  type CborValue,
} from "../../src/cose/cbor.js";
import { cbor, hex } from "../helpers/cose.js";

function decodeHex(h: string, tags: number[] = []) {
  return decodeStrictCbor(hex(h), { tags });
}

function failureCode(h: string, tags: number[] = []): string {
  const r = decodeHex(h, tags);
  return r.ok ? "ok" : r.code;
}

describe("decodeStrictCbor: accepted values", () => {
  it("decodes maps to Map, keeping integer and text labels distinct", () => {
    const r = decodeHex("a2016161616101"); // {1: "a", "a": 1}
    expect(r.ok).toBe(true);
    const m = r.ok ? (r.value as Map<unknown, unknown>) : new Map();
    expect(m).toBeInstanceOf(Map);
    expect(m.get(1)).toBe("a");
    expect(m.get("a")).toBe(1);
    expect(m.has("1")).toBe(false);
  });

  it("tolerates map key order (it does not change the length)", () => {
    const r = decodeHex("a203040102"); // {3: 4, 1: 2}, not in canonical order
    expect(r.ok && [...(r.value as Map<unknown, unknown>).keys()]).toEqual([3, 1]);
  });

  it("returns byte strings as exactly the received bytes", () => {
    const r = decodeHex("4401020304");
    expect(r.ok && r.value).toEqual(new Uint8Array([1, 2, 3, 4]));
  });

  it("keeps floats apart from integers, and booleans as booleans", () => {
    const r = decodeHex("83f93e00f501"); // [1.5, true, 1]
    const [f, b, i] = r.ok ? (r.value as CborValue[]) : [];
    expect(f).toBeInstanceOf(CborFloat);
    expect((f as CborFloat).value).toBe(1.5);
    expect(b).toBe(true);
    expect(i).toBe(1);
  });

  it("decodes integers beyond 2^53 - 1 as bigint", () => {
    const r = decodeHex("1b0020000000000000");
    expect(r.ok && r.value).toBe(2n ** 53n);
  });

  it("accepts a listed tag and wraps it", () => {
    const r = decodeHex("d28440a0f640", [18]);
    expect(r.ok && r.value).toBeInstanceOf(CborTagged);
    expect(r.ok && (r.value as CborTagged).tag).toBe(18);
  });

  it("accepts valid non-ASCII UTF-8 text", () => {
    const r = decodeHex("63e282ac"); // "€"
    expect(r.ok && r.value).toBe("€");
  });

  it("accepts nesting up to the depth cap", () => {
    expect(decodeStrictCbor(hex("81".repeat(32) + "00")).ok).toBe(true);
  });
});

describe("decodeStrictCbor: refusals, each with its code", () => {
  it.each([
    ["truncated map", "a20102", "CBOR_TRUNCATED"],
    ["truncated byte string", "5820aabb", "CBOR_TRUNCATED"],
    ["empty input", "", "CBOR_TRUNCATED"],
    ["trailing bytes", "0100", "CBOR_TRAILING_BYTES"],
    ["indefinite-length array", "9f01ff", "CBOR_INDEFINITE_LENGTH"],
    ["indefinite-length map", "bf0102ff", "CBOR_INDEFINITE_LENGTH"],
    ["indefinite-length byte string", "5f4101ff", "CBOR_INDEFINITE_LENGTH"],
    ["indefinite-length text string", "7f6161ff", "CBOR_INDEFINITE_LENGTH"],
    ["lone break code", "ff", "CBOR_INDEFINITE_LENGTH"],
    ["non-minimal integer (1 as 18 01)", "1801", "CBOR_NON_MINIMAL"],
    ["non-minimal negative integer", "3800", "CBOR_NON_MINIMAL"],
    ["non-minimal length", "5801ff", "CBOR_NON_MINIMAL"],
    ["non-minimal tag number", "d812a0", "CBOR_NON_MINIMAL"],
    ["duplicate map key", "a201020103", "CBOR_DUPLICATE_KEY"],
    ["duplicate text map key", "a2616101616102", "CBOR_DUPLICATE_KEY"],
    ["byte-string map key", "a1410102", "CBOR_MAP_KEY_TYPE"],
    ["boolean map key", "a1f501", "CBOR_MAP_KEY_TYPE"],
    ["array map key", "a18001", "CBOR_MAP_KEY_TYPE"],
    ["invalid UTF-8 that decodes to as many bytes", "63f09f98", "CBOR_INVALID_UTF8"],
    ["unlisted tag", "d1a0", "CBOR_TAG_UNSUPPORTED"],
    ["float wider than needed (1.0 as float64)", "fb3ff0000000000000", "CBOR_NOT_CANONICAL_LENGTH"],
    ["float32 where float16 suffices", "fa3fc00000", "CBOR_NOT_CANONICAL_LENGTH"],
    ["nesting beyond the depth cap", "81".repeat(33) + "00", "CBOR_TOO_DEEP"],
    ["NaN", "f97e00", "CBOR_MALFORMED"],
    ["Infinity", "f97c00", "CBOR_MALFORMED"],
    ["undefined", "f7", "CBOR_MALFORMED"],
    ["simple value", "f0", "CBOR_MALFORMED"],
    ["reserved additional information", "1c", "CBOR_MALFORMED"],
  ])("%s", (_name, input, code) => {
    expect(failureCode(input)).toBe(code);
  });

  it("refuses an accepted tag with no content as truncated", () => {
    expect(failureCode("d2", [18])).toBe("CBOR_TRUNCATED");
  });

  it("refuses a wrong tag even where tag 18 is accepted", () => {
    expect(failureCode("d1a0", [18])).toBe("CBOR_TAG_UNSUPPORTED");
  });

  it("applies the 10 MiB cap by default and a caller's cap when given", () => {
    const big = new Uint8Array(COSE_MAX_BYTES + 1);
    const r = decodeStrictCbor(big);
    expect(r.ok ? "ok" : r.code).toBe("CBOR_TOO_LARGE");
    const small = decodeStrictCbor(cbor("abcdef"), { maxBytes: 4 });
    expect(small.ok ? "ok" : small.code).toBe("CBOR_TOO_LARGE");
  });

  it("applies a caller's depth cap", () => {
    const r = decodeStrictCbor(hex("818100"), { maxDepth: 1 });
    expect(r.ok ? "ok" : r.code).toBe("CBOR_TOO_DEEP");
  });

  it("reports where the fault is", () => {
    const r = decodeHex("820102ff");
    expect(r.ok ? "ok" : [r.code, r.path]).toEqual(["CBOR_TRAILING_BYTES", "@3"]);
  });
});

describe("typed readers", () => {
  it("readInt takes integers only: never booleans, floats or bigints", () => {
    expect(readInt(-7, "x")).toEqual({ ok: true, value: -7 });
    expect(readInt(true, "x")).toMatchObject({ ok: false, code: "CBOR_TYPE_MISMATCH", path: "x" });
    expect(readInt(new CborFloat(1), "x")).toMatchObject({ ok: false, code: "CBOR_TYPE_MISMATCH" });
    expect(readInt(undefined, "x")).toMatchObject({ ok: false, code: "CBOR_TYPE_MISMATCH" });
    expect(readInt(2n ** 60n, "x")).toMatchObject({ ok: false, code: "CBOR_INTEGER_RANGE" });
  });

  it("readUint refuses negative integers", () => {
    expect(readUint(0, "x")).toEqual({ ok: true, value: 0 });
    expect(readUint(-1, "x")).toMatchObject({ ok: false, code: "CBOR_INTEGER_RANGE" });
    expect(readUint(false, "x")).toMatchObject({ ok: false, code: "CBOR_TYPE_MISMATCH" });
  });

  it("readBytes, readText, readBool, readArray and readMap check their type", () => {
    const bytes = new Uint8Array([1]);
    expect(readBytes(bytes, "x")).toEqual({ ok: true, value: bytes });
    expect(readBytes("01", "x")).toMatchObject({ ok: false, code: "CBOR_TYPE_MISMATCH" });
    expect(readText("a", "x")).toEqual({ ok: true, value: "a" });
    expect(readText(bytes, "x")).toMatchObject({ ok: false, code: "CBOR_TYPE_MISMATCH" });
    expect(readBool(false, "x")).toEqual({ ok: true, value: false });
    expect(readBool(0, "x")).toMatchObject({ ok: false, code: "CBOR_TYPE_MISMATCH" });
    expect(readArray([], "x")).toEqual({ ok: true, value: [] });
    expect(readArray(new Map(), "x")).toMatchObject({ ok: false, code: "CBOR_TYPE_MISMATCH" });
    expect(readMap(new Map(), "x")).toEqual({ ok: true, value: new Map() });
    expect(readMap([], "x")).toMatchObject({ ok: false, code: "CBOR_TYPE_MISMATCH" });
  });

  it("describes values in failure details", () => {
    expect(describeCbor(true)).toBe("true");
    expect(describeCbor(new Uint8Array(33))).toBe("bstr(33)");
    expect(describeCbor(new CborFloat(2))).toBe("float 2");
    expect(describeCbor(new CborTagged(18, null))).toBe("tag 18");
    expect(describeCbor("x".repeat(50))).toBe(JSON.stringify(`${"x".repeat(40)}…`));
    expect(describeCbor(new Map())).toBe("map");
    expect(describeCbor([])).toBe("array");
    expect(describeCbor(undefined)).toBe("nothing");
  });
});

describe("the direct decoder agrees with cborg (a general CBOR library) on canonical encodings", () => {
  it("decodes what cborg encodes to the same values, across types, sizes and nesting", async () => {
    const fc = await import("fast-check");
    const { encode, decode } = await import("cborg");
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
        fc.bigInt({ min: -(2n ** 64n) + 1n, max: 2n ** 64n - 1n }),
        fc.string({ unit: "grapheme", maxLength: 30 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.boolean(),
        fc.constant(null),
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
        fc.array(tie("v"), { maxLength: 5 }),
        fc
          .uniqueArray(
            fc.tuple(fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.string({ maxLength: 8 })), tie("v")),
            { maxLength: 5, selector: (t) => t[0] },
          )
          .map((entries) => new Map(entries)),
      ),
    })).v;
    fc.assert(
      fc.property(value, (v) => {
        const bytes = encode(v, { mapSorter: () => 0 });
        const ours = decodeStrictCbor(bytes);
        expect(ours.ok, ours.ok ? "" : `${ours.code} ${ours.detail}`).toBe(true);
        const theirs = decode(bytes, { useMaps: true, allowBigInt: true });
        const plain = (x: unknown): unknown =>
          x instanceof CborFloat
            ? x.value
            : Array.isArray(x)
              ? x.map(plain)
              : x instanceof Map
                ? new Map([...x].map(([k, y]) => [k, plain(y)]))
                : typeof x === "bigint" && x >= -(2n ** 53n) + 1n && x <= 2n ** 53n - 1n
                  ? Number(x)
                  : x;
        expect(plain(ours.ok ? ours.value : undefined)).toEqual(plain(theirs));
      }),
      { numRuns: 500, seed: 20261201 },
    );
  });

  it('Sig_structure is byte for byte cborg\'s encoding of ["Signature1", protected, aad, payload]', async () => {
    const { encode } = await import("cborg");
    const { sigStructure } = await import("../../src/cose/sign1.js");
    for (const n of [0, 1, 23, 24, 255, 256, 65535, 65536, 70000]) {
      const a = new Uint8Array(n).fill(7);
      const b = new Uint8Array(n % 40).fill(1);
      expect(sigStructure(a, b, a)).toEqual(encode(["Signature1", a, b, a]));
    }
  });
});
