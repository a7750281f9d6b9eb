/**
 * verify-card on cards signed in the test by an independent path (jose FlattenedSign over payloads
 * built with the canonicalize package), and on cards signed by @a2a-js/sdk's own signer.
 */
import { describe, expect, it } from "vitest";
import { AgentCard, canonicalizeAgentCard, generateAgentCardSignature } from "@a2a-js/sdk";
import { registerVerifyCardCommand } from "../../src/cli/verify-card.js";
import { canonicalCard, pythonFloatLexeme, readCard } from "../../src/card/canonicalize.js";
import { verifyCard, type CardReport } from "../../src/card/verify.js";
import { loadTrustConfig, type TrustConfig } from "../../src/trust/config.js";
import { fromPlain, JsonNumber } from "../../src/json/value.js";
import { EXTENSION_URI, RECORD_PROFILE_V1 } from "../../src/profile.js";
import { runCommand } from "../helpers/commands.js";
import { tempFile } from "../helpers/cli.js";
import {
  cleanEmpty,
  jcsBytes,
  newKey,
  pythonDumps,
  sign,
  signed,
  withoutSignatures,
  type SigningKey,
} from "./signing.js";

const CARD_URL = "https://agent.example/.well-known/agent-card.json";

function baseCard(): Record<string, unknown> {
  return {
    name: "Ledger Agent",
    description: "Posts ledger entries & seals them",
    version: "2.1.0",
    supportedInterfaces: [{ url: "https://agent.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    provider: { url: "https://example.com", organization: "Example" },
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [
        {
          uri: EXTENSION_URI,
          description: "A2A Task Evidence",
          params: {
            recordProfiles: [RECORD_PROFILE_V1],
            deliveryModes: ["EVIDENCE_ARTIFACT"],
            minimumEvidenceLevels: ["SIGNED_RECORD", "EXTERNALLY_REGISTERED"],
          },
        },
      ],
    },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: "Bearer", bearerFormat: "JWT" } } },
    securityRequirements: [{ schemes: { bearer: { list: ["ledger:write"] } } }],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain", "application/json"],
    skills: [{ id: "post", name: "post", description: "posts an entry", tags: ["ledger"], examples: ["post 5 EUR"] }],
  };
}

/** sdk payload, built independently: the card has no unknown fields, so ProtoJSON changes nothing; then cleanEmpty, then JCS. */
const sdkPayload = (card: Record<string, unknown>) => jcsBytes(cleanEmpty(withoutSignatures(card)));

function trustFor(entries: { card: string; keys: unknown[] }[]): TrustConfig {
  const r = loadTrustConfig(fromPlain({ version: 1, agents: entries }));
  if (!r.ok) throw new Error(`${r.code}: ${r.detail} at ${r.path}`);
  return r.value;
}

async function check(card: Record<string, unknown>, trust: TrustConfig | undefined, options = {}): Promise<CardReport> {
  const r = await verifyCard(JSON.stringify(card), trust, options);
  if (!r.ok) throw new Error(`${r.code}: ${r.detail}`);
  return r.value;
}

const es256 = newKey("ES256", "card-key-1");
const other = newKey("ES256", "card-key-2");
const pinned = (key: SigningKey = es256, card = "Ledger Agent") => trustFor([{ card, keys: [key.publicJwk] }]);

