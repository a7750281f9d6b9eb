import { createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { describeExternal, listExternal, readExternal, readExternalText } from "../helpers/external.js";
import { bytesToHex, hexToBytes, sha256, utf8 } from "../../src/util/bytes.js";
import { codeOf } from "./code-of.js";
import { Rfc9162Tree } from "../../producer/rfc9162.js";
import { decodeSign1, sigStructure } from "./oracle.js";
import { rfc9162RootFromPath } from "./proof-folds.js";

describe("RFC 9162 tree", () => {
  it("has the empty tree's root SHA-256(\"\") and a one-entry tree's root SHA-256(0x00 ‖ entry)", () => {
    expect(bytesToHex(new Rfc9162Tree([]).root())).toBe(
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    const entry = sha256(utf8("entry"));
    expect(new Rfc9162Tree([entry]).root()).toEqual(sha256(Uint8Array.of(0), entry));
    expect(new Rfc9162Tree([entry]).auditPath(0)).toEqual([]);
  });

  it("emits audit paths the RFC's iterative verifier folds to the root, for every leaf of trees up to 40", () => {
    for (let n = 1; n <= 40; n++) {
      const entries = Array.from({ length: n }, (_, i) => sha256(utf8(`entry ${i}`)));
      const tree = new Rfc9162Tree(entries);
      for (let m = 0; m < n; m++) {
        expect(rfc9162RootFromPath(entries[m]!, m, n, tree.auditPath(m)), `leaf ${m} of ${n}`).toEqual(tree.root());
      }
    }
  });

  it("refuses a leaf outside the tree with PRODUCER_INDEX_OUT_OF_RANGE", () => {
    const tree = new Rfc9162Tree([sha256(utf8("a")), sha256(utf8("b"))]);
    for (const m of [2, -1, 0.5])
      expect(
        codeOf(() => tree.auditPath(m)),
        String(m),
      ).toBe("PRODUCER_INDEX_OUT_OF_RANGE");
  });
});

interface ReceiptExpected {
  leaf_entry: string;
  leaf_index: number | null;
  tree_size: number | null;
  inclusion_path: string[] | null;
  reconstructed_root: string | null;
  failure_code?: string;
  protected_header: { receipt: { vds: number; alg: string } };
}

/**
 * scitt-cose receipts-v1: the manifest's tree construction (8 entries, the statement digest at
 * index 2, filler i = SHA-256("scitt-cose test vectors v1 :: <id> :: filler leaf <i>")) lets us
 * rebuild each RFC 9162 log and compare our root and audit path with the published ones. The CCF
 * case (vds 2) is a different tree and is not derivable here.
 */
describeExternal("scitt-cose", "RFC 9162 tree against scitt-cose receipts-v1", () => {
  const cases = listExternal("scitt-cose", "receipts-v1").filter(
    (name) => !name.includes(".") && name !== "SHA256SUMS",
  );
  const expectedOf = (id: string) =>
    JSON.parse(readExternalText("scitt-cose", "receipts-v1", id, "expected.json")) as ReceiptExpected;
  const rfc9162Cases = cases.filter((id) => expectedOf(id).inclusion_path !== null);

  function treeFor(id: string, e: ReceiptExpected): Rfc9162Tree {
    return new Rfc9162Tree(
      Array.from({ length: e.tree_size! }, (_, i) =>
        i === e.leaf_index
          ? hexToBytes(e.leaf_entry)!
          : sha256(utf8(`scitt-cose test vectors v1 :: ${id} :: filler leaf ${i}`)),
      ),
    );
  }

  /** Whether the published receipt's signature verifies over `root` under the published log key. */
  function logSigned(id: string, root: Uint8Array): boolean {
    const receipt = decodeSign1(readExternal("scitt-cose", "receipts-v1", id, "receipt.cose"));
    const key = createPublicKey(readExternalText("scitt-cose", "receipts-v1", id, "log-key.pub"));
    const toBeSigned = sigStructure(receipt.protectedBytes, root);
    return receipt.protectedMap.get(1) === -8
      ? verify(null, toBeSigned, key, receipt.signature)
      : verify("sha256", toBeSigned, { key, dsaEncoding: "ieee-p1363" }, receipt.signature);
  }

  it("covers the five RFC 9162-shaped cases", () => {
    expect(rfc9162Cases.sort()).toEqual([
      "fail-bad-statement-sig",
      "fail-tampered-path",
      "fail-unsupported-vds",
      "valid-eddsa",
      "valid-es256",
    ]);
    expect(cases.filter((id) => !rfc9162Cases.includes(id))).toEqual(["valid-ccf-vds2"]);
  });

  it.each(rfc9162Cases.filter((id) => expectedOf(id).reconstructed_root !== null).map((id) => [id] as const))(
    "%s: our root is reconstructed_root, our audit path is inclusion_path, and the log's signature covers our root",
    (id) => {
      const e = expectedOf(id);
      const tree = treeFor(id, e);
      expect(bytesToHex(tree.root())).toBe(e.reconstructed_root);
      expect(tree.auditPath(e.leaf_index!).map(bytesToHex)).toEqual(e.inclusion_path);
      expect(logSigned(id, tree.root())).toBe(true);
    },
  );

  it("fail-tampered-path: our honest path differs from the published one in the flipped first node only, and the log signed our root", () => {
    const e = expectedOf("fail-tampered-path");
    expect(e.reconstructed_root).toBeNull();
    const tree = treeFor("fail-tampered-path", e);
    const ours = tree.auditPath(e.leaf_index!).map(bytesToHex);
    expect(ours[0]).not.toBe(e.inclusion_path![0]);
    expect(ours.slice(1)).toEqual(e.inclusion_path!.slice(1));
    expect(logSigned("fail-tampered-path", tree.root())).toBe(true);
  });

  it("fail-unsupported-vds: the proof is honest (our path equals it) and the log signed our root; only the vds is wrong", () => {
    const e = expectedOf("fail-unsupported-vds");
    expect(e.protected_header.receipt.vds).toBe(2);
    const tree = treeFor("fail-unsupported-vds", e);
    expect(tree.auditPath(e.leaf_index!).map(bytesToHex)).toEqual(e.inclusion_path);
    expect(logSigned("fail-unsupported-vds", tree.root())).toBe(true);
  });
});
