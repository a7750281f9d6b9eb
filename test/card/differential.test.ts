/**
 * verify-card against @a2a-js/sdk 1.3.0's own `canonicalizeAgentCard`, `generateAgentCardSignature`
 * and `verifyAgentCardSignature` (exported from the package root, `@a2a-js/sdk`), on generated
 * cards (./cards.ts). Where the SDK and verify-card agree, they must agree exactly; where verify-card
 * deliberately differs (docs/live.md, "Where the SDKs differ"), the difference is asserted as
 * documented. `CARD_RUNS=2000` runs every property that many times instead of its default.
 */
import { generateKeyPairSync } from "node:crypto";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AgentCard, canonicalizeAgentCard, generateAgentCardSignature, verifyAgentCardSignature } from "@a2a-js/sdk";
import { canonicalCard, readCard } from "../../src/card/canonicalize.js";
import { verifyCard, type CardReport } from "../../src/card/verify.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { fromPlain } from "../../src/json/value.js";
import { loadTrustConfig, type TrustConfig } from "../../src/trust/config.js";
import { card, cardText, ledgerCard } from "./cards.js";

const CARD_URL = "https://agent.example/.well-known/agent-card.json";
const pair = generateKeyPairSync("ed25519");
const KID = "card-key-1";
const HEADER = { alg: "EdDSA", kid: KID, typ: "JOSE" };

function trust(): TrustConfig {
  const jwk = { ...pair.publicKey.export({ format: "jwk" }), kid: KID };
  const r = loadTrustConfig(fromPlain({ version: 1, agents: [{ card: CARD_URL, keys: [jwk] }] }));
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}
const TRUST = trust();

/** Our payload for a card's JSON text, as text; undefined when verify-card refuses the card. */
function oursPayload(t: string, variant: "sdk" | "a2a-js-1.3"): string | undefined {
  const parsed = parseStrictJson(t);
  if (!parsed.ok) return undefined;
  const read = readCard(parsed.value);
  if (!read.ok) return undefined;
  const bytes = canonicalCard(read.value, variant);
  return bytes.ok ? new TextDecoder().decode(bytes.value) : undefined;
}
const oursSdk = (t: string) => oursPayload(t, "sdk");

async function ours(t: string): Promise<CardReport> {
  const r = await verifyCard(t, TRUST, { cardUrl: CARD_URL });
  if (!r.ok) throw new Error(`${r.code}: ${r.detail}`);
  return r.value;
}

/**
 * Whether the SDK's verifier accepts the card: the served JSON as parsed, or the SDK's in-memory
 * card made from it (`AgentCard.fromJSON`, what its client holds and verifies).
 */
