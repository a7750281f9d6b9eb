/**
 * Conformance vectors for keys over time (contract §5.1): the trust file gives the producer's key
 * (or the witness's) a window, and each signature is judged at the earliest time an independent
 * witness vouches for — never at a time the producer states. The witness cosigns each checkpoint
 * ten seconds after the producer's stated time: the prior at 09:00:10Z, the current at 09:30:10Z.
 *
 * These vectors use a producer key, an authority and a witness of their own, so that verified
 * together with every other vector (one consistent world, contract §9.36) their windows judge
 * only their own records.
 */
import { toPlain, type JsonObject } from "../src/json/value.js";
import { uuidFromLabel } from "./a2a.js";
import { ed25519FromSeed, seedFromLabel } from "./ed25519.js";
import { expectation, type PropertyState, type PropertyStates } from "./expectations.js";
import { jsonObject } from "./json-text.js";
import type { ExchangeOptions } from "./options.js";
import type { VectorDefinition } from "./vectors.js";

const PRODUCER = "keys-vectors producer key";
const OLD_PRODUCER = "keys-vectors producer key, before the rotation";
const NEW_PRODUCER = "keys-vectors producer key, after the rotation";
const WITNESS = "witness-keys.a2a-evidence.example/cll-w1";

const PLAIN: ExchangeOptions = {
  envelope: "capture",
  authority: "keys-agent.a2a-evidence.example",
  producerKeyLabel: PRODUCER,
  taskId: uuidFromLabel("keys vector task"),
  contextId: uuidFromLabel("keys vector context"),
  transcript: [
    { messageId: uuidFromLabel("keys vector message 0"), role: "ROLE_USER", parts: ["Pay invoice 77."] },
    { messageId: uuidFromLabel("keys vector message 1"), role: "ROLE_AGENT", parts: ["Invoice 77 paid."] },
  ],
  artifacts: [{ artifactId: uuidFromLabel("keys vector artifact 0"), name: "payment", parts: ["invoice 77 paid"] }],
  leavesBefore: 5,
  leavesAfter: 3,
  priorCheckpoint: { leafCount: 5 },
  witnesses: [{ url: "https://ts.a2a-evidence.example", treeSize: 7, leafIndex: 4 }],
};
const WITNESSED: ExchangeOptions = { ...PLAIN, continuity: { witnesses: [{ name: WITNESS }] } };

type PlainTrust = { producers: { keys: unknown[] }[]; witnesses?: { keys: unknown[] }[] };
type TrustEdit = (t: PlainTrust) => void;

/** A trust hook that edits the trust file as plain JSON. */
function editTrust(edit: TrustEdit): (trust: JsonObject) => void {
  return (trust) => {
    const plain = toPlain(trust) as PlainTrust;
    edit(plain);
    Object.assign(trust, jsonObject(plain as unknown as Record<string, unknown>));
  };
}

/** The producer key pinned with a window. */
function producerWindow(window: Record<string, string>): TrustEdit {
  return (t) => {
    const p = t.producers[0] as { keys: unknown[] };
    p.keys[0] = { key: p.keys[0], ...window };
  };
}

/** The producer's and the checkpoint's signatures judged `state`, and continuity (the prior checkpoint's signature). */
function signatures(state: PropertyState, continuity: PropertyState = state): Partial<PropertyStates> {
  return { producerSignature: state, checkpointSignature: state, continuity };
}

/** A key whose validity nothing proves: the signatures, the chain and the registration claim unproven. */
const UNPROVEN: Partial<PropertyStates> = { ...signatures("INCONCLUSIVE"), referenceConsistency: "INCONCLUSIVE" };
const REVOKED = { revokedAt: "2026-10-01T10:00:00Z", reason: "signing host compromised" };
const RETIRED = { validUntil: "2026-10-01T12:00:00Z" };

/**
 * One keys vector: the exchange with the witness or without it, the trust file's edit, any other
 * exchange options, and the properties whose state differs from the honest baseline.
 */
interface KeyVector {
  readonly name: string;
  readonly description: string;
  readonly mutation: string | null;
  readonly witnessed: boolean;
  readonly trust: TrustEdit;
  readonly options?: ExchangeOptions;
  readonly states: Partial<PropertyStates>;
  readonly note?: string;
}

