/**
 * A window is the key material's, wherever the trust file pins it (docs/trust-config.md): a key the
 * file revokes as a producer key, pinned bare as an Agent Card signing key, is still a compromised
 * key. A card signed with it proves nothing by itself and must not verify (exit 0).
 */
import { expect, it } from "vitest";
import { verifyCard } from "../../src/card/verify.js";
import { loadTrustConfig } from "../../src/trust/config.js";
import { fromPlain } from "../../src/json/value.js";
import { cleanEmpty, jcsBytes, newKey, signed, withoutSignatures } from "./signing.js";

const card = {
  name: "Ledger Agent",
  description: "Posts ledger entries",
  version: "1.0.0",
  supportedInterfaces: [{ url: "https://agent.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
  capabilities: {},
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "post", name: "post", description: "posts an entry", tags: ["ledger"] }],
};

async function exitCodeWith(producers: unknown[]): Promise<number> {
  const key = newKey("EdDSA", "card-ed25519");
  const hex = Buffer.from(key.publicJwk.x as string, "base64url").toString("hex");
  const withHex = (p: unknown[]) => JSON.parse(JSON.stringify(p).replaceAll("<KEY>", hex)) as unknown[];
  const trust = loadTrustConfig(
    fromPlain({ version: 1, producers: withHex(producers), agents: [{ card: "Ledger Agent", keys: [key.publicJwk] }] }),
  );
  if (!trust.ok) throw new Error(trust.detail);
  const signedCard = await signed(card, jcsBytes(cleanEmpty(withoutSignatures(card))), key);
  const r = await verifyCard(JSON.stringify(signedCard), trust.value, {});
  if (!r.ok) throw new Error(r.detail);
  return r.value.exitCode;
}

it("(control) the card key pinned only for the agent: exit 0", async () => {
  expect(await exitCodeWith([])).toBe(0);
});

it("the card key revoked as a producer key: the card's signature is not a PASS (exit not 0)", async () => {
  const revoked = [{ authority: "ledger-agent.example", keys: [{ key: "<KEY>", revokedAt: "2020-01-01T00:00:00Z" }] }];
  expect(await exitCodeWith(revoked)).not.toBe(0);
});
