/**
 * scitt-cose test-vectors/v1: six Signed Statement + receipt pairs. The leaf entry is SHA-256 of
 * the whole statement bytes; the log is an RFC 9162 tree of 8 leaves with the statement at index 2
 * (manifest.json), or a real CCF ledger receipt.
 */
import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { decodeStrictCbor, type CborMap } from "../../src/cose/cbor.js";
import { importPublicKeyFromPem, type PublicKeyInfo } from "../../src/cose/keys.js";
import { decodeSign1, verifySign1 } from "../../src/cose/sign1.js";
import type { JsonValue } from "../../src/json/value.js";
import { verifyReceipt } from "../../src/log/receipt.js";
import type { Result } from "../../src/result.js";
import { describeExternal, listExternal, readExternal, readExternalText } from "../helpers/external.js";
import { at, atIntOrNull, atString, toHex, vectorJson } from "../helpers/cose.js";
import { auditPath, merkleTreeHash } from "./rfc9162-oracle.js";

const DIR = ["scitt-cose", "receipts-v1"] as const;

function sha256(data: Uint8Array | string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

function key(id: string, file: string): PublicKeyInfo {
  const r = importPublicKeyFromPem(readExternalText(...DIR, id, file));
  if (!r.ok) throw new Error(`${id}/${file}: ${r.code}`);
  return r.value;
}

/** The vectors' failure codes for ours; each case's own code is asserted separately below. */
function vectorFailureCode(statementCode: string | null, receiptCode: string | null): string | null {
  if (statementCode === "COSE_SIGNATURE_INVALID") return "BAD_STATEMENT_SIGNATURE";
  // A changed path reconstructs another root, which the log's signature does not cover.
  if (receiptCode === "COSE_SIGNATURE_INVALID") return "TAMPERED_INCLUSION_PATH";
  // We support vds 2 (CCF), so vds 2 over an RFC 9162-shaped proof fails as "not a CCF proof":
  // the same verdict for a different stated reason (log-and-receipts.md §5.6).
  if (receiptCode === "RECEIPT_VDS_UNSUPPORTED" || receiptCode === "CCF_PROOF_MALFORMED") return "UNSUPPORTED_VDS";
  return statementCode ?? receiptCode;
}

const OUR_CODES: { readonly [id: string]: { statement: string; receipt: string } } = {
  "valid-eddsa": { statement: "ok", receipt: "ok" },
  "valid-es256": { statement: "ok", receipt: "ok" },
  "valid-ccf-vds2": { statement: "ok", receipt: "ok" },
  "fail-tampered-path": { statement: "ok", receipt: "COSE_SIGNATURE_INVALID" },
  "fail-unsupported-vds": { statement: "ok", receipt: "CCF_PROOF_MALFORMED" },
  "fail-bad-statement-sig": { statement: "COSE_SIGNATURE_INVALID", receipt: "ok" },
};

function codeOf<T>(r: Result<T>): string {
  return r.ok ? "ok" : r.code;
}

describeExternal("scitt-cose/receipts-v1", "scitt-cose receipt vectors v1", () => {
  const manifest = vectorJson(...DIR, "manifest.json");
  const ids = (at(manifest, "vectors") as JsonValue[]).map((v) => atString(v, "id"));

  it("covers the six cases of the manifest", () => {
    expect(ids.sort()).toEqual(Object.keys(OUR_CODES).sort());
    expect(
      listExternal(...DIR)
        .filter((f) => !f.includes(".") && f !== "SHA256SUMS")
        .sort(),
    ).toEqual(ids);
  });

  it.each(Object.keys(OUR_CODES))("%s", (id) => {
    const expected = vectorJson(...DIR, id, "expected.json");
    const statementBytes = readExternal(...DIR, id, "statement.cose");
    const payloadBin = readExternal(...DIR, id, "payload.bin");
    expect(toHex(sha256(payloadBin))).toBe(atString(expected, "payload_sha256"));

    // The Signed Statement: its payload travels attached; a detached one would come from payload.bin.
    const statement = decodeSign1(statementBytes);
    if (!statement.ok) throw new Error(statement.detail);
    const header = statement.value.protectedHeader;
    expect(statement.value.payload).toEqual(payloadBin);
    const statementResult = verifySign1(
      statement.value,
      key(id, "issuer-key.pub"),
      statement.value.payload === null ? { detachedPayload: payloadBin } : {},
    );
    const stated = at(expected, "protected_header", "statement");
    expect(header.get(1)).toBe(atIntOrNull(stated, "alg_code"));
    expect(header.get(3)).toBe(atString(stated, "content_type"));
    const cwt = header.get(atIntOrNull(stated, "cwt_claims_label") as number) as CborMap;
    expect(cwt.get(1)).toBe(atString(stated, "issuer"));
    expect(cwt.get(2) ?? null).toBe(at(stated, "subject"));
    expect(statementResult.ok).toBe(at(expected, "statement_signature_valid"));

    // The receipt, over leaf entry = SHA-256(statement bytes).
    const leafEntry = sha256(statementBytes);
    expect(toHex(leafEntry)).toBe(atString(expected, "leaf_entry"));
    const receiptBytes = readExternal(...DIR, id, "receipt.cose");
    const receiptResult = verifyReceipt(receiptBytes, leafEntry, key(id, "log-key.pub"));
    expect(receiptResult.ok).toBe(at(expected, "receipt_valid"));
    expect(receiptResult.ok ? toHex(receiptResult.value.root) : null).toBe(at(expected, "reconstructed_root"));
    if (receiptResult.ok) {
      expect(receiptResult.value.signatureChecked).toBe(true);
      expect(receiptResult.value.treeSize).toBe(atIntOrNull(expected, "tree_size"));
      expect(receiptResult.value.leafIndex).toBe(atIntOrNull(expected, "leaf_index"));
    }
    const receiptHeader = decodeSign1(receiptBytes);
    const claimed = at(expected, "protected_header", "receipt");
    expect(receiptHeader.ok && receiptHeader.value.protectedHeader.get(1)).toBe(atIntOrNull(claimed, "alg_code"));
    expect(
      receiptHeader.ok && receiptHeader.value.protectedHeader.get(atIntOrNull(claimed, "vds_label") as number),
    ).toBe(atIntOrNull(claimed, "vds"));

    expect({ statement: codeOf(statementResult), receipt: codeOf(receiptResult) }).toEqual(OUR_CODES[id]);
    const valid = statementResult.ok && receiptResult.ok;
    expect(valid ? "VALID" : "INVALID").toBe(at(expected, "result"));
    const failureCode = valid
      ? null
      : vectorFailureCode(
          statementResult.ok ? null : statementResult.code,
          receiptResult.ok ? null : receiptResult.code,
        );
    expect(failureCode).toBe(valid ? null : atString(expected, "failure_code"));
  });

  it.each(["valid-eddsa", "valid-es256", "fail-bad-statement-sig", "fail-tampered-path", "fail-unsupported-vds"])(
    "%s: the receipt's RFC 9162 proof carries the published tree_size, leaf_index and inclusion_path",
    (id) => {
      const expected = vectorJson(...DIR, id, "expected.json");
      const receipt = decodeSign1(readExternal(...DIR, id, "receipt.cose"));
      if (!receipt.ok) throw new Error(receipt.detail);
      const proofs = (receipt.value.unprotectedHeader.get(396) as CborMap).get(-1) as Uint8Array[];
      const proof = decodeStrictCbor(proofs[0] as Uint8Array);
      const [treeSize, leafIndex, path] = (proof.ok ? proof.value : []) as [number, number, Uint8Array[]];
      expect(treeSize).toBe(atIntOrNull(expected, "tree_size"));
      expect(leafIndex).toBe(atIntOrNull(expected, "leaf_index"));
      expect(path.map(toHex)).toEqual(at(expected, "inclusion_path"));
    },
  );

  it("rebuilds each honest tree from the manifest's construction: paths and roots match", () => {
    const construction = atString(manifest, "tree_construction");
    expect(construction).toContain(
      "filler leaf i = SHA-256('scitt-cose test vectors v1 :: <vector-id> :: filler leaf <i>')",
    );
    for (const id of ["valid-eddsa", "valid-es256", "fail-bad-statement-sig"]) {
      const expected = vectorJson(...DIR, id, "expected.json");
      const entries = Array.from({ length: 8 }, (_, i) =>
        i === 2
          ? sha256(readExternal(...DIR, id, "statement.cose"))
          : sha256(`scitt-cose test vectors v1 :: ${id} :: filler leaf ${i}`),
      );
      expect(toHex(merkleTreeHash(entries))).toBe(atString(expected, "reconstructed_root"));
      expect(auditPath(2, entries).map(toHex)).toEqual(at(expected, "inclusion_path"));
    }
  });

  it("fail-tampered-path: without a key the proof still folds, to a root the log never signed", () => {
    const id = "fail-tampered-path";
    const statementBytes = readExternal(...DIR, id, "statement.cose");
    const entries = Array.from({ length: 8 }, (_, i) =>
      i === 2 ? sha256(statementBytes) : sha256(`scitt-cose test vectors v1 :: ${id} :: filler leaf ${i}`),
    );
    const honest = auditPath(2, entries).map(toHex);
    const published = at(vectorJson(...DIR, id, "expected.json"), "inclusion_path") as string[];
    // Exactly one byte of the first path node differs from the honest tree.
    const differing = [...Buffer.from(published[0] as string, "hex")].filter(
      (b, i) => b !== Buffer.from(honest[0] as string, "hex")[i],
    );
    expect([differing.length, published.slice(1)]).toEqual([1, honest.slice(1)]);
    const r = verifyReceipt(readExternal(...DIR, id, "receipt.cose"), sha256(statementBytes), undefined);
    expect(r.ok && r.value.signatureChecked).toBe(false);
    expect(r.ok && toHex(r.value.root)).not.toBe(toHex(merkleTreeHash(entries)));
  });
});
