/** The checkpoint chain rule (§4.4): one test per rule, on checkpoints signed over builder trees. */
import { describe, expect, it } from "vitest";
import { fromPlain, type JsonObject } from "../../src/json/value.js";
import { parseCheckpoint, type Checkpoint } from "../../src/log/checkpoint.js";
import { verifyCheckpointChain } from "../../src/log/checkpoint-chain.js";
import { parseConsistencyProof, type ConsistencyProof } from "../../src/log/mmr.js";
import { bytesToHex, sha256 } from "../../src/util/bytes.js";
import { TestMmr } from "./mmr-builder.js";
import { expectCode, okValue } from "./fixtures.js";
import { TestSigner, type PlainCheckpoint } from "./signing.js";

const signer = new TestSigner();
const mmr = new TestMmr();
for (let i = 0; i < 5; i++) mmr.appendBody(sha256(new Uint8Array([i])));
const rootHex = (size: number) => bytesToHex(mmr.root(size));

function checkpoint(fields: Partial<PlainCheckpoint>, mutate?: (o: JsonObject) => void): Checkpoint {
  const json = signer.checkpoint(fields);
  mutate?.(json);
  return okValue(parseCheckpoint(json, "cp"));
}

/** The proof as the manifest carries it (snake_case JSON), read back through the parser. */
function proofJson(sizeA: number, sizeB: number): ConsistencyProof {
  const p = mmr.consistency(sizeA, sizeB);
  const plain = {
    v: 1,
    kind: "consistency",
    size_a: p.sizeA,
    size_b: p.sizeB,
    old_peaks: p.oldPeaks.map(bytesToHex),
    witness: p.witness.map((w) => w.map(bytesToHex)),
    new_peaks: p.newPeaks.map(bytesToHex),
  };
  return okValue(parseConsistencyProof(fromPlain(plain), "manifest.consistencyProof"));
}

const prior = checkpoint({ mmr_size: 4, root: rootHex(4) });
const current = checkpoint({ mmr_size: 8, root: rootHex(8), prev_size: 4, prev_root: rootHex(4) });
const proof = proofJson(4, 8);

describe("verifyCheckpointChain: a first checkpoint (no prior)", () => {
  it('accepts prev_size 0, prev_root "" and no proof', () => {
    expect(okValue(verifyCheckpointChain(null, prior, null))).toEqual({ link: "first", mmrSize: 4, root: rootHex(4) });
  });
  it("refuses prev_size > 0 without a prior checkpoint", () => {
    expectCode(verifyCheckpointChain(null, current, null), "CHAIN_PRIOR_MISSING");
  });
  it("refuses prev_size 0 with a non-empty prev_root", () => {
    const cp = checkpoint({ mmr_size: 4, root: rootHex(4), prev_root: rootHex(1) });
    expectCode(verifyCheckpointChain(null, cp, null), "CHAIN_FIRST_PREV_ROOT_NOT_EMPTY");
  });
  it("refuses a consistency proof", () => {
    expectCode(verifyCheckpointChain(null, prior, proof), "CHAIN_CONSISTENCY_UNEXPECTED");
  });
});

describe("verifyCheckpointChain: a checkpoint with a prior", () => {
  it("accepts the linked pair with a consistency proof, reporting what was compared", () => {
    expect(okValue(verifyCheckpointChain(prior, current, proof))).toEqual({
      link: "chained",
      logId: "test-log",
      priorSize: 4,
      priorRoot: rootHex(4),
      mmrSize: 8,
      root: rootHex(8),
    });
  });

  it("refuses a prior whose signature does not verify", () => {
    const forged = checkpoint({ mmr_size: 4, root: rootHex(4) }, (o) => {
      o.timestamp = fromPlain("2026-01-01T00:00:00.000001Z");
    });
    const r = verifyCheckpointChain(forged, current, proof);
    expectCode(r, "CHAIN_PRIOR_SIGNATURE_INVALID");
    if (!r.ok) expect(r.path).toBe("cp.signature");
  });

  it("leaves the current checkpoint's own signature to the checkpointSignature property", () => {
    const unsigned = checkpoint({ mmr_size: 8, root: rootHex(8), prev_size: 4, prev_root: rootHex(4) }, (o) => {
      o.timestamp = fromPlain("changed after signing");
    });
    expect(verifyCheckpointChain(prior, unsigned, proof).ok).toBe(true);
  });

  it("refuses a prior from another log", () => {
    const other = checkpoint({ log_id: "other-log", mmr_size: 4, root: rootHex(4) });
    expectCode(verifyCheckpointChain(other, current, proof), "CHAIN_LOG_ID_MISMATCH");
  });

  it("refuses prev_size != prior.mmr_size", () => {
    const cp = checkpoint({ mmr_size: 8, root: rootHex(8), prev_size: 3, prev_root: rootHex(4) });
    const r = verifyCheckpointChain(prior, cp, proof);
    expectCode(r, "CHAIN_PREV_SIZE_MISMATCH");
    if (!r.ok) expect(r.detail).toBe("prev_size 3, prior mmr_size 4");
  });

  it("refuses prev_root != prior.root, including an empty prev_root", () => {
    const wrong = checkpoint({ mmr_size: 8, root: rootHex(8), prev_size: 4, prev_root: rootHex(3) });
    expectCode(verifyCheckpointChain(prior, wrong, proof), "CHAIN_PREV_ROOT_MISMATCH");
    const empty = checkpoint({ mmr_size: 8, root: rootHex(8), prev_size: 4, prev_root: "" });
    expectCode(verifyCheckpointChain(prior, empty, proof), "CHAIN_PREV_ROOT_MISMATCH");
  });

  it("refuses a successor that does not grow", () => {
    const at8 = checkpoint({ mmr_size: 8, root: rootHex(8), prev_size: 4, prev_root: rootHex(4) });
    const again = checkpoint({ mmr_size: 8, root: rootHex(8), prev_size: 8, prev_root: rootHex(8) });
    expectCode(verifyCheckpointChain(at8, again, proofJson(8, 8)), "CHAIN_SIZE_NOT_INCREASING");
  });

  it("refuses a missing consistency proof", () => {
    expectCode(verifyCheckpointChain(prior, current, null), "CHAIN_CONSISTENCY_MISSING");
  });

  it("refuses a consistency proof that does not verify, with the proof's own code", () => {
    const tampered = { ...proof, witness: proof.witness.map((w) => w.map((h) => sha256(h))) };
    const r = verifyCheckpointChain(prior, current, tampered);
    expectCode(r, "MMR_PEAK_MISMATCH");
    if (!r.ok) expect(r.detail.startsWith("consistency 4 → 8: ")).toBe(true);
    expectCode(verifyCheckpointChain(prior, current, proofJson(3, 8)), "MMR_PROOF_SIZE_MISMATCH");
  });

  it("refuses a current root that the prior does not extend (a rewritten history)", () => {
    const rewritten = checkpoint({ mmr_size: 8, root: "cd".repeat(32), prev_size: 4, prev_root: rootHex(4) });
    expectCode(verifyCheckpointChain(prior, rewritten, proof), "MMR_ROOT_MISMATCH");
  });
});
