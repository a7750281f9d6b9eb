import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTrustConfig } from "../../src/trust/config.js";
import { TRUST_CONFIG_SCHEMA } from "../../src/trust/schema.js";
import { fromPlain } from "../../src/json/value.js";
import { REPO_ROOT } from "../helpers/external.js";

const ed = generateKeyPairSync("ed25519");
const edRaw = Buffer.from(ed.publicKey.export({ format: "der", type: "spki" }))
  .subarray(12)
  .toString("hex");
const p256 = generateKeyPairSync("ec", { namedCurve: "P-256" });
const p256Pem = p256.publicKey.export({ format: "pem", type: "spki" }).toString();
const p384Jwk = generateKeyPairSync("ec", { namedCurve: "P-384" }).publicKey.export({ format: "jwk" });

function load(v: unknown) {
  return loadTrustConfig(fromPlain(v));
}

function failure(v: unknown) {
  const r = load(v);
  if (r.ok) throw new Error("expected a failure");
  return r;
}

describe("trust file", () => {
  it("keeps schemas/trust-config.schema.json and the embedded schema identical", () => {
    const onDisk = JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "trust-config.schema.json"), "utf8"));
    expect(onDisk).toEqual(TRUST_CONFIG_SCHEMA);
  });

  it("loads the native shape with hex, PEM and JWK keys", () => {
    const r = load({
      version: 1,
      producers: [{ authority: "payments-agent.example", keys: [edRaw] }],
      transparencyServices: [{ url: "https://ts.example", keys: [p256Pem, p384Jwk], operator: "independent" }],
      witnesses: [{ id: "w1", name: "witness.example/w1", keys: [edRaw], operator: "producer", statements: [] }],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.producers.get("payments-agent.example")?.[0]?.key.ed25519Hex).toBe(edRaw);
    const ts = r.value.transparencyServices.get("https://ts.example");
    expect(ts?.operator).toBe("independent");
    expect(ts?.keys.map((k) => k.key.algorithm)).toEqual(["P-256", "P-384"]);
    expect(r.value.witnesses.map((w) => [w.id, w.operator, w.operatorId])).toEqual([
      ["w1", "producer", "witness.example/w1"],
    ]);
  });

  it("loads the reference implementation's shape", () => {
    const pem = ed.publicKey.export({ format: "pem", type: "spki" }).toString();
    const r = load({
      authorizedSigners: { "ref-server": [edRaw] },
      tsPubkeysB64: { "http://127.0.0.1:53533": Buffer.from(pem).toString("base64") },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.shape).toBe("reference");
    expect(r.value.transparencyServices.get("http://127.0.0.1:53533")?.operator).toBe("unspecified");
  });

  it("names the JSON path of a schema violation", () => {
    const unknown = failure({ version: 1, producers: [{ authority: "a", keys: [edRaw], extra: 1 }] });
    expect(unknown.code).toBe("TRUST_SCHEMA");
    expect(unknown.path).toBe("producers[0]");
    expect(unknown.detail).toMatch(/unknown member "extra"/);
    const operator = failure({ version: 1, transparencyServices: [{ url: "u", keys: [edRaw], operator: "friendly" }] });
    expect(operator.path).toBe("transparencyServices[0].operator");
    expect(failure({ version: 2 }).path).toBe("version");
    expect(failure({ version: 1, producers: [{ authority: "a", keys: ["nothex"] }] }).path).toBe(
      "producers[0].keys[0]",
    );
    expect(failure({ version: 1, producers: [{ authority: "a", keys: [] }] }).path).toBe("producers[0].keys");
    expect(failure({ nothing: true }).code).toBe("TRUST_SCHEMA");
    expect(failure([]).code).toBe("TRUST_SCHEMA");
  });

  it("refuses private keys", () => {
    const jwk = ed.privateKey.export({ format: "jwk" });
    const r = failure({ version: 1, producers: [{ authority: "a", keys: [jwk] }] });
    expect(r).toMatchObject({ code: "TRUST_PRIVATE_KEY", path: "producers[0].keys[0]" });
    const pem = ed.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    const p = failure({ version: 1, producers: [{ authority: "a", keys: [pem] }] });
    expect(p.code).toBe("TRUST_PRIVATE_KEY");
  });

  it("reports a key that matches the schema but cannot be imported", () => {
    const r = failure({
      version: 1,
      producers: [{ authority: "a", keys: ["-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"] }],
    });
    expect(r.code).toBe("TRUST_KEY_INVALID");
    expect(r.path).toBe("producers[0].keys[0]");
    const b64 = failure({ tsPubkeysB64: { u: "not base64!" } });
    expect(b64.code).toBe("TRUST_KEY_INVALID");
    expect(b64.path).toBe("tsPubkeysB64.u");
  });

  it("refuses an authority, service or witness listed twice", () => {
    const r = failure({
      version: 1,
      producers: [
        { authority: "a", keys: [edRaw] },
        { authority: "a", keys: [edRaw] },
      ],
    });
    expect(r.code).toBe("TRUST_DUPLICATE_ENTRY");
    expect(r.path).toBe("producers[1].authority");
    const s = failure({
      version: 1,
      transparencyServices: [1, 2].map(() => ({ url: "u", keys: [edRaw], operator: "independent" })),
    });
    expect(s.path).toBe("transparencyServices[1].url");
    const w = failure({
      version: 1,
      witnesses: [1, 2].map((n) => ({
        id: "w",
        name: `witness.example/w${n}`,
        keys: [
          generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).subarray(12).toString("hex"),
        ],
        operator: "independent",
        statements: [],
      })),
    });
    expect(w.path).toBe("witnesses[1].id");
  });
});

describe("private key material in a trust file", () => {
  const message = "private key material refused: a trust file holds public keys only";
  const edPrivatePem = ed.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  const p256PrivateJwk = p256.privateKey.export({ format: "jwk" });

  it.each([
    [
      "a PEM private key among a producer's keys",
      { version: 1, producers: [{ authority: "a", keys: [edRaw, edPrivatePem] }] },
      "producers[0].keys[1]",
    ],
    [
      "a private JWK (with d) for a Transparency Service",
      { version: 1, transparencyServices: [{ url: "https://ts.example", keys: [p256PrivateJwk] }] },
      "transparencyServices[0].keys[0]",
    ],
    [
      "a base64-wrapped PEM private key in the reference shape",
      { tsPubkeysB64: { "https://ts.example": Buffer.from(edPrivatePem).toString("base64") } },
      'tsPubkeysB64["https://ts.example"]',
    ],
  ])("%s is refused, named by its path", (_, file, path) => {
    const r = failure(file);
    expect(r).toMatchObject({ code: "TRUST_PRIVATE_KEY", detail: message, path });
  });
});
