/**
 * verify-card on the Agent Card an @a2a-js/sdk 1.3.0 server serves, signed by the SDK's own
 * signer: the bytes fetched from /.well-known/agent-card.json verify under the pinned key, and the
 * canonicalization that matched is named.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateAgentCardSignature } from "@a2a-js/sdk";
import { registerVerifyCardCommand } from "../../src/cli/verify-card.js";
import { runCommand } from "../helpers/commands.js";
import { tempFile } from "../helpers/cli.js";
import { startLiveServer, type LiveServer } from "./server.js";

const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
const publicJwk = { ...pair.publicKey.export({ format: "jwk" }), kid: "live-card-key" };

let server: LiveServer;
beforeAll(async () => {
  server = await startLiveServer({
    cardSigner: generateAgentCardSignature(pair.privateKey, { alg: "ES256", kid: "live-card-key", typ: "JOSE" }),
  });
});
afterAll(async () => {
  await server?.close();
});

describe("verify-card on a card served and signed by an @a2a-js/sdk server", () => {
  it("the served bytes verify under the key pinned for the card's URL", async () => {
    const url = `${server.baseUrl}/.well-known/agent-card.json`;
    const res = await fetch(url, { headers: { "A2A-Version": "1.0" } });
    expect(res.status).toBe(200);
    const card = tempFile("agent-card.json", new Uint8Array(await res.arrayBuffer()));
    const trust = tempFile("trust.json", JSON.stringify({ version: 1, agents: [{ card: url, keys: [publicJwk] }] }));
    const r = await runCommand(registerVerifyCardCommand, [
      "verify-card",
      "--format",
      "json",
      "--trust",
      trust,
      "--card-url",
      url,
      card,
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.agents).toEqual([url]);
    expect(report.signatures).toHaveLength(1);
    // This card has no securitySchemes, so what SDK 1.3.0 signs is exactly the sdk canonicalization.
    expect(report.signatures[0]).toMatchObject({
      state: "PASS",
      alg: "ES256",
      kid: "live-card-key",
      typ: "JOSE",
      canonicalization: "sdk",
    });
    expect(report.signatures[0].alsoMatches).toContain("a2a-js-1.3");
    expect(report.extension).toEqual({ declaredAt: ["capabilities.extensions[0]"], findings: [] });
  });
});
