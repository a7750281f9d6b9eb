/**
 * The text report's wrapping and its printable fields take shortcuts for the common case (a
 * detail that fits its line, a field with nothing to escape); checked here against the plain
 * definitions on many random texts: the same lines, the same escapes.
 */
import { describe, expect, it } from "vitest";
import { wrapped } from "../../src/report/text.js";
import { printable, printableField } from "../../src/util/printable.js";

/** The plain definition: words cut at spaces, a word longer than its line cut where it must. */
function reference(head: string, text: string, width: number, whole: boolean, indent = head.length): string[] {
  const room = (used: number) => Math.max(width - used, 24);
  const [first, rest] = [room(head.length), room(indent)];
  const lines: string[] = [];
  let line: string[] = [];
  const roomNow = () => (lines.length === 0 ? first : rest);
  for (const w of text.split(" ")) {
    let chars = [...w];
    if (line.length > 0 && line.length + 1 + chars.length > roomNow()) {
      lines.push(line.join(""));
      line = [];
    } else if (line.length > 0) line.push(" ");
    while (!whole && line.length + chars.length > roomNow()) {
      const cut = roomNow() - line.length;
      lines.push([...line, ...chars.slice(0, cut)].join(""));
      line = [];
      chars = chars.slice(cut);
    }
    line.push(...chars);
  }
  const all = [...lines, line.join("")];
  return [`${head}${all[0]}`, ...all.slice(1).map((l) => `${" ".repeat(indent)}${l}`)];
}

/** A deterministic sequence of random numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const ALPHABET = ["a", "b", " ", " ", "\u00a0", "\u3000", "\u0007", "\u202e", "é", "\ud83d\ude00", "0"];

function text(next: () => number, max: number): string {
  let t = "";
  const length = Math.floor(next() * max);
  for (let i = 0; i < length; i++) t += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return t;
}

describe("the text report's shortcuts", () => {
  it("wraps every text as the plain definition does", () => {
    const next = random(7);
    for (let i = 0; i < 20_000; i++) {
      const t = text(next, 160).replace(/[^ab0 ]/g, next() < 0.5 ? "a" : "\ud83d\ude00");
      const head = "  ".padEnd(Math.floor(next() * 40));
      const width = 20 + Math.floor(next() * 100);
      const whole = next() < 0.3;
      const indent = next() < 0.5 ? undefined : Math.floor(next() * 10);
      expect(wrapped(head, t, { width, verbose: whole }, indent)).toEqual(reference(head, t, width, whole, indent));
    }
  });

  it("escapes as the plain definition does", () => {
    const next = random(11);
    const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
    const esc = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
    for (let i = 0; i < 20_000; i++) {
      const t = text(next, 40);
      const plain = t.replace(UNPRINTABLE, esc);
      expect(printable(t)).toBe(plain);
      expect(printableField(t)).toBe(
        plain.replace(/\p{Zs}{3,}/gu, (run) => run.slice(0, 2) + [...run.slice(2)].map(esc).join("")),
      );
    }
  });
});
