/**
 * C2SP signed notes (c2sp.org/signed-note@v1.0.0): signature lines, key names, key IDs and
 * verifier keys — the parts a cosignature shares with every other note signature.
 *
 *   signature line  "— " (U+2014 U+0020) ‖ key name ‖ " " ‖ base64(keyID(4) ‖ signature)
 *   key ID          SHA-256(key name ‖ 0x0A ‖ type byte ‖ public key)[0:4]
 *   verifier key    <name>+<8 lowercase hex key ID>+<base64(type byte ‖ public key)>
 *
 * Parsing follows the rules of Go's golang.org/x/mod/sumdb/note (`Open`, `NewVerifier`,
 * `isValidName`), where the design cites them, and is stricter where they are lenient:
 * - the name is everything before the first space; the rest is base64 that must decode to at
 *   least 5 bytes (a key ID and something signed);
 * - a name is non-empty, has no Unicode white space (Go's `unicode.IsSpace`, not JavaScript's
 *   `\s`, which also counts U+FEFF) and no "+"; no control character appears in a line;
 * - base64 is strict standard base64 with padding: one encoding per byte string (Go's
 *   `StdEncoding` accepts non-zero trailing bits, so two lines could carry one signature);
 * - a verifier key is split on its first two "+" only: base64 contains "+" (both published
 *   vectors do), and its key ID must be lowercase hex (Go also accepts upper case).
 */
import { fail, ok, type Result } from "../result.js";
import { base64ToBytesStrict, bytesToHex, sha256, utf8 } from "../util/bytes.js";

/** Ed25519 over the note text (signed-note). */
export const SIGNATURE_TYPE_ED25519 = 0x01;
/** Timestamped Ed25519 checkpoint cosignature (tlog-cosignature, cosignature/v1). */
export const SIGNATURE_TYPE_COSIGNATURE_V1 = 0x04;

const LINE_PREFIX = "\u2014 ";
/** Go's unicode.IsSpace: Latin-1 spaces, NEL, NBSP, and the White_Space property above U+00FF. */
const GO_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
/** C0 controls are never part of a note line (signed-note: no control characters except LF). */
const CONTROL = /[\u0000-\u001f]/u;
const LONE_SURROGATE = /\p{Cs}/u;
const KEY_ID_HEX = /^[0-9a-f]{8}$/;

export interface SignatureLine {
  readonly name: string;
  /** The first 4 bytes of the decoded base64: which key the signer claims. Not signed. */
  readonly keyId: Uint8Array;
  readonly keyIdHex: string;
  /** The bytes after the key ID: what the signature type defines. */
  readonly signature: Uint8Array;
}

export interface VerifierKey {
  readonly name: string;
  readonly keyIdHex: string;
  readonly type: number;
  /** The raw public key (32 bytes for both Ed25519 types). */
  readonly publicKey: Uint8Array;
}

/** A key name as signed-note (and Go's isValidName) allows it. */
export function isValidKeyName(name: string): boolean {
  return (
    name !== "" && !GO_SPACE.test(name) && !name.includes("+") && !CONTROL.test(name) && !LONE_SURROGATE.test(name)
  );
}

/** SHA-256(name ‖ 0x0A ‖ type ‖ publicKey)[0:4]: the same raw key under another type gets another ID. */
export function noteKeyId(name: string, type: number, publicKey: Uint8Array): Uint8Array {
  return sha256(utf8(name), Uint8Array.of(0x0a, type), publicKey).subarray(0, 4);
}

/** One signature line, without its terminating LF. */
export function parseSignatureLine(line: string): Result<SignatureLine> {
  const malformed = (why: string) => fail("NOTE_LINE_MALFORMED", why);
  if (CONTROL.test(line) || LONE_SURROGATE.test(line))
    return malformed("a signature line has no control characters (and no line break)");
  if (!line.startsWith(LINE_PREFIX)) return malformed('a signature line starts with "— " (U+2014, space)');
  const rest = line.slice(LINE_PREFIX.length);
  const space = rest.indexOf(" ");
  if (space < 0) return malformed("no space between the key name and the signature");
  const name = rest.slice(0, space);
  const b64 = rest.slice(space + 1);
  if (!isValidKeyName(name))
    return fail("NOTE_KEY_NAME_INVALID", `key name ${JSON.stringify(name)} is empty or has white space or "+"`);
  const bytes = b64 === "" ? undefined : base64ToBytesStrict(b64);
  if (bytes === undefined)
    return malformed("the signature is not strict standard base64 (padded, canonical, nothing around it)");
  if (bytes.length < 5)
    return malformed(`the signature decodes to ${bytes.length} bytes; a key ID and a signature need at least 5`);
  const keyId = bytes.slice(0, 4);
  return ok({ name, keyId, keyIdHex: bytesToHex(keyId), signature: bytes.slice(4) });
}

/** `<name>+<hex key ID>+<base64(type ‖ key)>`, with the key ID recomputed. */
export function parseVerifierKey(vkey: string): Result<VerifierKey> {
  const first = vkey.indexOf("+");
  const second = first < 0 ? -1 : vkey.indexOf("+", first + 1);
  if (second < 0) return fail("VKEY_MALFORMED", "a verifier key is <name>+<key ID>+<base64 key>");
  const name = vkey.slice(0, first);
  const keyIdHex = vkey.slice(first + 1, second);
  const encoded = base64ToBytesStrict(vkey.slice(second + 1));
  if (!isValidKeyName(name))
    return fail("NOTE_KEY_NAME_INVALID", `key name ${JSON.stringify(name)} is empty or has white space or "+"`);
  if (!KEY_ID_HEX.test(keyIdHex))
    return fail("VKEY_MALFORMED", `key ID ${JSON.stringify(keyIdHex)} is not 8 lowercase hex digits`);
  if (encoded === undefined || encoded.length < 2)
    return fail("VKEY_MALFORMED", "the key is not strict standard base64 of a type byte and a key");
  const type = encoded[0] as number;
  const publicKey = encoded.slice(1);
  const computed = bytesToHex(noteKeyId(name, type, publicKey));
  if (computed !== keyIdHex)
    return fail(
      "VKEY_KEY_ID_MISMATCH",
      `key ID ${keyIdHex} is not ${computed}, the ID of this name, type 0x${hexByte(type)} and key`,
    );
  if (type !== SIGNATURE_TYPE_ED25519 && type !== SIGNATURE_TYPE_COSIGNATURE_V1) {
    return fail(
      "VKEY_TYPE_UNSUPPORTED",
      `signature type 0x${hexByte(type)}: only Ed25519 (0x01) and cosignature/v1 (0x04) are implemented`,
    );
  }
  if (publicKey.length !== 32)
    return fail("VKEY_MALFORMED", `an Ed25519 key is 32 bytes, this one ${publicKey.length}`);
  return ok({ name, keyIdHex, type, publicKey });
}

function hexByte(n: number): string {
  return n.toString(16).padStart(2, "0");
}
