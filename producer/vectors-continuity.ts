/**
 * Conformance vectors for continuity witnessed by C2SP cosignatures (continuity-witness.md §4.2,
 * contract §9.22). Each is a capture whose checkpoints CLL-aware witnesses (producer/witness.ts)
 * cosigned — the prior first, by first contact, then the current one after checking the MMR
 * consistency proof — and whose client required, and server claims, CONTINUITY_WITNESSED. Every
 * vector but valid-continuity-2of3 is one change to valid-continuity-1of1. Under the default
 * policy (the negotiated minimum) only the quorum vectors exit 0.
 *
 * With a claim of CONTINUITY_WITNESSED, referenceConsistency follows contract §9.10: a continuity
 * FAIL leaves the claim not assessed (PASS), an INCONCLUSIVE continuity makes it INCONCLUSIVE.
 */
import { vectorLogId } from "./vector-log.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../src/json/value.js";
import { uuidFromLabel } from "./a2a.js";
import { buildExchange } from "./exchange.js";
import { expectation } from "./expectations.js";
import { ProducerError } from "./errors.js";
import { flipLastBase64Byte, objectAt } from "./mutations.js";
import type { ExchangeOptions } from "./options.js";
import type { VectorDefinition } from "./vectors.js";
import type { ContinuityOptions } from "./witness.js";

const W1 = "witness-one.a2a-evidence.example/cll-w1";
const W2 = "witness-two.a2a-evidence.example/cll-w1";
const W3 = "witness-three.a2a-evidence.example/cll-w1";

/** A capture like valid-capture: 9 leaves, ours at 5, a prior checkpoint at 5 leaves, one TS. */
const BASE: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("continuity task"),
  contextId: uuidFromLabel("continuity context"),
  transcript: [
    { messageId: uuidFromLabel("continuity message 0"), role: "ROLE_USER", parts: ["Transfer 250 EUR to account 42."] },
    { messageId: uuidFromLabel("continuity message 1"), role: "ROLE_AGENT", parts: ["Transfer 42-0007 booked."] },
  ],
  artifacts: [{ artifactId: uuidFromLabel("continuity artifact 0"), name: "booking", parts: ["booking 42-0007"] }],
  leavesBefore: 5,
  leavesAfter: 3,
  priorCheckpoint: { leafCount: 5 },
  witnesses: [{ url: "https://ts.a2a-evidence.example", treeSize: 7, leafIndex: 4 }],
  evidenceStatus: "EVIDENCE_STATUS_CONTINUITY_WITNESSED",
  requirement: { minimumEvidence: "CONTINUITY_WITNESSED" },
};

const ONE_WITNESS: ContinuityOptions = { witnesses: [{ name: W1 }] };

function witnessed(continuity: ContinuityOptions, extra: ExchangeOptions = {}): ExchangeOptions {
  return { ...BASE, continuity, ...extra };
}

/** The `lines` of the continuityEvidence entry for one checkpoint. */
function linesOf(bundle: JsonObject, role: "current" | "prior"): JsonValue[] {
  const entries = Array.isArray(bundle.continuityEvidence) ? bundle.continuityEvidence : [];
  const entry = entries.find((e): e is JsonObject => isJsonObject(e) && e.checkpoint === role);
  if (!entry || !Array.isArray(entry.lines))
    throw new ProducerError("PRODUCER_INVALID_OPTION", `no continuityEvidence entry for the ${role} checkpoint`);
  return entry.lines;
}

/**
 * Another branch of the same log: the same producer key, log_id and first five leaves, another
 * record at our position. Its checkpoint at 9 leaves has the current one's size and another root,
 * and is consistent with the same prior.
 */
/** The other branch, on the log of the one vector that shows the fork. */
const FORK = buildExchange({
  ...BASE,
  taskId: uuidFromLabel("continuity task, forked branch"),
  logId: vectorLogId("neg-continuity-cosignature-other-root"),
});

/** The expectation for a vector whose client required CONTINUITY_WITNESSED. */
const required = (overrides: Parameters<typeof expectation>[0]) => expectation(overrides, "CONTINUITY_WITNESSED");
const INCONCLUSIVE = required({ continuity: "INCONCLUSIVE", referenceConsistency: "INCONCLUSIVE" });