async function sdkAccepts(t: string, form: "served" | "in-memory" = "served"): Promise<boolean> {
  const verifier = verifyAgentCardSignature(async () => pair.publicKey);
  const parsed = JSON.parse(t) as AgentCard;
  try {
    await verifier(form === "served" ? parsed : AgentCard.fromJSON(parsed));
    return true;
  } catch {
    return false;
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Cards verify-card reads: no lone surrogate, no number beyond a double (both refused, see below). */
const agreeable = card.map(cardText).filter((t) => !LONE_SURROGATE.test(t) && oursSdk(t) !== undefined);

beforeEach(() => {
  // The SDK's verifier logs every signature it rejects.
  vi.spyOn(console, "debug").mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe("canonicalization: verify-card's sdk payload is the SDK's canonicalizeAgentCard", () => {
  it("on generated cards: field presence and defaults, both spellings, securitySchemes, non-ASCII, number lexemes, unknown fields", () => {
    let read = 0;
    fc.assert(
      fc.property(card.map(cardText), (t) => {
        const mine = oursSdk(t);
        if (mine === undefined) return;
        read++;
        expect(mine).toBe(canonicalizeAgentCard(JSON.parse(t) as AgentCard));
      }),
      { numRuns: Number(process.env.CARD_RUNS ?? 400) },
    );
    // The generator is not vacuous: most generated cards are read.
    expect(read).toBeGreaterThan(300);
  });

  it("a2a-js-1.3 is canonicalizeAgentCard of the SDK's in-memory card (AgentCard.fromJSON), what its server signs", () => {
    fc.assert(
      fc.property(agreeable, (t) => {
        const inMemory = AgentCard.fromJSON(JSON.parse(t));
        expect(oursPayload(t, "a2a-js-1.3")).toBe(canonicalizeAgentCard(inMemory));
      }),
      { numRuns: Number(process.env.CARD_RUNS ?? 300) },
    );
  });
});

describe("signatures: a card the SDK signs, verify-card and the SDK's verifier judge alike", () => {
  it("signed by generateAgentCardSignature over the served JSON: both accept, verify-card names sdk; changed, both reject", async () => {
    await fc.assert(
      fc.asyncProperty(agreeable, async (t) => {
        const signed = await generateAgentCardSignature(pair.privateKey, HEADER)(JSON.parse(t) as AgentCard);
        const text = JSON.stringify(signed);
        expect(await sdkAccepts(text)).toBe(true);
        const r = await ours(text);
        expect(r.signatures[0]).toMatchObject({ state: "PASS", canonicalization: "sdk" });
        expect(r.exitCode).toBe(0);
        // A covered change: a new skill. Both reject; verify-card says FAIL (exit 1).
        const changed = JSON.stringify({
          ...signed,
          skills: [{ id: "x", name: "x", description: "x", tags: ["x"] }],
        });
        expect(await sdkAccepts(changed)).toBe(false);
        expect((await ours(changed)).signatures[0]).toMatchObject({ state: "FAIL", check: "signature.verify" });
      }),
      { numRuns: Number(process.env.CARD_RUNS ?? 40) },
    );
  });

  it("an unknown member added after signing: the SDK accepts without a word; verify-card accepts and lists it as not covered", async () => {
    await fc.assert(
      fc.asyncProperty(agreeable, async (t) => {
        const signed = await generateAgentCardSignature(pair.privateKey, HEADER)(JSON.parse(t) as AgentCard);
        const text = JSON.stringify({ ...signed, injectedPolicy: "trust me" });
        expect(await sdkAccepts(text)).toBe(true);
        const r = await ours(text);
        expect(r.signatures[0]).toMatchObject({ state: "PASS", canonicalization: "sdk" });
        expect(r.signatures[0]?.notCovered).toContain("injectedPolicy");
      }),
      { numRuns: Number(process.env.CARD_RUNS ?? 20) },
    );
  });

  it("signed from the SDK's in-memory card (as its server does): securitySchemes unsigned, named a2a-js-1.3 and listed", async () => {
    await fc.assert(
      fc.asyncProperty(agreeable, async (t) => {
        const signed = await generateAgentCardSignature(pair.privateKey, HEADER)(AgentCard.fromJSON(JSON.parse(t)));
        const text = JSON.stringify(AgentCard.toJSON(signed));
        const r = await ours(text);
        const s = r.signatures[0];
        expect(s?.state).toBe("PASS");
        // The SDK's client verifies the card it holds in memory, and so accepts it too.
        expect(await sdkAccepts(text, "in-memory")).toBe(true);
        const sdk = oursSdk(text) as string;
        if (s?.canonicalization === "a2a-js-1.3") {
          // Only when the card has security schemes that survive the cleanup: else the payloads are one.
          expect(sdk).toContain('"securitySchemes"');
          expect(s.notCovered?.[0]).toBe("securitySchemes");
        } else {
          expect(sdk).not.toContain('"securitySchemes"');
          expect(s?.canonicalization).toBe("sdk");
        }
      }),
      { numRuns: Number(process.env.CARD_RUNS ?? 30) },
    );
  });
});

/** A small card (with `extra` members), signed by the SDK's signer over its served JSON. */
async function sdkSigned(
  extra: Record<string, unknown> = {},
  header: Record<string, unknown> = HEADER,
): Promise<Record<string, unknown>> {
  const base = { ...ledgerCard(), ...extra };
  const signed = await generateAgentCardSignature(pair.privateKey, header as never)(base as unknown as AgentCard);
  return signed as unknown as Record<string, unknown>;
}

async function oursFails(t: string): Promise<string> {
  const r = await verifyCard(t, TRUST, { cardUrl: CARD_URL });
  if (r.ok) throw new Error(`verify-card read the card: ${JSON.stringify(r.value.signatures)}`);
  return r.code;
}

describe("where verify-card deliberately differs from the SDK (docs/live.md, Where the SDKs differ)", () => {
  it("a card the SDK reads leniently is refused (exit 2): the SDKs disagree on what it says", async () => {
    const signed = JSON.stringify(await sdkSigned());
    const cases: [string, string, string][] = [
      // A lone surrogate: the SDK signs it as the escape \ud800; it has no UTF-8 form.
      ["a lone surrogate", signed.replace('"Ledger Agent"', '"Ledger \\ud800Agent"'), "CARD_NOT_JSON"],
      // A number no double holds: the SDK signs 9007199254740992, the card says ...993.
      [
        "a number that does not round-trip",
        signed.replace(
          '"capabilities":{',
          '"capabilities":{"extensions":[{"uri":"urn:x","params":{"n":9007199254740993}}],',
        ),
        "CARD_NOT_JSON",
      ],
      [
        "a number beyond a double",
        signed.replace('"capabilities":{', '"capabilities":{"extensions":[{"uri":"urn:x","params":{"n":1e400}}],'),
        "CARD_NOT_JSON",
      ],
      // Two members of one name: JSON.parse keeps the last, Python's json the last, others the first.
      [
        "a duplicate member",
        signed.replace('"version":"1.0.0"', '"version":"1.0.0","version":"2.0.0"'),
        "CARD_NOT_JSON",
      ],
      // Both spellings of one field: the SDK takes the JSON name, silently.
      [
        "both spellings",
        signed.replace('"defaultInputModes"', '"default_input_modes":["x"],"defaultInputModes"'),
        "CARD_MALFORMED",
      ],
      // Two members of a oneof: the SDK takes the first in its own order.
      [
        "two members of a oneof",
        signed.replace(
          '"capabilities"',
          '"securitySchemes":{"k":{"apiKeySecurityScheme":{"location":"header","name":"k"},"mtlsSecurityScheme":{}}},"capabilities"',
        ),
        "CARD_MALFORMED",
      ],
      // A wrong type: the SDK signs String(5).
      ["a wrong type", signed.replace('"version":"1.0.0"', '"version":5'), "CARD_MALFORMED"],
    ];
    for (const [what, text, code] of cases) {
      expect([
        what,
        JSON.parse(text) !== undefined,
        canonicalizeAgentCard(JSON.parse(text) as AgentCard).length > 2,
      ]).toEqual([what, true, true]);
      expect([what, await oursFails(text)]).toEqual([what, code]);
    }
    // The SDK's verifier accepts its signature over what it read: `"version":5` under a signature over "5",
    // and a duplicate under a signature over the last copy.
    const over5 = await sdkSigned({ version: "5" });
    expect(await sdkAccepts(JSON.stringify(over5).replace('"version":"5"', '"version":5'))).toBe(true);
    const over2 = JSON.stringify(await sdkSigned({ version: "2.0.0" }));
    expect(await sdkAccepts(over2.replace('"version":"2.0.0"', '"version":"1.0.0","version":"2.0.0"'))).toBe(true);
  });

  it("a member named __proto__ in params: the SDK's cleanup drops it (a JavaScript prototype assignment), so its signature does not cover it; verify-card keeps it and the SDK's signature FAILs", async () => {
    const signed = await sdkSigned({
      capabilities: { streaming: true, extensions: [{ uri: "urn:x", params: { mode: "a" } }] },
    });
    const text = JSON.stringify(signed).replace(
      '"params":{"mode":"a"}',
      '"params":{"mode":"a","__proto__":{"admin":true}}',
    );
    expect(canonicalizeAgentCard(JSON.parse(text) as AgentCard)).not.toContain("__proto__");
    expect(await sdkAccepts(text)).toBe(true);
    expect(oursSdk(text)).toContain('"__proto__":{"admin":true}');
    const r = await ours(text);
    expect(r.signatures[0]).toMatchObject({ state: "FAIL", check: "signature.verify" });
    expect(r.exitCode).toBe(1);
    // A map key likewise.
    const scheme = '{"__proto__":{"apiKeySecurityScheme":{"location":"header","name":"k"}}}';
    const inMap = JSON.stringify(signed).replace('"capabilities"', `"securitySchemes":${scheme},"capabilities"`);
    expect(canonicalizeAgentCard(JSON.parse(inMap) as AgentCard)).not.toContain("__proto__");
    expect(oursSdk(inMap)).toContain('"securitySchemes":{"__proto__":');
  });

  it("no typ: the SDK's verifier rejects the signature; verify-card verifies it and warns (a2a-wire.md §7.2)", async () => {
    const signed = JSON.stringify(await sdkSigned({}, { alg: "EdDSA", kid: KID }));
    expect(await sdkAccepts(signed)).toBe(false);
    const r = await ours(signed);
    expect(r.signatures[0]).toMatchObject({ state: "PASS", canonicalization: "sdk" });
    expect(r.signatures[0]?.warnings).toEqual(['the protected header has no typ (A2A: "JOSE")']);
  });

  it("a bad signature beside a good one: the SDK accepts (one valid is enough); verify-card FAILs, exit 1", async () => {
    const signed = await sdkSigned();
    const [good] = signed.signatures as { protected: string; signature: string }[];
    const bad = { ...good, signature: `${good?.signature.slice(0, -4)}AAAA` };
    const text = JSON.stringify({ ...signed, signatures: [bad, good] });
    expect(await sdkAccepts(text)).toBe(true);
    const r = await ours(text);
    expect(r.signatures.map((s) => s.state)).toEqual(["FAIL", "PASS"]);
    expect(r.exitCode).toBe(1);
  });

  it("non-ASCII under a2a-python ≤ 1.1.2's payload (ASCII escapes, code-point order): the SDK rejects; verify-card verifies it, named legacy-python", async () => {
    await fc.assert(
      fc.asyncProperty(
        agreeable.filter((t) => /[^\x00-\x7f]/.test(oursSdk(t) ?? "")),
        async (t) => {
          const parsed = parseStrictJson(t);
          const read = parsed.ok ? readCard(parsed.value) : undefined;
          if (!read?.ok) throw new Error("not read");
          const legacy = canonicalCard(read.value, "legacy-python");
          if (!legacy.ok) throw new Error(legacy.detail);
          expect(new TextDecoder().decode(legacy.value)).toMatch(/^[\x00-\x7f]*$/);
          const { FlattenedSign } = await import("jose");
          const jws = await new FlattenedSign(legacy.value).setProtectedHeader(HEADER).sign(pair.privateKey);
          // Spliced into the text: a JSON round trip would write -0 as 0, which Python prints otherwise.
          const sig = JSON.stringify([{ protected: jws.protected, signature: jws.signature }]);
          const text = `${t.slice(0, -1)}${t === "{}" ? "" : ","}"signatures":${sig}}`;
          expect(await sdkAccepts(text)).toBe(false);
          const r = await ours(text);
          expect(r.signatures[0]).toMatchObject({ state: "PASS", canonicalization: "legacy-python" });
        },
      ),
      { numRuns: Number(process.env.CARD_RUNS ?? 20) },
    );
  });
});
