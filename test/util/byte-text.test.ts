/**
 * The conversions between bytes and text that call Node's own methods on a plain view
 * (`hexSlice`, `latin1Slice`, `hexWrite`, `utf8Write` of Buffer.prototype): the same text and bytes as the
 * Buffer way, for views at any offset of a larger buffer, with and without those methods.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type * as Bytes from "../../src/util/bytes.js";

type BytesModule = typeof Bytes;

/** A view of `n` bytes of every value, `offset` bytes into a larger buffer with other bytes around it. */
function viewOf(n: number, offset: number): Uint8Array {
  const backing = new Uint8Array(offset + n + 7).fill(0xa5);
  const view = backing.subarray(offset, offset + n);
  for (let i = 0; i < n; i++) view[i] = (i * 151 + offset) & 0xff;
  return view;
}

function checkAgainstBuffer(m: BytesModule): void {
  for (const n of [0, 1, 2, 31, 32, 33, 64, 255, 256, 1000])
    for (const offset of [0, 1, 13]) {
      const v = viewOf(n, offset);
      const asBuffer = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
      expect(m.bytesToHex(v), `${n}@${offset}`).toBe(asBuffer.toString("hex"));
      expect(m.bytesToLatin1(v), `${n}@${offset}`).toBe(asBuffer.toString("latin1"));
      const back = m.hexToBytes(asBuffer.toString("hex")) as Uint8Array;
      expect(back, `${n}@${offset}`).toEqual(new Uint8Array(asBuffer));
      // A plain array of its own, exactly its size: nothing of a pool or of another value behind it.
      expect([Buffer.isBuffer(back), back.byteOffset, back.buffer.byteLength]).toEqual([false, 0, n]);
    }
  // Every byte value, in both directions.
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  expect(m.bytesToLatin1(all)).toBe(String.fromCharCode(...all));
  expect(m.hexToBytes(m.bytesToHex(all))).toEqual(all);
  // hexToBytes is strict whichever way it decodes.
  // Short text is decoded in one pass, long text by Node after a check: both refuse the same.
  const long = "00".repeat(300);
  for (const bad of ["a", "0g", "AB", "0x00", " 00", "00 ", "é0", "\u0130", long + "0", long + "0G", "G0" + long])
    expect(m.hexToBytes(bad), bad.slice(0, 8)).toBeUndefined();
  for (const at of [0, 127, 128, 299])
    for (const bad of ["g", "A", "\u0000", "\u0660"]) {
      const s = `${"ab".repeat(at)}${bad}${"ab".repeat(300 - at)}`.slice(0, 600);
      expect(m.hexToBytes(s), `${at} ${JSON.stringify(bad)}`).toBeUndefined();
      expect(m.hexToBytes(s.slice(0, 200)), `${at} short`).toEqual(
        /^[0-9a-f]*$/.test(s.slice(0, 200)) ? new Uint8Array(Buffer.from(s.slice(0, 200), "hex")) : undefined,
      );
    }
}

const METHODS = ["hexSlice", "latin1Slice", "hexWrite", "utf8Write"] as const;
const saved = Object.fromEntries(METHODS.map((k) => [k, Object.getOwnPropertyDescriptor(Buffer.prototype, k)]));

afterEach(() => {
  for (const k of METHODS) Object.defineProperty(Buffer.prototype, k, saved[k] as PropertyDescriptor);
  vi.resetModules();
});

describe("bytes ↔ text through Node's view methods", () => {
  it("this Node has the four methods the fast path calls", () => {
    for (const k of METHODS) expect(typeof saved[k]?.value, k).toBe("function");
  });

  it("gives what Buffer gives", async () => {
    checkAgainstBuffer(await import("../../src/util/bytes.js"));
  });

  it("gives the same where Node lacks the methods (the Buffer way)", async () => {
    vi.resetModules();
    // Absent while the module loads, so it takes the Buffer way; back before anything is compared,
    // since Buffer's own toString uses them.
    for (const k of METHODS) delete (Buffer.prototype as unknown as Record<string, unknown>)[k];
    const m = (await import("../../src/util/bytes.js")) as BytesModule;
    for (const k of METHODS) Object.defineProperty(Buffer.prototype, k, saved[k] as PropertyDescriptor);
    checkAgainstBuffer(m);
  });
});
