/**
 * Which 32-byte strings are admissible Ed25519 public keys (and R values): a canonical encoding
 * (y < p, no sign bit on x = 0) of a point that is not of small order. OpenSSL (node:crypto)
 * accepts the small-order points as keys, and under the identity point the signature
 * R = identity, S = 0 verifies for every message (under the other torsion points, for a share of
 * messages): such a "key" proves that no one signed anything. The lists follow PEAC's Ed25519
 * profile (internal/ed25519-admissibility.ts; ed25519-speccheck cases 0, 1, 2 and 11).
 */
import { hexToBytes } from "../util/bytes.js";

export type PointRejection =
  "encoded_y_out_of_range" | "invalid_x_zero_sign" | "torsion_point" | "peac_mixed_order_profile";

const le = (hex: string): Uint8Array => hexToBytes(hex) as Uint8Array;

/** p = 2^255 − 19 and the group order L, little-endian. */
const FIELD_PRIME = le("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
const GROUP_ORDER = le("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010");
const Y_ONE = le("0100000000000000000000000000000000000000000000000000000000000000");
const Y_P_MINUS_ONE = le("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");

/** The eight torsion points' canonical encodings (orders 1, 2, 4, 4, 8, 8, 8, 8). */
const TORSION = [
  "0100000000000000000000000000000000000000000000000000000000000000",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "0000000000000000000000000000000000000000000000000000000000000000",
  "0000000000000000000000000000000000000000000000000000000000000080",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
];
/** Two mixed-order encodings PEAC's profile rejects as well. */
const MIXED_ORDER = [
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac0305",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac0385",
];

/** a ≥ b for 32-byte little-endian numbers, the top bit of a masked when `maskSign`. */
function geLittleEndian(a: Uint8Array, b: Uint8Array, maskSign: boolean): boolean {
  for (let i = 31; i >= 0; i--) {
    const x = i === 31 && maskSign ? (a[i] as number) & 0x7f : (a[i] as number);
    if (x !== b[i]) return x > (b[i] as number);
  }
  return true;
}

function yEquals(enc: Uint8Array, target: Uint8Array): boolean {
  for (let i = 0; i < 31; i++) if (enc[i] !== target[i]) return false;
  return ((enc[31] as number) & 0x7f) === target[31];
}

/** Why PEAC refuses a 32-byte point encoding, or null when it is admissible. */
export function pointRejection(enc: Uint8Array): PointRejection | null {
  if (geLittleEndian(enc, FIELD_PRIME, true)) return "encoded_y_out_of_range";
  if (((enc[31] as number) & 0x80) !== 0 && (yEquals(enc, Y_ONE) || yEquals(enc, Y_P_MINUS_ONE)))
    return "invalid_x_zero_sign";
  const hex = Buffer.from(enc.buffer, enc.byteOffset, enc.byteLength).toString("hex");
  if (TORSION.includes(hex)) return "torsion_point";
  if (MIXED_ORDER.includes(hex)) return "peac_mixed_order_profile";
  return null;
}

/** Whether a 32-byte little-endian signature scalar S is reduced (S < L, RFC 8032 §5.1.7). */
export function isReducedScalar(s: Uint8Array): boolean {
  return s.length === 32 && !geLittleEndian(s, GROUP_ORDER, false);
}
