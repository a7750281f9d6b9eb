/**
 * The signed-note parsing rules, as golang.org/x/mod/sumdb/note states them (`isValidName`,
 * `NewVerifier`, `Open`), and where this verifier is deliberately stricter.
 */
import { describe, expect, it } from "vitest";
import {
  isValidKeyName,
  noteKeyId,
  parseSignatureLine,
  parseVerifierKey,
  SIGNATURE_TYPE_COSIGNATURE_V1,
} from "../../src/witness/note.js";
import { bytesToBase64, bytesToHex, concatBytes } from "../../src/util/bytes.js";

const KEY = new Uint8Array(32).fill(7);
const vkeyOf = (name: string, type: number, key = KEY) =>
  `${name}+${bytesToHex(noteKeyId(name, type, key))}+${bytesToBase64(concatBytes(Uint8Array.of(type), key))}`;
const codeOf = (r: { ok: boolean; code?: string }) => (r.ok ? "ok" : r.code);

describe("key names (Go isValidName)", () => {
  it.each([
    ["witness.example/w1", true],
    ["", false],
    ["a+b", false],
    ["a b", false],
    ["a\tb", false],
    // Go's unicode.IsSpace: NEL and NBSP in Latin-1, the White_Space property above it.
    ["a\u0085b", false],
    ["a\u00a0b", false],
    ["a\u2003b", false],
    ["a\u3000b", false],
    // Not white space for Go (JavaScript's \s would wrongly refuse it).
    ["a\ufeffb", true],
    ["a\u0001b", false],
    ["café.example", true],
  ])("%j → %s", (name, valid) => expect(isValidKeyName(name)).toBe(valid));
});

describe("signature lines (Go note.Open)", () => {
  it("the name ends at the first space; the rest must be base64 of at least 5 bytes", () => {
    const five = bytesToBase64(Uint8Array.of(1, 2, 3, 4, 5));
    const r = parseSignatureLine(`— n ${five}`);
    expect(r.ok && { name: r.value.name, keyId: r.value.keyIdHex, rest: bytesToHex(r.value.signature) }).toEqual({
      name: "n",
      keyId: "01020304",
      rest: "05",
    });
    expect(codeOf(parseSignatureLine(`— n ${bytesToBase64(Uint8Array.of(1, 2, 3, 4))}`))).toBe("NOTE_LINE_MALFORMED");
    expect(codeOf(parseSignatureLine("— n "))).toBe("NOTE_LINE_MALFORMED");
    expect(codeOf(parseSignatureLine(`— n ${five} `))).toBe("NOTE_LINE_MALFORMED");
    expect(codeOf(parseSignatureLine(`—  n ${five}`))).toBe("NOTE_KEY_NAME_INVALID");
    expect(codeOf(parseSignatureLine(`—n ${five}`))).toBe("NOTE_LINE_MALFORMED");
  });

  it("stricter than Go's StdEncoding: non-zero trailing bits (a second encoding of the same bytes) are refused", () => {
    // "AQIDBAU=" and "AQIDBAV=" decode to the same 5 bytes in a lenient decoder.
    expect(codeOf(parseSignatureLine("— n AQIDBAU="))).toBe("ok");
    expect(codeOf(parseSignatureLine("— n AQIDBAV="))).toBe("NOTE_LINE_MALFORMED");
  });

  it("no control character anywhere, including the LF a note line would end with", () => {
    expect(codeOf(parseSignatureLine("— n AQIDBAU=\n"))).toBe("NOTE_LINE_MALFORMED");
    expect(codeOf(parseSignatureLine("— n\u0000 AQIDBAU="))).toBe("NOTE_LINE_MALFORMED");
    expect(codeOf(parseSignatureLine("— n\ud800 AQIDBAU="))).toBe("NOTE_LINE_MALFORMED");
  });
});

describe("verifier keys (Go NewVerifier)", () => {
  it("split on the first two '+' only; the key ID must be SHA-256(name ‖ LF ‖ type ‖ key)[:4]", () => {
    const v = parseVerifierKey(vkeyOf("w", SIGNATURE_TYPE_COSIGNATURE_V1));
    expect(v.ok && v.value.type).toBe(SIGNATURE_TYPE_COSIGNATURE_V1);
    const wrongId = vkeyOf("w", SIGNATURE_TYPE_COSIGNATURE_V1).replace(/\+[0-9a-f]{8}\+/, "+00000000+");
    expect(codeOf(parseVerifierKey(wrongId))).toBe("VKEY_KEY_ID_MISMATCH");
  });

  it("refuses what Go refuses, and upper-case key IDs (which Go accepts)", () => {
    const good = vkeyOf("w", 0x01);
    expect(
      codeOf(parseVerifierKey(good.replace(/\+([0-9a-f]{8})\+/, (_, id: string) => `+${id.toUpperCase()}+`))),
    ).toBe("VKEY_MALFORMED");
    expect(codeOf(parseVerifierKey("w+1234567+AQ=="))).toBe("VKEY_MALFORMED");
    expect(codeOf(parseVerifierKey("w"))).toBe("VKEY_MALFORMED");
    expect(codeOf(parseVerifierKey(`+${good.slice(2)}`))).toBe("NOTE_KEY_NAME_INVALID");
    expect(codeOf(parseVerifierKey(vkeyOf("w", 0x02)))).toBe("VKEY_TYPE_UNSUPPORTED");
    expect(codeOf(parseVerifierKey(vkeyOf("w", 0x01, new Uint8Array(31))))).toBe("VKEY_MALFORMED");
    expect(codeOf(parseVerifierKey(`${good.slice(0, -1)}A`))).not.toBe("ok");
  });
});
