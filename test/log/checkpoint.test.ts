/**
 * The CLL checkpoint (§4.1–§4.3): the reference A2A positive vector's checkpoint and inclusion
 * proof, then every malformed form and failure path of the checkpoint code.
 */
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { ed25519KeyFromRaw, verifyEd25519 } from "../../src/crypto/ed25519.js";
import {
  JsonNumber,
  fromPlain,
  newJsonObject,
  toPlain,
  type JsonObject,
  type JsonValue,
} from "../../src/json/value.js";
import {
  checkpointEntryDigest,
  checkpointEntryHash,
  parseCheckpoint,
  verifyCheckpointSignature,
} from "../../src/log/checkpoint.js";
import { verifyCheckpointChain } from "../../src/log/checkpoint-chain.js";
import { leafHash, parseInclusionProof, verifyInclusion } from "../../src/log/mmr.js";
import { bytesToHex, sha256Hex, utf8 } from "../../src/util/bytes.js";
import { describeExternal } from "../helpers/external.js";
import { arr, expectCode, get, hex, int, okValue, readVector, str } from "./fixtures.js";
import { TestSigner } from "./signing.js";

/** §4.2's published signing body of the vector checkpoint. */
const SPEC_BODY =
  '{"key_id":"fa23ec5d3e4082b21d56d5393e7db282072d65b8d1539fb96af6f89206c423b3","kind":"mmr_checkpoint",' +
  '"log_id":"9760b4d3abf16e7ff90f666417d7d72a3b440093e6a298675e95408fa3c2d781","mmr_size":1,"prev_root":"",' +
  '"prev_size":0,"root":"f4ea150c1272a7b83f5ca4775ad4d14fc616e63c64fdfdf4db11406d3386085c",' +
  '"timestamp":"2026-09-08T06:04:12.940746Z","v":1}';

function withMember(obj: JsonObject, name: string, value: JsonValue): JsonObject {
  const out = newJsonObject();
  for (const k of Object.keys(obj)) out[k] = obj[k] as JsonValue;
  out[name] = value;
  return out;
}

describeExternal("a2a-reference", "CLL checkpoint of the reference A2A positive vector", () => {
  const vector = readVector("a2a-reference", "positive_vector.json");
  const bundle = get(vector, "evidenceBundle");
  const manifest = get(bundle, "manifest");
  const json = get(manifest, "cllCheckpoint") as JsonObject;
  const cp = okValue(parseCheckpoint(json, "manifest.cllCheckpoint"));
  const capsuleId = str(get(get(bundle, "capsule"), "capsule_id"));

  it("has the MMR root f4ea150c… = leaf_hash(raw capsule_id), a 1-node MMR", () => {
    expect(bytesToHex(leafHash(hex(capsuleId)))).toBe(
      "f4ea150c1272a7b83f5ca4775ad4d14fc616e63c64fdfdf4db11406d3386085c",
    );
    expect(bytesToHex(cp.root)).toBe(str(get(json, "root")));
    expect(bytesToHex(cp.root)).toBe(bytesToHex(leafHash(hex(capsuleId))));
    expect(cp.mmrSize).toBe(1);
  });

  it("verifies localInclusionProof (camelCase) against the checkpoint", () => {
    const proof = okValue(parseInclusionProof(get(manifest, "localInclusionProof"), "manifest.localInclusionProof"));
    expect(okValue(verifyInclusion(cp.root, cp.mmrSize, proof.leafIndex, hex(capsuleId), proof))).toBe(true);
    // Hashing the capsule_id hex text instead of its bytes is the documented wrong reading.
    expectCode(verifyInclusion(cp.root, cp.mmrSize, 0, sha256Bytes(capsuleId), proof), "MMR_ROOT_MISMATCH");
  });

  it("builds the signing body of exactly nine members and its digest 00cc1e9a…", () => {
    expect(cp.signingBody).toBe(SPEC_BODY);
    expect(cp.digestHex).toBe("00cc1e9a5e3181e16a4ea6f1cb41895b1355fa72714360c40f70c9b14d409e55");
  });

  it("verifies the signature over the ASCII digest hex, and not over the raw digest or the body", () => {
    expect(okValue(verifyCheckpointSignature(cp))).toBe(true);
    const key = ed25519KeyFromRaw(cp.keyId);
    if (key === undefined) throw new Error("key_id is not a key");
    expect(verifyEd25519(key, utf8(cp.digestHex), cp.signature)).toBe(true);
    expect(verifyEd25519(key, cp.digest, cp.signature)).toBe(false);
    expect(verifyEd25519(key, utf8(cp.signingBody), cp.signature)).toBe(false);
  });

  it("recomputes entry_hash 668b6028… = witnesses[0].entry_hash", () => {
    const witness = arr(get(json, "witnesses"))[0];
    expect(checkpointEntryHash(cp)).toBe(str(get(witness, "entry_hash")));
    expect(checkpointEntryHash(cp)).toBe("668b60287313bb04a5a9a810e37694b98a636fe0be1ed4f3d70677fe9ce64b9c");
    expect(cp.witnesses).toHaveLength(1);
  });

  it("computes entry_digest over the full record, as the canonicalize package does", () => {
    const oracle = sha256Hex(utf8(canonicalize(toPlain(json)) as string));
    expect(okValue(checkpointEntryDigest(cp))).toBe(oracle);
  });

  it("breaks the signature when the timestamp changes", () => {
    const changed = okValue(parseCheckpoint(withMember(json, "timestamp", "2026-09-08T06:04:12.940747Z"), "cp"));
    expectCode(verifyCheckpointSignature(changed), "CHECKPOINT_SIGNATURE_INVALID");
  });

  it("is a first checkpoint: priorCheckpoint and consistencyProof are null", () => {
    expect(get(manifest, "priorCheckpoint")).toBeNull();
    expect(get(manifest, "consistencyProof")).toBeNull();
    expect(okValue(verifyCheckpointChain(null, cp, null))).toEqual({
      link: "first",
      mmrSize: 1,
      root: str(get(json, "root")),
    });
  });

  it("agrees with the manifest's producerEnvelope on the signer: the same key signs both", () => {
    expect(bytesToHex(cp.keyId)).toBe(str(get(get(manifest, "producerEnvelope"), "keyId")));
    expect(int(get(json, "v"))).toBe(1);
  });
});

