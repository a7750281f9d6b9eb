import { describe, expect, it } from "vitest";
import { ENVELOPE_FINDING_CODES, verifyProducerEnvelope } from "../../src/aac/producer-envelope.js";
import { CborFloat } from "../../src/cose/cbor.js";
import type { JsonValue } from "../../src/json/value.js";
import type { Result } from "../../src/result.js";
import { describeExternal, listExternal, readExternal, readExternalText } from "../helpers/external.js";
import { at, atString, cbor, coseSign1, hex, newSigner, vectorJson } from "../helpers/cose.js";

const CONTENT_TYPE = "application/agent-action-capsule-id";

function codeOf<T>(r: Result<T>): string {
  return r.ok ? "ok" : r.code;
}

describeExternal("aac/producer-envelope", "AAC producer-envelope vectors", () => {
  const index = vectorJson("aac", "producer-envelope", "vectors.json");
  const names = (at(index, "cases") as JsonValue[]).map((c) => atString(c, "name"));

  it("has the 8 cases its index lists, each as a folder", () => {
    expect(names.length).toBe(8);
    const folders = listExternal("aac", "producer-envelope").filter((f) => !f.includes(".") && f !== "SHA256SUMS");
    expect(folders.sort()).toEqual([...names].sort());
  });

  it.each(names)("%s: the first finding code and the authenticated key", (name) => {
    const capsuleIdText = readExternalText("aac", "producer-envelope", name, "capsule_id.txt");
    expect(capsuleIdText.endsWith("\n")).toBe(true);
    const capsuleId = capsuleIdText.slice(0, -1);
    const expected = vectorJson("aac", "producer-envelope", name, "expected.json");
    const r = verifyProducerEnvelope(readExternal("aac", "producer-envelope", name, "envelope.cose"), capsuleId);
    expect(r.ok).toBe(at(expected, "ok"));
    const findings = at(expected, "finding_codes") as JsonValue[];
    if (r.ok) {
      expect(findings).toEqual([]);
      expect(r.value.publicKeyHex).toBe(atString(expected, "public_key_hex"));
    } else {
      expect(ENVELOPE_FINDING_CODES[r.code as keyof typeof ENVELOPE_FINDING_CODES]).toBe(findings[0]);
      expect(at(expected, "public_key_hex")).toBeNull();
    }
  });

  it("refuses the valid envelope's capsule_id with its trailing newline kept", () => {
    const capsuleIdText = readExternalText("aac", "producer-envelope", "valid", "capsule_id.txt");
    const r = verifyProducerEnvelope(readExternal("aac", "producer-envelope", "valid", "envelope.cose"), capsuleIdText);
    expect(codeOf(r)).toBe("ENVELOPE_CAPSULE_ID_MALFORMED");
  });
});

describeExternal("a2a-reference", "the A2A reference vector's producer envelope", () => {
  const capsule = at(vectorJson("a2a-reference", "positive_vector.json"), "evidenceBundle", "capsule");
  const envelope = hex(atString(capsule, "signature"));
  const capsuleId = atString(capsule, "capsule_id");

  it("verifies for capsule_id af5b0a3e… under kid fa23ec5d… (protected order 3, 4, 1)", () => {
    expect(capsuleId).toBe("af5b0a3e981a411e40ce22a81264e54f28702b693a33e71b1db8c47384ee49a9");
    expect(envelope.length).toBe(181);
    const r = verifyProducerEnvelope(envelope, capsuleId);
    expect(r).toEqual({
      ok: true,
      value: { publicKeyHex: "fa23ec5d3e4082b21d56d5393e7db282072d65b8d1539fb96af6f89206c423b3" },
    });
    expect(atString(capsule, "key_id")).toBe("fa23ec5d3e4082b21d56d5393e7db282072d65b8d1539fb96af6f89206c423b3");
  });

  it("fails when any one byte of the signature is flipped", () => {
    for (let i = envelope.length - 64; i < envelope.length; i++) {
      const tampered = new Uint8Array(envelope);
      tampered[i] = (tampered[i] as number) ^ 0xff;
      expect([i, codeOf(verifyProducerEnvelope(tampered, capsuleId))]).toEqual([i, "ENVELOPE_SIGNATURE_INVALID"]);
    }
  });

  it("fails when any one byte anywhere in the envelope is flipped", () => {
    for (let i = 0; i < envelope.length; i++) {
      const tampered = new Uint8Array(envelope);
      tampered[i] = (tampered[i] as number) ^ 0x01;
      expect([i, verifyProducerEnvelope(tampered, capsuleId).ok]).toEqual([i, false]);
    }
  });
});