const KEYS: readonly KeyVector[] = [
  {
    name: "valid-keys-revoked-witnessed-before",
    description:
      "The trust file revokes the producer key at 10:00Z; an independent witness cosigned the record's checkpoint at 09:30:10Z, before the revocation, so the record still verifies (key.window PASS, judged at the witness's time).",
    mutation: null,
    witnessed: true,
    trust: producerWindow(REVOKED),
    states: { continuity: "PASS" },
  },
  {
    name: "neg-keys-revoked-unwitnessed",
    description:
      "valid-keys-revoked-witnessed-before without the witness: nothing independent shows the record existed before the revocation, whatever times the producer states.",
    mutation: "continuityEvidence and the trust file's witness: removed",
    witnessed: false,
    trust: producerWindow(REVOKED),
    states: signatures("FAIL"),
    note: "KEY_REVOKED under producerSignature, checkpointSignature and continuity (the prior checkpoint's signature, by the same key): a compromised key proves nothing by itself.",
  },
  {
    name: "neg-keys-revoked-witnessed-after",
    description:
      "The producer key is revoked at 09:30:05Z: the record's checkpoint is stated at 09:30:00Z by the producer, but first cosigned at 09:30:10Z, after the revocation.",
    mutation: 'trust.producers[0].keys[0].revokedAt: "2026-10-01T10:00:00Z" → "2026-10-01T09:30:05Z"',
    witnessed: true,
    trust: producerWindow({ revokedAt: "2026-10-01T09:30:05Z" }),
    states: signatures("FAIL", "PASS"),
    note: "The prior checkpoint was cosigned at 09:00:10Z, before the revocation, so continuity still PASSes.",
  },
  {
    name: "valid-keys-retired-witnessed",
    description:
      "The producer key is retired (validUntil 12:00Z); the witness's cosignature at 09:30:10Z proves the record was signed in time.",
    mutation: null,
    witnessed: true,
    trust: producerWindow(RETIRED),
    states: { continuity: "PASS" },
  },
  {
    name: "inconclusive-keys-retired-unwitnessed",
    description:
      "valid-keys-retired-witnessed without the witness: nothing shows the record was signed before validUntil.",
    mutation: "continuityEvidence and the trust file's witness: removed",
    witnessed: false,
    trust: producerWindow(RETIRED),
    states: UNPROVEN,
    note: "KEY_VALIDITY_UNPROVEN: it may have been signed in time, nothing shows it — the prior checkpoint's signature too, so the chain is unproven (continuity INCONCLUSIVE). The EXTERNALLY_REGISTERED claim then cannot be confirmed (contract §9.10).",
  },
  {
    name: "neg-keys-not-yet-valid",
    description:
      "The producer key is valid from 10:00Z, but the witness cosigned its checkpoints at 09:00:10Z and 09:30:10Z: the record existed before its key was valid.",
    mutation: 'trust.producers[0].keys[0]: + "validFrom": "2026-10-01T10:00:00Z"',
    witnessed: true,
    trust: producerWindow({ validFrom: "2026-10-01T10:00:00Z" }),
    states: signatures("FAIL"),
    note: "KEY_NOT_YET_VALID under producerSignature, checkpointSignature and (the prior checkpoint's signature) continuity.",
  },
  {
    name: "valid-keys-rotation",
    description:
      "The producer rotated keys at 09:15Z: the prior checkpoint is signed by the old key (valid until 09:15Z), the record and its checkpoint by the new one (valid from 09:15Z); both are pinned for the authority, and the witness cosigned both checkpoints.",
    mutation: null,
    witnessed: true,
    trust: (t) => {
      const p = t.producers[0] as { keys: unknown[] };
      p.keys = [
        { key: p.keys[0], validFrom: "2026-10-01T09:15:00Z" },
        { key: ed25519FromSeed(seedFromLabel(OLD_PRODUCER)).publicKeyHex, validUntil: "2026-10-01T09:15:00Z" },
      ];
    },
    options: { priorCheckpoint: { leafCount: 5, keyLabel: OLD_PRODUCER }, producerKeyLabel: NEW_PRODUCER },
    states: { continuity: "PASS" },
    note: "continuity's chain.key PASSes across the rotation and names both keys.",
  },
  {
    name: "inconclusive-keys-revoked-witness",
    description:
      "valid-keys-retired-witnessed's witness key is revoked at 09:20Z: its cosignature of the current checkpoint (09:30:10Z) is not counted, and it lends no time.",
    mutation: 'trust.witnesses[0].keys[0]: + "revokedAt": "2026-10-01T09:20:00Z"',
    witnessed: true,
    trust: (t) => {
      const w = t.witnesses?.[0] as { keys: unknown[] };
      w.keys[0] = { key: w.keys[0], revokedAt: "2026-10-01T09:20:00Z" };
      producerWindow(RETIRED)(t);
    },
    states: UNPROVEN,
    note: "The witness's signatures under its revoked key are INCONCLUSIVE (never FAIL); with no other independent time the retired producer key's validity is unproven.",
  },
];

export const KEY_VECTORS: readonly VectorDefinition[] = KEYS.map(({ witnessed, trust, options, states, ...text }) => ({
  ...text,
  options: { ...(witnessed ? WITNESSED : PLAIN), ...options, tamper: { trust: editTrust(trust) } },
  expected: expectation(states),
}));
