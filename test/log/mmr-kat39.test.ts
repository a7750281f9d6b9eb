/**
 * scitt-cose `test-vectors/mmr/kat39.json`: the 39-node MMRIVER KAT (leaves, nodes and peaks from
 * datatrails/go-datatrails-merklelog). Leaves are fed as already-hashed leaf nodes.
 */
import { expect, it } from "vitest";
import { bagPeaks, heightOf, interiorHash, leafCount, peaks } from "../../src/log/mmr.js";
import { bytesToHex } from "../../src/util/bytes.js";
import { describeExternal } from "../helpers/external.js";
import { TestMmr } from "./mmr-builder.js";
import { arr, buildNodes, expectCode, get, hex, int, okValue, readVector, str } from "./fixtures.js";

describeExternal("scitt-cose/mmr", "MMR KAT39 (scitt-cose/mmr/kat39.json)", () => {
  const kat = readVector("scitt-cose", "mmr", "kat39.json");
  const leaves = arr(get(kat, "leaves")).map(hex);
  const nodes = arr(get(kat, "nodes")).map(str);
  const peakIndices = get(kat, "peak_indices");
  const peakHashes = get(kat, "peak_hashes");
  const sizes = Object.keys(peakIndices as object).map((k) => Number(k) + 1);

  it("has the documented counts: 21 leaves, 39 nodes, 21 peak sets, 18 interior triples", () => {
    expect(leaves).toHaveLength(21);
    expect(nodes).toHaveLength(39);
    expect(sizes).toHaveLength(21);
    expect(arr(get(kat, "interior_triples"))).toHaveLength(18);
  });

  it("rebuilds all 39 nodes with the position-committed interior hash", () => {
    expect(buildNodes(leaves).map(bytesToHex)).toEqual(nodes);
  });

  it("agrees with the test-only builder, which then serves as an oracle elsewhere", () => {
    const mmr = new TestMmr();
    for (const leaf of leaves) mmr.appendLeafNode(leaf);
    expect(mmr.nodes.map((n) => bytesToHex(n.hash))).toEqual(nodes);
  });

  it("computes every peak set (positions and hashes), keyed by mmrIndex = size − 1", () => {
    for (const size of sizes) {
      const key = String(size - 1);
      const expected = arr(get(peakIndices, key)).map((p) => int(p));
      const positions = okValue(peaks(size));
      expect(positions, `peaks(${size})`).toEqual(expected);
      expect(positions.map((p) => nodes[p])).toEqual(arr(get(peakHashes, key)).map(str));
      expect(okValue(leafCount(size))).toBe(positions.reduce((n, p) => n + 2 ** (heightOf(p) as number), 0));
    }
  });

  it("refuses every size up to 39 that is not a KAT39 peak-set size", () => {
    for (let size = 1; size <= 39; size++) {
      if (sizes.includes(size)) continue;
      expectCode(peaks(size), "MMR_SIZE_INVALID");
    }
  });

  it("reproduces every interior triple", () => {
    for (const t of arr(get(kat, "interior_triples"))) {
      const position = int(get(t, "position"));
      const result = interiorHash(hex(get(t, "left")), hex(get(t, "right")), position);
      expect(bytesToHex(result), `position ${position}`).toBe(str(get(t, "result")));
    }
  });

  it("bags the size-39 peaks into root_full", () => {
    const top = okValue(peaks(39)).map((p) => hex(nodes[p]));
    expect(bytesToHex(bagPeaks(top))).toBe(str(get(kat, "root_full")));
  });
});