describe("verifyProducerEnvelope: every check, in the §8.3 order", () => {
  const signer = newSigner(-8);
  const kid = new Uint8Array((signer.publicKey.export({ format: "der", type: "spki" }) as Buffer).subarray(12));
  const capsuleId = "2a".repeat(32);
  const payload = hex(capsuleId);
  const headers = (entries: Array<[unknown, unknown]>) => cbor(new Map(entries));
  const standard: Array<[unknown, unknown]> = [
    [1, -8],
    [3, CONTENT_TYPE],
    [4, kid],
  ];
  const build = (over: Partial<Parameters<typeof coseSign1>[0]> = {}) =>
    coseSign1({ protectedBytes: headers(standard), payload, signer, ...over });

  it("accepts a well-formed envelope (canonical order 1, 3, 4)", () => {
    expect(codeOf(verifyProducerEnvelope(build(), capsuleId))).toBe("ok");
  });

  it.each([
    ["uppercase hex", capsuleId.toUpperCase()],
    ["63 characters", capsuleId.slice(1)],
    ["a trailing newline", `${capsuleId}\n`],
  ])("step 0: refuses a capsule_id with %s", (_name, id) => {
    expect(codeOf(verifyProducerEnvelope(build(), id))).toBe("ENVELOPE_CAPSULE_ID_MALFORMED");
  });

  it("step 0: refuses an envelope over 4096 bytes, before decoding it", () => {
    expect(codeOf(verifyProducerEnvelope(new Uint8Array(4097), capsuleId))).toBe("ENVELOPE_TOO_LARGE");
  });

  it.each([
    ["bytes that are not CBOR", new Uint8Array([0xff, 0x00])],
    ["an untagged message", cbor([headers(standard), new Map(), payload, new Uint8Array(64)])],
    [
      "a duplicate label inside the protected bstr",
      coseSign1({ protectedBytes: hex("a301270127036161"), payload, signer }),
    ],
    ["an empty protected bstr", build({ protectedBytes: new Uint8Array(0) })],
    ["a text label in the protected header", build({ protectedBytes: headers([...standard, ["x", 1]]) })],
    ["a non-empty unprotected header", build({ unprotected: new Map([[9, true]]) })],
    ["a detached payload", build({ payload: null, signedPayload: payload })],
  ])("step 1: %s is malformed", (_name, bytes) => {
    expect(codeOf(verifyProducerEnvelope(bytes, capsuleId))).toBe("ENVELOPE_MALFORMED");
  });

  it.each([
    ["ES256 (-7)", -7],
    ["a float -8.0", new CborFloat(-8)],
    ['the text "-8"', "-8"],
    ["absent", undefined],
  ])("step 2: alg %s is an algorithm mismatch", (_name, alg) => {
    const entries = standard.filter(([label]) => label !== 1);
    const protectedBytes = headers(alg === undefined ? entries : [[1, alg], ...entries]);
    expect(codeOf(verifyProducerEnvelope(build({ protectedBytes }), capsuleId))).toBe("ENVELOPE_ALGORITHM_MISMATCH");
  });

  it("step 2 precedes step 3: wrong alg and wrong content type report the alg", () => {
    const protectedBytes = headers([
      [1, -7],
      [3, "text/plain"],
      [4, kid],
    ]);
    expect(codeOf(verifyProducerEnvelope(build({ protectedBytes }), capsuleId))).toBe("ENVELOPE_ALGORITHM_MISMATCH");
  });

  it.each([
    ["another media type", "application/octet-stream"],
    ["a bstr", new TextEncoder().encode(CONTENT_TYPE)],
    ["a CoAP content-format integer", 0],
  ])("step 3: content type as %s is a mismatch", (_name, contentType) => {
    const protectedBytes = headers([
      [1, -8],
      [3, contentType],
      [4, kid],
    ]);
    expect(codeOf(verifyProducerEnvelope(build({ protectedBytes }), capsuleId))).toBe("ENVELOPE_CONTENT_TYPE_MISMATCH");
  });

  it.each([
    ["31 bytes", kid.subarray(1)],
    ["33 bytes", new Uint8Array([...kid, 0])],
    ["hex text", Buffer.from(kid).toString("hex")],
  ])("step 4: a kid of %s is invalid", (_name, badKid) => {
    const protectedBytes = headers([
      [1, -8],
      [3, CONTENT_TYPE],
      [4, badKid],
    ]);
    expect(codeOf(verifyProducerEnvelope(build({ protectedBytes }), capsuleId))).toBe("ENVELOPE_KID_INVALID");
  });

  it("step 5: an extra integer label makes the protected headers invalid", () => {
    const protectedBytes = headers([...standard, [99, "extra"]]);
    expect(codeOf(verifyProducerEnvelope(build({ protectedBytes }), capsuleId))).toBe(
      "ENVELOPE_PROTECTED_HEADERS_INVALID",
    );
  });

  it("step 6: the payload must be the raw capsule_id, not its hex text", () => {
    const asText = build({ payload: new TextEncoder().encode(capsuleId) });
    expect(codeOf(verifyProducerEnvelope(asText, capsuleId))).toBe("ENVELOPE_PAYLOAD_MISMATCH");
    expect(codeOf(verifyProducerEnvelope(build(), "21".repeat(32)))).toBe("ENVELOPE_PAYLOAD_MISMATCH");
  });

  it("step 7: a signature that is not 64 bytes is invalid", () => {
    expect(codeOf(verifyProducerEnvelope(build({ signature: new Uint8Array(63) }), capsuleId))).toBe(
      "ENVELOPE_SIGNATURE_INVALID",
    );
  });

  it("step 8: a signature by another key is invalid", () => {
    const other = newSigner(-8);
    expect(codeOf(verifyProducerEnvelope(build({ signer: other }), capsuleId))).toBe("ENVELOPE_SIGNATURE_INVALID");
  });
});
