/**
 * False PASSes on the log and witness claims: every signature stays valid, and what they do not
 * cover is changed — here, a "prior" checkpoint that names nothing (the empty log), which made a
 * log's first checkpoint look like a chained successor (log-and-receipts.md §4.4 rule 4: a prior
 * and a consistency proof are given iff prev_size > 0); and a "key" of small order, under which
 * one signature verifies for any message, so that it proves no one signed anything.
 */
import { resign } from "../../../producer/mutate.js";
import { copyObject } from "../../../producer/json-text.js";
import { fromPlain, type JsonNumber, type JsonObject } from "../../../src/json/value.js";
import { parseCheckpoint } from "../../../src/log/checkpoint.js";
import { parseInclusionProof, verifyInclusion } from "../../../src/log/mmr.js";
import { bytesToHex, hexToBytes } from "../../../src/util/bytes.js";
import { renderCllNote } from "../../../src/witness/cll-note.js";
import { capture } from "../../properties/harness.js";
import type { Ed25519Signer } from "../../../producer/ed25519.js";
import type { VerifyRequest } from "../../../src/index.js";
import { attacked, copy, objectAt, requestOf, type AdversarialCase, type Expected } from "../harness.js";

const WITNESS = "witness-one.example/cll-w1";

/**
 * A log's first checkpoint (prev_size 0), cosigned by an independent witness, and then given a
 * prior: a producer-signed checkpoint of the empty log (mmr_size 0, the all-zero root), with the
 * current checkpoint's prev_root pointing at it and a consistency proof from size 0 (no old
 * peaks, which every MMR trivially extends). The witness's line still verifies, since a note
 * names only log_id, size and root; the lines come by --cosignatures, naming that note.
 */
function chainedToTheEmptyLog(policy: { requirePriorCosigned?: boolean; acceptGenesis?: boolean }): VerifyRequest {
  const genesis = capture({
    priorCheckpoint: null,
    continuity: { witnesses: [{ name: WITNESS, cosigns: ["current"] }], policy },
  });
  const lines = (genesis.bundle.continuityEvidence as JsonObject[]).flatMap((e) => e.lines as string[]);
  const bundle = copyObject(genesis.bundle);
  delete bundle.continuityEvidence;
  const attacked = resign(
    { ...genesis, bundle },
    {
      manifest: (m) => {
        const cp = objectAt(m, "cllCheckpoint");
        const size = (cp.mmr_size as JsonNumber).toNumber();
        const proof = parseInclusionProof(m.localInclusionProof ?? null, "localInclusionProof");
        if (!proof.ok) throw new Error(proof.detail);
        let peaks: readonly Uint8Array[] = [];
        const capsuleId = hexToBytes(objectAt(bundle, "capsule").capsule_id as string) as Uint8Array;
        verifyInclusion(
          hexToBytes(cp.root as string) as Uint8Array,
          size,
          proof.value.leafIndex,
          capsuleId,
          proof.value,
          {
            peaks: (p) => (peaks = [...p]),
          },
        );
        const empty = "0".repeat(64);
        // Signed, with its key_id, by the producer when the exchange is sealed again.
        m.priorCheckpoint = fromPlain({
          v: 1,
          kind: "mmr_checkpoint",
          log_id: cp.log_id,
          mmr_size: 0,
          root: empty,
          prev_size: 0,
          prev_root: "",
          key_id: cp.key_id,
          timestamp: cp.timestamp,
          signature: "0".repeat(128),
        });
        cp.prev_root = empty;
        m.consistencyProof = fromPlain({
          v: 1,
          kind: "consistency",
          size_a: 0,
          size_b: size,
          old_peaks: [],
          witness: [],
          new_peaks: peaks.map(bytesToHex),
        });
      },
    },
  );
  const current = parseCheckpoint(objectAt(attacked.bundle, "manifest", "cllCheckpoint"), "cllCheckpoint");
  const note = current.ok ? renderCllNote(current.value) : current;
  if (!note.ok) throw new Error(note.detail);
  return {
    inputs: [{ source: "attack", data: attacked.input }],
    trust: attacked.trust,
    cosignatures: [{ type: "c2sp-cosignature/v1", note: note.value.text, lines }].map((e) => fromPlain(e)),
    minEvidence: "CONTINUITY_WITNESSED",
  };
}

