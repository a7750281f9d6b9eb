import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeStrictCbor, type CborMap, type CborValue } from "../../src/cose/cbor.js";
import { decodeSign1 } from "../../src/cose/sign1.js";
import { ccfRootFromInclusion, type CcfLeaf } from "../../src/log/ccf.js";
import type { Result } from "../../src/result.js";
import { describeExternal, readExternal } from "../helpers/external.js";
import { atString, toHex, vectorJson } from "../helpers/cose.js";

function codeOf<T>(r: Result<T>): string {
  return r.ok ? "ok" : r.code;
}

function sha256(...parts: Array<Uint8Array | string>): Uint8Array {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

const leaf: CcfLeaf = {
  writeSetDigest: new Uint8Array(32).fill(1),
  commitEvidence: "ce:2.18:abc",
  claimsDigest: new Uint8Array(32).fill(2),
};

describe("ccfRootFromInclusion", () => {
  it("hashes the leaf as SHA-256(write_set_digest ‖ SHA-256(ce) ‖ claims_digest)", () => {
    const expected = sha256(leaf.writeSetDigest, sha256("ce:2.18:abc"), leaf.claimsDigest);
    expect(ccfRootFromInclusion(leaf, [])).toEqual({ ok: true, value: expected });
  });

  it("puts a left step's hash first and a right step's hash last", () => {
    const acc = sha256(leaf.writeSetDigest, sha256("ce:2.18:abc"), leaf.claimsDigest);
    const a = new Uint8Array(32).fill(3);
    const b = new Uint8Array(32).fill(4);
    const r = ccfRootFromInclusion(leaf, [
      { left: true, hash: a },
      { left: false, hash: b },
    ]);
    expect(r).toEqual({ ok: true, value: sha256(sha256(a, acc), b) });
  });

  it("refuses components and step hashes that are not 32 bytes", () => {
    expect(codeOf(ccfRootFromInclusion({ ...leaf, writeSetDigest: new Uint8Array(31) }, []))).toBe("CCF_HASH_LENGTH");
    expect(codeOf(ccfRootFromInclusion({ ...leaf, claimsDigest: new Uint8Array(33) }, []))).toBe("CCF_HASH_LENGTH");
    expect(codeOf(ccfRootFromInclusion(leaf, [{ left: true, hash: new Uint8Array(31) }]))).toBe("CCF_HASH_LENGTH");
  });
});

describeExternal("scitt-cose/receipts-v1", "CCF root of the scitt-ccf-ledger receipt (valid-ccf-vds2)", () => {
  it("folds the real receipt's proof to the published reconstructed_root", () => {
    const expected = vectorJson("scitt-cose", "receipts-v1", "valid-ccf-vds2", "expected.json");
    const receipt = decodeSign1(readExternal("scitt-cose", "receipts-v1", "valid-ccf-vds2", "receipt.cose"));
    if (!receipt.ok) throw new Error(receipt.detail);
    const vdp = receipt.value.unprotectedHeader.get(396) as CborMap;
    const proofBytes = (vdp.get(-1) as Uint8Array[])[0] as Uint8Array;
    const proof = decodeStrictCbor(proofBytes);
    if (!proof.ok) throw new Error(proof.detail);
    const map = proof.value as CborMap;
    const [writeSetDigest, commitEvidence, claimsDigest] = map.get(1) as [Uint8Array, string, Uint8Array];
    const path = (map.get(2) as CborValue[][]).map(([left, hash]) => ({
      left: left as boolean,
      hash: hash as Uint8Array,
    }));
    expect(toHex(claimsDigest)).toBe(atString(expected, "leaf_entry"));
    const root = ccfRootFromInclusion({ writeSetDigest, commitEvidence, claimsDigest }, path);
    expect(root.ok && toHex(root.value)).toBe(atString(expected, "reconstructed_root"));
  });
});
