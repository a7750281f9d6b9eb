/**
 * Unpadded base64url (RFC 7515 §2, RFC 4648 §5), decoded strictly. PEAC's own decoder maps unknown
 * characters to zero and ignores non-zero trailing bits, so one signature has many encodings
 * there; here a segment must be exactly what re-encoding its bytes gives (one encoding per byte
 * string), which refuses padding, stray characters and non-canonical trailing bits.
 */
const ALPHABET = /^[A-Za-z0-9_-]*$/;

export function base64urlDecodeStrict(segment: string): Uint8Array | undefined {
  if (!ALPHABET.test(segment) || segment.length % 4 === 1) return undefined;
  const bytes = Buffer.from(segment, "base64url");
  if (bytes.toString("base64url") !== segment) return undefined;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