/**
 * The Ed25519 identity point as a public key: R = identity, S = 0 satisfies [S]B = R + [k]A for
 * every message, and OpenSSL (node:crypto) accepts both the key and the signature.
 */
const IDENTITY = "01" + "00".repeat(31);
const UNIVERSAL: Ed25519Signer = {
  alg: "EdDSA",
  publicKeyRaw: hexToBytes(IDENTITY) as Uint8Array,
  publicKeyHex: IDENTITY,
  publicKeyPem: "",
  sign: () => hexToBytes(IDENTITY + "00".repeat(32)) as Uint8Array,
};

/** The capture sealed, logged and checkpointed "by" the identity point; the trust file as given. */
function signedByNobody(pinIt: boolean): VerifyRequest {
  const e = attacked({}, {}, { producer: UNIVERSAL });
  if (!pinIt) return requestOf(e);
  const trust = copy(e.trust);
  objectAt(trust, "producers", 0).keys = fromPlain([IDENTITY]);
  return requestOf(e, { trust });
}

/** A prior beside prev_size 0 breaks the chain, whatever else the record and the policy say. */
const BROKEN_CHAIN: Expected = {
  exitCode: 1,
  property: "continuity",
  state: "FAIL",
  check: "chain.link",
  detail: /CHAIN_PRIOR_UNEXPECTED/,
  intact: ["contentBinding", "producerSignature", "localInclusion", "checkpointSignature", "externalRegistration"],
};

export const CRYPTO_CASES: readonly AdversarialCase[] = [
  {
    name: "a first checkpoint chained to the empty log",
    rule: "§9.22",
    attack:
      "a witnessed first checkpoint gets a producer-signed prior of mmr_size 0 and a consistency proof from it, so it no longer looks like genesis (acceptGenesis false, requirePriorCosigned false)",
    request: () => chainedToTheEmptyLog({ requirePriorCosigned: false }),
    expected: BROKEN_CHAIN,
  },
  {
    name: "a first checkpoint chained to the empty log, genesis accepted",
    rule: "§9.22",
    attack:
      "the same input under acceptGenesis: a prior beside prev_size 0 is a broken chain whatever the policy accepts",
    request: () => chainedToTheEmptyLog({ requirePriorCosigned: false, acceptGenesis: true }),
    expected: BROKEN_CHAIN,
  },
  {
    name: "a record signed under a small-order key",
    rule: "§6",
    attack:
      "capsule envelope and checkpoint 'signed' under the identity point, with the one signature that verifies for any message",
    request: () => signedByNobody(false),
    expected: {
      exitCode: 1,
      property: "producerSignature",
      state: "FAIL",
      check: "envelope.verify",
      intact: ["contentBinding"],
      more: (_r, input) => {
        const cp = input?.properties.checkpointSignature;
        if (cp?.state !== "FAIL" || !cp.checks.some((c) => c.id === "checkpoint.signature" && c.state === "FAIL"))
          throw new Error(`checkpointSignature is ${cp?.state}: ${cp?.detail}`);
      },
    },
  },
  {
    name: "a trust file pinning a small-order producer key",
    rule: "§5",
    attack: "the trust file pins the identity point as the producer's key, so a forged record would pass as pinned",
    request: () => signedByNobody(true),
    expected: {
      exitCode: 2,
      more: (report) => {
        if (!/TRUST_KEY_INVALID/.test(JSON.stringify(report)))
          throw new Error(`the trust file was not refused: ${JSON.stringify(report).slice(0, 300)}`);
      },
    },
  },
];
