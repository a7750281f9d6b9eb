/**
 * The parser's, hashing's and decoding's fast paths must compute exactly what their definitions
 * do. Each is held here to an independent statement of the rule, on many generated inputs:
 *   - a JSON string (RFC 8259 §7, with this parser's refusals: raw controls, lone surrogates raw
 *     or escaped, an escaped high surrogate joined to a raw low one), read by a small reference
 *     decoder written from the grammar, given as text and as UTF-8 bytes;
 *   - SHA-256 of several parts, against node:crypto's streaming hash, parts aliasing each other,
 *     every size around the joining buffer's, results kept and re-checked after later calls;
 *   - 64-hex ids, against the grammar and a fresh decode; and what a run keeps of an input
 *     across all inputs (its checkpoints' bytes) owns its memory, not a view of a shared pool;
 *   - parsed objects against objects built with Object.create(null) and from plain values: the
 *     same members, canonical forms, equality and copies.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseStrictJson } from "../../src/json/strict-json.js";
import {
  fromPlain,
  isJsonObject,
  jsonEquals,
  member,
  toPlain,
  type JsonObject,
  type JsonValue,
} from "../../src/json/value.js";
import { pyjson } from "../../src/canon/pyjson.js";
import { jcs } from "../../src/canon/jcs.js";
import { bytesToHex, hex64ToBytes, sha256, sha256Hex } from "../../src/util/bytes.js";
import { hashParts } from "../helpers/hash-parts.js";
import { openRun } from "../../src/run.js";
import { REPO_ROOT } from "../helpers/external.js";

/** A small deterministic generator, so a failure names a case that can be run again. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Decoded = { ok: true; value: string } | { ok: false; code: string };

const isWhitespace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
const hex4 = (t: string, at: number) =>
  /^[0-9A-Fa-f]{4}$/.test(t.slice(at, at + 4)) ? parseInt(t.slice(at, at + 4), 16) : -1;

/** A document that is one JSON string, decoded from the grammar, first fault first. */
function reference(doc: string): Decoded {
  const ESCAPES: Record<string, string> = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    b: "\b",
    f: "\f",
    n: "\n",
    r: "\r",
    t: "\t",
  };
  let out = "";
  let p = 1;
  for (;;) {
    if (p >= doc.length) return { ok: false, code: "JSON_SYNTAX" };
    const c = doc.charCodeAt(p);
    if (c === 0x22) break;
    if (c < 0x20) return { ok: false, code: "JSON_CONTROL_CHARACTER" };
    if (isHigh(c)) {
      if (!isLow(doc.charCodeAt(p + 1))) return { ok: false, code: "JSON_LONE_SURROGATE" };
      out += doc.slice(p, p + 2);
      p += 2;
      continue;
    }
    if (isLow(c)) return { ok: false, code: "JSON_LONE_SURROGATE" };
    if (c !== 0x5c) {
      out += doc[p];
      p++;
      continue;
    }
    const e = doc[p + 1] ?? "";
    if (e !== "u") {
      if (!(e in ESCAPES)) return { ok: false, code: "JSON_SYNTAX" };
      out += ESCAPES[e];
      p += 2;
      continue;
    }
    const hi = hex4(doc, p + 2);
    if (hi < 0) return { ok: false, code: "JSON_SYNTAX" };
    if (isLow(hi)) return { ok: false, code: "JSON_LONE_SURROGATE" };
    if (!isHigh(hi)) {
      out += String.fromCharCode(hi);
      p += 6;
      continue;
    }
    if (doc.slice(p + 6, p + 8) !== "\\u") return { ok: false, code: "JSON_LONE_SURROGATE" };
    const lo = hex4(doc, p + 8);
    if (lo < 0) return { ok: false, code: "JSON_SYNTAX" };
    if (!isLow(lo)) return { ok: false, code: "JSON_LONE_SURROGATE" };
    out += String.fromCharCode(hi, lo);
    p += 12;
  }
  for (let q = p + 1; q < doc.length; q++)
    if (!isWhitespace(doc.charCodeAt(q))) return { ok: false, code: "JSON_TRAILING_DATA" };
  return { ok: true, value: out };
}

/** No lone surrogate: the text has a UTF-8 form. */
const wellFormed = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

function parsed(input: string | Uint8Array): Decoded {
  const r = parseStrictJson(input);
  if (!r.ok) return { ok: false, code: r.code };
  if (typeof r.value !== "string") throw new Error("not a string");
  return { ok: true, value: r.value };
}

