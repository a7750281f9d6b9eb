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
import { ProducerError } from "./errors.js";

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

/** The key a trust file pins for a Transparency Service, and how it labels the service. */
export function transparencyServiceKey(w: WitnessOptions): TransparencyServiceKey {
  const ts = transparencyService(w);
  return {
    url: w.url,
    alg: ts.signer.alg,
    publicKey: ts.signer.alg === "EdDSA" ? ts.signer.publicKeyHex : ts.signer.publicKeyPem,
    operator: w.operator ?? "independent",
  };
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
    ...(w.iat !== undefined ? { iat: w.iat } : {}),
  };
}

/** What the log side of a record is built from; a re-signing mutator reads these back from a manifest. */
export type LogOptions = Pick<
  ResolvedOptions,
  "leavesBefore" | "leavesAfter" | "logId" | "priorCheckpoint" | "checkpointTimestamp" | "witnesses"
>;
/** One of our records in the log, in leaf order. */
export interface LogRecord {
  readonly capsuleId: string;
  /**
   * Sign a checkpoint of its own once it and the filler leaves after it are appended, before the
   * next record (an interim record sealed at a pause); otherwise it sits under the final checkpoint.
   */
  readonly ownCheckpoint?: { readonly timestamp: string } | null;
  /** Build its inclusion proof at this many leaves instead of at its checkpoint's (a stale proof). */
  readonly proofLeaves?: number | null;
  /** Also give its view under the final checkpoint: the record re-issued later (docs/profile.md §3.1). */
  readonly reissued?: boolean;
}

/** Filler leaves (other producers' records) between two of ours, so each sits at a distinct position. */
export const GAP = 2;

interface PlannedCheckpoint {
  readonly leafCount: number;
  readonly timestamp: string;
}

/**
 * The producer's log with several of our records (a Task's interim records and its terminal one):
 * `leavesBefore` filler leaves, our records with GAP fillers between them, `leavesAfter` fillers,
 * one checkpoint chain — the prior checkpoint, each record's own checkpoint, the final one — and
 * each record's view of it. One record gives exactly the single-record log.
 */
export function buildRecordsLog(
  o: LogOptions,
  records: readonly LogRecord[],
  signer: Ed25519Signer,
): (LogPart & { readonly reissued?: LogPart })[] {
  const mmr = new MmrBuilder();
  for (let i = 0; i < o.leavesBefore; i++) mmr.appendBody(fillerBody(i));
  const leaves: number[] = [];
  const own = new Map<number, PlannedCheckpoint>();
  records.forEach((r, k) => {
    leaves.push(mmr.appendBody(hexToBytes(r.capsuleId) as Uint8Array));
    const fillers = k === records.length - 1 ? o.leavesAfter : GAP;
    for (let i = 0; i < fillers; i++) mmr.appendBody(fillerBody(mmr.leafCount));
    if (r.ownCheckpoint) {
      if (k === records.length - 1)
        throw new ProducerError("PRODUCER_INVALID_OPTION", "the last record of a log sits under the final checkpoint");
      own.set(k, { leafCount: mmr.leafCount, timestamp: r.ownCheckpoint.timestamp });
    }
  });
  const final: PlannedCheckpoint = { leafCount: mmr.leafCount, timestamp: o.checkpointTimestamp };
  const priorAt = o.priorCheckpoint;
  const plan = [
    ...(priorAt === null ? [] : [{ leafCount: priorAt.leafCount, timestamp: priorAt.timestamp }]),
    ...own.values(),
    final,
  ];
  plan.forEach((c, i) => {
    if (i > 0 && c.leafCount <= (plan[i - 1] as PlannedCheckpoint).leafCount) {
      // A checkpoint chain needs mmr_size > prev_size (log-and-receipts.md §4.4).
      throw new ProducerError(
        "PRODUCER_INVALID_OPTION",
        `checkpoint at ${c.leafCount} leaves does not follow the one at ${(plan[i - 1] as PlannedCheckpoint).leafCount}`,
      );
    }
  });

  // A log's first checkpoint has prev_size 0 and prev_root "" (§4.4); each later one chains to the one before.
  const signed = plan.map((c, i) => {
    const prev = plan[i - 1];
    const rotated = i === 0 && priorAt !== null && priorAt.keyLabel !== null ? priorAt.keyLabel : undefined;
    return signCheckpoint(
      {
        logId: o.logId,
        mmrSize: mmrSizeForLeaves(c.leafCount),
        root: bytesToHex(mmr.root(c.leafCount)),
        prevSize: prev === undefined ? 0 : mmrSizeForLeaves(prev.leafCount),
        prevRoot: prev === undefined ? "" : bytesToHex(mmr.root(prev.leafCount)),
        timestamp: c.timestamp,
      },
      rotated === undefined ? signer : ed25519FromSeed(seedFromLabel(rotated)),
    );
  });

  const current = signed[signed.length - 1] as (typeof signed)[number];
  const transparencyServices: TransparencyServiceKey[] = [];
  const witnessRecords = o.witnesses.map((w) => {
    if (w.stub === true) return stubRecord(w.url, current.entryHash);
    transparencyServices.push(transparencyServiceKey(w));
    return register(transparencyService(w), current.entryHash);
  });
  // CLL writes `witnesses` only when there is at least one (§4.1).
  if (witnessRecords.length > 0) current.checkpoint.witnesses = witnessRecords;

  const view = (r: LogRecord, k: number, at: PlannedCheckpoint): LogPart => {
    const index = plan.indexOf(at);
    const prior = index > 0 ? (plan[index - 1] as PlannedCheckpoint) : undefined;
    return {
      cllCheckpoint: (signed[index] as (typeof signed)[number]).checkpoint,
      localInclusionProof: inclusionProofJson(mmr.inclusionProof(leaves[k] as number, r.proofLeaves ?? at.leafCount)),
      priorCheckpoint: prior === undefined ? null : (signed[index - 1] as (typeof signed)[number]).checkpoint,
      consistencyProof:
        prior === undefined ? null : consistencyProofJson(mmr.consistencyProof(prior.leafCount, at.leafCount)),
      transparencyServices,
    };
  };
  return records.map((r, k) => ({
    ...view(r, k, own.get(k) ?? final),
    ...(r.reissued === true ? { reissued: view(r, k, final) } : {}),
  }));
}

export function buildLog(
  o: LogOptions & { readonly inclusionProofLeaves?: number | null },
  capsuleId: string,
  signer: Ed25519Signer,
): LogPart {
  return buildRecordsLog(o, [{ capsuleId, proofLeaves: o.inclusionProofLeaves ?? null }], signer)[0] as LogPart;
}
