/**
 * Keys are pinned by the caller, never taken from the card (contract §1; a2a-wire.md §7.3): a
 * signature whose header names a `jku` (or embeds a `jwk`) pointing anywhere is verified only
 * against the keys the trust file pins, and no network is touched — by `verifyCard` or by the
 * `verify-card` command.
 */
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import tls from "node:tls";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { generateAgentCardSignature, verifyAgentCardSignature, type AgentCard } from "@a2a-js/sdk";
import { registerVerifyCardCommand } from "../../src/cli/verify-card.js";
import { verifyCard, type CardReport } from "../../src/card/verify.js";
import { loadTrustConfig } from "../../src/trust/config.js";
import { fromPlain } from "../../src/json/value.js";
import { runCommand } from "../helpers/commands.js";
import { tempFile } from "../helpers/cli.js";
import { newKey, type SigningKey } from "./signing.js";
import { ledgerCard } from "./cards.js";

const JKU = "https://attacker.example/.well-known/jwks.json";
const pinned = newKey("ES256", "card-key-1");
/** The attacker's key, served at the jku, under the pinned key's kid. */
const attacker = newKey("ES256", "card-key-1");

const card = ledgerCard();

const trustJson = { version: 1, agents: [{ card: "Ledger Agent", keys: [pinned.publicJwk] }] };
function trust() {
  const r = loadTrustConfig(fromPlain(trustJson));
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

/** The card signed by the SDK's own signer with `key`, its protected header naming the jku (and more). */
async function signedBy(key: SigningKey, extra: Record<string, unknown> = {}): Promise<string> {
  const header = { alg: key.alg, kid: key.kid, typ: "JOSE", jku: JKU, ...extra };
  return JSON.stringify(
    await generateAgentCardSignature(key.privateKey, header as never)(card as unknown as AgentCard),
  );
}

async function ours(text: string): Promise<CardReport> {
  const r = await verifyCard(text, trust());
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

let network: MockInstance[] = [];
beforeEach(() => {
  const refuse = () => {
    throw new Error("network touched");
  };
  network = [
    vi.spyOn(globalThis, "fetch").mockImplementation(refuse),
    vi.spyOn(http, "request").mockImplementation(refuse),
    vi.spyOn(http, "get").mockImplementation(refuse),
    vi.spyOn(https, "request").mockImplementation(refuse),
    vi.spyOn(https, "get").mockImplementation(refuse),
    vi.spyOn(net, "connect").mockImplementation(refuse),
    vi.spyOn(net, "createConnection").mockImplementation(refuse),
    vi.spyOn(net.Socket.prototype, "connect").mockImplementation(refuse),
    vi.spyOn(tls, "connect").mockImplementation(refuse),
    vi.spyOn(dns, "lookup").mockImplementation(refuse),
    vi.spyOn(dns.promises, "lookup").mockImplementation(refuse),
  ];
});
afterEach(() => {
  for (const spy of network) expect(spy).not.toHaveBeenCalled();
  vi.restoreAllMocks();
});

describe("the network guard", () => {
  it("sees a connection attempt (so its silence below means something)", async () => {
    expect(() => new net.Socket().connect(9, "127.0.0.1")).toThrow("network touched");
    expect(() => fetch("http://127.0.0.1:9/")).toThrow("network touched");
    // The real fetch, below the fetch spy, is stopped by the socket spies all the same.
    network[0]?.mockRestore();
    await expect(fetch("http://127.0.0.1:9/")).rejects.toThrow();
    expect(network.slice(1).some((spy) => spy.mock.calls.length > 0)).toBe(true);
    for (const spy of network) spy.mockClear();
  });
});

describe("a signature whose header names a jku", () => {
  it("signed by the pinned key: PASS under the pinned key, the jku reported and not fetched", async () => {
    const r = await ours(await signedBy(pinned));
    expect(r.signatures[0]).toMatchObject({ state: "PASS", check: "signature.verify", jku: JKU });
    expect(r.signatures[0]?.key?.path).toBe("agents[0].keys[0]");
    expect(r.exitCode).toBe(0);
  });

  it("signed by the key the jku serves, under the pinned kid: FAIL (the pinned key does not verify it), exit 1", async () => {
    const r = await ours(await signedBy(attacker));
    expect(r.signatures[0]).toMatchObject({ state: "FAIL", check: "signature.verify", jku: JKU });
    expect(r.exitCode).toBe(1);
  });

  it("the attacker's key embedded as a jwk header too: still only the pinned key, FAIL", async () => {
    const { kid: _kid, ...jwk } = attacker.publicJwk;
    void _kid;
    const r = await ours(await signedBy(attacker, { jwk }));
    expect(r.signatures[0]).toMatchObject({ state: "FAIL", check: "signature.verify" });
    expect(r.exitCode).toBe(1);
  });

  it("under a kid nothing pins: INCONCLUSIVE (unknown key), exit 3 — the jku is not a way to a key", async () => {
    const r = await ours(await signedBy(newKey("ES256", "rotated-key")));
    expect(r.signatures[0]).toMatchObject({ state: "INCONCLUSIVE", check: "key.pinned", jku: JKU });
    expect(r.exitCode).toBe(3);
  });

  it("the command: exit 1 for the attacker's signature, exit 0 for the pinned one, the jku shown as not fetched", async () => {
    const trustFile = tempFile("trust.json", JSON.stringify(trustJson));
    const cli = (text: string) =>
      runCommand(registerVerifyCardCommand, ["verify-card", "--trust", trustFile, tempFile("card.json", text)]);
    const bad = await cli(await signedBy(attacker));
    expect(bad.code).toBe(1);
    const good = await cli(await signedBy(pinned));
    expect(good.code).toBe(0);
    expect(good.stdout).toContain(`jku ${JKU} (reported, not fetched)`);
  });

  it("the SDK's verifier hands the jku to the caller's key function: which key is used is the caller's choice", async () => {
    const asked: [string, string | undefined][] = [];
    const verifier = verifyAgentCardSignature(async (kid, jku) => {
      asked.push([kid, jku]);
      return pinned.publicJwk as never;
    });
    vi.spyOn(console, "debug").mockImplementation(() => undefined);
    await expect(verifier(JSON.parse(await signedBy(attacker)) as AgentCard)).rejects.toThrow(/No valid signatures/);
    expect(asked).toEqual([["card-key-1", JKU]]);
  });
});