describe("verify-card: signatures", () => {
  it("a good signature over the sdk canonicalization: PASS, exit 0, the variant named", async () => {
    const card = await signed(baseCard(), sdkPayload(baseCard()), es256);
    const r = await check(card, pinned());
    expect(r.exitCode).toBe(0);
    expect(r.signatures).toHaveLength(1);
    expect(r.signatures[0]).toMatchObject({
      state: "PASS",
      check: "signature.verify",
      alg: "ES256",
      kid: "card-key-1",
      typ: "JOSE",
      canonicalization: "sdk",
    });
    expect(r.signatures[0]?.key).toMatchObject({ agent: "Ledger Agent", path: "agents[0].keys[0]" });
    expect(r.signatures[0]?.warnings).toEqual([]);
    expect(r.agents).toEqual(["Ledger Agent"]);
  });

  it("a trust entry named by the card URL applies only with --card-url", async () => {
    const card = await signed(baseCard(), sdkPayload(baseCard()), es256);
    const byUrl = trustFor([{ card: CARD_URL, keys: [es256.publicJwk] }]);
    expect((await check(card, byUrl)).exitCode).toBe(3);
    expect((await check(card, byUrl, { cardUrl: CARD_URL })).exitCode).toBe(0);
  });

  it("a bad signature: FAIL at signature.verify, exit 1", async () => {
    const card = await signed(baseCard(), sdkPayload(baseCard()), es256);
    const sig = (card.signatures as { signature: string }[])[0] as { signature: string };
    const bytes = Buffer.from(sig.signature, "base64url");
    bytes[5] = (bytes[5] as number) ^ 1;
    sig.signature = bytes.toString("base64url");
    const r = await check(card, pinned());
    expect(r.exitCode).toBe(1);
    expect(r.signatures[0]).toMatchObject({ state: "FAIL", check: "signature.verify" });
    expect(r.signatures[0]?.detail).toMatch(
      /does not verify under the pinned key over any canonicalization \(sdk, spec-presence, served-scope, legacy-python, a2a-js-1.3\)/,
    );
  });

  it("a card changed after signing: FAIL", async () => {
    const card = await signed(baseCard(), sdkPayload(baseCard()), es256);
    card.description = "Posts ledger entries";
    expect((await check(card, pinned())).signatures[0]).toMatchObject({ state: "FAIL", check: "signature.verify" });
  });

  it("an unknown key: INCONCLUSIVE at key.pinned, exit 3 — by kid, and with no entry for the card", async () => {
    const card = await signed(baseCard(), sdkPayload(baseCard()), other);
    const r = await check(card, pinned());
    expect(r.exitCode).toBe(3);
    expect(r.signatures[0]).toMatchObject({ state: "INCONCLUSIVE", check: "key.pinned" });
    expect(r.signatures[0]?.detail).toMatch(/no pinned key for this card fits ES256 with kid card-key-2/);
    const none = await check(card, pinned(es256, "Another Agent"));
    expect(none.signatures[0]).toMatchObject({
      state: "INCONCLUSIVE",
      check: "key.pinned",
      detail: "the trust file pins no key for this card (unknown key)",
    });
    expect((await check(card, undefined)).exitCode).toBe(3);
  });

  it("no signatures: exit 3", async () => {
    const r = await check(baseCard(), pinned());
    expect(r.signatures).toEqual([]);
    expect(r.exitCode).toBe(3);
  });

  it("one good and one bad signature: the bad one is never outvoted, exit 1", async () => {
    const good = await signed(baseCard(), sdkPayload(baseCard()), es256);
    const second = newKey("EdDSA", "ed-1");
    const card = await signed(good, jcsBytes({ not: "the card" }), second);
    const r = await check(card, trustFor([{ card: "Ledger Agent", keys: [es256.publicJwk, second.publicJwk] }]));
    expect(r.signatures.map((s) => s.state)).toEqual(["PASS", "FAIL"]);
    expect(r.exitCode).toBe(1);
  });

  it("a signature that matches only under spec-presence (a REQUIRED field at its default): named spec-presence", async () => {
    const card = { ...baseCard(), description: "", skills: [] };
    // spec rule 1, built independently: this card has no unknown fields and no non-presence defaults.
    const payload = jcsBytes(withoutSignatures(card));
    const r = await check(await signed(card, payload, es256), pinned());
    expect(r.signatures[0]).toMatchObject({
      state: "PASS",
      canonicalization: "spec-presence",
      alsoMatches: ["served-scope"],
    });
    expect(r.exitCode).toBe(0);
    // Pinned to the sdk canonicalization, the same signature does not verify.
    const sdkOnly = await check(await signed(card, payload, es256), pinned(), { canonicalization: "sdk" });
    expect(sdkOnly.signatures[0]).toMatchObject({ state: "FAIL", check: "signature.verify" });
  });

  it("served-scope covers unknown fields; sdk does not, and the report says so", async () => {
    const card = { ...baseCard(), "x-vendor": { tier: "gold" } };
    const served = await check(await signed(card, jcsBytes(withoutSignatures(card)), es256), pinned());
    expect(served.signatures[0]).toMatchObject({ state: "PASS", canonicalization: "served-scope" });
    expect(served.unknownFields).toEqual(['["x-vendor"]']);
    expect(served.signatures[0]?.notCovered).toBeUndefined();
    // Signed over the sdk payload (which drops the unknown field), then the field is added: still PASS, but uncovered.
    const sdkSigned = await signed(baseCard(), sdkPayload(baseCard()), es256);
    const tampered = await check({ ...sdkSigned, "x-vendor": { tier: "gold" } }, pinned());
    expect(tampered.signatures[0]).toMatchObject({ state: "PASS", canonicalization: "sdk" });
    expect(tampered.signatures[0]?.notCovered).toEqual(['["x-vendor"]']);
  });

  it("legacy-python: ASCII escapes and Struct numbers as floats", async () => {
    const card = baseCard();
    card.name = "Ledger Agënt ✓";
    (card.capabilities as { extensions: { params: Record<string, unknown> }[] }).extensions[0]!.params.maxDelaySeconds =
      60;
    const payload = new TextEncoder().encode(pythonDumps(cleanEmpty(withoutSignatures(card)), new Set([60])));
    const r = await check(await signed(card, payload, es256), pinned(es256, "Ledger Agënt ✓"));
    expect(r.signatures[0]).toMatchObject({ state: "PASS", canonicalization: "legacy-python" });
  });

  it("Ed25519 (raw hex pin) and RS256 (PEM pin) cards verify", async () => {
    const ed = newKey("EdDSA", "ed");
    const edHex = Buffer.from(ed.publicJwk.x as string, "base64url").toString("hex");
    expect(
      (
        await check(
          await signed(baseCard(), sdkPayload(baseCard()), ed),
          trustFor([{ card: "Ledger Agent", keys: [edHex] }]),
        )
      ).exitCode,
    ).toBe(0);
    const rsa = newKey("RS256", "rsa");
    const { createPublicKey } = await import("node:crypto");
    const pem = createPublicKey({ key: rsa.publicJwk as never, format: "jwk" })
      .export({ format: "pem", type: "spki" })
      .toString();
    const r = await check(
      await signed(baseCard(), sdkPayload(baseCard()), rsa),
      trustFor([{ card: "Ledger Agent", keys: [pem] }]),
    );
    expect(r.signatures[0]).toMatchObject({ state: "PASS", alg: "RS256", canonicalization: "sdk" });
  });
});

