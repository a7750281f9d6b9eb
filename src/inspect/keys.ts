/**
 * Which trust-file entry (its JSON path in the trust file) each key of the evidence matched. A
 * key the bundle carries is key material, never a trust anchor: only a match here makes it one,
 * and a key no entry pins is said to be the bundle's own.
 */
import { isJsonObject, member, memberAt } from "../json/value.js";
import type { EvidenceContext } from "../evidence/context.js";
import { listed } from "./common.js";
import { withKeyTiming } from "./key-timing.js";
import {
  isAbsent,
  type Absent,
  type ContinuitySection,
  type EnvelopeSection,
  type InspectOptions,
  type KeyMatch,
  type KeysSection,
  type ReceiptsSection,
} from "./model.js";

export interface KeysInput {
  readonly envelope: EnvelopeSection | Absent;
  readonly receipts: ReceiptsSection | Absent;
  readonly continuity: ContinuitySection | Absent;
}

export function keysSection(ctx: EvidenceContext, parts: KeysInput, o: InspectOptions): KeysSection {
  const keys: KeyMatch[] = [];
  const seen = new Set<string>();
  const add = (k: KeyMatch) => {
    const id = `${k.role}\n${k.key}`;
    if (seen.has(id)) return;
    seen.add(id);
    keys.push(withKeyTiming(ctx, k));
  };
  const authority = ctx.payload ? member(ctx.payload, "authority") : undefined;
  const capsuleKey = ctx.capsule ? member(ctx.capsule, "key_id") : undefined;
  if (typeof capsuleKey === "string")
    add(producerKey(ctx, "the capsule's key_id (the producer key)", capsuleKey, authority));
  if (!isAbsent(parts.envelope) && parts.envelope.kid !== null && parts.envelope.kid !== capsuleKey) {
    add(producerKey(ctx, "the Producer Envelope's kid", parts.envelope.kid, authority));
  }
  for (const [role, name] of [
    ["the checkpoint's key_id", "cllCheckpoint"],
    ["the prior checkpoint's key_id", "priorCheckpoint"],
  ] as const) {
    const cp = memberAt(ctx.manifest, name);
    const k = isJsonObject(cp) ? member(cp, "key_id") : undefined;
    if (typeof k !== "string") continue;
    const same = k === capsuleKey ? "; it is the capsule's key_id" : "";
    const m = producerKey(ctx, role, k, authority);
    add({ ...m, detail: `${m.detail}${same}` });
  }
  if (!isAbsent(parts.receipts)) {
    for (const r of parts.receipts.records.items) {
      if (r.tsUrl === null || r.stub) continue;
      const service = ctx.trust?.transparencyServices.get(r.tsUrl);
      if (r.key !== null && r.trustPath !== null) {
        add({
          role: `Transparency Service ${r.tsUrl}`,
          key: r.key,
          matches: [r.trustPath],
          detail: "the receipt verifies under this pinned key",
        });
      } else if (service) {
        for (const k of service.keys)
          add({
            role: `Transparency Service ${r.tsUrl}`,
            key: k.key.fingerprint,
            matches: [k.path],
            detail: "pinned for this ts_url; the receipt does not verify under it",
          });
      } else {
        add({
          role: `Transparency Service ${r.tsUrl}`,
          key: "(none)",
          matches: [],
          detail: ctx.trust ? "the trust file pins no key for this exact ts_url" : "no trust file",
        });
      }
    }
  }
  if (!isAbsent(parts.continuity)) {
    for (const l of parts.continuity.lines.items) {
      if (l.name === null || l.keyId === null) continue;
      add({
        role: `witness ${l.name}`,
        key: `${l.name}+${l.keyId}`,
        matches: l.trustPath === null ? [] : [l.trustPath],
        detail:
          l.witness === null ? "no trust-file witness pins this (name, key ID)" : `pinned for witness ${l.witness}`,
      });
    }
  }
  return { trust: ctx.trust ? ctx.trust.shape : "none", keys: listed(keys, o, (k) => k) };
}

/** A raw Ed25519 key against the trust file's producer keys, by authority. */
function producerKey(ctx: EvidenceContext, role: string, key: string, authority: unknown): KeyMatch {
  if (!ctx.trust) return { role, key, matches: [], detail: "no trust file: the key is only the bundle's own" };
  const matches: string[] = [];
  const authorities: string[] = [];
  for (const [a, keys] of ctx.trust.producers) {
    for (const k of keys) {
      if (k.key.ed25519Hex !== key) continue;
      matches.push(k.path);
      if (!authorities.includes(a)) authorities.push(a);
    }
  }
  const named = typeof authority === "string" ? authority : undefined;
  if (matches.length === 0)
    return {
      role,
      key,
      matches,
      detail: "no producer entry of the trust file pins it: key material only the bundle supplies",
    };
  if (named !== undefined && authorities.includes(named))
    return { role, key, matches, detail: `pinned for the payload's authority ${JSON.stringify(named)}` };
  return {
    role,
    key,
    matches,
    detail: `pinned for ${authorities.map((a) => JSON.stringify(a)).join(", ")}, not for the payload's authority ${named === undefined ? "(none stated)" : JSON.stringify(named)}`,
  };
}
