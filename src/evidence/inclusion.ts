/**
 * The record's place in the producer's log, as the manifest states it (log-and-receipts.md §3.3,
 * §4.5): the checkpoint's root and size, the camelCase localInclusionProof, the leaf body (the
 * carried capsule_id), the leaf a record proves, and the consistency links from a manifest's
 * prior checkpoint to its own. localInclusion judges from these facts; inspect shows them.
 */
import { asSafeInteger, isJsonObject, member, type JsonValue } from "../json/value.js";
import { bytesToHex, hexToBytes, isHex64 } from "../util/bytes.js";
import {
  parseConsistencyProof,
  parseInclusionProof,
  verifyInclusion,
  type ConsistencyProof,
  type InclusionProof,
} from "../log/mmr.js";
import { parseCheckpoint, type Checkpoint } from "../log/checkpoint.js";
import type { Result } from "../result.js";
import type { EvidenceContext } from "./context.js";
import { interimRecords } from "./interim.js";
import { manifestCheckpoint } from "./manifest-checkpoint.js";

export const PROOF_PATH = "manifest.localInclusionProof";

/** The root and size inclusion needs, read even from a checkpoint that does not parse. */
function rootAndSize(cp: JsonValue | undefined): { root: Uint8Array; mmrSize: number } | undefined {
  if (!isJsonObject(cp)) return undefined;
  const root = member(cp, "root");
  const mmrSize = asSafeInteger(member(cp, "mmr_size"));
  if (!isHex64(root) || mmrSize === undefined || mmrSize < 0) return undefined;
  return { root: hexToBytes(root) as Uint8Array, mmrSize };
}

/** What the inclusion of the record is checked from, each read as far as it goes. */
export interface InclusionEvidence {
  /** The manifest's checkpoint as parsed. */
  readonly checkpoint: Result<Checkpoint>;
  /**
   * The root and size the proof is checked against: the parsed checkpoint's, else read from one
   * that does not parse (a defect elsewhere in it is checkpointSignature's to report).
   */
  readonly committed: { readonly root: Uint8Array; readonly mmrSize: number } | undefined;
  /** The localInclusionProof as parsed. */
  readonly proof: Result<InclusionProof>;
  /** The leaf body: the carried capsule_id, as carried. */
  readonly capsuleId: JsonValue | undefined;
}

/**
 * The inclusion's inputs, or what the bundle lacks of them ("the bundle carries no checkpoint,
 * no capsule"). Read once per input.
 */
export function inclusionEvidence(ctx: EvidenceContext): InclusionEvidence | { readonly absent: string } {
  return ctx.once("inclusion", () => {
    const cp = manifestCheckpoint(ctx)?.result;
    const proofValue = ctx.manifest ? member(ctx.manifest, "localInclusionProof") : undefined;
    const capsule = ctx.capsule;
    if (cp === undefined || proofValue === undefined || proofValue === null || !capsule) {
      const missing = [
        cp === undefined && "checkpoint",
        (proofValue === undefined || proofValue === null) && "inclusion proof",
        !capsule && "capsule",
      ].filter(Boolean);
      return { absent: `the bundle carries no ${missing.join(", no ")}` };
    }
    return {
      checkpoint: cp,
      committed: cp.ok ? cp.value : rootAndSize(ctx.manifest ? member(ctx.manifest, "cllCheckpoint") : undefined),
      proof: parseInclusionProof(proofValue, PROOF_PATH),
      capsuleId: member(capsule, "capsule_id"),
    };
  });
}

/**
 * The record's leaf, leaf_hash(capsule_id), verified at its index against the checkpoint's root
 * (log-and-receipts.md §3.3): undefined when the inclusion's inputs are absent or malformed.
 * localInclusion judges from it; the trusted time places the record at its checkpoint by it.
 */
export function leafInclusion(ctx: EvidenceContext): Result<true> | undefined {
  return ctx.once("leaf inclusion", () => {
    const read = inclusionEvidence(ctx);
    if ("absent" in read || !read.committed || !read.proof.ok || !isHex64(read.capsuleId)) return undefined;
    const { committed, proof, capsuleId } = read;
    return verifyInclusion(
      committed.root,
      committed.mmrSize,
      proof.value.leafIndex,
      hexToBytes(capsuleId) as Uint8Array,
      proof.value,
    );
  });
}

/** Where a record sits: its checkpoint and its proven leaf, when both parse. */
export function position(ctx: EvidenceContext): { checkpoint: Checkpoint; leafIndex: number } | undefined {
  return ctx.once("position", () => {
    const cp = manifestCheckpoint(ctx)?.result;
    const proof = ctx.manifest
      ? parseInclusionProof(member(ctx.manifest, "localInclusionProof") ?? null, PROOF_PATH)
      : undefined;
    return cp?.ok && proof?.ok ? { checkpoint: cp.value, leafIndex: proof.value.leafIndex } : undefined;
  });
}

/** A manifest's consistency proof from its prior checkpoint to its own: one proven step of the log's history. */
export interface Link {
  readonly from: Checkpoint;
  readonly to: Checkpoint;
  readonly proof: ConsistencyProof;
}

export function linkOf(ctx: EvidenceContext): Link | undefined {
  return ctx.once("link", () => readLink(ctx));
}

function readLink(ctx: EvidenceContext): Link | undefined {
  const to = manifestCheckpoint(ctx)?.result;
  const priorValue = ctx.manifest ? member(ctx.manifest, "priorCheckpoint") : undefined;
  const proofValue = ctx.manifest ? member(ctx.manifest, "consistencyProof") : undefined;
  if (!to?.ok || priorValue === undefined || priorValue === null || proofValue === undefined || proofValue === null)
    return undefined;
  const from = parseCheckpoint(priorValue, "manifest.priorCheckpoint");
  const proof = parseConsistencyProof(proofValue, "manifest.consistencyProof");
  return from.ok && proof.ok ? { from: from.value, to: to.value, proof: proof.value } : undefined;
}

/**
 * The links the terminal record and the supplied interim records carry, indexed once per input by
 * where each step starts (`mmrSize:root`), so following a chain costs one lookup a step.
 */
export function consistencyLinks(terminal: EvidenceContext): ReadonlyMap<string, readonly Link[]> {
  return terminal.once("consistency links", () => {
    const byStart = new Map<string, Link[]>();
    for (const l of [terminal, ...interimRecords(terminal).map((r) => r.ctx)].map(linkOf)) {
      if (!l) continue;
      const key = linkStart(l.from);
      byStart.set(key, [...(byStart.get(key) ?? []), l]);
    }
    return byStart;
  });
}

/** The key a link is indexed by in `consistencyLinks`. */
export function linkStart(cp: { readonly mmrSize: number; readonly root: Uint8Array }): string {
  return `${cp.mmrSize}:${bytesToHex(cp.root)}`;
}
