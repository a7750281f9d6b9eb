/**
 * The digest helpers against node:crypto's streaming hash, for every input length up to a few
 * blocks past 1 KiB, split into parts at every offset class, and for text with lone surrogates
 * and astral characters: the latin1 copy of the digest must give every byte value back, 0x80 to
 * 0xff included.
 */
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256, sha256Hex, sha256HexOfText, sha256OfText } from "../../src/util/bytes.js";

const reference = (b: Uint8Array | string) => new Uint8Array(createHash("sha256").update(b).digest());

describe("sha256 against createHash", () => {
  it("agrees for every length 0..1100, whole and in two or three parts", () => {
    for (let len = 0; len <= 1100; len++) {
      const b = new Uint8Array(randomBytes(len));
      const want = reference(b);
      expect(sha256(b)).toEqual(want);
      const a = len >> 2;
      const c = len - (len >> 3);
      expect(sha256(b.subarray(0, a), b.subarray(a, c), b.subarray(c))).toEqual(want);
      expect(sha256Hex(b)).toBe(Buffer.from(want).toString("hex"));
    }
  });

  it("gives back every byte value in every position", () => {
    const seen = Array.from({ length: 32 }, () => new Set<number>());
    for (let i = 0; seen.some((s) => s.size < 256) && i < 200000; i++) {
      const d = sha256(new Uint8Array([i & 0xff, (i >> 8) & 0xff, (i >> 16) & 0xff]));
      expect(d).toHaveLength(32);
      d.forEach((x, k) => seen[k]?.add(x));
    }
    expect(seen.map((s) => s.size)).toEqual(Array(32).fill(256));
  });

  it("agrees for text as its UTF-8 bytes, lone surrogates as U+FFFD", () => {
    const texts = ["", "a", "\u00e9", "\u{1f600}", "\ud800", "x\udc00", "\u0000", "\u00ff".repeat(1000)];
    for (let k = 0; k < 500; k++) {
      texts.push(
        Array.from({ length: k % 40 }, () => String.fromCharCode(Math.floor(Math.random() * 0x10000))).join(""),
      );
    }
    for (const s of texts) {
      expect(sha256OfText(s)).toEqual(reference(s));
      expect(sha256HexOfText(s)).toBe(Buffer.from(reference(s)).toString("hex"));
    }
  });
});
