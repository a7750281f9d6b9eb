/**
 * The log side of one record: the producer appends the capsule to its CLL MMR among other
 * records, signs a checkpoint at the resulting size (chained to a prior checkpoint when there is
 * one), has each Transparency Service register the checkpoint's entry_hash, and hands the
 * manifest its proofs in the shapes the A2A manifest uses (log-and-receipts.md §2: camelCase
 * inclusion proof, snake_case checkpoint and consistency proof).
 */
import type { JsonObject } from "../src/json/value.js";
import { bytesToHex, hexToBytes, sha256, utf8 } from "../src/util/bytes.js";
import { signCheckpoint } from "./checkpoint.js";
import { ed25519FromSeed, seedFromLabel, type Ed25519Signer } from "./ed25519.js";
import { p256FromSeed } from "./ecdsa-p256.js";
import { int, jsonObject } from "./json-text.js";
import { MmrBuilder, mmrSizeForLeaves, type ConsistencyProof, type InclusionProof } from "./mmr.js";
import type { ResolvedOptions, WitnessOptions } from "./options.js";
import { register, stubRecord, type TransparencyService } from "./transparency.js";

export interface TransparencyServiceKey {
  readonly url: string;
  readonly alg: "EdDSA" | "ES256";
  /** 64-hex raw key (EdDSA) or PEM SubjectPublicKeyInfo (ES256), as a trust file pins it. */
  readonly publicKey: string;
  readonly operator: "independent" | "producer";
}

export interface LogPart {
  readonly cllCheckpoint: JsonObject;
  readonly localInclusionProof: JsonObject;
  readonly priorCheckpoint: JsonObject | null;
  readonly consistencyProof: JsonObject | null;
  readonly transparencyServices: TransparencyServiceKey[];
}

/** Body digest of the producer's other log records (not ours): fixed, distinct per position. */
function fillerBody(leafIndex: number): Uint8Array {
  return sha256(utf8(`a2a-evidence producer log :: record ${leafIndex}`));
}

const hexList = (hashes: readonly Uint8Array[]): string[] => hashes.map(bytesToHex);

export function inclusionProofJson(p: InclusionProof): JsonObject {
  return jsonObject({
    kind: "inclusion",
    leafIndex: int(p.leafIndex),
    peaksLeft: hexList(p.peaksLeft),
    peaksRight: hexList(p.peaksRight),
    size: int(p.size),
    v: int(1),
    witness: hexList(p.witness),
  });
}

export function consistencyProofJson(p: ConsistencyProof): JsonObject {
  return jsonObject({
    kind: "consistency",
    new_peaks: hexList(p.newPeaks),
    old_peaks: hexList(p.oldPeaks),
    size_a: int(p.sizeA),
    size_b: int(p.sizeB),
    v: int(1),
    witness: p.witness.map(hexList),
  });
}

/** The service a witness option names: its key derived from its label, our entry's position in its log. */
export function transparencyService(w: WitnessOptions): TransparencyService {
  const seed = seedFromLabel(w.keyLabel ?? `transparency-service ${w.url}`);
  const treeSize = w.treeSize ?? 1;
  return {
    url: w.url,
    signer: w.alg === "ES256" ? p256FromSeed(seed) : ed25519FromSeed(seed),
    treeSize,
    leafIndex: w.leafIndex ?? treeSize - 1,
  };
}

/** What the log side of a record is built from; a re-signing mutator reads these back from a manifest. */
export type LogOptions = Pick<ResolvedOptions, "leavesBefore" | "leavesAfter" | "logId" | "priorCheckpoint" | "checkpointTimestamp" | "witnesses">;

export function buildLog(o: LogOptions, capsuleId: string, signer: Ed25519Signer): LogPart {
  const mmr = new MmrBuilder();
  for (let i = 0; i < o.leavesBefore; i++) mmr.appendBody(fillerBody(i));
  const ourLeaf = mmr.appendBody(hexToBytes(capsuleId) as Uint8Array);
  for (let i = 0; i < o.leavesAfter; i++) mmr.appendBody(fillerBody(ourLeaf + 1 + i));

  const checkpointAt = (leafCount: number, prevSize: number, prevRoot: string, timestamp: string) =>
    signCheckpoint(
      { logId: o.logId, mmrSize: mmrSizeForLeaves(leafCount), root: bytesToHex(mmr.root(leafCount)), prevSize, prevRoot, timestamp },
      signer,
    );
  const priorAt = o.priorCheckpoint;
  // A log's first checkpoint has prev_size 0 and prev_root "" (§4.4); ours chains to the prior one.
  const prior = priorAt === null ? null : checkpointAt(priorAt.leafCount, 0, "", priorAt.timestamp);
  const current =
    priorAt === null
      ? checkpointAt(mmr.leafCount, 0, "", o.checkpointTimestamp)
      : checkpointAt(mmr.leafCount, mmrSizeForLeaves(priorAt.leafCount), bytesToHex(mmr.root(priorAt.leafCount)), o.checkpointTimestamp);

  const transparencyServices: TransparencyServiceKey[] = [];
  const records = o.witnesses.map((w) => {
    if (w.stub === true) return stubRecord(w.url, current.entryHash);
    const ts = transparencyService(w);
    transparencyServices.push({
      url: w.url,
      alg: ts.signer.alg,
      publicKey: ts.signer.alg === "EdDSA" ? ts.signer.publicKeyHex : ts.signer.publicKeyPem,
      operator: w.operator ?? "independent",
    });
    return register(ts, current.entryHash);
  });
  // CLL writes `witnesses` only when there is at least one (§4.1).
  if (records.length > 0) current.checkpoint.witnesses = records;

  return {
    cllCheckpoint: current.checkpoint,
    localInclusionProof: inclusionProofJson(mmr.inclusionProof(ourLeaf)),
    priorCheckpoint: prior === null ? null : prior.checkpoint,
    consistencyProof: priorAt === null ? null : consistencyProofJson(mmr.consistencyProof(priorAt.leafCount)),
    transparencyServices,
  };
}
