/**
 * Test-side producers for COSE material: keys, signatures and COSE_Sign1 messages built with
 * node:crypto signing and a hand-written Sig_structure, independent of the verifier's own
 * `sigStructure`, plus a plain reader for strictly parsed vector JSON.
 */
import { encode, Tagged } from "cborg";
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { isJsonObject, JsonNumber, member, type JsonValue } from "../../src/json/value.js";
import { readExternal } from "./external.js";

export function hex(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, "hex"));
}

export function toHex(b: Uint8Array): string {
  return Buffer.from(b).toString("hex");
}

/** cborg's encoder, for building inputs (maps are emitted with sorted keys). */
export function cbor(value: unknown): Uint8Array {
  return encode(value);
}

export type TestAlg = -8 | -7 | -35;

export interface TestSigner {
  readonly alg: TestAlg;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

export function newSigner(alg: TestAlg): TestSigner {
  const pair =
    alg === -8
      ? generateKeyPairSync("ed25519")
      : generateKeyPairSync("ec", { namedCurve: alg === -7 ? "P-256" : "P-384" });
  return { alg, ...pair };
}

export function signRaw(signer: TestSigner, message: Uint8Array): Uint8Array {
  if (signer.alg === -8) return new Uint8Array(sign(null, message, signer.privateKey));
  const hash = signer.alg === -7 ? "sha256" : "sha384";
  return new Uint8Array(sign(hash, message, { key: signer.privateKey, dsaEncoding: "ieee-p1363" }));
}

/** A definite-length bstr head and body, written out by hand (RFC 8949 §3.1). */
function bstr(body: Uint8Array): Buffer {
  const n = body.length;
  const head =
    n < 24
      ? [0x40 | n]
      : n < 0x100
        ? [0x58, n]
        : n < 0x10000
          ? [0x59, n >> 8, n & 0xff]
          : [0x5a, n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  return Buffer.concat([Buffer.from(head), body]);
}

/** RFC 9052 §4.4: ["Signature1", protected, external_aad, payload], by hand. */
export function toBeSigned(
  protectedBytes: Uint8Array,
  payload: Uint8Array,
  externalAad: Uint8Array = new Uint8Array(0),
): Uint8Array {
  const context = Buffer.from("6a5369676e617475726531", "hex"); // tstr(10) "Signature1"
  return new Uint8Array(
    Buffer.concat([Buffer.from([0x84]), context, bstr(protectedBytes), bstr(externalAad), bstr(payload)]),
  );
}

export interface Sign1Parts {
  readonly protectedBytes: Uint8Array;
  readonly unprotected?: Map<unknown, unknown>;
  /** Attached payload, or null for detached. */
  readonly payload: Uint8Array | null;
  readonly signer: TestSigner;
  /** The payload the signature covers when `payload` is null. */
  readonly signedPayload?: Uint8Array;
  readonly externalAad?: Uint8Array;
  /** Replaces the computed signature (wrong lengths, garbage). */
  readonly signature?: Uint8Array;
}

export function coseSign1(parts: Sign1Parts): Uint8Array {
  const signedPayload = parts.payload ?? parts.signedPayload ?? new Uint8Array(0);
  const signature =
    parts.signature ?? signRaw(parts.signer, toBeSigned(parts.protectedBytes, signedPayload, parts.externalAad));
  return encode(new Tagged(18, [parts.protectedBytes, parts.unprotected ?? new Map(), parts.payload, signature]));
}

/** A published JSON vector, parsed strictly. */
export function vectorJson(...parts: string[]): JsonValue {
  const parsed = parseStrictJson(readExternal(...parts));
  if (!parsed.ok) throw new Error(`${parts.join("/")}: ${parsed.code} ${parsed.detail}`);
  return parsed.value;
}

/** Walks object members and array indices; throws when the vector lacks the documented shape. */
export function at(v: JsonValue, ...steps: Array<string | number>): JsonValue {
  let cur: JsonValue | undefined = v;
  for (const step of steps) {
    cur =
      typeof step === "number"
        ? Array.isArray(cur)
          ? cur[step]
          : undefined
        : isJsonObject(cur)
          ? member(cur, step)
          : undefined;
    if (cur === undefined) throw new Error(`vector lacks ${steps.join(".")}`);
  }
  return cur as JsonValue;
}

export function atString(v: JsonValue, ...steps: Array<string | number>): string {
  const s = at(v, ...steps);
  if (typeof s !== "string") throw new Error(`${steps.join(".")} is not a string`);
  return s;
}

/** An integer, or null when the vector says null. */
export function atIntOrNull(v: JsonValue, ...steps: Array<string | number>): number | null {
  const n = at(v, ...steps);
  if (n === null) return null;
  if (!(n instanceof JsonNumber) || !n.isIntegerLexeme) throw new Error(`${steps.join(".")} is not an integer`);
  return n.toNumber();
}
