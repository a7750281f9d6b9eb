/**
 * PEAC's published corpora, read in place: the I-JSON gate, the Ed25519 profile, JOSE header
 * hardening, the carrier schema fixtures and the A2A size boundary, each with PEAC's own verdict.
 */
import { describe, expect, it } from "vitest";
import { describeExternal, readExternalText, listExternal } from "../helpers/external.js";
import { parseIJson } from "../../src/peac/ijson.js";
import { pointRejection, verifyPeacEd25519 } from "../../src/peac/ed25519.js";
import { decodeCompactJws } from "../../src/peac/jws.js";
import { readCarrier, computeReceiptRef } from "../../src/peac/carrier.js";
import { base64urlDecodeStrict } from "../../src/peac/base64url.js";
import { fromPlain } from "../../src/json/value.js";
import { hexToBytes } from "../../src/util/bytes.js";
import { createPublicKey, verify } from "node:crypto";

const PC = ["peac", "specs", "conformance", "parity-corpus"];
const F = ["peac", "specs", "conformance", "fixtures"];
/** The members of PEAC's vector files these tests read; the files are PEAC's, read as published. */
interface IJsonVector {
  id: string;
  input_b64: string;
  expected: { accepted: boolean; code?: string };
}
interface Ed25519Vector {
  id: string;
  message_hex: string;
  public_key_hex: string;
  signature_hex: string;
  peac_expected: { accepted: boolean };
}
interface JoseVector {
  id: string;
  input: { header: unknown; payload: unknown };
  expected: { accepted: boolean; errors: { code: string }[] };
}
interface CarrierFixture {
  carrier: unknown;
  meta: { max_size: number };
  expected_valid: boolean;
  expected_violation?: string;
}
interface BoundaryFixture {
  name: string;
  input: { transport: string; jws_byte_length: number };
  expected: { valid: boolean; encoded_byte_length?: number };
}

const json = <T>(...p: string[]): T => JSON.parse(readExternalText(...p)) as T;
const rows = <V extends { id: string }>(vectors: V[]): Array<[string, V]> => vectors.map((v) => [v.id, v]);
const hex = (h: string): Uint8Array => hexToBytes(h) as Uint8Array;
const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v), "utf8").toString("base64url");

describeExternal("peac", "PEAC I-JSON raw-input corpus (RFC 7493 gate)", () => {
  const { vectors } = json<{ vectors: IJsonVector[] }>(...PC, "ijson-raw-input", "vectors.json");
  it("has the published 20 accept and 27 reject vectors", () => {
    expect(vectors.filter((v) => v.expected.accepted).length).toBe(20);
    expect(vectors.filter((v) => !v.expected.accepted).length).toBe(27);
  });
  it.each(rows(vectors))("%s", (_id, v) => {
    const r = parseIJson(new Uint8Array(Buffer.from(v.input_b64, "base64url")));
    expect(r.ok ? { accepted: true } : { accepted: false, code: r.code }).toEqual(v.expected);
  });
});

describeExternal("peac", "PEAC Ed25519 profile corpus", () => {
  const { vectors } = json<{ vectors: Ed25519Vector[] }>(...PC, "ed25519-peac-profile", "vectors.json");
  it.each(rows(vectors))("%s", (_id, v) => {
    const r = verifyPeacEd25519(hex(v.public_key_hex), hex(v.message_hex), hex(v.signature_hex));
    expect(r.valid).toBe(v.peac_expected.accepted);
  });
  it("rejects the four that node:crypto alone accepts (speccheck 0, 1, 2, 11)", () => {
    const byId = new Map(rows(vectors));
    for (const id of ["speccheck-0", "speccheck-1", "speccheck-2", "speccheck-11"]) {
      const v = byId.get(id) as Ed25519Vector;
      // OpenSSL itself, not ed25519KeyFromRaw, which refuses small-order and non-canonical keys.
      const key = createPublicKey({
        key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(hex(v.public_key_hex)).toString("base64url") },
        format: "jwk",
      });
      const openssl = verify(null, hex(v.message_hex), key, hex(v.signature_hex));
      expect([
        id,
        openssl,
        verifyPeacEd25519(hex(v.public_key_hex), hex(v.message_hex), hex(v.signature_hex)).valid,
      ]).toEqual([id, true, false]);
    }
  });
  it("rejects speccheck-2 for its small-order R; its mixed-order A is not in PEAC's finite table", () => {
    const v = vectors.find((x) => x.id === "speccheck-2") as Ed25519Vector;
    expect(pointRejection(hex(v.signature_hex.slice(0, 64)))).toBe("torsion_point");
    expect(pointRejection(hex(v.public_key_hex))).toBe(null);
  });
  it("rejects PEAC's two tabled mixed-order encodings, a non-canonical y and the x=0 sign bit", () => {
    expect(
      pointRejection(hexToBytes("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac0305") as Uint8Array),
    ).toBe("peac_mixed_order_profile");
    expect(
      pointRejection(hexToBytes("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f") as Uint8Array),
    ).toBe("encoded_y_out_of_range");
    expect(
      pointRejection(hexToBytes("0100000000000000000000000000000000000000000000000000000000000080") as Uint8Array),
    ).toBe("invalid_x_zero_sign");
  });
});

