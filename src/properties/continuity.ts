/**
 * continuity — an independent, checkpoint-aware witness vouched for the history between the prior
 * checkpoint and this one (contract §4; log-and-receipts.md §4.4, §6).
 *
 *   prior.checkpoint   manifest.priorCheckpoint (and consistencyProof) are well-formed
 *   chain.link         the chain rules: prior signature, same log_id, prev_size == prior.mmr_size,
 *                      prev_root == prior.root, growth, and the MMR consistency proof from the prior
 *                      root to this one; or, with no prior, the first-checkpoint rules
 *   witness.assertion  a continuity witness assertion under a pinned, independent key
 *
 * A consistency proof shows anti-rewrite between two checkpoints the producer signed; it cannot
 * show the producer did not fork, which takes an independent witness that keeps per-log state.
 * The v1 base profile carries no witness assertion, so this property is FAIL when the chain is
 * broken and otherwise NOT_PRESENT, never PASS.
 */
import { member, type JsonValue } from "../json/value.js";
import { parseCheckpoint, type Checkpoint } from "../log/checkpoint.js";
import { verifyCheckpointChain } from "../log/checkpoint-chain.js";
import { parseConsistencyProof, type ConsistencyProof } from "../log/mmr.js";
import type { Check, PropertyResult } from "./shared/types.js";
import { checksFor } from "./shared/checks.js";
import type { EvidenceContext } from "./shared/context.js";
import { manifestCheckpoint } from "./shared/manifest-checkpoint.js";

export const CHECKS = checksFor(["prior.checkpoint", "chain.link", "witness.assertion"]);
const { check, only } = CHECKS;

const NO_ASSERTION = "no continuity witness assertion is carried (the aac-cll-scitt/v1 base profile defines none)";

function present(v: JsonValue | undefined): v is JsonValue {
  return v !== undefined && v !== null;
}

export function continuity(ctx: EvidenceContext): PropertyResult {
  const cp = manifestCheckpoint(ctx)?.result;
  // A checkpoint is only found inside a manifest, so with one the manifest is there too.
  const manifest = ctx.manifest;
  if (cp === undefined || manifest === undefined) return only("witness.assertion", "NOT_PRESENT", `${NO_ASSERTION}; the bundle carries no checkpoint`);
  const checks: Check[] = cp.ok
    ? chainChecks(cp.value, member(manifest, "priorCheckpoint"), member(manifest, "consistencyProof"))
    : [check("chain.link", "NOT_CHECKED", "the checkpoint is malformed (reported under checkpointSignature)")];
  checks.push(check("witness.assertion", "NOT_PRESENT", NO_ASSERTION));
  const failed = checks.find((c) => c.state === "FAIL");
  if (failed) return { state: "FAIL", detail: failed.detail, checks };
  const link = checks.find((c) => c.id === "chain.link" && c.state === "PASS");
  return { state: "NOT_PRESENT", detail: link ? `${NO_ASSERTION}; ${link.detail}` : NO_ASSERTION, checks };
}

function chainChecks(current: Checkpoint, priorValue: JsonValue | undefined, proofValue: JsonValue | undefined): Check[] {
  let prior: Checkpoint | null = null;
  if (present(priorValue)) {
    const p = parseCheckpoint(priorValue, "manifest.priorCheckpoint");
    if (!p.ok) return [check("prior.checkpoint", "FAIL", `the prior checkpoint is malformed: ${p.detail}${p.path ? ` at ${p.path}` : ""}`, { code: p.code })];
    prior = p.value;
  }
  let proof: ConsistencyProof | null = null;
  if (present(proofValue)) {
    const p = parseConsistencyProof(proofValue, "manifest.consistencyProof");
    if (!p.ok) return [check("prior.checkpoint", "FAIL", `the consistency proof is malformed: ${p.detail}${p.path ? ` at ${p.path}` : ""}`, { code: p.code })];
    proof = p.value;
  }
  const out: Check[] = [];
  if (prior) out.push(check("prior.checkpoint", "PASS", `prior checkpoint at mmr_size ${prior.mmrSize} and its consistency proof are well-formed`));
  const r = verifyCheckpointChain(prior, current, proof);
  if (r.ok) {
    const v = r.value;
    out.push(
      v.link === "first"
        ? check("chain.link", "PASS", `first checkpoint of its log (prev_size 0, no prior): nothing to chain`, { values: { root: v.root } })
        : check("chain.link", "PASS", `history intact between checkpoints at mmr_size ${v.priorSize} and ${v.mmrSize} (anti-rewrite only, not anti-fork)`, {
            values: { priorRoot: v.priorRoot, root: v.root, logId: v.logId },
          }),
    );
  } else if (r.code === "CHAIN_PRIOR_MISSING") {
    // Not a contradiction: the bundle simply does not carry the predecessor it chains to.
    out.push(check("chain.link", "NOT_PRESENT", `${r.detail}: the chain to the prior checkpoint cannot be checked`, { code: r.code }));
  } else {
    out.push(check("chain.link", "FAIL", `the checkpoint chain is broken: ${r.detail}`, { code: r.code }));
  }
  return out;
}
