/**
 * Who operates a Transparency Service or a witness (contract §9.19). The trust file says
 * `independent` or `producer`, but a key speaks louder: a service or witness whose pinned key is
 * also a producer key or an Agent Card signing key in the trust file (§9.31), or the capsule's or
 * the checkpoint's own key, is producer-operated whatever the trust file says — otherwise a
 * producer could vouch for itself by listing its own key as an "independent" service.
 */
import { member, memberAt } from "../json/value.js";
import type { Operator, TrustedKey, TrustedWitness } from "../trust/config.js";
import { bytesToHex, isHex64 } from "../util/bytes.js";
import type { EvidenceContext } from "./context.js";
import { labelOf } from "./cosignatures.js";
import { manifestCheckpoint, priorCheckpoint } from "./manifest-checkpoint.js";

/** The label a report carries in a check's `operator` field. */
export type OperatorLabel = "independent" | "producer-operated" | "unspecified";

export interface OperatorJudgement {
  readonly label: OperatorLabel;
  /** Why, in words, when the label is not simply what the trust file says. */
  readonly why?: string;
}

function producerKeys(ctx: EvidenceContext): { fingerprints: Map<string, string>; rawHex: Map<string, string> } {
  return ctx.once("producerKeys", () => {
    const fingerprints = new Map<string, string>();
    for (const keys of ctx.trust?.producers.values() ?? [])
      for (const k of keys) fingerprints.set(k.key.fingerprint, "a producer key in the trust file");
    // Contract §9.31: a key that signs an agent's card is that agent's.
    for (const [card, agent] of ctx.trust?.agents ?? [])
      for (const k of agent.keys)
        if (!fingerprints.has(k.fingerprint))
          fingerprints.set(k.fingerprint, `an Agent Card signing key for ${card} in the trust file`);
    const rawHex = new Map<string, string>();
    const capsuleKey = memberAt(ctx.capsule, "key_id");
    if (typeof capsuleKey === "string") rawHex.set(capsuleKey, "the capsule's key_id");
    const checkpointKey = memberAt(ctx.manifest, "cllCheckpoint", "key_id");
    if (typeof checkpointKey === "string" && !rawHex.has(checkpointKey))
      rawHex.set(checkpointKey, "the checkpoint's key_id");
    const priorKey = memberAt(ctx.manifest, "priorCheckpoint", "key_id");
    if (typeof priorKey === "string" && !rawHex.has(priorKey)) rawHex.set(priorKey, "the prior checkpoint's key_id");
    return { fingerprints, rawHex };
  });
}

export function judgeOperator(ctx: EvidenceContext, keys: readonly TrustedKey[], stated: Operator): OperatorJudgement {
  const own = producerKeys(ctx);
  for (const k of keys) {
    const pinnedAs = own.fingerprints.get(k.key.fingerprint);
    if (pinnedAs !== undefined)
      return { label: "producer-operated", why: `its key ${k.key.fingerprint} is also ${pinnedAs}` };
    const role = k.key.ed25519Hex !== undefined ? own.rawHex.get(k.key.ed25519Hex) : undefined;
    if (role) return { label: "producer-operated", why: `its key ${k.key.fingerprint} is ${role}` };
  }
  return {
    label: stated === "independent" ? "independent" : stated === "producer" ? "producer-operated" : "unspecified",
  };
}

/** The label in words for a detail line, with the reason when keys overrode the trust file. */
export function operatorText(j: OperatorJudgement): string {
  const words = j.label === "unspecified" ? "operator not stated" : j.label;
  return j.why ? `${words}: ${j.why}, whatever the trust file says` : words;
}

/**
 * Contract §9.19: the raw keys (hex) in any role but a witness's, each with the first role it is
 * found in — the checkpoints', the capsule's, the trust file's producer, Transparency Service and
 * Agent Card signing keys — so a witness holding one is producer-operated. Read once per input.
 */
export function otherRoleKeys(ctx: EvidenceContext): ReadonlyMap<string, string> {
  return ctx.once("other role keys", () => {
    const roles = new Map<string, string>();
    const add = (hex: string | undefined, role: string) => {
      if (hex !== undefined && !roles.has(hex)) roles.set(hex, role);
    };
    const current = manifestCheckpoint(ctx)?.result;
    if (current?.ok) add(bytesToHex(current.value.keyId), "the checkpoint's key_id");
    const prior = priorCheckpoint(ctx);
    if (prior) add(bytesToHex(prior.keyId), "the prior checkpoint's key_id");
    const capsuleKey = ctx.capsule ? member(ctx.capsule, "key_id") : undefined;
    if (isHex64(capsuleKey)) add(capsuleKey, "the capsule's key_id");
    for (const [authority, keys] of ctx.trust?.producers ?? [])
      for (const k of keys) add(k.key.ed25519Hex, `a producer key for ${authority} in the trust file`);
    for (const [url, service] of ctx.trust?.transparencyServices ?? [])
      for (const k of service.keys) add(k.key.ed25519Hex, `the key of Transparency Service ${url}`);
    // Contract §9.31: a key that signs an agent's card is that agent's.
    for (const [card, agent] of ctx.trust?.agents ?? [])
      for (const k of agent.keys)
        if (k.type === "Ed25519") add(k.fingerprint, `an Agent Card signing key for ${card} in the trust file`);
    return roles;
  });
}

/** Why a witness is producer-operated by itself (contract §9.19), or undefined. */
function ownProducerReason(w: TrustedWitness, otherRoles: ReadonlyMap<string, string>): string | undefined {
  if (w.operator === "producer") return "the trust file labels it producer-operated";
  for (const k of w.keys) {
    const role = otherRoles.get(k.publicKeyHex);
    if (role !== undefined) return `its key ${k.publicKeyHex} is also ${role}`;
  }
  return undefined;
}

/**
 * Why each producer-operated witness is (contract §9.19, §9.41): one that is by itself, and every
 * witness of an operator one of whose witnesses is — a quorum counts operators, so an operator
 * shown to act for the producer counts through none of its witnesses.
 */
export function producerOperatedWitnesses(
  witnesses: readonly TrustedWitness[],
  otherRoles: ReadonlyMap<string, string>,
): Map<TrustedWitness, string> {
  const out = new Map<TrustedWitness, string>();
  const byOperator = new Map<string, string>();
  for (const w of witnesses) {
    const why = ownProducerReason(w, otherRoles);
    if (why === undefined) continue;
    out.set(w, why);
    if (!byOperator.has(w.operatorId)) byOperator.set(w.operatorId, `${labelOf(w)}: ${why}`);
  }
  for (const w of witnesses) {
    const shared = byOperator.get(w.operatorId);
    if (shared !== undefined && !out.has(w))
      out.set(w, `its operator ${w.operatorId} also runs a producer-operated witness (${shared})`);
  }
  return out;
}
