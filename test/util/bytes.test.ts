import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  be64,
  bytesToHex,
  protoJsonBytes,
  hex64ToBytes,
  sha256,
  sha256Hex,
  sha256HexOfText,
  sha256OfText,
  utf8,
} from "../../src/util/bytes.js";
import { hashParts } from "../helpers/hash-parts.js";

const reference = (...parts: Uint8Array[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex");
};
const bytes = (n: number, seed: number) => new Uint8Array(n).map((_, i) => (i * 31 + seed) & 0xff);

describe("sha256 of several parts", () => {
  it("equals the hash of their concatenation, below, at and above the joining buffer's size", () => {
    for (const total of [0, 1, 65, 4095, 4096, 4097, 10_000]) {
      const a = bytes(Math.floor(total / 3), 1);
      const b = bytes(total - 2 * Math.floor(total / 3), 2);
      const c = bytes(Math.floor(total / 3), 3);
      expect(bytesToHex(sha256(a, b, c)), String(total)).toBe(reference(a, b, c));
      expect(sha256Hex(a, b, c), String(total)).toBe(reference(a, b, c));
    }
  });

  it("gives the digest's every byte value back as it is: 32 bytes, each the byte the hash wrote", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const input = bytes(i % 97, i);
      const d = sha256(input);
      expect(d).toBeInstanceOf(Uint8Array);
      expect(d.length).toBe(32);
      expect(bytesToHex(d)).toBe(reference(input));
      const text = String.fromCharCode(...bytes(i % 50, i));
      expect(bytesToHex(sha256OfText(text))).toBe(reference(utf8(text)));
      for (const b of d) seen.add(b);
    }
    // Every value a byte can take, the ones latin1 writes above U+007F included, came back.
    expect(seen.size).toBe(256);
  });

  it("gives each call its own digest: a result does not change when the next hash is taken", () => {
    const first = sha256(bytes(32, 1), bytes(32, 2));
    const copy = first.slice();
    const second = sha256(bytes(32, 3), bytes(32, 4));
    expect(first).toEqual(copy);
    expect(bytesToHex(second)).toBe(reference(bytes(32, 3), bytes(32, 4)));
    expect(bytesToHex(sha256(bytes(5, 9)))).toBe(reference(bytes(5, 9)));
  });
});

describe("sha256 of one to four parts", () => {
  const arities = [1, 2, 3, 4] as const;
  const split = (total: number, k: number, seed: number) =>
    Array.from({ length: k }, (_, i) => {
      const from = Math.floor((total * i) / k);
      return bytes(Math.floor((total * (i + 1)) / k) - from, seed + i);
    });

  it("each arity equals the hash of the concatenation, below, at and above the joining buffer's size", () => {
    for (const k of arities)
      for (const total of [0, 1, 33, 65, 72, 97, 4095, 4096, 4097, 8192, 10_000]) {
        const parts = split(total, k, total);
        const want = reference(...parts);
        expect(bytesToHex(hashParts(sha256, parts)), `${k} parts, ${total} bytes`).toBe(want);
        expect(hashParts(sha256Hex, parts), `${k} parts, ${total} bytes`).toBe(want);
      }
  });

  it("hashes empty parts as nothing, wherever they stand, and one part larger than the buffer alone or with others", () => {
    const empty = new Uint8Array(0);
    const big = bytes(5000, 9);
    const small = bytes(31, 4);
    for (const parts of [
      [empty],
      [empty, empty],
      [empty, small],
      [small, empty, small],
      [empty, empty, empty, small],
      [small, empty, empty, empty],
      [big],
      [big, empty],
      [empty, big, small],
      [small, small, big, small],
      [big, big, big, big],
      [bytes(4095, 1), bytes(1, 2)],
      [bytes(4095, 1), bytes(1, 2), empty, bytes(1, 3)],
    ]) {
      const label = parts.map((p) => p.length).join("+");
      expect(bytesToHex(hashParts(sha256, parts)), label).toBe(reference(...parts));
      expect(hashParts(sha256Hex, parts), label).toBe(reference(...parts));
    }
  });

  it("takes an absent part as empty, also before a given one", () => {
    const [a, b, c] = [bytes(40, 1), bytes(33, 2), bytes(7, 3)];
    expect(bytesToHex(sha256(a, undefined, c))).toBe(reference(a, c));
    expect(bytesToHex(sha256(a, b, undefined, c))).toBe(reference(a, b, c));
    expect(sha256Hex(a, undefined, undefined, c)).toBe(reference(a, c));
    expect(sha256Hex(a, undefined, b)).toBe(reference(a, b));
  });

  it("hashes a counter and two nodes as an MMR interior node does, for any counter", () => {
    for (const n of [0, 1, 255, 256, 2 ** 32 - 1, 2 ** 32, 2 ** 50 - 1, Number.MAX_SAFE_INTEGER]) {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(BigInt(n));
      expect(bytesToHex(be64(n)), String(n)).toBe(counter.toString("hex"));
      for (const [l, r] of [
        [32, 32],
        [0, 0],
        [2044, 2044],
        [2045, 2044],
        [5000, 7],
      ] as const) {
        const left = bytes(l, n % 251);
        const right = bytes(r, 7);
        expect(bytesToHex(sha256(be64(n), left, right)), `${n} ${l}/${r}`).toBe(reference(counter, left, right));
      }
    }
  });

  it("gives each call its own digest, whatever the arity of the next", () => {
    const kept = arities.map((k) => {
      const parts = split(96, k, k);
      return { digest: hashParts(sha256, parts), want: reference(...parts) };
    });
    for (const k of arities) hashParts(sha256, split(120, k, 50 + k));
    for (const { digest, want } of kept) expect(bytesToHex(digest)).toBe(want);
  });
});

