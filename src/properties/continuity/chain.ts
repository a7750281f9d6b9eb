/**
 * The chain gate (continuity-witness.md §4.1), which decides FAIL independently of any witness:
 * prior.checkpoint (manifest.priorCheckpoint and consistencyProof are well-formed), chain.link
 * (the prior checkpoint chains to this one by an MMR consistency proof, or this one is its log's
 * first) and chain.key (prior and current are signed by one key).
 */
import type { JsonValue } from "../../json/value.js";
import { parseCheckpoint, type Checkpoint } from "../../log/checkpoint.js";
import { verifyCheckpointChain } from "../../log/checkpoint-chain.js";
import { parseConsistencyProof, type ConsistencyProof } from "../../log/mmr.js";
import { bytesToHex } from "../../util/bytes.js";
import type { Failure } from "../../result.js";
import type { Check } from "../shared/types.js";
import type { ChainOutcome } from "./form-a.js";
import { check, present } from "./checks.js";

export interface ChainGate {
  readonly checks: Check[];
  readonly prior: Checkpoint | null;
  readonly outcome: ChainOutcome;
}

export function chainGate(
  current: Checkpoint,
  priorValue: JsonValue | undefined,
  proofValue: JsonValue | undefined,
): ChainGate {
  let prior: Checkpoint | null = null;
  if (present(priorValue)) {
    const p = parseCheckpoint(priorValue, "manifest.priorCheckpoint");
    if (!p.ok) return malformed("the prior checkpoint", p, null);
    prior = p.value;
  }
  let proof: ConsistencyProof | null = null;
  if (present(proofValue)) {
    const p = parseConsistencyProof(proofValue, "manifest.consistencyProof");
    if (!p.ok) return malformed("the consistency proof", p, prior);
    proof = p.value;
  }
  return linkGate(current, prior, proof);
}

function malformed(what: string, p: Failure, prior: Checkpoint | null): ChainGate {
  return {
    checks: [
      check("prior.checkpoint", "FAIL", `${what} is malformed: ${p.detail}${p.path ? ` at ${p.path}` : ""}`, {
        code: p.code,
      }),
    ],
    prior,
    outcome: "broken",
  };
}

/** The prior checkpoint (if any) chained to this one: prior.checkpoint PASS, then chain.link. */
function linkGate(current: Checkpoint, prior: Checkpoint | null, proof: ConsistencyProof | null): ChainGate {
  const checks: Check[] = [];
  if (prior)
    checks.push(
      check(
        "prior.checkpoint",
        "PASS",
        `prior checkpoint at mmr_size ${prior.mmrSize} and its consistency proof are well-formed`,
      ),
    );
  const r = verifyCheckpointChain(prior, current, proof);
  if (r.ok) {
    const v = r.value;
    checks.push(
      v.link === "first"
        ? check("chain.link", "PASS", `first checkpoint of its log (prev_size 0, no prior): nothing to chain`, {
            values: { root: v.root },
          })
        : check(
            "chain.link",
            "PASS",
            `history intact between checkpoints at mmr_size ${v.priorSize} and ${v.mmrSize} (anti-rewrite only, not anti-fork)`,
            {
              values: { priorRoot: v.priorRoot, root: v.root, logId: v.logId },
            },
          ),
    );
    return { checks, prior, outcome: v.link === "first" ? "genesis" : "chained" };
  }
  if (r.code === "CHAIN_PRIOR_MISSING") {
    // Not a contradiction: the bundle simply does not carry the predecessor it chains to.
    checks.push(
      check("chain.link", "NOT_PRESENT", `${r.detail}: the chain to the prior checkpoint cannot be checked`, {
        code: r.code,
      }),
    );
    return { checks, prior, outcome: "prior-missing" };
  }
  checks.push(check("chain.link", "FAIL", `the checkpoint chain is broken: ${r.detail}`, { code: r.code }));
  return { checks, prior, outcome: "broken" };
}

/** §4.1 step 3: a witness vouches for notes, which name no key; a key change between them is unproven. */
export function keyCheck(current: Checkpoint, prior: Checkpoint): Check {
  const values = { priorKey: bytesToHex(prior.keyId), key: bytesToHex(current.keyId) };
  if (values.priorKey === values.key)
    return check("chain.key", "PASS", "the prior and current checkpoints are signed by the same key", { values });
  return check(
    "chain.key",
    "INCONCLUSIVE",
    `the prior checkpoint is signed by ${values.priorKey}, this one by ${values.key}: a key rotation cannot be proven offline`,
    {
      code: "CONTINUITY_KEY_ROTATION",
      values,
    },
  );
}
