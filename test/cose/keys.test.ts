import canonicalize from "canonicalize";
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  importPublicKey,
  importPublicKeyFromBase64Pem,
  importPublicKeyFromPem,
  publicKeyFromRawEd25519,
  type PublicKeyInfo,
} from "../../src/cose/keys.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import type { JsonValue } from "../../src/json/value.js";
import type { Result } from "../../src/result.js";
import { describeExternal, readExternalText } from "../helpers/external.js";
import { atString, vectorJson } from "../helpers/cose.js";

function json(value: unknown): JsonValue {
  const r = parseStrictJson(JSON.stringify(value));
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

function codeOf(r: Result<PublicKeyInfo>): string {
  return r.ok ? "ok" : r.code;
}

function pem(key: KeyObject): string {
  return key.export({ type: "spki", format: "pem" }) as string;
}

/** RFC 7638 thumbprint URI computed with the canonicalize package as an independent oracle. */
function thumbprintOracle(key: KeyObject): string {
  const { crv, kty, x, y } = key.export({ format: "jwk" });
  const digest = createHash("sha256")
    .update(canonicalize({ crv, kty, x, y }) as string)
    .digest("base64url");
  return `urn:ietf:params:oauth:jwk-thumbprint:sha-256:${digest}`;
}

const ed = generateKeyPairSync("ed25519");
const edRawHex = Buffer.from(ed.publicKey.export({ format: "jwk" }).x as string, "base64url").toString("hex");
const p256 = generateKeyPairSync("ec", { namedCurve: "P-256" });
const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" });

describe("importPublicKey: accepted forms", () => {
  it("raw Ed25519 as 64 lowercase hex", () => {
    const r = importPublicKey(edRawHex);
    expect(r.ok && [r.value.algorithm, r.value.ed25519Hex, r.value.fingerprint]).toEqual([
      "Ed25519",
      edRawHex,
      edRawHex,
    ]);
  });

  it("PEM SubjectPublicKeyInfo for Ed25519, P-256 and P-384", () => {
    const e = importPublicKey(pem(ed.publicKey));
    expect(e.ok && [e.value.algorithm, e.value.ed25519Hex]).toEqual(["Ed25519", edRawHex]);
    const a = importPublicKey(pem(p256.publicKey));
    expect(a.ok && [a.value.algorithm, a.value.ed25519Hex, a.value.fingerprint]).toEqual([
      "P-256",
      undefined,
      thumbprintOracle(p256.publicKey),
    ]);
    const b = importPublicKey(pem(p384.publicKey));
    expect(b.ok && [b.value.algorithm, b.value.fingerprint]).toEqual(["P-384", thumbprintOracle(p384.publicKey)]);
  });

  it("PEM with CRLF line ends", () => {
    expect(codeOf(importPublicKey(pem(p256.publicKey).replace(/\n/g, "\r\n")))).toBe("ok");
  });

  it("JWK objects (OKP Ed25519, EC P-256 and P-384), ignoring kid/use/alg", () => {
    const okp = importPublicKey(json({ ...ed.publicKey.export({ format: "jwk" }), kid: "k1" }));
    expect(okp.ok && okp.value.ed25519Hex).toBe(edRawHex);
    const ec = importPublicKey(json({ ...p256.publicKey.export({ format: "jwk" }), use: "sig", alg: "ES256" }));
    expect(ec.ok && [ec.value.algorithm, ec.value.fingerprint]).toEqual(["P-256", thumbprintOracle(p256.publicKey)]);
    const ec384 = importPublicKey(json(p384.publicKey.export({ format: "jwk" })));
    expect(ec384.ok && ec384.value.algorithm).toBe("P-384");
  });

  it("gives one fingerprint per key whatever the form", () => {
    const fromPem = importPublicKey(pem(p384.publicKey));
    const fromJwk = importPublicKey(json(p384.publicKey.export({ format: "jwk" })));
    expect(fromPem.ok && fromJwk.ok && fromPem.value.fingerprint === fromJwk.value.fingerprint).toBe(true);
  });
});

/** PEM text of DER bytes. */
function derPem(der: Uint8Array): string {
  const b64 = Buffer.from(der).toString("base64");
  return `-----BEGIN PUBLIC KEY-----\n${(b64.match(/.{1,64}/g) as string[]).join("\n")}\n-----END PUBLIC KEY-----\n`;
}
const spkiDer = (key: KeyObject) => new Uint8Array(key.export({ type: "spki", format: "der" }));

describe("importPublicKey: SubjectPublicKeyInfo in its plain form, imported from its raw key", () => {
  it("gives the very key the DER import gives, for each supported curve", () => {
    for (const key of [ed.publicKey, p256.publicKey, p384.publicKey]) {
      const r = importPublicKeyFromPem(pem(key));
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      expect(r.value.key.equals(createPublicKey({ key: Buffer.from(spkiDer(key)), format: "der", type: "spki" }))).toBe(
        true,
      );
      expect(r.value.key.asymmetricKeyType).toBe(key.asymmetricKeyType);
    }
  });

  it("a point off the curve is refused in the DER import's words", () => {
    const der = spkiDer(p256.publicKey);
    der.fill(1, der.length - 64); // x = y = 0x0101…: not on P-256
    const r = importPublicKeyFromPem(derPem(der));
    expect(r.ok ? "ok" : [r.code, r.detail.startsWith("not a SubjectPublicKeyInfo: ")]).toEqual([
      "KEY_MALFORMED",
      true,
    ]);
  });

  it("other encodings of a key are left to the DER import: compressed points, trailing bytes", () => {
    // P-256 with a compressed point: another SPKI form of the same key, which OpenSSL reads.
    const { x, y } = p256.publicKey.export({ format: "jwk" });
    const yLast = Buffer.from(y as string, "base64url")[31] as number;
    const compressed = Buffer.concat([
      Buffer.from("3039301306072a8648ce3d020106082a8648ce3d030107032200", "hex"),
      Buffer.from([yLast & 1 ? 0x03 : 0x02]),
      Buffer.from(x as string, "base64url"),
    ]);
    const c = importPublicKeyFromPem(derPem(compressed));
    expect(c.ok && c.value.key.equals(p256.publicKey)).toBe(true);
    // BER's indefinite length around a plain key, which OpenSSL reads, is not DER.
    const plain = spkiDer(p256.publicKey);
    const indefinite = new Uint8Array([0x30, 0x80, ...plain.subarray(2), 0, 0]);
    expect(codeOf(importPublicKeyFromPem(derPem(indefinite)))).toBe("KEY_MALFORMED");
    // The plain prefix with one byte too many is not a SubjectPublicKeyInfo at all.
    for (const key of [ed.publicKey, p256.publicKey, p384.publicKey]) {
      const long = new Uint8Array([...spkiDer(key), 0]);
      expect(codeOf(importPublicKeyFromPem(derPem(long)))).toBe("KEY_MALFORMED");
    }
  });
});

describe("importPublicKey: refusals", () => {
  it("refuses private keys in any form", () => {
    expect(codeOf(importPublicKey(ed.privateKey.export({ type: "pkcs8", format: "pem" }) as string))).toBe(
      "KEY_PRIVATE",
    );
    expect(codeOf(importPublicKey(p256.privateKey.export({ type: "sec1", format: "pem" }) as string))).toBe(
      "KEY_PRIVATE",
    );
    expect(codeOf(importPublicKey(json(p256.privateKey.export({ format: "jwk" }))))).toBe("KEY_PRIVATE");
    expect(codeOf(importPublicKey(json(ed.privateKey.export({ format: "jwk" }))))).toBe("KEY_PRIVATE");
  });

  it("refuses RSA and other curves", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
    expect(codeOf(importPublicKey(pem(rsa.publicKey)))).toBe("KEY_UNSUPPORTED");
    expect(codeOf(importPublicKey(rsa.publicKey.export({ type: "pkcs1", format: "pem" }) as string))).toBe(
      "KEY_UNSUPPORTED",
    );
    expect(codeOf(importPublicKey(json(rsa.publicKey.export({ format: "jwk" }))))).toBe("KEY_UNSUPPORTED");
    expect(codeOf(importPublicKey(pem(generateKeyPairSync("ec", { namedCurve: "P-521" }).publicKey)))).toBe(
      "KEY_UNSUPPORTED",
    );
    expect(codeOf(importPublicKey(pem(generateKeyPairSync("ec", { namedCurve: "secp256k1" }).publicKey)))).toBe(
      "KEY_UNSUPPORTED",
    );
    expect(codeOf(importPublicKey(pem(generateKeyPairSync("x25519").publicKey)))).toBe("KEY_UNSUPPORTED");
    expect(codeOf(importPublicKey(pem(generateKeyPairSync("ed448").publicKey)))).toBe("KEY_UNSUPPORTED");
    const x25519Jwk = generateKeyPairSync("x25519").publicKey.export({ format: "jwk" });
    expect(codeOf(importPublicKey(json(x25519Jwk)))).toBe("KEY_UNSUPPORTED");
    const p521Jwk = generateKeyPairSync("ec", { namedCurve: "P-521" }).publicKey.export({ format: "jwk" });
    expect(codeOf(importPublicKey(json(p521Jwk)))).toBe("KEY_UNSUPPORTED");
    expect(codeOf(importPublicKey(json({ kty: "EC", crv: "Ed25519", x: "AA" })))).toBe("KEY_UNSUPPORTED");
  });

  it("refuses PEM blocks that are not a public key", () => {
    const certLike = pem(p256.publicKey).replace(/PUBLIC KEY/g, "CERTIFICATE");
    expect(codeOf(importPublicKey(certLike))).toBe("KEY_UNSUPPORTED");
  });

  it("refuses malformed input", () => {
    const good = pem(p256.publicKey);
    const cases: JsonValue[] = [
      edRawHex.toUpperCase(),
      edRawHex.slice(2),
      "not a key",
      `${good}${good}`,
      `junk\n${good}`,
      good.replace(/\n[A-Za-z0-9+/]/, "\n*"),
      "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n",
      "-----BEGIN PUBLIC KEY-----\nAAB=\n-----END PUBLIC KEY-----\n", // non-zero trailing bits
      json(1),
      json(null),
      json([edRawHex]),
    ];
    for (const spec of cases) expect([spec, codeOf(importPublicKey(spec))]).toEqual([spec, "KEY_MALFORMED"]);
  });

  it("refuses malformed JWK members", () => {
    const base = p256.publicKey.export({ format: "jwk" });
    const y = base.y as string;
    const cases: Array<Record<string, unknown>> = [
      { ...base, kty: 1 },
      { ...base, crv: null },
      { ...base, x: `${base.x}=` },
      { ...base, x: (base.x as string).slice(1) },
      { ...base, x: undefined },
      { ...base, y: undefined },
      // Same bytes, but the final character carries non-zero trailing bits.
      { ...base, y: y.slice(0, -1) + String.fromCharCode(y.charCodeAt(y.length - 1) ^ 1) },
      // A coordinate pair that is not a point on P-256.
      { ...base, y: Buffer.alloc(32, 1).toString("base64url") },
    ];
    for (const jwk of cases) expect([jwk, codeOf(importPublicKey(json(jwk)))]).toEqual([jwk, "KEY_MALFORMED"]);
  });

  it("refuses a raw Ed25519 key of the wrong length", () => {
    expect(codeOf(publicKeyFromRawEd25519(new Uint8Array(31)))).toBe("KEY_MALFORMED");
  });

  it("refuses base64 PEM that is not strict base64", () => {
    expect(codeOf(importPublicKeyFromBase64Pem("not base64!"))).toBe("KEY_MALFORMED");
  });
});

describeExternal("a2a-reference", "keys from the A2A reference vector", () => {
  it("imports tsPubkeysB64 (base64 of PEM) to the raw key of log-and-receipts.md §5.1", () => {
    const vector = vectorJson("a2a-reference", "positive_vector.json");
    const r = importPublicKeyFromBase64Pem(atString(vector, "trustConfig", "tsPubkeysB64", "http://127.0.0.1:53533"));
    expect(r.ok && r.value.ed25519Hex).toBe("9c505970c0815e85221c083a2a7e89fd7b0997f72ff91dc529283b7d6771e110");
  });
});

describeExternal("scitt-cose/receipts-v1", "keys from the scitt-cose receipt vectors", () => {
  it.each([
    ["valid-eddsa", "issuer-key.pub", "Ed25519"],
    ["valid-es256", "log-key.pub", "P-256"],
    ["valid-ccf-vds2", "issuer-key.pub", "P-256"],
    ["valid-ccf-vds2", "log-key.pub", "P-384"],
  ])("%s/%s is %s", (id, file, algorithm) => {
    const r = importPublicKeyFromPem(readExternalText("scitt-cose", "receipts-v1", id, file));
    expect(r.ok && r.value.algorithm).toBe(algorithm);
  });
});
