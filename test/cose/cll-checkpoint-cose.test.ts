/** CLL checkpoint-conformance-vectors/cose-vectors.json: "every verifier MUST accept" both. */
import { expect, it } from "vitest";
import { decodeStrictCbor, type CborMap } from "../../src/cose/cbor.js";
import { publicKeyFromRawEd25519 } from "../../src/cose/keys.js";
import { decodeSign1, verifySign1 } from "../../src/cose/sign1.js";
import type { JsonValue } from "../../src/json/value.js";
import { describeExternal } from "../helpers/external.js";
import { at, atString, hex, toHex, vectorJson } from "../helpers/cose.js";

describeExternal("cll", "CLL COSE checkpoint vectors", () => {
  const cases = at(vectorJson("cll", "checkpoint-cose-vectors.json"), "cases") as JsonValue[];

  it("has two cases", () => {
    expect(cases.length).toBe(2);
  });

  it.each(cases.map((c) => [atString(c, "name"), c] as const))(
    "%s verifies under its kid, over claims_hex",
    (_name, c) => {
      const msg = decodeSign1(hex(atString(c, "cose_hex")));
      if (!msg.ok) throw new Error(`${msg.code}: ${msg.detail}`);
      const header = msg.value.protectedHeader;
      expect(header.get(3)).toBe("application/cll-checkpoint+cbor");
      const kid = header.get(4) as Uint8Array;
      expect(toHex(kid)).toBe("ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c");
      const key = publicKeyFromRawEd25519(kid);
      if (!key.ok) throw new Error(key.detail);
      expect(verifySign1(msg.value, key.value)).toEqual({ ok: true, value: { alg: -8 } });

      const payload = msg.value.payload as Uint8Array;
      expect(toHex(payload)).toBe(atString(c, "claims_hex"));
      const claims = decodeStrictCbor(payload);
      expect(claims.ok && claims.value).toBeInstanceOf(Map);
      const claimsMap = (claims.ok ? claims.value : new Map()) as CborMap;
      expect(claimsMap.get("kind")).toBe("cll-checkpoint");
      const cwt = header.get(15) as CborMap;
      expect(cwt.get(2)).toBe(`${String(cwt.get(1))}#${String(claimsMap.get("log_size"))}`);

      const tampered = new Uint8Array(payload);
      tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 0x01;
      expect(verifySign1({ ...msg.value, payload: tampered }, key.value)).toMatchObject({
        ok: false,
        code: "COSE_SIGNATURE_INVALID",
      });
    },
  );
});
