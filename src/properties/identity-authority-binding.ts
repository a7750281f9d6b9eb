/**
 * identityAuthorityBinding — the trust file authorises this producer key for the payload's
 * authority (contract §4, §5). The bundle's key is key material, never a trust anchor: the only
 * source of "who may speak for whom" is the caller's trust file.
 *
 *   authority.keyAuthorized  capsule.key_id ∈ trust.producers[payload.authority]
 */
import { member } from "../json/value.js";
import type { PropertyResult } from "./shared/types.js";
import { checksFor } from "./shared/checks.js";
import type { EvidenceContext } from "../evidence/context.js";

export const CHECKS = checksFor(["authority.keyAuthorized"]);
const { only } = CHECKS;

export function identityAuthorityBinding(ctx: EvidenceContext): PropertyResult {
  const id = "authority.keyAuthorized";
  const trust = ctx.trust;
  if (!trust || trust.producers.size === 0) {
    return only(
      id,
      "NOT_CHECKED",
      "no producer keys are configured (pass --trust with producers) to authorise the key for the authority",
    );
  }
  const authority = ctx.payload ? member(ctx.payload, "authority") : undefined;
  const keyId = ctx.capsule ? member(ctx.capsule, "key_id") : undefined;
  if (typeof authority !== "string" || typeof keyId !== "string") {
    return only(
      id,
      "NOT_PRESENT",
      `the bundle states no ${typeof authority !== "string" ? "payload authority" : "capsule key_id"}`,
    );
  }
  const values = { authority, keyId };
  const keys = trust.producers.get(authority);
  if (!keys) {
    return only(
      id,
      "FAIL",
      `authority=${authority} is not in the trust file (authorities: ${[...trust.producers.keys()].join(", ")})`,
      { values },
    );
  }
  if (keys.some((k) => k.key.ed25519Hex === keyId)) {
    return only(id, "PASS", `key_id=${keyId} authorized for authority=${authority}`, { values });
  }
  return only(
    id,
    "FAIL",
    `key_id=${keyId} is not authorized for authority=${authority} (the trust file lists ${keys.length} other key(s))`,
    { values },
  );
}
