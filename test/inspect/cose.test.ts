/**
 * COSE headers as inspect prints them: CBOR diagnostic notation with the registered names, and
 * bounded — a hostile header's long strings, long arrays, wide maps and deep nesting are cut.
 */
import { describe, expect, it } from "vitest";
import { CborFloat, CborTagged, type CborMap, type CborValue } from "../../src/cose/cbor.js";
import { diagnostic, headerParameters } from "../../src/inspect/cose.js";

describe("CBOR diagnostic notation", () => {
  it("writes scalars, byte strings, text, floats, tags, arrays and maps", () => {
    const map: CborMap = new Map<string | number, CborValue>([
      [1, -8],
      ["x", "y"],
    ]);
    expect(
      diagnostic([
        0,
        -1,
        true,
        false,
        null,
        new Uint8Array([1, 2]),
        't"',
        new CborFloat(1),
        new CborFloat(1.5),
        new CborTagged(18, [1]),
        map,
      ]),
    ).toBe(`[0, -1, true, false, null, h'0102', "t\\"", 1.0, 1.5, 18([1]), {1: -8, "x": "y"}]`);
  });

  it("cuts what an attacker makes long, wide or deep", () => {
    expect(diagnostic(new Uint8Array(100))).toBe(`h'${"00".repeat(64)}…' (100 bytes)`);
    expect(diagnostic("a".repeat(500))).toBe(JSON.stringify(`${"a".repeat(120)}…`));
    expect(diagnostic(Array.from({ length: 25 }, (_, i) => i))).toBe(
      `[${Array.from({ length: 20 }, (_, i) => i).join(", ")}, … and 5 more]`,
    );
    const wide: CborMap = new Map(Array.from({ length: 30 }, (_, i): [number, CborValue] => [i, i]));
    expect(diagnostic(wide)).toMatch(/, … and 10 more\}$/);
    let deep: CborValue = 1;
    for (let i = 0; i < 50; i++) deep = [deep];
    expect(diagnostic(deep)).toBe("[[[[[[…]]]]]]");
  });

  it("names the header labels and annotates alg and vds", () => {
    const header: CborMap = new Map<number, CborValue>([
      [395, 2],
      [1, -7],
      [4, new Uint8Array([0xab])],
      [396, new Map<number, CborValue>([[-1, [new Uint8Array([1])]]])],
      [99, 0],
    ]);
    expect(headerParameters(header)).toEqual([
      { label: "395", name: "vds", value: "2 (CCF_LEDGER_SHA256)" },
      { label: "1", name: "alg", value: "-7 (ES256)" },
      { label: "4", name: "kid", value: "h'ab'" },
      { label: "396", name: "vdp", value: "{-1 /inclusion proofs/: [h'01']}" },
      { label: "99", name: null, value: "0" },
    ]);
    const many: CborMap = new Map(Array.from({ length: 25 }, (_, i): [number, CborValue] => [i + 100, i]));
    const listed = headerParameters(many);
    expect(listed).toHaveLength(21);
    expect(listed[20]).toEqual({ label: "…", name: null, value: "and 5 more parameter(s)" });
  });
});
