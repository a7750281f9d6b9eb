import { describe, expect, it } from "vitest";
import { rfc9162LeafHash, rfc9162NodeHash, rfc9162RootFromInclusion } from "../../src/log/rfc9162.js";
import type { Result } from "../../src/result.js";
import { hex, toHex } from "../helpers/cose.js";
import { auditPath, auditPathLength, merkleTreeHash } from "./rfc9162-oracle.js";

function codeOf<T>(r: Result<T>): string {
  return r.ok ? "ok" : r.code;
}

function rootHex(r: Result<Uint8Array>): string {
  if (!r.ok) throw new Error(`${r.code}: ${r.detail}`);
  return toHex(r.value);
}

/**
 * The RFC 6962 reference tree used by the certificate-transparency test suites (merkle_tree_test):
 * eight leaf entries, the root of each prefix size, and some audit paths.
 */
const CT_LEAVES = [
  "",
  "00",
  "10",
  "2021",
  "3031",
  "40414243",
  "5051525354555657",
  "606162636465666768696a6b6c6d6e6f",
].map(hex);
const CT_ROOTS = [
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];
const CT_PATHS: Array<[number, number, string[]]> = [
  [
    0,
    8,
    [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  ],
  [
    5,
    8,
    [
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
  [2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]],
  [
    1,
    5,
    [
      "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  ],
];

describe("RFC 9162 hashing", () => {
  it("hashes a leaf as SHA-256(0x00 ‖ entry): the witness receipt root of log-and-receipts.md §5.1", () => {
    const entryHash = hex("668b60287313bb04a5a9a810e37694b98a636fe0be1ed4f3d70677fe9ce64b9c");
    expect(toHex(rfc9162LeafHash(entryHash))).toBe("a85f496118b43fff815d1e04d4950d75f289d096806b93a597fd09a9fd4da726");
  });

  it("hashes a node as SHA-256(0x01 ‖ left ‖ right): the 2-leaf reference root", () => {
    const node = rfc9162NodeHash(
      rfc9162LeafHash(CT_LEAVES[0] as Uint8Array),
      rfc9162LeafHash(CT_LEAVES[1] as Uint8Array),
    );
    expect(toHex(node)).toBe(CT_ROOTS[1]);
  });
});

describe("rfc9162RootFromInclusion: known answers", () => {
  it.each(CT_PATHS)("leaf %i of %i with the reference audit path", (m, n, path) => {
    const r = rfc9162RootFromInclusion(rfc9162LeafHash(CT_LEAVES[m] as Uint8Array), m, n, path.map(hex));
    expect(rootHex(r)).toBe(CT_ROOTS[n - 1]);
  });

  it("reaches the reference root of every prefix size from every leaf", () => {
    for (let n = 1; n <= 8; n++) {
      const entries = CT_LEAVES.slice(0, n);
      for (let m = 0; m < n; m++) {
        const r = rfc9162RootFromInclusion(rfc9162LeafHash(entries[m] as Uint8Array), m, n, auditPath(m, entries));
        expect([m, n, rootHex(r)]).toEqual([m, n, CT_ROOTS[n - 1]]);
      }
    }
  });
});

describe("rfc9162RootFromInclusion against the recursive RFC definition", () => {
  it("agrees for every leaf of every tree size up to 70", () => {
    const entries = Array.from({ length: 70 }, (_, i) => new Uint8Array([i, i * 7, 255 - i]));
    for (let n = 1; n <= entries.length; n++) {
      const tree = entries.slice(0, n);
      const root = toHex(merkleTreeHash(tree));
      for (let m = 0; m < n; m++) {
        expect(
          rootHex(rfc9162RootFromInclusion(rfc9162LeafHash(tree[m] as Uint8Array), m, n, auditPath(m, tree))),
        ).toBe(root);
      }
    }
  });

  it("computes path lengths with arithmetic that holds beyond 2^32", () => {
    const leaf = new Uint8Array(32);
    for (const [m, n] of [
      [2 ** 40 + 5, 2 ** 41 + 1],
      [2 ** 32, 2 ** 32 + 1],
      [0, 2 ** 53 - 1],
      [2 ** 53 - 2, 2 ** 53 - 1],
    ] as const) {
      const length = auditPathLength(m, n);
      const path = Array.from({ length }, () => new Uint8Array(32));
      expect([m, n, codeOf(rfc9162RootFromInclusion(leaf, m, n, path))]).toEqual([m, n, "ok"]);
      expect(codeOf(rfc9162RootFromInclusion(leaf, m, n, path.slice(1)))).toBe("RFC9162_PATH_LENGTH");
    }
  });

  it("changes the root when any byte of the path is changed", () => {
    const path = CT_PATHS[0]?.[2].map(hex) as Uint8Array[];
    const leaf = rfc9162LeafHash(CT_LEAVES[0] as Uint8Array);
    for (let i = 0; i < path.length; i++) {
      for (let b = 0; b < 32; b++) {
        const tampered = path.map((p) => new Uint8Array(p));
        const node = tampered[i] as Uint8Array;
        node[b] = (node[b] as number) ^ 1;
        expect(rootHex(rfc9162RootFromInclusion(leaf, 0, 8, tampered))).not.toBe(CT_ROOTS[7]);
      }
    }
  });
});

describe("rfc9162RootFromInclusion: refusals", () => {
  const leaf = new Uint8Array(32);
  const path3 = [new Uint8Array(32), new Uint8Array(32), new Uint8Array(32)];

  it.each([
    ["leaf_index equal to tree_size", 8, 8],
    ["leaf_index beyond tree_size", 9, 8],
    ["tree_size 0", 0, 0],
    ["a negative leaf_index", -1, 8],
    ["a fractional leaf_index", 1.5, 8],
    ["a NaN tree_size", 0, Number.NaN],
    ["a tree_size beyond 2^53 - 1", 0, 2 ** 62],
  ])("%s", (_name, m, n) => {
    expect(codeOf(rfc9162RootFromInclusion(leaf, m, n, path3))).toBe("RFC9162_INDEX_INVALID");
  });

  it("refuses a path longer or shorter than the tree depth", () => {
    expect(codeOf(rfc9162RootFromInclusion(leaf, 2, 8, [...path3, new Uint8Array(32)]))).toBe("RFC9162_PATH_LENGTH");
    expect(codeOf(rfc9162RootFromInclusion(leaf, 2, 8, path3.slice(1)))).toBe("RFC9162_PATH_LENGTH");
    expect(codeOf(rfc9162RootFromInclusion(leaf, 0, 1, path3.slice(2)))).toBe("RFC9162_PATH_LENGTH");
  });

  it("refuses hashes that are not 32 bytes", () => {
    expect(codeOf(rfc9162RootFromInclusion(leaf, 2, 8, [path3[0], new Uint8Array(33), path3[2]] as Uint8Array[]))).toBe(
      "RFC9162_HASH_LENGTH",
    );
    expect(codeOf(rfc9162RootFromInclusion(new Uint8Array(31), 2, 8, path3))).toBe("RFC9162_HASH_LENGTH");
  });
});
