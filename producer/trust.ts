/**
 * The trust file a caller of the verifier would write for an exchange (contract.md §5): the
 * producer's authority with its key, and each real Transparency Service with its pinned key and
 * operator. Stub witnesses are never listed — they have no key. Trust comes from here, never from
 * the bundle.
 */
import type { JsonObject } from "../src/json/value.js";
import { jsonObject } from "./json-text.js";
import type { TransparencyServiceKey } from "./log.js";

export function trustFile(authority: string, producerKeyHex: string, services: readonly TransparencyServiceKey[]): JsonObject {
  return jsonObject({
    version: 1,
    producers: [{ authority, keys: [producerKeyHex] }],
    transparencyServices: services.map((s) => ({ url: s.url, keys: [s.publicKey], operator: s.operator })),
  });
}