describe("verify-card: header rules", () => {
  const withHeader = async (protectedHeader: Record<string, unknown>, unprotected?: Record<string, unknown>) => {
    const protectedB64 = Buffer.from(JSON.stringify(protectedHeader)).toString("base64url");
    const entry: Record<string, unknown> = { protected: protectedB64, signature: "c2ln" };
    if (unprotected) entry.header = unprotected;
    return check({ ...baseCard(), signatures: [entry] }, pinned());
  };

  it.each([
    [{ alg: "none", kid: "card-key-1" }, /alg none is not allowed/],
    [{ alg: "HS256", kid: "card-key-1" }, /alg HS256 is not allowed/],
    [{ kid: "card-key-1" }, /has no alg/],
    [{ alg: "ES256" }, /has no kid/],
    [{ alg: "ES256", kid: "card-key-1", crit: ["exp"], exp: 1 }, /no critical header parameter/],
    [{ alg: "ES256", kid: "card-key-1", b64: false }, /b64/],
  ])("%j: FAIL at header.params", async (header, detail) => {
    const r = await withHeader(header);
    expect(r.signatures[0]).toMatchObject({ state: "FAIL", check: "header.params" });
    expect(r.signatures[0]?.detail).toMatch(detail);
    expect(r.exitCode).toBe(1);
  });

  it("a parameter in both headers: FAIL", async () => {
    const r = await withHeader({ alg: "ES256", kid: "card-key-1" }, { kid: "card-key-2" });
    expect(r.signatures[0]?.detail).toMatch(/kid in both the protected and the unprotected header/);
  });

  it("a protected header that is not base64url JSON: FAIL at protected.decode", async () => {
    const r = await check(
      { ...baseCard(), signatures: [{ protected: "eyJhbGciOiJFUzI1NiJ9=", signature: "x" }] },
      pinned(),
    );
    expect(r.signatures[0]).toMatchObject({ state: "FAIL", check: "protected.decode" });
  });

  it("no typ, and jku: warned and reported, never fetched", async () => {
    const card = await signed(baseCard(), sdkPayload(baseCard()), es256, {
      typ: undefined,
      jku: "https://agent.example/jwks.json",
    });
    const r = await check(card, pinned());
    expect(r.signatures[0]).toMatchObject({ state: "PASS", jku: "https://agent.example/jwks.json" });
    expect(r.signatures[0]?.warnings).toEqual(['the protected header has no typ (A2A: "JOSE")']);
  });
});

