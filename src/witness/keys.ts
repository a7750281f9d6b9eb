/**
 * A witness key as the trust file pins it: a cosignature/v1 verifier key
 * (`<name>+<key ID>+base64(0x04 ‖ key)`), or a raw 64-hex Ed25519 key whose key ID is computed
 * from the witness's name. A type-0x01 verifier key is refused rather than converted: it names
 * the same raw key under another key ID, which would silently match no cosignature line.
 */
import type { KeyObject } from "node:crypto";
import { ed25519KeyFromRaw } from "../crypto/ed25519.js";
import { fail, ok, type Result } from "../result.js";
import { bytesToHex, hexToBytes, isHex64 } from "../util/bytes.js";
import { SIGNATURE_TYPE_COSIGNATURE_V1, noteKeyId, parseVerifierKey } from "./note.js";

export interface WitnessKey {
  /** The note key name the cosignature lines carry. */
  readonly name: string;
  /** SHA-256(name ‖ LF ‖ 0x04 ‖ key)[0:4], hex. */
  readonly keyIdHex: string;
  /** The raw Ed25519 key, hex: comparable with producer, service, capsule and checkpoint keys. */
  readonly publicKeyHex: string;
  readonly key: KeyObject;
}

export function importWitnessKey(spec: string, name: string): Result<WitnessKey> {
  let raw: Uint8Array;
  if (isHex64(spec)) {
    raw = hexToBytes(spec) as Uint8Array;
  } else {
    const vkey = parseVerifierKey(spec);
    if (!vkey.ok) return vkey;
    if (vkey.value.type !== SIGNATURE_TYPE_COSIGNATURE_V1) {
      return fail(
        "VKEY_TYPE_UNSUPPORTED",
        "a note-signing (type 0x01) verifier key: a witness cosigns with type 0x04, whose key ID differs",
      );
    }
    if (vkey.value.name !== name)
      return fail(
        "VKEY_MALFORMED",
        `the verifier key names ${JSON.stringify(vkey.value.name)}, the witness is ${JSON.stringify(name)}`,
      );
    raw = vkey.value.publicKey;
  }
  const key = ed25519KeyFromRaw(raw);
  if (key === undefined) return fail("VKEY_MALFORMED", "not an Ed25519 public key");
  return ok({
    name,
    keyIdHex: bytesToHex(noteKeyId(name, SIGNATURE_TYPE_COSIGNATURE_V1, raw)),
    publicKeyHex: bytesToHex(raw),
    key,
  });
}