/** Code units and sequences at every boundary the fast path draws. */
const UNITS = [
  ...["a", "Z", " ", "~", "\u007f", "é", "\u2028", "\ufeff", "\uffff", "😀", "/", "u", "0", "d", "8", "{", ":", "["],
  ...['"', "\\", "\u0000", "\u0009", "\u000a", "\u001f", "\u0020"],
  ...["\ud800", "\udbff", "\udc00", "\udfff"],
  ...["\\u", "\\ud800", "\\udbff", "\\udc00", "\\u0041", "\\u00e9", '\\"', "\\\\", "\\/", "\\n", "\\x", "\\U0041"],
];

describe("the strict parser's strings", () => {
  it("decode as the grammar says, fault codes included, from text and from UTF-8 bytes", () => {
    const next = generator(0x5eed);
    let accepted = 0;
    for (let i = 0; i < 60_000; i++) {
      let body = "";
      const length = Math.floor(next() * 12);
      for (let j = 0; j < length; j++) body += UNITS[Math.floor(next() * UNITS.length)];
      const doc = `"${body}${next() < 0.9 ? '"' : ""}${next() < 0.2 ? " \n" : ""}`;
      const want = reference(doc);
      expect(parsed(doc), JSON.stringify(doc)).toEqual(want);
      if (wellFormed(doc)) expect(parsed(new TextEncoder().encode(doc)), JSON.stringify(doc)).toEqual(want);
      if (want.ok) {
        accepted++;
        // The same string as a member name and as an array element.
        const r = parseStrictJson(`{${doc.trimEnd()}:[${doc.trimEnd()}]}`);
        expect(r.ok && isJsonObject(r.value) && Object.keys(r.value)).toEqual([want.value]);
      }
    }
    // Both outcomes are reached often: the generator is not only making faults.
    expect(accepted).toBeGreaterThan(10_000);
    expect(accepted).toBeLessThan(50_000);
  });

  it("end a long plain run at whatever follows it: a quote, an escape, a control, a surrogate, the end", () => {
    const run = "A".repeat(1 << 18);
    for (const tail of ['"', '\\n"', '\u0001"', '\ud83d\ude00"', '\ud800"', '\udc00"', "", "\\", '\\"']) {
      const doc = `"${run}${tail}`;
      expect(parsed(doc), JSON.stringify(tail)).toEqual(reference(doc));
    }
  });
});

describe("sha256 of several parts", () => {
  const streamed = (parts: Uint8Array[]) => {
    const h = createHash("sha256");
    for (const p of parts) h.update(p);
    return h.digest("hex");
  };

  it("is the hash of the concatenation for any parts, aliasing ones included, and each result stays its own", () => {
    const next = generator(42);
    const pool = new Uint8Array(9000).map(() => Math.floor(next() * 256));
    const kept: Array<{ digest: Uint8Array; want: string }> = [];
    for (let i = 0; i < 3000; i++) {
      const parts: Uint8Array[] = [];
      // One to four parts (the most the hash takes); none stands for one empty part.
      const count = Math.floor(next() * 5);
      for (let j = 0; j < count; j++) {
        // Sizes cluster around the joining buffer's 4096 bytes; parts are views that overlap.
        const size =
          next() < 0.5 ? Math.floor(next() * 64) : 4096 - 64 + Math.floor(next() * 128) - Math.floor(next() * 4096);
        const from = Math.floor(next() * (pool.length - Math.max(0, size)));
        parts.push(pool.subarray(from, from + Math.max(0, size)));
      }
      if (count === 0) parts.push(pool.subarray(0, 0));
      if (count > 1 && next() < 0.2) parts[count - 1] = parts[0] as Uint8Array;
      const want = streamed(parts);
      expect(hashParts(sha256Hex, parts)).toBe(want);
      const digest = hashParts(sha256, parts);
      expect(bytesToHex(digest)).toBe(want);
      kept.push({ digest, want });
      // A digest used as a part of the next hash, as proofs do.
      const after = [digest, ...parts.slice(0, 3)];
      expect(hashParts(sha256Hex, after)).toBe(streamed(after));
    }
    for (const { digest, want } of kept) expect(bytesToHex(digest)).toBe(want);
  });
});