function sha256Bytes(text: string): Uint8Array {
  return hex(sha256Hex(utf8(text)));
}

describe("parseCheckpoint: malformed checkpoints", () => {
  const signer = new TestSigner();
  const good = signer.checkpoint({});

  it("parses a well-formed checkpoint and keeps the unsigned members as received", () => {
    const withExtras = signer.checkpoint({}, { witnesses: [{ entry_hash: "x" }], consistency_proof: { v: 1 } });
    const cp = okValue(parseCheckpoint(withExtras, "cp"));
    expect(okValue(verifyCheckpointSignature(cp))).toBe(true);
    expect(toPlain(cp.witnesses as JsonValue)).toEqual([{ entry_hash: "x" }]);
    expect(toPlain(cp.consistencyProof as JsonValue)).toEqual({ v: 1 });
    expect(cp.prevRoot).toBeNull();
    expect(okValue(parseCheckpoint(good, "cp")).witnesses).toBeUndefined();
  });

  it("reads one object at one path once: the same reading, its verification known, another path read anew", () => {
    const cp = okValue(parseCheckpoint(good, "a"));
    expect(parseCheckpoint(good, "a")).toEqual({ ok: true, value: cp });
    expect(okValue(parseCheckpoint(good, "a"))).toBe(cp);
    expect(okValue(verifyCheckpointSignature(cp))).toBe(true);
    const elsewhere = okValue(parseCheckpoint(good, "b"));
    expect(elsewhere).not.toBe(cp);
    expect(elsewhere.path).toBe("b");
    expect({ ...elsewhere, path: "a" }).toEqual(cp);
    // A malformed one is refused again each time, at the path it is read at.
    const bad = withMember(good, "v", fromPlain(2));
    for (const path of ["a", "a", "b"]) {
      const r = parseCheckpoint(bad, path);
      expectCode(r, "CHECKPOINT_VERSION_UNSUPPORTED");
      if (!r.ok) expect(r.path).toBe(`${path}.v`);
    }
    // An equal copy is read on its own.
    expect(okValue(parseCheckpoint(withMember(good, "v", fromPlain(1)), "a"))).not.toBe(cp);
  });

  it.each([
    ["v: 2", "v", 2, "CHECKPOINT_VERSION_UNSUPPORTED"],
    ['v: "1"', "v", "1", "CHECKPOINT_MALFORMED"],
    ["v: 1.0", "v", new JsonNumber("1.0"), "CHECKPOINT_MALFORMED"],
    ["kind: checkpoint", "kind", "checkpoint", "CHECKPOINT_KIND_INVALID"],
    ["kind: 1", "kind", 1, "CHECKPOINT_MALFORMED"],
    ["log_id: null", "log_id", null, "CHECKPOINT_MALFORMED"],
    ["mmr_size: true (a bool posing as an int)", "mmr_size", true, "CHECKPOINT_MALFORMED"],
    ["mmr_size: -1", "mmr_size", -1, "CHECKPOINT_MALFORMED"],
    ["mmr_size: 1.0", "mmr_size", new JsonNumber("1.0"), "CHECKPOINT_MALFORMED"],
    ["a 33-byte root", "root", "ab".repeat(33), "CHECKPOINT_MALFORMED"],
    ["an uppercase root", "root", "AB".repeat(32), "CHECKPOINT_MALFORMED"],
    ['prev_size: "0"', "prev_size", "0", "CHECKPOINT_MALFORMED"],
    ["prev_root: null", "prev_root", null, "CHECKPOINT_MALFORMED"],
    ['prev_root: "00"', "prev_root", "00", "CHECKPOINT_MALFORMED"],
    ["a 31-byte key_id", "key_id", "ab".repeat(31), "CHECKPOINT_MALFORMED"],
    ["timestamp: 0", "timestamp", 0, "CHECKPOINT_MALFORMED"],
    ["a 32-byte signature", "signature", "ab".repeat(32), "CHECKPOINT_MALFORMED"],
    ["a signature as a number", "signature", 1, "CHECKPOINT_MALFORMED"],
    ["witnesses: {}", "witnesses", {}, "CHECKPOINT_MALFORMED"],
  ] as const)("refuses %s", (_name, member, value, code) => {
    const r = parseCheckpoint(withMember(good, member, fromPlain(value)), "cp");
    expectCode(r, code);
    if (!r.ok) expect(r.path).toBe(`cp.${member}`);
  });

  it("refuses a non-object, an unknown member and a missing member", () => {
    expectCode(parseCheckpoint(fromPlain(["v"]), "cp"), "CHECKPOINT_MALFORMED");
    const unknown = parseCheckpoint(withMember(good, "peaks_digest", "00"), "cp");
    expectCode(unknown, "CHECKPOINT_MEMBER_UNKNOWN");
    if (!unknown.ok) expect(unknown.path).toBe("cp.peaks_digest");
    for (const name of ["v", "root", "timestamp", "signature"]) {
      const missing = newJsonObject();
      for (const k of Object.keys(good)) if (k !== name) missing[k] = good[k] as JsonValue;
      expectCode(parseCheckpoint(missing, "cp"), "CHECKPOINT_MEMBER_MISSING");
    }
  });

  it("refuses a tampered signature", () => {
    const sig = str(get(good, "signature"));
    const tampered = `${sig.slice(0, 10)}${sig[10] === "0" ? "1" : "0"}${sig.slice(11)}`;
    const cp = okValue(parseCheckpoint(withMember(good, "signature", tampered), "cp"));
    const r = verifyCheckpointSignature(cp);
    expectCode(r, "CHECKPOINT_SIGNATURE_INVALID");
    if (!r.ok) expect(r.path).toBe("cp.signature");
  });

  it("signs non-ASCII members in pyjson's escaped form, not as raw UTF-8", () => {
    const fields = {
      v: 1,
      kind: "mmr_checkpoint",
      log_id: "journal-é",
      mmr_size: 1,
      root: "ab".repeat(32),
      prev_size: 0,
      prev_root: "",
      key_id: signer.keyId,
      timestamp: "t",
    };
    const escapedBody = (canonicalize(fields) as string).replace("é", "\\u00e9");
    const signature = signer.signDigestHex(sha256Hex(utf8(escapedBody)));
    const cp = okValue(parseCheckpoint(fromPlain({ ...fields, signature }), "cp"));
    expect(cp.signingBody).toBe(escapedBody);
    expect(okValue(verifyCheckpointSignature(cp))).toBe(true);
  });

  it("refuses an entry_digest over a number Python would print differently, or nested too deep", () => {
    const float = okValue(
      parseCheckpoint(withMember(good, "witnesses", fromPlain([{ leaf_index: new JsonNumber("0.0") }])), "cp"),
    );
    expectCode(checkpointEntryDigest(float), "CANON_FLOAT");
    let deep: unknown = 1;
    for (let i = 0; i < 300; i++) deep = [deep];
    const nested = okValue(parseCheckpoint(withMember(good, "witnesses", fromPlain([deep])), "cp"));
    expectCode(checkpointEntryDigest(nested), "CANON_TOO_DEEP");
  });
});
