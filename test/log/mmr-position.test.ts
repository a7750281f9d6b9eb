/** MMR position math (§3.1), against the spec's tables and the link-walking test builder. */
import { describe, expect, it } from "vitest";
import { MAX_MMR_SIZE, heightOf, leafCount, leafPosition, nodeCount, peaks } from "../../src/log/mmr.js";
import { POW2 } from "../../src/log/mmr-position.js";
import { TestMmr } from "./mmr-builder.js";
import { expectCode, okValue } from "./fixtures.js";

describe("MMR position math", () => {
  it("maps leaf counts to node counts as §3.1's table says", () => {
    const table: [number, number][] = [
      [0, 0],
      [1, 1],
      [2, 3],
      [3, 4],
      [4, 7],
      [5, 8],
      [6, 10],
      [7, 11],
      [12, 22],
      [21, 39],
    ];
    for (const [leaves, size] of table) {
      expect(nodeCount(leaves), `${leaves} leaves`).toBe(size);
      expect(okValue(leafCount(size))).toBe(leaves);
    }
  });

  it("gives §3.1's 7-leaf example: heights 0 0 1 0 0 1 2 0 0 1 0, peaks [6, 9, 10]", () => {
    expect(Array.from({ length: 11 }, (_, pos) => heightOf(pos))).toEqual([0, 0, 1, 0, 0, 1, 2, 0, 0, 1, 0]);
    expect(okValue(peaks(11))).toEqual([6, 9, 10]);
    expect(okValue(peaks(0))).toEqual([]);
  });

  it("agrees with the builder on every size, peak set, height and leaf position up to 600 leaves", () => {
    const mmr = new TestMmr();
    for (let i = 0; i < 600; i++) mmr.appendBody(new Uint8Array(32));
    for (let size = 0; size <= mmr.size; size++) {
      const built = mmr.peakSets.get(size);
      if (built === undefined) expectCode(peaks(size), "MMR_SIZE_INVALID");
      else expect(okValue(peaks(size)), `peaks(${size})`).toEqual(built);
    }
    mmr.nodes.forEach((n, pos) => expect(heightOf(pos)).toBe(n.height));
    mmr.leafPositions.forEach((pos, i) => expect(leafPosition(i)).toBe(pos));
    const sizes = [...mmr.peakSets.keys()].sort((a, b) => a - b);
    expect(sizes).toHaveLength(601);
    sizes.forEach((size, leaves) => expect(nodeCount(leaves)).toBe(size));
  });

  it.each([2, 5, 6, 9, -1, 1.5, Number.NaN, MAX_MMR_SIZE, 2 ** 53])("refuses size %s", (size) => {
    expectCode(peaks(size), "MMR_SIZE_INVALID");
    expectCode(leafCount(size), "MMR_SIZE_INVALID");
  });

  it("stays exact past 2^32, up to the largest size below 2^50", () => {
    const top = MAX_MMR_SIZE - 1; // a single mountain of height 49
    expect(okValue(peaks(top))).toEqual([top - 1]);
    expect(okValue(leafCount(top))).toBe(2 ** 49);
    expect(heightOf(top - 1)).toBe(49);
    expect(nodeCount(2 ** 49)).toBe(top);
    expect(leafPosition(2 ** 49 - 1)).toBe(2 ** 50 - 51);
    expect(okValue(peaks(2 ** 33 - 1 + 1))).toEqual([2 ** 33 - 2, 2 ** 33 - 1]);
  });

  it("returns undefined outside the domain instead of a wrong number", () => {
    for (const bad of [-1, 0.5, Number.NaN, MAX_MMR_SIZE]) {
      expect(heightOf(bad)).toBeUndefined();
      expect(leafPosition(bad)).toBeUndefined();
      expect(nodeCount(bad)).toBeUndefined();
    }
    // In the domain, but the result would reach 2^50.
    expect(nodeCount(2 ** 49 + 1)).toBeUndefined();
    expect(leafPosition(2 ** 49 + 1)).toBeUndefined();
  });
});

describe("the powers of two the position math reads", () => {
  it("are exactly 2^k for every height up to 2^50 and one beyond", () => {
    for (let k = 0; k < POW2.length; k++) expect(POW2[k], String(k)).toBe(2 ** k);
    expect(POW2.length).toBeGreaterThan(52);
  });
});
