/**
 * The producer's CLL-aware witness: the tlog-witness state machine (TOFU, old size, 409/422
 * refusals), the CLL consistency check it makes before cosigning, and lines the verifier's
 * cosignature code accepts.
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonObject } from "../../src/json/value.js";
import { bytesToHex, hexToBytes, sha256, utf8 } from "../../src/util/bytes.js";
import { parseSignatureLine } from "../../src/witness/note.js";
import { parseTimestampedSignature, verifyCosignature } from "../../src/witness/cosignature.js";
import { ed25519KeyFromRaw } from "../../src/crypto/ed25519.js";
import { signCheckpoint } from "../../producer/checkpoint.js";
import { consistencyProofJson } from "../../producer/log.js";
import { MmrBuilder, mmrSizeForLeaves } from "../../producer/mmr.js";
import { ed25519FromSeed, seedFromLabel } from "../../producer/ed25519.js";
import { CllWitness, WitnessRefusal, cllNote, leavesForSize } from "../../producer/witness.js";

const producer = ed25519FromSeed(seedFromLabel("witness test producer"));
const LOG = "witness-test-log";
const mmr = new MmrBuilder();
for (let i = 0; i < 40; i++) mmr.appendBody(sha256(utf8(`leaf ${i}`)));

function checkpointAt(leaves: number, prevLeaves = 0, signer = producer, logId = LOG): JsonObject {
  return signCheckpoint(
    {
      logId,
      mmrSize: mmrSizeForLeaves(leaves),
      root: bytesToHex(mmr.root(leaves)),
      prevSize: prevLeaves === 0 ? 0 : mmrSizeForLeaves(prevLeaves),
      prevRoot: prevLeaves === 0 ? "" : bytesToHex(mmr.root(prevLeaves)),
      timestamp: "2026-10-01T09:00:00Z",
    },
    signer,
  ).checkpoint;
}

const proof = (a: number, b: number) => consistencyProofJson(mmr.consistencyProof(a, b));
const witness = () =>
  new CllWitness(
    "witness.example/test",
    ed25519FromSeed(seedFromLabel("witness test key")),
    new Map([[LOG, producer.publicKeyHex]]),
  );

function status(f: () => unknown): number | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof WitnessRefusal) return e.status;
    throw e;
  }
  return undefined;
}

describe("the producer's CLL witness", () => {
  it("leaf counts and MMR sizes map one to one; other sizes name no leaf count", () => {
    for (let n = 0; n < 300; n++) expect(leavesForSize(mmrSizeForLeaves(n))).toBe(n);
    expect([2, 5, 6, 9].map(leavesForSize)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("cosigns the first checkpoint on first contact, then a later one after its consistency proof; the verifier accepts both lines", () => {
    const w = witness();
    const first = w.addCheckpoint(checkpointAt(5), 0, null, 1000n);
    const second = w.addCheckpoint(checkpointAt(9, 5), 5, proof(5, 9), 2000n);
    const key = ed25519KeyFromRaw(w.signer.publicKeyRaw)!;
    for (const [line, leaves, time] of [
      [first, 5, 1000n],
      [second, 9, 2000n],
    ] as const) {
      const parsed = parseSignatureLine(line);
      if (!parsed.ok) throw new Error(parsed.detail);
      const signed = parseTimestampedSignature(parsed.value.signature);
      if (!signed.ok) throw new Error(signed.detail);
      expect(parsed.value.keyIdHex).toBe(w.keyIdHex);
      expect(signed.value.timestamp).toBe(time);
      expect(verifyCosignature(cllNote(LOG, leaves, mmr.root(leaves)), signed.value, key)).toBe(true);
    }
  });

  it("checks the CLL consistency proof for every pair of sizes up to 24 leaves, and refuses each one altered", () => {
    for (let a = 1; a <= 24; a++) {
      for (let b = a + 1; b <= 24; b++) {
        const w = witness();
        w.addCheckpoint(checkpointAt(a), 0, null, 1n);
        const p = proof(a, b);
        const paths = p.witness as string[][];
        const bad = {
          ...p,
          witness: paths.map((path, i) =>
            i === paths.length - 1 && path.length > 0
              ? [bytesToHex(sha256(hexToBytes(path[0] as string) as Uint8Array)), ...path.slice(1)]
              : path,
          ),
        };
        if (paths.some((path) => path.length > 0)) {
          const w2 = witness();
          w2.addCheckpoint(checkpointAt(a), 0, null, 1n);
          expect(
            status(() => w2.addCheckpoint(checkpointAt(b, a), a, bad, 2n)),
            `${a}→${b} altered`,
          ).toBe(422);
        }
        expect(
          status(() => w.addCheckpoint(checkpointAt(b, a), a, p, 2n)),
          `${a}→${b}`,
        ).toBeUndefined();
      }
    }
  });

  it("refuses as tlog-witness does: unknown log 404, wrong key or signature 403, old size 400/409, bad proof or fork 422", () => {
    const other = ed25519FromSeed(seedFromLabel("someone else"));
    expect(status(() => witness().addCheckpoint(checkpointAt(5, 0, producer, "another-log"), 0, null, 1n))).toBe(404);
    expect(status(() => witness().addCheckpoint(checkpointAt(5, 0, other), 0, null, 1n))).toBe(403);
    const tampered = { ...checkpointAt(5), mmr_size: new JsonNumber(String(mmrSizeForLeaves(6))) };
    expect(status(() => witness().addCheckpoint(tampered, 0, null, 1n))).toBe(403);
    expect(status(() => witness().addCheckpoint(checkpointAt(5), 6, null, 1n))).toBe(400);
    expect(status(() => witness().addCheckpoint(checkpointAt(5), 0, proof(0, 5), 1n))).toBe(422);
    const w = witness();
    w.addCheckpoint(checkpointAt(5), 0, null, 1n);
    // The submitter thinks the witness is fresh: 409 with the size it holds.
    expect(status(() => w.addCheckpoint(checkpointAt(9, 5), 0, null, 2n))).toBe(409);
    expect(status(() => w.addCheckpoint(checkpointAt(9, 5), 5, null, 2n))).toBe(422);
    expect(status(() => w.addCheckpoint(checkpointAt(9, 5), 5, proof(4, 9), 2n))).toBe(422);
    // The same size with another root: a fork.
    const fork = signCheckpoint(
      {
        logId: LOG,
        mmrSize: mmrSizeForLeaves(5),
        root: bytesToHex(mmr.root(6)),
        prevSize: 0,
        prevRoot: "",
        timestamp: "t",
      },
      producer,
    ).checkpoint;
    expect(status(() => w.addCheckpoint(fork, 5, null, 3n))).toBe(422);
    // The same checkpoint again is cosigned again (a new timestamp).
    expect(status(() => w.addCheckpoint(checkpointAt(5), 5, null, 4n))).toBeUndefined();
  });
});