describeExternal("peac", "PEAC JOSE hardening corpus", () => {
  const { vectors } = json<{ vectors: JoseVector[] }>(...PC, "jose-hardening", "vectors.json");
  // The corpus uses @peac/crypto's CRYPTO_JWS_* names; verifyLocal reports the same rules as E_JWS_*.
  it.each(rows(vectors))("%s", (_id, v) => {
    const jws = `${b64(v.input.header)}.${b64(v.input.payload)}.${Buffer.alloc(64).toString("base64url")}`;
    const r = decodeCompactJws(jws);
    expect(v.expected.accepted).toBe(false);
    expect(r.ok ? "accepted" : r.code).toBe(v.expected.errors[0]?.code.replace(/^CRYPTO_/, "E_"));
  });
});

describeExternal("peac", "PEAC carrier schema fixtures", () => {
  const files = listExternal(...F, "carrier");
  it("has the published 6 valid and 6 invalid fixtures", () => {
    expect(files.filter((f) => f.startsWith("valid-")).length).toBe(6);
    expect(files.filter((f) => f.startsWith("invalid-")).length).toBe(6);
  });
  it.each(files.map((f) => [f] as const))("%s", (file) => {
    const fx = json<CarrierFixture>(...F, "carrier", file);
    const maxSize = fx.meta.max_size;
    const r = readCarrier(fromPlain(fx.carrier), maxSize);
    if (file === "invalid-oversize.json") {
      // Oversize only against its own meta.max_size (256): the A2A limit is fixed at 65,536 and a
      // meta never changes it, so this is a warning here, with PEAC's wording.
      expect(r.ok && r.warnings.some((w) => w.includes(fx.expected_violation as string))).toBe(true);
      return;
    }
    expect(r.ok).toBe(fx.expected_valid);
    if (!r.ok) {
      expect(r.code).toBe("PEAC_CARRIER_INVALID");
      expect(r.detail).toContain(fx.expected_violation);
    }
  });
  it("every fixture that embeds a JWS pairs it with a receipt_ref that is not its digest", () => {
    const embedded = files
      .map((f) => json<{ carrier: { receipt_ref: string; receipt_jws?: string } }>(...F, "carrier", f).carrier)
      .filter((c) => typeof c.receipt_jws === "string");
    expect(embedded.length).toBe(9);
    for (const c of embedded) expect(computeReceiptRef(c.receipt_jws as string)).not.toBe(c.receipt_ref);
  });
});

describeExternal("peac", "PEAC carrier boundary (A2A: a 65,536-byte JWS fits, 65,537 does not)", () => {
  const { fixtures } = json<{ fixtures: BoundaryFixture[] }>(...F, "carrier-boundary", "conformance.json");
  // The A2A cases, and the note that the measure is bytes (the carrier pattern makes a JWS ASCII).
  const applicable = fixtures.filter((f) => f.input.transport === "a2a" || f.name === "utf8-multibyte-at-boundary");
  const cases: Array<[string, BoundaryFixture]> = applicable.map((f) => [f.name, f]);
  it("applies to the two a2a cases and the byte-measure note", () => {
    expect(applicable.map((f) => f.name)).toEqual([
      "a2a-embed-at-limit",
      "a2a-embed-over-limit",
      "utf8-multibyte-at-boundary",
    ]);
  });
  it.each(cases)("%s", (_n, f) => {
    const n = f.input.jws_byte_length;
    const jws = `${"a".repeat(n - 4)}.b.c`;
    const r = readCarrier(fromPlain({ receipt_ref: computeReceiptRef(jws), receipt_jws: jws }));
    if (f.expected.valid) expect([r.ok, jws.length]).toEqual([true, f.expected.encoded_byte_length]);
    else expect(r.ok ? "ok" : r.code).toBe("PEAC_CARRIER_OVERSIZE");
  });
});

describe("strict base64url", () => {
  it("accepts canonical unpadded base64url only", () => {
    expect(base64urlDecodeStrict("AQID")).toEqual(new Uint8Array([1, 2, 3]));
    expect(base64urlDecodeStrict("AQ")).toEqual(new Uint8Array([1]));
    for (const bad of ["AQ==", "AR", "A", "AQ+", "AQ/", "A Q", "AQID\n"])
      expect([bad, base64urlDecodeStrict(bad)]).toEqual([bad, undefined]);
  });
});
