/**
 * The CLL Merkle Mountain Range (log-and-receipts §3), one import for its callers:
 * - `mmr-position.ts`: position math and size validation (§3.1);
 * - `mmr-hash.ts`: leaf, interior and bagged-root hashes (§3.2);
 * - `mmr-proofs.ts`: inclusion, consistency and range verification (§3.3–§3.5);
 * - `mmr-proof-json.ts`: the proof objects from JSON, snake_case and the manifest's camelCase;
 * - `peak-commitment.ts`: the peak-list CBOR commitment of the COSE wire form (§3.6).
 */
export {
  MAX_MMR_SIZE,
  heightOf,
  leafCount,
  leafPosition,
  mountains,
  nodeCount,
  peaks,
  type Mountain,
} from "./mmr-position.js";
export { bagPeaks, interiorHash, leafHash, type BagStep } from "./mmr-hash.js";
export {
  verifyConsistency,
  verifyInclusion,
  verifyRange,
  type ConsistencyProof,
  type ConsistencyTrace,
  type InclusionProof,
  type InclusionTrace,
  type MmrFold,
  type RangeProof,
} from "./mmr-proofs.js";
export { parseConsistencyProof, parseInclusionProof, parseRangeProof } from "./mmr-proof-json.js";
export { decodePeakCommitment, encodePeakCommitment, peakCommitmentRoot } from "./peak-commitment.js";
