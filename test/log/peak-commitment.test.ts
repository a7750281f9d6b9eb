/**
 * The peak-list commitment (§3.6): CLL `commitment-conformance-vectors/vectors.json` (12 cases),
 * cross-checked against KAT39's peak sets, plus the malformed encodings the decoder refuses.
 */
import { describe, expect, it } from "vitest";
import { bagPeaks, decodePeakCommitment, encodePeakCommitment, peakCommitmentRoot } from "../../src/log/mmr.js";
import { bytesToHex, hexToBytes } from "../../src/util/bytes.js";
import { describeExternal } from "../helpers/external.js";
import { arr, expectCode, get, hex, okValue, readVector, str } from "./fixtures.js";

const PEAK_A = new Uint8Array(32).fill(0xaa);
const PEAK_B = new Uint8Array(32).fill(0xbb);

function bytes(h: string): Uint8Array {
  return hexToBytes(h) as Uint8Array;
}

/**
 * How each must-fail case is caught. Its true accumulator is KAT39's peak set at mmr_index 25
 * (size 26, 4 peaks). Count errors are caught by the size alone; a reordered or altered peak
 * decodes, but bags to another root.
 */
const MUST_FAIL: Record<string, string> = {
  "reversed-peak-order": "ROOT_DIFFERS",
  "dropped-trailing-peak": "COMMITMENT_PEAK_COUNT_MISMATCH",
  "duplicated-trailing-peak": "COMMITMENT_PEAK_COUNT_MISMATCH",
  "bit-flipped-peak": "ROOT_DIFFERS",
  "indefinite-length-array-encoding": "COMMITMENT_INDEFINITE_LENGTH",
};
const MUST_FAIL_SIZE = 26;

describeExternal("cll", "peak-list commitment vectors (cll/commitment-conformance-vectors.json)", () => {
  const v = readVector("cll", "commitment-conformance-vectors.json");
  const kat = readVector("scitt-cose", "mmr", "kat39.json");
  const cases = arr(get(v, "cases"));
  const ofKind = (kind: string) => cases.filter((c) => get(c, "kind") === kind);

  it("has 12 cases: 7 positive, 5 must-fail", () => {
    expect(cases).toHaveLength(12);
    expect(ofKind("positive")).toHaveLength(7);
    expect(
      ofKind("must-fail")
        .map((c) => str(get(c, "name")))
        .sort(),
    ).toEqual(Object.keys(MUST_FAIL).sort());
  });

  it("encodes every positive byte-exactly and decodes it back", () => {
    for (const c of ofKind("positive")) {
      const peaks = arr(get(c, "peak_hashes")).map(hex);
      const encoded = str(get(c, "commitment_hex"));
      expect(bytesToHex(okValue(encodePeakCommitment(peaks))), str(get(c, "name"))).toBe(encoded);
      expect(okValue(decodePeakCommitment(bytes(encoded))).map(bytesToHex)).toEqual(peaks.map(bytesToHex));
    }
  });

  it("matches KAT39's peak sets (6 of the positives) and bags them for the KAT size", () => {
    const fromKat = ofKind("positive").flatMap((c) => {
      const m = /^kat39-mmr-index-(\d+)-/.exec(str(get(c, "name")));
      return m === null ? [] : [{ c, index: m[1] as string }];
    });
    expect(fromKat).toHaveLength(6);
    for (const { c, index } of fromKat) {
      expect(arr(get(c, "peak_hashes"))).toEqual(arr(get(get(kat, "peak_hashes"), index)));
      const root = okValue(peakCommitmentRoot(bytes(str(get(c, "commitment_hex"))), Number(index) + 1));
      expect(bytesToHex(root)).toBe(bytesToHex(bagPeaks(arr(get(c, "peak_hashes")).map(hex))));
    }
    expect(bytesToHex(okValue(peakCommitmentRoot(bytes("80"), 0)))).toBe("00".repeat(32));
  });

  it("rejects every must-fail case against its true accumulator", () => {
    for (const c of ofKind("must-fail")) {
      const name = str(get(c, "name"));
      const truePeaks = arr(get(c, "peak_hashes")).map(hex);
      const given = str(get(c, "commitment_hex"));
      expect(bytesToHex(okValue(encodePeakCommitment(truePeaks))), name).not.toBe(given);
      const r = peakCommitmentRoot(bytes(given), MUST_FAIL_SIZE);
      if (MUST_FAIL[name] === "ROOT_DIFFERS") {
        expect(bytesToHex(okValue(r)), name).not.toBe(bytesToHex(bagPeaks(truePeaks)));
      } else {
        expectCode(r, MUST_FAIL[name] as string);
      }
    }
  });
});

describe("peak-list commitment: malformed encodings", () => {
  const one = bytesToHex(PEAK_A);

  it("uses the one-byte count from 24 peaks on, and refuses more than 255", () => {
    const many = okValue(encodePeakCommitment(Array.from({ length: 24 }, () => PEAK_B)));
    expect(bytesToHex(many.subarray(0, 4))).toBe("98185820");
    expect(okValue(decodePeakCommitment(many))).toHaveLength(24);
    expectCode(encodePeakCommitment(Array.from({ length: 256 }, () => PEAK_B)), "COMMITMENT_TOO_MANY_PEAKS");
  });

  it("refuses a peak that is not 32 bytes when encoding", () => {
    expectCode(encodePeakCommitment([PEAK_A, new Uint8Array(31)]), "COMMITMENT_PEAK_MALFORMED");
  });

  it.each([
    ["empty input", "", "COMMITMENT_MALFORMED"],
    ["not an array (a bstr)", `5820${one}`, "COMMITMENT_MALFORMED"],
    ["indefinite length", `9f5820${one}ff`, "COMMITMENT_INDEFINITE_LENGTH"],
    ["non-minimal count", `98015820${one}`, "COMMITMENT_NOT_CANONICAL"],
    ["truncated one-byte count", "98", "COMMITMENT_MALFORMED"],
    ["two-byte count", "990100", "COMMITMENT_TOO_MANY_PEAKS"],
    ["reserved head", "9c", "COMMITMENT_MALFORMED"],
    ["truncated peak", `825820${one}5820aa`, "COMMITMENT_MALFORMED"],
    ["33-byte peak", `815821${one}aa`, "COMMITMENT_PEAK_MALFORMED"],
    ["non-minimal bstr head", `81590020${one}`, "COMMITMENT_PEAK_MALFORMED"],
    ["trailing bytes", `815820${one}00`, "COMMITMENT_TRAILING_BYTES"],
  ])("refuses %s", (_name, h, code) => {
    expectCode(decodePeakCommitment(bytes(h)), code);
  });

  it("refuses a commitment for an invalid size, and a peak count the size does not have", () => {
    const twoPeaks = okValue(encodePeakCommitment([PEAK_A, PEAK_B]));
    expectCode(peakCommitmentRoot(twoPeaks, 5), "MMR_SIZE_INVALID");
    expectCode(peakCommitmentRoot(twoPeaks, 3), "COMMITMENT_PEAK_COUNT_MISMATCH");
    expect(okValue(peakCommitmentRoot(twoPeaks, 4))).toHaveLength(32);
    expectCode(peakCommitmentRoot(bytes("9f"), 4), "COMMITMENT_INDEFINITE_LENGTH");
  });
});