export const CONTINUITY_VECTORS: readonly VectorDefinition[] = [
  {
    name: "valid-continuity-1of1",
    description:
      "A capture whose prior (5 leaves) and current (9 leaves) checkpoints one independent CLL-aware witness cosigned (C2SP cosignature/v1 in continuityEvidence), after checking the consistency proof; the trust file pins it with the cll-mmr-consistency/v1 statement, quorum 1. The server claims CONTINUITY_WITNESSED.",
    mutation: null,
    options: witnessed(ONE_WITNESS),
    expected: required({ continuity: "PASS" }),
  },
  {
    name: "valid-continuity-2of3",
    description:
      "As valid-continuity-1of1, but the trust file pins three witnesses of three operators with quorum 2; two of them cosigned both checkpoints, the third carries no line.",
    mutation: null,
    options: witnessed({
      witnesses: [
        { name: W1, operatorId: "operator-one" },
        { name: W2, operatorId: "operator-two", delaySeconds: 25 },
        { name: W3, operatorId: "operator-three", cosigns: [] },
      ],
      policy: { quorum: 2 },
    }),
    expected: required({ continuity: "PASS" }),
  },
  {
    name: "inconclusive-continuity-producer-witness",
    description: "valid-continuity-1of1 with the trust file labelling its one witness as operated by the producer.",
    mutation: 'trust.witnesses[0].operator: "independent" → "producer"',
    options: witnessed({ witnesses: [{ name: W1, operator: "producer" }] }),
    expected: INCONCLUSIVE,
    note: "A producer-operated witness is reported and never counted (contract §5, §9.22): only producer-operated witnesses cosigned, so continuity is INCONCLUSIVE and the CONTINUITY_WITNESSED claim cannot be confirmed.",
  },
  {
    name: "inconclusive-continuity-unknown-witness",
    description:
      "valid-continuity-1of1, but the trust file pins another witness (which carries no line) instead of the one that cosigned.",
    mutation: `trust.witnesses: [${W1}] → [${W2}] (the bundle's lines are ${W1}'s)`,
    options: witnessed({
      witnesses: [
        { name: W1, listed: false },
        { name: W2, cosigns: [] },
      ],
    }),
    expected: INCONCLUSIVE,
    note: "Lines whose (name, key ID) no pinned witness has are ignored (signed-note: unknown signatures are ignored), so no cosignature counts.",
  },
  {
    name: "neg-continuity-cosignature-signature",
    description:
      "The last byte of the witness's cosignature of the current checkpoint is flipped (inside its Ed25519 signature).",
    mutation: "continuityEvidence[current].lines[0]: last decoded byte XOR 0x01",
    options: witnessed(ONE_WITNESS, {
      tamper: {
        bundle: (b) => {
          const lines = linesOf(b, "current");
          const [name, b64] = (lines[0] as string).slice(2).split(" ");
          lines[0] = `\u2014 ${name} ${flipLastBase64Byte(b64 as string)}`;
        },
      },
    }),
    expected: required({ continuity: "FAIL" }),
    note: "A cosignature that fails under a pinned witness key is a FAIL, never outvoted and whether or not the witness would count (contract §9.22). The claim then is not assessed (referenceConsistency stays PASS: see Overclaims).",
  },
  {
    name: "neg-continuity-cosignature-other-root",
    description:
      "The witness was shown another branch of the log — a checkpoint at the same size (9 leaves) with another root, signed by the same producer and consistent with the same prior — and its genuine cosignature of that branch is carried as the current checkpoint's.",
    mutation:
      "continuityEvidence[current].lines[0] → the witness's cosignature of the forked checkpoint (same origin and size, another root)",
    options: witnessed({
      witnesses: [
        {
          name: W1,
          shown: {
            checkpoint: objectAt(FORK.bundle, "manifest", "cllCheckpoint"),
            consistencyProof: objectAt(FORK.bundle, "manifest", "consistencyProof"),
          },
        },
      ],
    }),
    expected: required({ continuity: "FAIL" }),
    note: "The line verifies over the note of the other branch, not over this checkpoint's: under the pinned key it does not verify, a FAIL. Together with the other branch's bundle it would be a fork across inputs.",
  },
  {
    name: "neg-continuity-stale-prior-as-current",
    description:
      "The witness's cosignature of the prior checkpoint (5 leaves) is presented as its cosignature of the current one.",
    mutation: "continuityEvidence[current].lines → continuityEvidence[prior].lines",
    options: witnessed(ONE_WITNESS, {
      tamper: {
        bundle: (b) => {
          const current = linesOf(b, "current");
          current.splice(0, current.length, ...linesOf(b, "prior"));
        },
      },
    }),
    expected: required({ continuity: "FAIL" }),
    note: "A cosignature commits to the note's size and root: the prior's line does not verify over the current checkpoint's note.",
  },
  {
    name: "inconclusive-continuity-genesis",
    description:
      "valid-continuity-1of1 without a prior checkpoint: the log's first checkpoint (prev_size 0), cosigned by the witness on first contact.",
    mutation:
      "priorCheckpoint and consistencyProof: none (a first checkpoint); the witness cosigns the current checkpoint only",
    options: witnessed(ONE_WITNESS, { priorCheckpoint: null }),
    expected: INCONCLUSIVE,
    note: "A first checkpoint has no prior to be continuous with; with continuityPolicy.acceptGenesis false (the default) witnessed genesis is INCONCLUSIVE.",
  },
  {
    name: "inconclusive-continuity-log-id",
    description:
      "valid-continuity-1of1 with an empty log_id (as capsule-ledger writes it): no C2SP note origin can carry it.",
    mutation: 'log_id: <64 hex> → "" (checkpoints re-signed, witnesses cosign the note they render)',
    options: witnessed(ONE_WITNESS, { logId: "" }),
    expected: INCONCLUSIVE,
    note: "The verifier renders the note itself and refuses a log_id outside ^[A-Za-z0-9._~:/-]{1,200}$ (LOG_ID_NOT_REPRESENTABLE), so no line can be checked.",
  },
];
