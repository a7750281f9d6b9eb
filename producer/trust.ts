/**
 * The trust file a caller of the verifier would write for an exchange (contract.md §5): the
 * producer's authority with its key, and each real Transparency Service with its pinned key and
 * operator, and the continuity witnesses the caller pins with the policy that counts them. Stub
 * witness records are never listed — they have no key. Trust comes from here, never from the bundle.
 */
import type { JsonObject } from "../src/json/value.js";
import { jsonObject } from "./json-text.js";
import type { TransparencyServiceKey } from "./log.js";

/** `continuity`: the `witnesses` and `continuityPolicy` sections, when the exchange has continuity witnesses. */
export function trustFile(
  authority: string,
  producerKeyHex: string,
  services: readonly TransparencyServiceKey[],
  continuity?: { readonly witnesses: readonly JsonObject[]; readonly continuityPolicy: JsonObject },
): JsonObject {
  return jsonObject({
    version: 1,
    producers: [{ authority, keys: [producerKeyHex] }],
    transparencyServices: services.map((s) => ({ url: s.url, keys: [s.publicKey], operator: s.operator })),
    ...(continuity ? { witnesses: [...continuity.witnesses], continuityPolicy: continuity.continuityPolicy } : {}),
  });
}