describe("hex64ToBytes", () => {
  it("decodes exactly 64 lowercase hex characters and nothing else", () => {
    const hex = "00ff".repeat(16);
    expect(bytesToHex(hex64ToBytes(hex) as Uint8Array)).toBe(hex);
    expect(hex64ToBytes(hex)?.length).toBe(32);
    for (const bad of [
      hex.toUpperCase(),
      hex.slice(2),
      `${hex}00`,
      ` ${hex.slice(1)}`,
      `0x${hex.slice(2)}`,
      7,
      null,
      undefined,
    ])
      expect(hex64ToBytes(bad), String(bad)).toBeUndefined();
  });

  it("agrees with the grammar and Node's hex decoder on every unit at every position", () => {
    const hex = "0123456789abcdef".repeat(4);
    // Each unit that borders or imitates a hex digit, and some far from it.
    const units = [
      "/",
      ":",
      "@",
      "`",
      "g",
      "A",
      "F",
      "G",
      "0",
      "9",
      "a",
      "f",
      "\u0000",
      "\u00e9",
      "\u0660",
      "\uff10",
      "\ud800",
    ];
    const oracle = (s: string) => (/^[0-9a-f]{64}$/.test(s) ? new Uint8Array(Buffer.from(s, "hex")) : undefined);
    for (let at = 0; at < 64; at++)
      for (const u of units) {
        const s = hex.slice(0, at) + u + hex.slice(at + 1);
        expect([s, hex64ToBytes(s)]).toEqual([s, oracle(s)]);
      }
    // Every byte value decodes.
    for (let v = 0; v < 256; v++) {
      const s = v.toString(16).padStart(2, "0").repeat(32);
      expect(hex64ToBytes(s)).toEqual(new Uint8Array(32).fill(v));
    }
  });
});

describe("sha256 of a string", () => {
  it("is the hash of its UTF-8 bytes, a lone surrogate written as U+FFFD exactly as utf8() writes it", () => {
    for (const s of ["", "abc", "é€𝄞", "a\ud800b", "\udc00", "x".repeat(10_000)]) {
      expect(sha256HexOfText(s), JSON.stringify(s.slice(0, 8))).toBe(reference(utf8(s)));
      expect(bytesToHex(sha256OfText(s))).toBe(reference(utf8(s)));
    }
    expect(sha256HexOfText("a\ud800b")).toBe(reference(Uint8Array.of(0x61, 0xef, 0xbf, 0xbd, 0x62)));
  });
});

describe("a ProtoJSON bytes value (standard or URL-safe base64, padded or not)", () => {
  const hex = (s: string) => {
    const b = protoJsonBytes(s);
    return b === undefined ? undefined : bytesToHex(b);
  };

  it("reads every spelling ProtoJSON parsers accept as the same bytes", () => {
    for (const s of ["+/8=", "+/8", "-_8=", "-_8"]) expect(hex(s), s).toBe("fbff");
    expect(hex("")).toBe("");
    expect(hex("QUJD")).toBe("414243");
    expect(hex("QQ")).toBe("41");
  });

  it("refuses mixed alphabets, stray characters, wrong padding and non-zero trailing bits", () => {
    for (const s of ["+_8=", "+/8 ", "+/8===", "QQ=", "Q", "Q===", "QUJD=", "+/9", "QR==", "Q=Q="])
      expect(hex(s), s).toBeUndefined();
  });
});
