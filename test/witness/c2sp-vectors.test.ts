/**
 * The C2SP signed-note and cosignature/v1 values recorded in continuity-witness.md §1 and §5,
 * reproduced byte for byte: published vectors from golang/mod (sumdb/note), the C2SP texts and
 * transparency-dev, and the worked CLL examples (whose signatures two Ed25519 implementations
 * agree on). The 0x01 note signatures are checked with node:crypto directly; what is under test
 * is our line parsing, key ID derivation, verifier-key parsing and cosigned-message bytes.
 */
import { createPrivateKey, createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ed25519 } from "@noble/curves/ed25519.js";
import { bytesToHex, hexToBytes, sha256Hex, utf8 } from "../../src/util/bytes.js";
import {
  noteKeyId,
  parseSignatureLine,
  parseVerifierKey,
  SIGNATURE_TYPE_COSIGNATURE_V1,
  SIGNATURE_TYPE_ED25519,
} from "../../src/witness/note.js";
import { cosignedMessage, parseTimestampedSignature, verifyCosignature } from "../../src/witness/cosignature.js";
import { renderCllNote } from "../../src/witness/cll-note.js";
import { importWitnessKey } from "../../src/witness/keys.js";
import { ed25519KeyFromRaw } from "../../src/crypto/ed25519.js";
import { CllWitness } from "../../producer/witness.js";
import { ed25519FromSeed } from "../../producer/ed25519.js";

const SPKI = "302a300506032b6570032100";
const keyOf = (raw: Uint8Array) =>
  createPublicKey({ key: Buffer.concat([Buffer.from(SPKI, "hex"), raw]), format: "der", type: "spki" });

function value<T>(r: { ok: true; value: T } | { ok: false; code: string; detail: string }): T {
  if (!r.ok) throw new Error(`${r.code}: ${r.detail}`);
  return r.value;
}

/** A type-0x01 note signature line verified over the note text under a vkey, as Go's note.Open does. */
function noteVerifies(vkey: string, text: string, line: string): boolean {
  const v = value(parseVerifierKey(vkey));
  const l = value(parseSignatureLine(line));
  if (l.name !== v.name || l.keyIdHex !== v.keyIdHex) return false;
  return verify(null, utf8(text), keyOf(v.publicKey), l.signature);
}

describe("signed-note vectors (c2sp.org/signed-note, golang/mod sumdb/note)", () => {
  const PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
  const PETER_TEXT =
    "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
  const PETER_LINE =
    "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=";

  it("golang/mod's PeterNeumann key: the vkey parses (split on the first two '+'), its key ID recomputes, the line verifies", () => {
    const v = value(parseVerifierKey(PETER_VKEY));
    expect({ name: v.name, id: v.keyIdHex, type: v.type, key: bytesToHex(v.publicKey) }).toEqual({
      name: "PeterNeumann",
      id: "c74f20a3",
      type: SIGNATURE_TYPE_ED25519,
      key: "1a5cd907143c384c41e830c5bce12aa8817ec5649aaabf2c31388b35b2d744d6",
    });
    expect(bytesToHex(noteKeyId("PeterNeumann", SIGNATURE_TYPE_ED25519, v.publicKey))).toBe("c74f20a3");
    expect(noteVerifies(PETER_VKEY, PETER_TEXT, PETER_LINE)).toBe(true);
    // One byte appended to the text: the signature no longer verifies.
    expect(noteVerifies(PETER_VKEY, `${PETER_TEXT}x`, PETER_LINE)).toBe(false);
  });

  it("the private key PRIVATE+KEY+PeterNeumann+c74f20a3+… holds the seed of that public key (its base64 contains '+')", () => {
    const skey = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
    const parts = skey.split("+");
    const seed = Buffer.from(parts.slice(4).join("+"), "base64").subarray(1);
    const priv = createPrivateKey({
      key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]),
      format: "der",
      type: "pkcs8",
    });
    const raw = createPublicKey(priv).export({ format: "der", type: "spki" }).subarray(12);
    expect(raw.toString("hex")).toBe("1a5cd907143c384c41e830c5bce12aa8817ec5649aaabf2c31388b35b2d744d6");
    // A naive split on every '+' would cut the base64 in two.
    expect(parts.length).toBeGreaterThan(5);
  });

  it("the C2SP signed-note example (example.com/foo) verifies", () => {
    expect(
      noteVerifies(
        "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",
        "This is an example message.\n",
        "— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=",
      ),
    ).toBe(true);
  });

  it("transparency-dev/witness's signed checkpoint (monkeys, size 5) verifies", () => {
    expect(
      noteVerifies(
        "monkeys+db4d9f7e+AULaJMvTtDLHPUcUrjdDad9vDlh/PTfC2VV60JUtCfWT",
        "monkeys\n5\n41smjBUiAU70EtKlT6lIOIYtRTYxYXsDB+XHfcvu/BE=\n",
        "— monkeys 202fftzGl3LVoqjXfwCFZZXs8I+5G22+Ek2K0AOyBuSJ/8/CZawNF+6fNlTKOCd622pbzJNkkJFWuw9DbicZCkEx9AY=",
      ),
    ).toBe(true);
  });

  it("transparency-dev/formats' real type-0x04 vkey: key ID da77ade7 with type 0x04 (c66059b1 with 0x01)", () => {
    const vkey = "remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2";
    const v = value(parseVerifierKey(vkey));
    expect(v.type).toBe(SIGNATURE_TYPE_COSIGNATURE_V1);
    expect(bytesToHex(noteKeyId(v.name, SIGNATURE_TYPE_ED25519, v.publicKey))).toBe("c66059b1");
    expect(value(importWitnessKey(vkey, "remora.n621.de")).keyIdHex).toBe("da77ade7");
    // The same raw key given as hex gets the same (type 0x04) key ID from the name.
    expect(value(importWitnessKey(bytesToHex(v.publicKey), "remora.n621.de")).keyIdHex).toBe("da77ade7");
  });
});

