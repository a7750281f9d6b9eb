import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ownString } from "../../src/util/own-string.js";

describe("ownString", () => {
  it("is the same text for every string, lone surrogates and escapes included", () => {
    for (const s of ["", "a", "coreManifestDigest", "\ud800", "x\udc00y", '"\\\n\u0000', "\u{1f600}"])
      expect(ownString(s)).toBe(s);
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => ownString(s) === s),
      { numRuns: 2000 },
    );
  });
});
