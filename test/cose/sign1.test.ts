import { p256 } from "@noble/curves/nist.js";
import { Tagged } from "cborg";
import { describe, expect, it } from "vitest";
import { CborFloat } from "../../src/cose/cbor.js";
import { importPublicKeyFromPem, type PublicKeyInfo } from "../../src/cose/keys.js";
import { decodeSign1, sigStructure, verifySign1, type Sign1, type VerifySign1Options } from "../../src/cose/sign1.js";
import type { Result } from "../../src/result.js";
import { cbor, coseSign1, hex, newSigner, toBeSigned, toHex, type TestAlg, type TestSigner } from "../helpers/cose.js";

const signers = { "-8": newSigner(-8), "-7": newSigner(-7), "-35": newSigner(-35) } as const;

function keyOf(signer: TestSigner): PublicKeyInfo {
  const r = importPublicKeyFromPem(signer.publicKey.export({ type: "spki", format: "pem" }) as string);
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

function decoded(bytes: Uint8Array): Sign1 {
  const r = decodeSign1(bytes);
  if (!r.ok) throw new Error(`${r.code}: ${r.detail}`);
  return r.value;
}

function codeOf<T>(r: Result<T>): string {
  return r.ok ? "ok" : r.code;
}

const payload = new TextEncoder().encode("payload bytes");

/** A message signed by `alg`'s test signer; `protectedMap` defaults to {1: alg}. */
function message(
  alg: TestAlg,
  extra: Partial<Parameters<typeof coseSign1>[0]> & { protectedMap?: Map<unknown, unknown> } = {},
) {
  const protectedBytes = extra.protectedBytes ?? cbor(extra.protectedMap ?? new Map([[1, alg]]));
  return coseSign1({ payload, signer: signers[alg], ...extra, protectedBytes });
}

function verifyCode(bytes: Uint8Array, key: PublicKeyInfo, options?: VerifySign1Options): string {
  return codeOf(verifySign1(decoded(bytes), key, options));
}

describe("decodeSign1", () => {
  it("keeps the protected bytes exactly as received and decodes both headers", () => {
    const protectedBytes = hex("a2012704420102"); // {1: -8, 4: h'0102'}
    const msg = decoded(
      coseSign1({ protectedBytes, unprotected: new Map([[7, "x"]]), payload, signer: signers["-8"] }),
    );
    expect(toHex(msg.protectedBytes)).toBe("a2012704420102");
    expect(msg.protectedHeader.get(1)).toBe(-8);
    expect(msg.protectedHeader.get(4)).toEqual(new Uint8Array([1, 2]));
    expect(msg.unprotectedHeader.get(7)).toBe("x");
    expect(msg.payload).toEqual(payload);
    expect(msg.signature.length).toBe(64);
  });

  it("reads an empty protected bstr as the empty map and nil as a detached payload", () => {
    const msg = decoded(coseSign1({ protectedBytes: new Uint8Array(0), payload: null, signer: signers["-8"] }));
    expect(msg.protectedHeader.size).toBe(0);
    expect(msg.payload).toBeNull();
  });

  it.each([
    ["untagged 4-array", cbor([new Uint8Array(0), new Map(), null, new Uint8Array(0)]), "COSE_UNTAGGED"],
    [
      "COSE_Mac0 tag (17)",
      cbor(new Tagged(17, [new Uint8Array(0), new Map(), null, new Uint8Array(0)])),
      "CBOR_TAG_UNSUPPORTED",
    ],
    ["COSE_Sign tag (98)", cbor(new Tagged(98, [new Uint8Array(0), new Map(), null, []])), "CBOR_TAG_UNSUPPORTED"],
    ["3-element array", cbor(new Tagged(18, [new Uint8Array(0), new Map(), null])), "COSE_STRUCTURE_INVALID"],
    ["tagged map", cbor(new Tagged(18, new Map())), "COSE_STRUCTURE_INVALID"],
    [
      "protected as a map",
      cbor(new Tagged(18, [new Map([[1, -8]]), new Map(), null, new Uint8Array(0)])),
      "COSE_STRUCTURE_INVALID",
    ],
    [
      "unprotected as an array",
      cbor(new Tagged(18, [new Uint8Array(0), [], null, new Uint8Array(0)])),
      "COSE_STRUCTURE_INVALID",
    ],
    [
      "payload as an integer",
      cbor(new Tagged(18, [new Uint8Array(0), new Map(), 0, new Uint8Array(0)])),
      "COSE_STRUCTURE_INVALID",
    ],
    ["signature as text", cbor(new Tagged(18, [new Uint8Array(0), new Map(), null, "sig"])), "COSE_STRUCTURE_INVALID"],
    [
      "protected content an array",
      cbor(new Tagged(18, [cbor([1]), new Map(), null, new Uint8Array(0)])),
      "COSE_STRUCTURE_INVALID",
    ],
    [
      "duplicate key inside the protected bstr",
      cbor(new Tagged(18, [hex("a201270126"), new Map(), null, new Uint8Array(0)])),
      "CBOR_DUPLICATE_KEY",
    ],
    [
      "trailing bytes inside the protected bstr",
      cbor(new Tagged(18, [hex("a1012700"), new Map(), null, new Uint8Array(0)])),
      "CBOR_TRAILING_BYTES",
    ],
    [
      "non-minimal integer inside the protected bstr",
      cbor(new Tagged(18, [hex("a1013807"), new Map(), null, new Uint8Array(0)])),
      "CBOR_NON_MINIMAL",
    ],
    ["duplicate key in the unprotected map", hex("d28440a2040104024040"), "CBOR_DUPLICATE_KEY"],
    ["indefinite-length outer array", hex("d29f40a0f640ff"), "CBOR_INDEFINITE_LENGTH"],
    ["truncated message", hex("d28440a0f6"), "CBOR_TRUNCATED"],
    ["trailing bytes after the message", hex("d28440a0f64000"), "CBOR_TRAILING_BYTES"],
    [
      "a label in both headers",
      cbor(new Tagged(18, [hex("a10127"), new Map([[1, -8]]), null, new Uint8Array(0)])),
      "COSE_HEADER_DUPLICATE_LABEL",
    ],
  ])("refuses %s", (_name, bytes, code) => {
    expect(codeOf(decodeSign1(bytes))).toBe(code);
  });
});

describe("sigStructure", () => {
  it("matches the 125-byte Producer Envelope Sig_structure of content-binding.md §8.2", () => {
    const protectedHex =
      "a30378236170706c69636174696f6e2f6167656e742d616374696f6e2d63617073756c652d6964045820fa23ec5d3e4082b21d56d5393e7db282072d65b8d1539fb96af6f89206c423b30127";
    const capsuleId = "af5b0a3e981a411e40ce22a81264e54f28702b693a33e71b1db8c47384ee49a9";
    const bytes = sigStructure(hex(protectedHex), new Uint8Array(0), hex(capsuleId));
    expect(bytes.length).toBe(125);
    expect(toHex(bytes)).toBe(`846a5369676e617475726531584c${protectedHex}405820${capsuleId}`);
  });

  it("matches the witness receipt Sig_structure of log-and-receipts.md §5.1", () => {
    const root = "a85f496118b43fff815d1e04d4950d75f289d096806b93a597fd09a9fd4da726";
    const bytes = sigStructure(hex("a219018b010127"), new Uint8Array(0), hex(root));
    expect(toHex(bytes)).toBe(`846a5369676e61747572653147a219018b010127405820${root}`);
  });

  it("agrees with the hand-written RFC 9052 §4.4 encoding, external_aad included", () => {
    const aad = new Uint8Array(300).fill(7);
    expect(sigStructure(hex("a10126"), aad, payload)).toEqual(toBeSigned(hex("a10126"), payload, aad));
  });
});

describe("verifySign1: valid signatures", () => {
  it.each([-8, -7, -35] as const)("verifies alg %i with an attached payload", (alg) => {
    expect(verifySign1(decoded(message(alg)), keyOf(signers[alg]))).toEqual({ ok: true, value: { alg } });
  });

  it("verifies a detached payload supplied by the caller", () => {
    const bytes = message(-8, { payload: null, signedPayload: payload });
    expect(verifyCode(bytes, keyOf(signers["-8"]), { detachedPayload: payload })).toBe("ok");
    expect(verifyCode(bytes, keyOf(signers["-8"]), { detachedPayload: new Uint8Array(3) })).toBe(
      "COSE_SIGNATURE_INVALID",
    );
  });

  it("verifies over protected bytes in non-canonical order (3, 4, 1), never re-encoded", () => {
    const protectedBytes = hex("a303616104410a0127"); // {3: "a", 4: h'0a', 1: -8}
    expect(verifyCode(message(-8, { protectedBytes }), keyOf(signers["-8"]))).toBe("ok");
  });

  it("binds external_aad", () => {
    const externalAad = new Uint8Array([1, 2, 3]);
    const bytes = message(-7, { externalAad });
    expect(verifyCode(bytes, keyOf(signers["-7"]), { externalAad })).toBe("ok");
    expect(verifyCode(bytes, keyOf(signers["-7"]))).toBe("COSE_SIGNATURE_INVALID");
  });
});

describe("verifySign1: refusals", () => {
  const edKey = keyOf(signers["-8"]);

  it("takes alg only from the protected header", () => {
    const bytes = message(-8, { protectedMap: new Map([[3, "text/plain"]]), unprotected: new Map([[1, -8]]) });
    expect(verifyCode(bytes, edKey)).toBe("COSE_ALG_MISSING");
    expect(verifyCode(message(-8, { protectedBytes: new Uint8Array(0) }), edKey)).toBe("COSE_ALG_MISSING");
  });

  it.each([
    ["PS256 (-37)", -37],
    ["a text alg", "EdDSA"],
    ["a boolean", true],
    ["a float -8.0", new CborFloat(-8)],
  ])("refuses alg %s", (_name, alg) => {
    expect(verifyCode(message(-8, { protectedMap: new Map([[1, alg]]) }), edKey)).toBe("COSE_ALG_UNSUPPORTED");
  });

  it("enforces crit", () => {
    const withCrit = (crit: unknown, extra: Array<[unknown, unknown]> = []) =>
      message(-8, { protectedMap: new Map<unknown, unknown>([[1, -8], [2, crit], ...extra]) });
    expect(verifyCode(withCrit([99], [[99, 0]]), edKey)).toBe("COSE_CRIT_UNKNOWN");
    expect(verifyCode(withCrit([99], [[99, 0]]), edKey, { understoodCritLabels: [99] })).toBe("ok");
    expect(verifyCode(withCrit(["x-ext"], [["x-ext", 0]]), edKey, { understoodCritLabels: ["x-ext"] })).toBe("ok");
    expect(verifyCode(withCrit([1]), edKey)).toBe("ok");
    expect(verifyCode(withCrit([5]), edKey, { understoodCritLabels: [5] })).toBe("COSE_CRIT_LABEL_ABSENT");
    expect(verifyCode(withCrit([]), edKey)).toBe("COSE_CRIT_INVALID");
    expect(verifyCode(withCrit(1), edKey)).toBe("COSE_CRIT_INVALID");
    expect(verifyCode(withCrit([new Uint8Array(1)]), edKey)).toBe("COSE_CRIT_INVALID");
    expect(verifyCode(message(-8, { unprotected: new Map([[2, [1]]]) }), edKey)).toBe("COSE_CRIT_INVALID");
  });

  it("requires the key type to match alg", () => {
    expect(verifyCode(message(-7), edKey)).toBe("COSE_KEY_ALG_MISMATCH");
    expect(verifyCode(message(-35), keyOf(signers["-7"]))).toBe("COSE_KEY_ALG_MISMATCH");
    expect(verifyCode(message(-8), keyOf(signers["-35"]))).toBe("COSE_KEY_ALG_MISMATCH");
  });

  it("requires exactly one payload: attached or supplied", () => {
    expect(verifyCode(message(-8, { payload: null }), edKey)).toBe("COSE_PAYLOAD_MISSING");
    expect(verifyCode(message(-8), edKey, { detachedPayload: payload })).toBe("COSE_PAYLOAD_AMBIGUOUS");
  });

  it.each([
    [-8, 63],
    [-7, 63],
    [-7, 65],
    [-7, 70], // a DER-encoded ECDSA signature is not the COSE form
    [-35, 64],
  ] as const)("refuses an alg %i signature of %i bytes", (alg, length) => {
    const bytes = message(alg, { signature: new Uint8Array(length).fill(1) });
    expect(verifyCode(bytes, keyOf(signers[alg]))).toBe("COSE_SIGNATURE_LENGTH");
  });

  it.each([-8, -7, -35] as const)("refuses a tampered alg %i message", (alg) => {
    const good = decoded(message(alg));
    const key = keyOf(signers[alg]);
    const flipped = new Uint8Array(good.signature);
    flipped[5] = (flipped[5] as number) ^ 0x01;
    expect(codeOf(verifySign1({ ...good, signature: flipped }, key))).toBe("COSE_SIGNATURE_INVALID");
    expect(codeOf(verifySign1({ ...good, payload: new Uint8Array([0]) }, key))).toBe("COSE_SIGNATURE_INVALID");
    expect(codeOf(verifySign1({ ...good, signature: new Uint8Array(good.signature.length) }, key))).toBe(
      "COSE_SIGNATURE_INVALID",
    );
    expect(codeOf(verifySign1(good, keyOf(newSigner(alg))))).toBe("COSE_SIGNATURE_INVALID");
  });
});

describe("ES256 differential check against @noble/curves", () => {
  // OpenSSL emits high-S signatures about half the time; noble must be told to accept them.
  const signer = signers["-7"];
  const key = keyOf(signer);
  const jwk = signer.publicKey.export({ format: "jwk" });
  const noblePublic = new Uint8Array([
    4,
    ...Buffer.from(jwk.x as string, "base64url"),
    ...Buffer.from(jwk.y as string, "base64url"),
  ]);
  const protectedBytes = cbor(new Map([[1, -7]]));

  it("agrees on 16 OpenSSL signatures and on a one-bit change of each", () => {
    for (let i = 0; i < 16; i++) {
      const body = new TextEncoder().encode(`statement ${i}`);
      const msg = decoded(coseSign1({ protectedBytes, payload: body, signer }));
      const tbs = toBeSigned(protectedBytes, body);
      expect(p256.verify(msg.signature, tbs, noblePublic, { lowS: false })).toBe(true);
      expect(codeOf(verifySign1(msg, key))).toBe("ok");
      const flipped = new Uint8Array(msg.signature);
      flipped[i * 4] = (flipped[i * 4] as number) ^ 0x80;
      expect(p256.verify(flipped, tbs, noblePublic, { lowS: false })).toBe(false);
      expect(codeOf(verifySign1({ ...msg, signature: flipped }, key))).toBe("COSE_SIGNATURE_INVALID");
    }
  });

  it("verifies signatures made by noble", () => {
    const { secretKey, publicKey } = p256.keygen();
    const nobleKey = importPublicKeyFromPem(spkiPemFromNoble(publicKey));
    if (!nobleKey.ok) throw new Error(nobleKey.detail);
    for (let i = 0; i < 4; i++) {
      const body = new Uint8Array([i]);
      const signature = p256.sign(toBeSigned(protectedBytes, body), secretKey, { lowS: false });
      const msg = decoded(coseSign1({ protectedBytes, payload: body, signer, signature }));
      expect(codeOf(verifySign1(msg, nobleKey.value))).toBe("ok");
    }
  });
});

/** SPKI for a compressed noble P-256 key, via the uncompressed point. */
function spkiPemFromNoble(compressed: Uint8Array): string {
  const point = p256.Point.fromBytes(compressed).toBytes(false);
  const prefix = hex("3059301306072a8648ce3d020106082a8648ce3d030107034200");
  const der = Buffer.concat([prefix, point]).toString("base64");
  return `-----BEGIN PUBLIC KEY-----\n${der.match(/.{1,64}/g)?.join("\n")}\n-----END PUBLIC KEY-----\n`;
}