describe("verify-card: the evidence extension's params", () => {
  const withParams = (params: unknown, extra: Record<string, unknown> = {}) => {
    const card = baseCard();
    (card.capabilities as { extensions: unknown[] }).extensions = [{ uri: EXTENSION_URI, params, ...extra }];
    return card;
  };

  it("consistent params: no findings", async () => {
    const r = await check(baseCard(), undefined);
    expect(r.extension).toEqual({ declaredAt: ["capabilities.extensions[0]"], findings: [] });
  });

  it("inconsistent params are flagged with their paths", async () => {
    const card = withParams(
      {
        recordProfiles: ["https://example.com/other-profile"],
        deliveryModes: ["EVIDENCE_ARTIFACT", "EVIDENCE_ARTIFACT", "CARRIER_PIGEON"],
        minimumEvidenceLevels: ["EVIDENCE_STATUS_SIGNED_RECORD"],
        extra: 1,
      },
      { required: true },
    );
    const r = await check(card, undefined);
    expect(r.extension.findings.map((f) => f.path)).toEqual([
      "capabilities.extensions[0].required",
      "capabilities.extensions[0].params.recordProfiles[0]",
      "capabilities.extensions[0].params.deliveryModes[1]",
      "capabilities.extensions[0].params.deliveryModes[2]",
      "capabilities.extensions[0].params.minimumEvidenceLevels[0]",
      "capabilities.extensions[0].params.extra",
    ]);
    expect(r.extension.findings[4]?.detail).toMatch(/levels are bare names: SIGNED_RECORD/);
  });

  it("declared twice with different params, or without params", async () => {
    const card = baseCard();
    const first = (card.capabilities as { extensions: Record<string, unknown>[] }).extensions[0] as Record<
      string,
      unknown
    >;
    (card.capabilities as { extensions: unknown[] }).extensions = [first, { uri: EXTENSION_URI }];
    const r = await check(card, undefined);
    expect(r.extension.declaredAt).toEqual(["capabilities.extensions[0]", "capabilities.extensions[1]"]);
    expect(r.extension.findings.map((f) => f.detail)).toEqual([
      "the evidence extension is declared again with different params than at capabilities.extensions[0]",
      "the evidence extension is declared without params: no record profile, delivery mode or level is offered",
    ]);
  });
});