describe("64-hex ids", () => {
  it("decode exactly the grammar's strings, to the bytes a fresh decode gives", () => {
    const next = generator(7);
    const alphabet = "0123456789abcdef".repeat(8) + "ABCDEFg \n-x";
    for (let i = 0; i < 5000; i++) {
      const length = next() < 0.8 ? 64 : Math.floor(next() * 70);
      let s = "";
      for (let j = 0; j < length; j++) s += alphabet[Math.floor(next() * alphabet.length)];
      const want = /^[0-9a-f]{64}$/.test(s) ? Uint8Array.from(Buffer.from(s, "hex")) : undefined;
      const got = hex64ToBytes(s);
      expect(got === undefined ? undefined : Uint8Array.from(got), s).toEqual(want);
    }
    expect(hex64ToBytes(`${"ab".repeat(32)}\n`)).toBeUndefined();
  });

  it("a run keeps of each input, until every input is compared, its checkpoints' statements: no bytes, no views", () => {
    const folder = join(REPO_ROOT, "vectors", "valid-capture");
    const opened = openRun({ trust: new Uint8Array(readFileSync(join(folder, "trust.json"))) });
    if (!opened.ok) throw new Error("the run did not open");
    const run = opened.run;
    const loaded = run.load({ source: "a", data: new Uint8Array(readFileSync(join(folder, "input.json"))) });
    const sighting = run.sighting("a", loaded);
    const checkpoints = [sighting?.current, sighting?.prior];
    expect(checkpoints.every((c) => c !== undefined)).toBe(true);
    for (const cp of checkpoints) {
      if (cp === undefined) continue;
      // Strings and numbers only: nothing in it is a view of the input or of a buffer of its own.
      expect(Object.keys(cp).sort()).toEqual(["keyIdHex", "logId", "mmrSize", "prevRoot", "prevSize", "root"]);
      for (const v of Object.values(cp)) expect(["string", "number"]).toContain(v === null ? "number" : typeof v);
      expect(cp.root).toMatch(/^[0-9a-f]{64}$/);
      expect(cp.keyIdHex).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

describe("parsed objects", () => {
  const text = '{"b":[1,{"__proto__":{"x":1},"constructor":"c","2":true,"10":null}],"a":"é","1":{}}';

  /** The document built by hand, member by member, as older code and tests build objects. */
  function byHand(): JsonObject {
    const inner = Object.create(null) as JsonObject;
    Object.defineProperty(inner, "__proto__", {
      value: fromPlain({ x: 1 }),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    (inner as Record<string, JsonValue>)["constructor"] = "c";
    inner["2"] = true;
    inner["10"] = null;
    const root = Object.create(null) as JsonObject;
    root.b = [fromPlain(1), inner];
    root.a = "é";
    root["1"] = Object.create(null) as JsonObject;
    return root;
  }

  it("equal objects built with Object.create(null) in members, order, canonical forms and copies", () => {
    const r = parseStrictJson(text);
    if (!r.ok || !isJsonObject(r.value)) throw new Error("did not parse");
    const v = r.value;
    const hand = byHand();
    expect(jsonEquals(v, hand)).toBe(true);
    expect(jsonEquals(hand, v)).toBe(true);
    expect(JSON.stringify(toPlain(v))).toBe(JSON.stringify(toPlain(hand)));
    expect(Object.keys(v)).toEqual(Object.keys(hand));
    expect(Object.keys(v)).toEqual(["1", "b", "a"]);
    const pv = pyjson(v);
    const ph = pyjson(hand);
    expect(pv.ok && ph.ok && pv.value.text).toBe(ph.ok && ph.value.text);
    expect(jcs(v)).toEqual(jcs(hand));
    // A member named __proto__ is data, not the prototype; nothing is inherited through it.
    const inner = (member(v, "b") as unknown[])[1] as JsonObject;
    expect(isJsonObject(member(inner, "__proto__"))).toBe(true);
    expect((inner as Record<string, unknown>).x).toBeUndefined();
    expect(Object.getPrototypeOf(inner)).toBe(Object.getPrototypeOf(v));
    // A structured copy (what crosses to a worker thread) has the same members, in order.
    const copied = structuredClone(v) as unknown;
    expect(JSON.stringify(copied)).toBe(JSON.stringify(v));
    expect(JSON.stringify(v)).toBe(JSON.stringify(hand));
  });

  it("do not share members: writing to one parsed object, or to the shared prototype, changes no other", () => {
    const one = parseStrictJson('{"a":1}');
    const two = parseStrictJson('{"b":2}');
    if (!one.ok || !two.ok || !isJsonObject(one.value) || !isJsonObject(two.value)) throw new Error("did not parse");
    one.value.c = "x";
    expect(Object.keys(two.value)).toEqual(["b"]);
    expect("c" in two.value).toBe(false);
    expect(() => Object.defineProperty(Object.getPrototypeOf(two.value) as object, "c", { value: 1 })).toThrow(
      TypeError,
    );
    expect(Reflect.setPrototypeOf(Object.getPrototypeOf(two.value) as object, Object.prototype)).toBe(false);
    expect("toString" in two.value).toBe(false);
  });
});
