import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CborFloat } from "../../src/cose/cbor.js";
import {
  importPublicKey,
  importPublicKeyFromBase64Pem,
  importPublicKeyFromPem,
  type PublicKeyInfo,
} from "../../src/cose/keys.js";
import { verifyReceipt } from "../../src/log/receipt.js";
import type { Result } from "../../src/result.js";
import { base64ToBytesStrict } from "../../src/util/bytes.js";
import { describeExternal } from "../helpers/external.js";
import {
  at,
  atIntOrNull,
  atString,
  cbor,
  coseSign1,
  hex,
  newSigner,
  toHex,
  vectorJson,
  type TestSigner,
} from "../helpers/cose.js";
import { auditPath, merkleTreeHash } from "./rfc9162-oracle.js";

function codeOf<T>(r: Result<T>): string {
  return r.ok ? "ok" : r.code;
}

function keyOf(signer: TestSigner): PublicKeyInfo {
  const r = importPublicKeyFromPem(signer.publicKey.export({ type: "spki", format: "pem" }) as string);
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

describeExternal("a2a-reference", "the A2A reference vector's witness receipt", () => {
  const vector = vectorJson("a2a-reference", "positive_vector.json");
  const witness = at(vector, "evidenceBundle", "manifest", "cllCheckpoint", "witnesses", 0);
  const receipt = base64ToBytesStrict(atString(witness, "receipt_b64")) as Uint8Array;
  const entryHash = hex(atString(witness, "entry_hash"));
  const root = "a85f496118b43fff815d1e04d4950d75f289d096806b93a597fd09a9fd4da726";

  it("verifies under the pinned TS key with leaf entry = entry_hash 668b6028…", () => {
    expect(toHex(entryHash)).toBe("668b60287313bb04a5a9a810e37694b98a636fe0be1ed4f3d70677fe9ce64b9c");
    const tsKey = importPublicKeyFromBase64Pem(
      atString(vector, "trustConfig", "tsPubkeysB64", atString(witness, "ts_url")),
    );
    if (!tsKey.ok) throw new Error(tsKey.detail);
    const r = verifyReceipt(receipt, entryHash, tsKey.value);
    expect(r.ok && { ...r.value, root: toHex(r.value.root) }).toEqual({
      vds: 1,
      alg: -8,
      treeSize: 1,
      leafIndex: 0,
      proofCount: 1,
      root,
      signatureChecked: true,
    });
    expect(r.ok && [r.value.treeSize, r.value.leafIndex]).toEqual([
      atIntOrNull(witness, "tree_size"),
      atIntOrNull(witness, "leaf_index"),
    ]);
  });

  it("without a key: structure and proof hold, the signature is not checked", () => {
    const r = verifyReceipt(receipt, entryHash, undefined);
    expect(r.ok && [r.value.signatureChecked, toHex(r.value.root)]).toEqual([false, root]);
  });

  it("with the wrong key (the default witness key), the signature fails", () => {
    const wrong = importPublicKey("39bb654c9dc0afe1c0edef0deffaa69099b8518836c9ba26e0491535840f96b5");
    if (!wrong.ok) throw new Error(wrong.detail);
    expect(codeOf(verifyReceipt(receipt, entryHash, wrong.value))).toBe("COSE_SIGNATURE_INVALID");
  });

  it("for another leaf entry (the evidenceId), the signature fails", () => {
    const tsKey = importPublicKeyFromBase64Pem(
      atString(vector, "trustConfig", "tsPubkeysB64", atString(witness, "ts_url")),
    );
    const evidenceId = hex(atString(vector, "evidenceBundle", "evidenceId"));
    expect(tsKey.ok && codeOf(verifyReceipt(receipt, evidenceId, tsKey.value))).toBe("COSE_SIGNATURE_INVALID");
  });
});

// Synthetic receipts: a 5-leaf log built with the recursive RFC 9162 oracle, leaf 3 as ours.
const logSigner = newSigner(-8);
const logKey = keyOf(logSigner);
const entries = Array.from({ length: 5 }, (_, i) => createHash("sha256").update(`entry ${i}`).digest());
const leafEntry = new Uint8Array(entries[3] as Buffer);
const treeRoot = merkleTreeHash(entries);
const honestPath = auditPath(3, entries);

interface ReceiptParts {
  protectedMap?: Map<unknown, unknown>;
  unprotected?: Map<unknown, unknown>;
  vdp?: unknown;
  proofs?: unknown;
  proof?: unknown;
  payload?: Uint8Array | null;
  signedRoot?: Uint8Array;
  signer?: TestSigner;
  signature?: Uint8Array;
}

function receipt(parts: ReceiptParts = {}): Uint8Array {
  const proofs = parts.proofs ?? [cbor(parts.proof ?? [5, 3, honestPath])];
  const vdp = parts.vdp ?? new Map([[-1, proofs]]);
  const signer = parts.signer ?? logSigner;
  return coseSign1({
    protectedBytes: cbor(
      parts.protectedMap ??
        new Map([
          [1, signer.alg],
          [395, 1],
        ]),
    ),
    unprotected: parts.unprotected ?? new Map([[396, vdp]]),
    payload: parts.payload ?? null,
    signedPayload: parts.signedRoot ?? treeRoot,
    signer,
    ...(parts.signature === undefined ? {} : { signature: parts.signature }),
  });
}

/** `null` runs without a key (structure and proof only). */
function verifyCode(bytes: Uint8Array, key: PublicKeyInfo | null = logKey): string {
  return codeOf(verifyReceipt(bytes, leafEntry, key ?? undefined));
}

describe("verifyReceipt: RFC 9162 (vds 1)", () => {
  it("verifies a well-formed receipt and reports what it proved", () => {
    const r = verifyReceipt(receipt(), leafEntry, logKey);
    expect(r.ok && { ...r.value, root: toHex(r.value.root) }).toEqual({
      vds: 1,
      alg: -8,
      treeSize: 5,
      leafIndex: 3,
      proofCount: 1,
      root: toHex(treeRoot),
      signatureChecked: true,
    });
  });

  it("uses the first of several inclusion proofs and counts them all", () => {
    const r = verifyReceipt(receipt({ proofs: [cbor([5, 3, honestPath]), new Uint8Array([0xff])] }), leafEntry, logKey);
    expect(r.ok && r.value.proofCount).toBe(2);
  });

  it("verifies an ES256 log signature, and refuses one of the wrong length", () => {
    const es256 = newSigner(-7);
    expect(verifyCode(receipt({ signer: es256 }), keyOf(es256))).toBe("ok");
    expect(verifyCode(receipt({ signer: es256, signature: new Uint8Array(63) }), keyOf(es256))).toBe(
      "COSE_SIGNATURE_LENGTH",
    );
    expect(verifyCode(receipt({ signer: es256 }), logKey)).toBe("COSE_KEY_ALG_MISMATCH");
  });

  it("refuses a signature over another root", () => {
    expect(verifyCode(receipt({ signedRoot: new Uint8Array(32) }))).toBe("COSE_SIGNATURE_INVALID");
    expect(verifyCode(receipt({ signedRoot: new Uint8Array(32) }), null)).toBe("ok");
  });

  it.each([
    ["no vds", new Map([[1, -8]]), undefined, "RECEIPT_VDS_MISSING"],
    [
      "vds only in the unprotected header",
      new Map([[1, -8]]),
      new Map<unknown, unknown>([[395, 1]]),
      "RECEIPT_VDS_MISSING",
    ],
    [
      "vds 3 (MMRIVER)",
      new Map([
        [1, -8],
        [395, 3],
      ]),
      undefined,
      "RECEIPT_VDS_UNSUPPORTED",
    ],
    [
      "vds as a boolean",
      new Map<unknown, unknown>([
        [1, -8],
        [395, true],
      ]),
      undefined,
      "RECEIPT_VDS_UNSUPPORTED",
    ],
    [
      "vds as a float 1.0",
      new Map<unknown, unknown>([
        [1, -8],
        [395, new CborFloat(1)],
      ]),
      undefined,
      "RECEIPT_VDS_UNSUPPORTED",
    ],
    [
      "alg only in the unprotected header",
      new Map([[395, 1]]),
      new Map<unknown, unknown>([[1, -8]]),
      "COSE_ALG_MISSING",
    ],
    [
      "an unknown crit label",
      new Map<unknown, unknown>([
        [1, -8],
        [2, [99]],
        [99, 0],
        [395, 1],
      ]),
      undefined,
      "COSE_CRIT_UNKNOWN",
    ],
    [
      "crit on kid, understood for CCF only",
      new Map<unknown, unknown>([
        [1, -8],
        [2, [4]],
        [4, new Uint8Array(1)],
        [395, 1],
      ]),
      undefined,
      "COSE_CRIT_UNKNOWN",
    ],
  ])("refuses %s, with or without a key", (_name, protectedMap, extraUnprotected, code) => {
    const unprotected = new Map<unknown, unknown>([
      [396, new Map([[-1, [cbor([5, 3, honestPath])]]])],
      ...(extraUnprotected ?? []),
    ]);
    expect(verifyCode(receipt({ protectedMap, unprotected }))).toBe(code);
    expect(verifyCode(receipt({ protectedMap, unprotected }), null)).toBe(code);
  });

  it("accepts crit listing vds", () => {
    expect(
      verifyCode(
        receipt({
          protectedMap: new Map<unknown, unknown>([
            [1, -8],
            [2, [395]],
            [395, 1],
          ]),
        }),
      ),
    ).toBe("ok");
  });

  it("refuses an attached payload", () => {
    expect(verifyCode(receipt({ payload: treeRoot }), null)).toBe("RECEIPT_PAYLOAD_ATTACHED");
  });

  it.each([
    ["no label 396", { unprotected: new Map() }, "RECEIPT_PROOFS_MISSING"],
    ["no -1 in 396", { vdp: new Map([[-2, []]]) }, "RECEIPT_PROOFS_MISSING"],
    ["396 as an array", { vdp: [] }, "RECEIPT_PROOFS_MALFORMED"],
    ["-1 as a bstr", { proofs: new Uint8Array(3) }, "RECEIPT_PROOFS_MALFORMED"],
    ["no inclusion proofs", { proofs: [] }, "RECEIPT_PROOFS_MALFORMED"],
    [
      "17 inclusion proofs",
      { proofs: Array.from({ length: 17 }, () => cbor([5, 3, honestPath])) },
      "RECEIPT_PROOFS_MALFORMED",
    ],
    ["an inclusion proof that is not a bstr", { proofs: [[5, 3, honestPath]] }, "RECEIPT_PROOFS_MALFORMED"],
  ])("refuses %s", (_name, parts, code) => {
    expect(verifyCode(receipt(parts as ReceiptParts), null)).toBe(code);
  });

  it.each([
    ["a bool posing as tree_size", [true, 3, honestPath]],
    ["a bool posing as leaf_index", [5, false, honestPath]],
    ["a float leaf_index", [5, new CborFloat(3), honestPath]],
    ["a negative leaf_index", [5, -1, honestPath]],
    ["a leaf_index beyond 2^53", [5, 2n ** 60n, honestPath]],
    ["a proof of two fields", [5, 3]],
    ["a map for a proof", new Map([[0, 5]])],
    ["a path that is not an array", [5, 3, new Uint8Array(32)]],
    ["a path element that is text", [5, 3, ["00".repeat(32), ...honestPath.slice(1)]]],
  ])("refuses %s in the proof", (_name, proof) => {
    expect(verifyCode(receipt({ proof }), null)).toBe("RECEIPT_PROOF_MALFORMED");
  });

  it("refuses a proof bstr that is not strict CBOR", () => {
    const nonMinimal = hex("83180503" + "80"); // [5 as 18 05, 3, []]
    const r = verifyReceipt(receipt({ proofs: [nonMinimal] }), leafEntry, undefined);
    expect(r.ok ? "ok" : [r.code, r.detail.startsWith("CBOR_NON_MINIMAL")]).toEqual(["RECEIPT_PROOF_MALFORMED", true]);
  });

  it("refuses a path longer than 64 steps before hashing", () => {
    const path = Array.from({ length: 65 }, () => new Uint8Array(32));
    expect(verifyCode(receipt({ proof: [5, 3, path] }), null)).toBe("RECEIPT_PATH_TOO_LONG");
  });

  it("refuses a 33-byte hash in the path", () => {
    const path = [honestPath[0], new Uint8Array(33), honestPath[2]];
    expect(verifyCode(receipt({ proof: [5, 3, path] }), null)).toBe("RFC9162_HASH_LENGTH");
  });

  it("refuses a path longer than the tree depth", () => {
    expect(verifyCode(receipt({ proof: [5, 3, [...honestPath, new Uint8Array(32)]] }), null)).toBe(
      "RFC9162_PATH_LENGTH",
    );
  });

  it("refuses leaf_index >= tree_size", () => {
    expect(verifyCode(receipt({ proof: [5, 5, honestPath] }), null)).toBe("RFC9162_INDEX_INVALID");
  });

  it("refuses malformed COSE around the proof", () => {
    const good = receipt();
    expect(verifyCode(good.subarray(0, good.length - 1))).toBe("CBOR_TRUNCATED");
    expect(verifyCode(new Uint8Array([...good, 0]))).toBe("CBOR_TRAILING_BYTES");
    expect(verifyCode(good.subarray(1))).toBe("COSE_UNTAGGED");
  });
});

describe("verifyReceipt: CCF (vds 2)", () => {
  const ccfSigner = newSigner(-35);
  const ccfKey = keyOf(ccfSigner);
  const writeSetDigest = new Uint8Array(32).fill(9);
  const commitEvidence = "ce:2.18:0123";
  const steps: Array<[boolean, Uint8Array]> = [
    [true, new Uint8Array(32).fill(1)],
    [false, new Uint8Array(32).fill(2)],
  ];
  const sha = (...p: Uint8Array[]) => new Uint8Array(createHash("sha256").update(Buffer.concat(p)).digest());
  const acc0 = sha(writeSetDigest, sha(new TextEncoder().encode(commitEvidence)), leafEntry);
  const ccfRoot = sha(sha(steps[0]?.[1] as Uint8Array, acc0), steps[1]?.[1] as Uint8Array);
  const ccfProtected = new Map<unknown, unknown>([
    [1, -35],
    [2, [4, 15, "ccf.v1"]],
    [4, new TextEncoder().encode("kid")],
    [15, new Map([[1, "127.0.0.1:8000"]])],
    [395, 2],
    ["ccf.v1", new Map([["txid", "2.19"]])],
  ]);
  const ccfReceipt = (proof: unknown, signedRoot = ccfRoot) =>
    receipt({ protectedMap: ccfProtected, proofs: [cbor(proof)], signer: ccfSigner, signedRoot });
  const proofWith = (leaf: unknown[], path: unknown = steps) =>
    new Map<unknown, unknown>([
      [1, leaf],
      [2, path],
    ]);
  const honestLeaf = [writeSetDigest, commitEvidence, leafEntry];

  it("verifies a CCF receipt with crit on kid, CWT claims and ccf.v1", () => {
    const r = verifyReceipt(ccfReceipt(proofWith(honestLeaf)), leafEntry, ccfKey);
    expect(r.ok && { ...r.value, root: toHex(r.value.root) }).toEqual({
      vds: 2,
      alg: -35,
      treeSize: null,
      leafIndex: null,
      proofCount: 1,
      root: toHex(ccfRoot),
      signatureChecked: true,
    });
  });

  it("refuses a signature over another root", () => {
    expect(verifyCode(ccfReceipt(proofWith(honestLeaf), new Uint8Array(32)), ccfKey)).toBe("COSE_SIGNATURE_INVALID");
  });

  it("refuses a claims digest that is not the leaf entry", () => {
    const leaf = [writeSetDigest, commitEvidence, new Uint8Array(32)];
    expect(verifyCode(ccfReceipt(proofWith(leaf)), ccfKey)).toBe("CCF_CLAIMS_DIGEST_MISMATCH");
  });

  it.each([
    ["an RFC 9162-shaped proof", [5, 3, honestPath]],
    ["no leaf", new Map([[2, steps]])],
    ["a leaf of two fields", proofWith([writeSetDigest, leafEntry])],
    ["write_set_digest as text", proofWith(["00", commitEvidence, leafEntry])],
    ["commit evidence as bytes", proofWith([writeSetDigest, new Uint8Array(3), leafEntry])],
    ["claims_digest as text", proofWith([writeSetDigest, commitEvidence, "00"])],
    ["a path step that is not an array", proofWith(honestLeaf, [new Uint8Array(32)])],
    ["a path step with text for its hash", proofWith(honestLeaf, [[true, "00"]])],
    ["a path step with an integer for left", proofWith(honestLeaf, [[1, new Uint8Array(32)]])],
    ["a path step of three fields", proofWith(honestLeaf, [[true, new Uint8Array(32), 0]])],
    ["no path", new Map([[1, honestLeaf]])],
  ])("refuses %s", (_name, proof) => {
    expect(verifyCode(ccfReceipt(proof), ccfKey)).toBe("CCF_PROOF_MALFORMED");
  });

  it("refuses a proof bstr that is not strict CBOR", () => {
    const nonMinimal = hex("a1180180"); // {1 as 18 01: []}
    const bytes = receipt({ protectedMap: ccfProtected, proofs: [nonMinimal], signer: ccfSigner, signedRoot: ccfRoot });
    const r = verifyReceipt(bytes, leafEntry, ccfKey);
    expect(r.ok ? "ok" : [r.code, r.detail.startsWith("CBOR_NON_MINIMAL")]).toEqual(["CCF_PROOF_MALFORMED", true]);
  });

  it("refuses a path longer than 64 steps and hashes that are not 32 bytes", () => {
    const long = Array.from({ length: 65 }, () => [true, new Uint8Array(32)]);
    expect(verifyCode(ccfReceipt(proofWith(honestLeaf, long)), ccfKey)).toBe("RECEIPT_PATH_TOO_LONG");
    expect(verifyCode(ccfReceipt(proofWith([new Uint8Array(31), commitEvidence, leafEntry])), ccfKey)).toBe(
      "CCF_HASH_LENGTH",
    );
  });
});
