/**
 * A CLL checkpoint's signature (log-and-receipts.md §4.1–§4.2): the signing body — pyjson of the
 * nine signed members, as received — its SHA-256, the 64 ASCII hex characters that are what the
 * Ed25519 signature covers, the result, and the entry hash a Transparency Service registers.
 */
import { checkpointEntryHash, verifyCheckpointSignature, type Checkpoint } from "../log/checkpoint.js";
import type { Result } from "../result.js";
import type { EvidenceContext } from "../evidence/context.js";
import { CHECKPOINT_PATH, manifestCheckpoint } from "../evidence/manifest-checkpoint.js";
import { hex, stepFailure, text } from "./common.js";
import type { Absent, CheckpointSection, InspectOptions } from "./model.js";

export function checkpointOf(
  parsed: Result<Checkpoint>,
  at: string,
  reconstructed: boolean,
  o: InspectOptions,
): CheckpointSection {
  if (!parsed.ok) {
    return {
      at,
      reconstructed,
      logId: null,
      mmrSize: null,
      root: null,
      prevSize: null,
      prevRoot: null,
      timestamp: null,
      signingBody: null,
      digest: null,
      keyId: null,
      signature: null,
      result: "not checked",
      entryHash: null,
      failure: stepFailure(parsed),
    };
  }
  const cp = parsed.value;
  return {
    at,
    reconstructed,
    logId: cp.logId,
    mmrSize: cp.mmrSize,
    root: hex(cp.root),
    prevSize: cp.prevSize,
    prevRoot: cp.prevRoot === null ? "" : hex(cp.prevRoot),
    timestamp: cp.timestamp,
    // The body is short and is the one preimage an auditor always needs to see: always shown.
    signingBody: text(cp.signingBody, o, true),
    digest: cp.digestHex,
    keyId: hex(cp.keyId),
    signature: hex(cp.signature),
    result: verifyCheckpointSignature(cp).ok ? "verifies" : "does not verify",
    entryHash: checkpointEntryHash(cp),
  };
}

export function checkpointSection(ctx: EvidenceContext, o: InspectOptions): CheckpointSection | Absent {
  const parsed = manifestCheckpoint(ctx);
  if (parsed === undefined) return { absent: "the bundle carries no checkpoint" };
  return checkpointOf(parsed.result, CHECKPOINT_PATH, parsed.narrowed, o);
}