describe("verify-card: the canonicalizations", () => {
  it("the spec's worked example (a2a-wire.md §7.4): spec-presence and sdk", () => {
    const card = readCard(
      fromPlain({
        name: "Example Agent",
        description: "",
        capabilities: { streaming: false, pushNotifications: false, extensions: [] },
        skills: [],
      }),
    );
    if (!card.ok) throw new Error(card.detail);
    const text = (v: "sdk" | "spec-presence") => {
      const r = canonicalCard(card.value, v);
      return r.ok ? new TextDecoder().decode(r.value) : r.detail;
    };
    expect(text("spec-presence")).toBe(
      '{"capabilities":{"pushNotifications":false,"streaming":false},"description":"","name":"Example Agent","skills":[]}',
    );
    expect(text("sdk")).toBe('{"capabilities":{"pushNotifications":false,"streaming":false},"name":"Example Agent"}');
  });

  it("sdk equals @a2a-js/sdk's own canonicalizeAgentCard, snake_case names, defaults and unknown fields included", () => {
    const card = {
      ...baseCard(),
      documentation_url: "https://agent.example/docs",
      iconUrl: "",
      "x-unknown": [1, 2],
      supportedInterfaces: [
        { url: "https://agent.example/a2a", protocol_binding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
      ],
      skills: [
        { id: "post", name: "post", description: "", tags: ["ledger", ""], input_modes: [], securityRequirements: [] },
      ],
      capabilities: {
        streaming: false,
        extended_agent_card: false,
        extensions: [{ uri: "urn:x", required: false, params: { n: 60, f: 2.5, e: [], s: "" } }],
      },
    };
    const ours = readCard(fromPlain(card));
    if (!ours.ok) throw new Error(ours.detail);
    const r = canonicalCard(ours.value, "sdk");
    if (!r.ok) throw new Error(r.detail);
    // canonicalizeAgentCard parses its argument as wire JSON (AgentCard.fromJSON) before printing it.
    expect(new TextDecoder().decode(r.value)).toBe(canonicalizeAgentCard(card as never));
  });

  it("a card signed by @a2a-js/sdk 1.3.0's generateAgentCardSignature verifies under a2a-js-1.3, with securitySchemes reported unsigned", async () => {
    const signer = generateAgentCardSignature(es256.privateKey, { alg: "ES256", kid: "card-key-1", typ: "JOSE" });
    const signedCard = AgentCard.toJSON(await signer(AgentCard.fromJSON(baseCard()))) as Record<string, unknown>;
    const r = await check(signedCard, pinned());
    expect(r.signatures[0]).toMatchObject({
      state: "PASS",
      canonicalization: "a2a-js-1.3",
      notCovered: ["securitySchemes"],
    });
    // The defect, shown: the security schemes can be replaced and the signature still verifies.
    const swapped = {
      ...signedCard,
      securitySchemes: { none: { apiKeySecurityScheme: { location: "query", name: "k" } } },
    };
    expect((await check(swapped, pinned())).signatures[0]).toMatchObject({
      state: "PASS",
      canonicalization: "a2a-js-1.3",
    });
    // Without security schemes the SDK's payload is the sdk one.
    const { securitySchemes: _s, securityRequirements: _r, ...plain } = baseCard();
    void _s;
    void _r;
    const signedPlain = AgentCard.toJSON(await signer(AgentCard.fromJSON(plain))) as Record<string, unknown>;
    expect((await check(signedPlain, pinned())).signatures[0]).toMatchObject({
      state: "PASS",
      canonicalization: "sdk",
      alsoMatches: ["spec-presence", "served-scope", "legacy-python", "a2a-js-1.3"],
    });
  });

  it("Python float lexemes", () => {
    expect(
      ["60", "2.5", "-0", "1e-7", "12345678901234567", "0.0001"].map((l) => pythonFloatLexeme(new JsonNumber(l))),
    ).toEqual(["60.0", "2.5", "-0.0", "1e-07", "1.2345678901234568e+16", "0.0001"]);
  });
});

describe("verify-card: cards that cannot be verified (exit 2)", () => {
  const cli = (args: string[]) => runCommand(registerVerifyCardCommand, ["verify-card", ...args]);

  it.each([
    [
      "a field under both names",
      { ...baseCard(), supported_interfaces: [] },
      /CARD_MALFORMED: supportedInterfaces is given under both its JSON name and its proto name/,
    ],
    [
      "two oneof members",
      {
        ...baseCard(),
        securitySchemes: { b: { httpAuthSecurityScheme: { scheme: "Bearer" }, mtlsSecurityScheme: {} } },
      },
      /two members of oneof scheme/,
    ],
    ["a wrong type", { ...baseCard(), version: 2 }, /CARD_MALFORMED: expected a string \(at version\)/],
    ["a v0.3 card", { name: "old", url: "https://old.example", version: "1" }, /A2A v0.3 Agent Card/],
  ])("%s", async (_, card, message) => {
    const r = await cli([tempFile("card.json", JSON.stringify(card))]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it("not JSON, and an invalid trust file", async () => {
    expect((await cli([tempFile("card.json", '{"name":"a","name":"b"}')])).stderr).toMatch(/CARD_NOT_JSON/);
    const trust = tempFile(
      "trust.json",
      JSON.stringify({ version: 1, agents: [{ card: "x", keys: [{ ...es256.publicJwk, d: "AAAA" }] }] }),
    );
    const r = await cli(["--trust", trust, tempFile("card.json", JSON.stringify(baseCard()))]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /TRUST_PRIVATE_KEY: private key material refused: a trust file holds public keys only \(at agents\[0\]\.keys\[0\]\)/,
    );
    const dup = tempFile(
      "trust.json",
      JSON.stringify({
        version: 1,
        agents: [
          { card: "x", keys: [es256.publicJwk] },
          { card: "x", keys: [es256.publicJwk] },
        ],
      }),
    );
    expect((await cli(["--trust", dup, tempFile("card.json", JSON.stringify(baseCard()))])).stderr).toMatch(
      /TRUST_DUPLICATE_ENTRY/,
    );
  });
});

describe("verify-card: the command", () => {
  const cli = (args: string[]) => runCommand(registerVerifyCardCommand, ["verify-card", ...args]);
  const trustFile = () =>
    tempFile("trust.json", JSON.stringify({ version: 1, agents: [{ card: "Ledger Agent", keys: [es256.publicJwk] }] }));

  it("text report and exit codes 0, 1, 3", async () => {
    const good = tempFile("card.json", JSON.stringify(await signed(baseCard(), sdkPayload(baseCard()), es256)));
    const ok = await cli(["--trust", trustFile(), good]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      /✔ signatures\[0\] PASS ES256 kid card-key-1 \[signature\.verify\]: .* over the sdk canonicalization/,
    );
    expect(ok.stdout).toMatch(
      /evidence extension declared at capabilities\.extensions\[0\]: params consistent with the profile/,
    );
    expect(ok.stdout).toMatch(/exit 0: a pinned key verified the card\n$/);
    const unsigned = await cli(["--trust", trustFile(), tempFile("card.json", JSON.stringify(baseCard()))]);
    expect(unsigned.code).toBe(3);
    expect(unsigned.stdout).toMatch(
      /exit 3: nothing fails, but no pinned key verified anything \(the card is unsigned\)/,
    );
    const bad = await signed(baseCard(), jcsBytes({ other: 1 }), es256);
    expect((await cli(["--trust", trustFile(), tempFile("card.json", JSON.stringify(bad))])).code).toBe(1);
  });

  it("--format json, and --strict turns inconsistent extension params into exit 1", async () => {
    const card = baseCard();
    (card.capabilities as { extensions: { params: Record<string, unknown> }[] }).extensions[0]!.params.deliveryModes = [
      "CARRIER_PIGEON",
    ];
    const file = tempFile("card.json", JSON.stringify(await signed(card, sdkPayload(card), es256)));
    const json = await cli(["--trust", trustFile(), "--format", "json", file]);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ reportVersion: 1, exitCode: 0, name: "Ledger Agent", agents: ["Ledger Agent"] });
    expect(report.signatures[0]).toMatchObject({ state: "PASS", canonicalization: "sdk" });
    expect(report.extension.findings).toHaveLength(1);
    const strict = await cli(["--trust", trustFile(), "--strict", file]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/exit 1: the evidence extension's params are inconsistent \(--strict\)/);
  });
});

void sign;
