/**
 * Who operates a Transparency Service or a witness (contract §9.19). The trust file says
 * `independent` or `producer`, but a key speaks louder: a service or witness whose pinned key is
 * also a producer key or an Agent Card signing key in the trust file (§9.31), or the capsule's or
 * the checkpoint's own key, is producer-operated whatever the trust file says — otherwise a
 * producer could vouch for itself by listing its own key as an "independent" service.
 */
import { memberAt } from "../json/value.js";
import type { Operator, TrustedKey } from "../trust/config.js";
import type { EvidenceContext } from "./context.js";

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
