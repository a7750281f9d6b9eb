/**
 * Deterministic ECDSA over P-256 with SHA-256 (RFC 6979 §3.2 nonces), for ES256 receipts.
 *
 * node:crypto draws a random nonce for ECDSA, which would make every generated vector differ from
 * the committed one. RFC 6979 derives the nonce from the key and the message instead, so the
 * signature is a pure function of both and the vectors stay byte-reproducible. The arithmetic is
 * plain BigInt and not constant-time: this signs test vectors with published seeds, never a
 * secret key.
 */
import { createHmac, createPublicKey } from "node:crypto";
import { sha256 } from "../src/util/bytes.js";
import { ProducerError } from "./errors.js";

// FIPS 186-4 D.1.2.3 (P-256) domain parameters; a = −3.
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const GX = 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n;
const GY = 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n;

type Affine = { x: bigint; y: bigint } | null; // null is the point at infinity
const G: Affine = { x: GX, y: GY };

const mod = (a: bigint, m: bigint): bigint => ((a % m) + m) % m;

function invert(a: bigint, m: bigint): bigint {
  // Fermat: m is prime for both the field and the group order.
  return power(mod(a, m), m - 2n, m);
}

function power(base: bigint, exp: bigint, m: bigint): bigint {
  let result = 1n;
  let b = base;
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
  }
  return result;
}

function add(p1: Affine, p2: Affine): Affine {
  if (p1 === null) return p2;
  if (p2 === null) return p1;
  if (p1.x === p2.x) {
    if (mod(p1.y + p2.y, P) === 0n) return null;
    return double(p1);
  }
  const lambda = mod((p2.y - p1.y) * invert(p2.x - p1.x, P), P);
  const x = mod(lambda * lambda - p1.x - p2.x, P);
  return { x, y: mod(lambda * (p1.x - x) - p1.y, P) };
}

function double(p1: Affine): Affine {
  if (p1 === null || p1.y === 0n) return null;
  const lambda = mod((3n * p1.x * p1.x - 3n) * invert(2n * p1.y, P), P);
  const x = mod(lambda * lambda - 2n * p1.x, P);
  return { x, y: mod(lambda * (p1.x - x) - p1.y, P) };
}

function multiply(k: bigint, point: Affine): Affine {
  let result: Affine = null;
  let addend = point;
  for (let e = k; e > 0n; e >>= 1n) {
    if (e & 1n) result = add(result, addend);
    addend = double(addend);
  }
  return result;
}

const toBigInt = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt("0x" + Buffer.from(b).toString("hex")));

function int32(x: bigint): Uint8Array {
  return Uint8Array.from(Buffer.from(x.toString(16).padStart(64, "0"), "hex"));
}

function hmac(key: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  const h = createHmac("sha256", key);
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

/** RFC 6979 §3.2 for qlen = hlen = 256: the candidate nonces, in order, for key d and digest h1. */
function* nonces(d: bigint, h1: Uint8Array): Generator<bigint> {
  const x = int32(d);
  const h = int32(mod(toBigInt(h1), N)); // bits2octets
  let v: Uint8Array = new Uint8Array(32).fill(0x01);
  let k: Uint8Array = new Uint8Array(32);
  k = hmac(k, v, Uint8Array.of(0x00), x, h);
  v = hmac(k, v);
  k = hmac(k, v, Uint8Array.of(0x01), x, h);
  v = hmac(k, v);
  for (;;) {
    v = hmac(k, v);
    const candidate = toBigInt(v);
    if (candidate >= 1n && candidate < N) yield candidate;
    k = hmac(k, v, Uint8Array.of(0x00));
    v = hmac(k, v);
  }
}

export interface P256Signer {
  readonly alg: "ES256";
  /** PEM SubjectPublicKeyInfo, the form a trust file pins an ES256 key in. */
  readonly publicKeyPem: string;
  /** Uncompressed public point, 0x04 ‖ X ‖ Y. */
  readonly publicKeyPoint: Uint8Array;
  /** ES256 signature over SHA-256(message), raw r ‖ s (64 bytes) as COSE requires. */
  sign(message: Uint8Array): Uint8Array;
}

/** The signer for private scalar d (1 ≤ d < n). */
export function p256FromScalar(d: bigint): P256Signer {
  if (d < 1n || d >= N) throw new ProducerError("PRODUCER_BAD_KEY_SEED", "P-256 private scalar outside [1, n)");
  // 1 ≤ d < n, and G has prime order n, so d·G is never the point at infinity.
  const q = multiply(d, G) as { x: bigint; y: bigint };
  const publicKeyPoint = Uint8Array.from([0x04, ...int32(q.x), ...int32(q.y)]);
  const publicKeyPem = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: Buffer.from(int32(q.x)).toString("base64url"),
      y: Buffer.from(int32(q.y)).toString("base64url"),
    },
    format: "jwk",
  })
    .export({ format: "pem", type: "spki" })
    .toString();
  return {
    alg: "ES256",
    publicKeyPem,
    publicKeyPoint,
    sign(message) {
      const h1 = sha256(message);
      const e = mod(toBigInt(h1), N);
      const candidates = nonces(d, h1);
      for (;;) {
        // RFC 6979 §3.4: a nonce giving r = 0 or s = 0 is skipped for the next one in the sequence.
        const k = candidates.next().value as bigint;
        const r = mod((multiply(k, G) as { x: bigint }).x, N);
        const s = mod(invert(k, N) * (e + r * d), N);
        if (r !== 0n && s !== 0n) return Uint8Array.from([...int32(r), ...int32(s)]);
      }
    },
  };
}

/** A signer whose scalar is derived from a 32-byte seed: d = (seed mod (n − 1)) + 1. */
export function p256FromSeed(seed: Uint8Array): P256Signer {
  if (seed.length !== 32)
    throw new ProducerError("PRODUCER_BAD_KEY_SEED", `P-256 seed must be 32 bytes, got ${seed.length}`);
  return p256FromScalar(mod(toBigInt(seed), N - 1n) + 1n);
}