describe("cosignature/v1 (c2sp.org/tlog-cosignature)", () => {
  it("the spec's example line decodes to 76 bytes: key ID 8d66cf3f, timestamp 1679315147", () => {
    const line = value(
      parseSignatureLine(
        "— witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==",
      ),
    );
    expect(line.name).toBe("witness.example.com/w1");
    expect(line.keyIdHex).toBe("8d66cf3f");
    expect(line.signature.length + 4).toBe(76);
    expect(value(parseTimestampedSignature(line.signature)).timestamp).toBe(1679315147n);
    // Its signed message, as the spec prints it.
    expect(
      Buffer.from(
        cosignedMessage(
          "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
          1679315147n,
        ),
      ).toString(),
    ).toBe(
      "cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
    );
  });
});

describe("the worked CLL examples (continuity-witness.md §5)", () => {
  const SEED = new Uint8Array(32).fill(0x0b);
  const NAME = "witness.example/cll-w1";
  const VKEY = "witness.example/cll-w1+7950ebca+BGa+fjMsekUzMr2dCn99sFX1xe8aBq2mbZizn7aBDEc6";
  const witnessKey = value(importWitnessKey(VKEY, NAME));
  const key = ed25519KeyFromRaw(hexToBytes(witnessKey.publicKeyHex) as Uint8Array)!;

  it("§5.1 the witness key: public key, key ID 7950ebca (64422bcb if wrongly type 0x01), vkey", () => {
    const signer = ed25519FromSeed(SEED);
    expect(signer.publicKeyHex).toBe("66be7e332c7a453332bd9d0a7f7db055f5c5ef1a06ada66d98b39fb6810c473a");
    expect(witnessKey.publicKeyHex).toBe(signer.publicKeyHex);
    expect(witnessKey.keyIdHex).toBe("7950ebca");
    expect(bytesToHex(noteKeyId(NAME, SIGNATURE_TYPE_ED25519, signer.publicKeyRaw))).toBe("64422bcb");
    expect(new CllWitness(NAME, signer, new Map()).vkey).toBe(VKEY);
  });

  const EX1 = {
    note: "agentactioncapsule.org/cll-mmr/v1/9760b4d3abf16e7ff90f666417d7d72a3b440093e6a298675e95408fa3c2d781\n1\n9OoVDBJyp7g/XKR3WtTRT8YW5jxk/f302xFAbTOGCFw=\n",
    time: 1788847513n,
    message:
      "636f7369676e61747572652f76310a74696d6520313738383834373531330a6167656e74616374696f6e63617073756c652e6f72672f636c6c2d6d6d722f76312f393736306234643361626631366537666639306636363634313764376437326133623434303039336536613239383637356539353430386661336332643738310a310a394f6f5644424a797037672f584b52335774545254385957356a786b2f6633303278464162544f474346773d0a",
    signature:
      "9a7484818e33e96c0bfa8e0a5848245d15ca632f007795324b20c780370cfc61040894b278d0841f21f8fe665c6f30ed5855ece2d5142f9aa1bb283a4c3afb07",
    line: "— witness.example/cll-w1 eVDrygAAAABqn6WZmnSEgY4z6WwL+o4KWEgkXRXKYy8Ad5UySyDHgDcM/GEECJSyeNCEHyH4/mZcbzDtWFXs4tUUL5qhuyg6TDr7Bw==",
  };

  it("§5.2 example 1: the A2A positive vector's checkpoint renders to the 146-byte note, the message and line reproduce", () => {
    const note = value(
      renderCllNote({
        logId: "9760b4d3abf16e7ff90f666417d7d72a3b440093e6a298675e95408fa3c2d781",
        mmrSize: 1,
        root: hexToBytes("f4ea150c1272a7b83f5ca4775ad4d14fc616e63c64fdfdf4db11406d3386085c") as Uint8Array,
      }),
    );
    expect(note.text).toBe(EX1.note);
    expect(utf8(note.text).length).toBe(146);
    const message = cosignedMessage(note.text, EX1.time);
    expect(bytesToHex(message)).toBe(EX1.message);
    expect(sha256Hex(message)).toBe("76c49ee366cfda4e4f892568acf6af1a9899728ac32655d690236f49c5687682");
    const line = value(parseSignatureLine(EX1.line));
    const signed = value(parseTimestampedSignature(line.signature));
    expect({ keyId: line.keyIdHex, time: signed.timestamp, signature: bytesToHex(signed.signature) }).toEqual({
      keyId: "7950ebca",
      time: EX1.time,
      signature: EX1.signature,
    });
    expect(bytesToHex(line.signature.subarray(0, 8))).toBe("000000006a9fa599");
    expect(verifyCosignature(note.text, signed, key)).toBe(true);
    // A second Ed25519 implementation agrees (strict RFC 8032).
    expect(
      ed25519.verify(signed.signature, message, hexToBytes(witnessKey.publicKeyHex) as Uint8Array, { zip215: false }),
    ).toBe(true);
    // The producer's independent witness writes the same line.
    expect(new CllWitness(NAME, ed25519FromSeed(SEED), new Map()).cosign(note.text, EX1.time)).toBe(EX1.line);
  });

  it("§5.2 negative checks: size 2, an extension line, the type-0x01 key ID", () => {
    const line = value(parseSignatureLine(EX1.line));
    const signed = value(parseTimestampedSignature(line.signature));
    expect(verifyCosignature(EX1.note.replace("\n1\n", "\n2\n"), signed, key)).toBe(false);
    expect(verifyCosignature(`${EX1.note}mmr-profile cll-v1\n`, signed, key)).toBe(false);
    const relabelled = Buffer.from(EX1.line.split(" ")[2] as string, "base64");
    relabelled.set(Buffer.from("64422bcb", "hex"), 0);
    expect(value(parseSignatureLine(`— ${NAME} ${relabelled.toString("base64")}`)).keyIdHex).not.toBe(
      witnessKey.keyIdHex,
    );
  });

  it("§5.3 example 2: notes of the 3- and 5-leaf checkpoints, both lines, the signed message of C", () => {
    const p = value(
      renderCllNote({
        logId: "example-cll-log-1",
        mmrSize: 4,
        root: hexToBytes("e5280e43815bcb82f184d4dbe10741b65a28c34488a9a3029e0e08d1cbed9a17") as Uint8Array,
      }),
    );
    const c = value(
      renderCllNote({
        logId: "example-cll-log-1",
        mmrSize: 8,
        root: hexToBytes("a19de527084fc32502d998b4dd0e73f942d3b4ddc55b2c093dfd907e95a93f1a") as Uint8Array,
      }),
    );
    expect(p.text).toBe(
      "agentactioncapsule.org/cll-mmr/v1/example-cll-log-1\n3\n5SgOQ4Fby4LxhNTb4QdBtloow0SIqaMCng4I0cvtmhc=\n",
    );
    expect(c.text).toBe(
      "agentactioncapsule.org/cll-mmr/v1/example-cll-log-1\n5\noZ3lJwhPwyUC2Zi03Q5z+ULTtN3FWywJPf2QfpWpPxo=\n",
    );
    expect(bytesToHex(cosignedMessage(c.text, 1788998710n))).toBe(
      "636f7369676e61747572652f76310a74696d6520313738383939383731300a6167656e74616374696f6e63617073756c652e6f72672f636c6c2d6d6d722f76312f6578616d706c652d636c6c2d6c6f672d310a350a6f5a336c4a77685077795543325a69303351357a2b554c54744e33465779774a506632516670577050786f3d0a",
    );
    const lineP =
      "— witness.example/cll-w1 eVDrygAAAABqofMKNJiLdOXcXZIiykDl9+egtkzw4cMfrRlF/gGQgjxp5LIdUKKidyNjDpb1CqsSv44MQMJy4WgV6dPXBL+0t5IEAw==";
    const lineC =
      "— witness.example/cll-w1 eVDrygAAAABqofQ2yC0hF42khh2Owx2N64CaociSJKZjShBi/dfizob6FUyLZM8AHVc/d4i5sJgJ9g6BXR1r3JWj0L0kF/nT9oC/Cw==";
    const sp = value(parseTimestampedSignature(value(parseSignatureLine(lineP)).signature));
    const sc = value(parseTimestampedSignature(value(parseSignatureLine(lineC)).signature));
    expect([sp.timestamp, sc.timestamp]).toEqual([1788998410n, 1788998710n]);
    expect([verifyCosignature(p.text, sp, key), verifyCosignature(c.text, sc, key)]).toEqual([true, true]);
    // Swapped: the prior's line over the current note, and back.
    expect([verifyCosignature(c.text, sp, key), verifyCosignature(p.text, sc, key)]).toEqual([false, false]);
    const w = new CllWitness(NAME, ed25519FromSeed(SEED), new Map());
    expect([w.cosign(p.text, 1788998410n), w.cosign(c.text, 1788998710n)]).toEqual([lineP, lineC]);
  });
});
