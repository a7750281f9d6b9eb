/**
 * The CLL checkpoint, JSON form (log-and-receipts §4.1–§4.3): `manifest.cllCheckpoint` and
 * `manifest.priorCheckpoint` of the aac-cll-scitt/v1 bundle.
 *
 * Signed bytes (§4.2): the signing body is pyjson of exactly the nine members
 * `v, kind, log_id, mmr_size, root, prev_size, prev_root, key_id, timestamp`, taken as received
 * (lexemes kept); `digest = SHA-256(body)`; the Ed25519 signature under `key_id` is over the 64
 * ASCII characters of the digest's lowercase hex — not the raw digest, not the body.
 *
 * `key_id` is self-asserted key material: a valid signature proves the checkpoint is intact under
 * the key it names, and nothing about whether that key is trusted (that is the trust config's).
 */
import { pyjson } from "../canon/pyjson.js";
import { ed25519KeyFromRaw, verifyEd25519 } from "../crypto/ed25519.js";
import { joinPath } from "../json/path.js";
import {
  asSafeInteger,
  hasMember,
  isJsonObject,
  newJsonObject,
  type JsonObject,
  type JsonValue,
} from "../json/value.js";
import { fail, ok, type Result } from "../result.js";
import { bytesToHex, hex64ToBytes, hexToBytes, sha256Hex, sha256HexOfText, sha256OfText, utf8 } from "../util/bytes.js";

export const CHECKPOINT_KIND = "mmr_checkpoint";

/** The members covered by the signature, in §4.2's order. */
const SIGNED_MEMBERS = [
  "v",
  "kind",
  "log_id",
  "mmr_size",
  "root",
  "prev_size",
  "prev_root",
  "key_id",
  "timestamp",
] as const;
/** Present only when non-empty (`witnesses`) or when produced (`consistency_proof`); never signed. */
const UNSIGNED_OPTIONAL = ["witnesses", "consistency_proof"] as const;
const REQUIRED = [...SIGNED_MEMBERS, "signature"] as const;
const KNOWN = new Set<string>([...REQUIRED, ...UNSIGNED_OPTIONAL]);

const SIGNATURE_HEX = /^[0-9a-f]{128}$/;

export interface Checkpoint {
  readonly logId: string;
  /** MMR node count committed (not a leaf count). */
  readonly mmrSize: number;
  /** The bagged MMR root. */
  readonly root: Uint8Array;
  readonly prevSize: number;
  /** null when `prev_root` is "" (the first checkpoint of a log). */
  readonly prevRoot: Uint8Array | null;
  /** The signer's raw Ed25519 public key. */
  readonly keyId: Uint8Array;
  /** Opaque to verifiers. */
  readonly timestamp: string;
  readonly signature: Uint8Array;
  /** WitnessRecords as received, for the receipt code; undefined when absent. */
  readonly witnesses: readonly JsonValue[] | undefined;
  /** `consistency_proof` as received, when the checkpoint carries one. */
  readonly consistencyProof: JsonValue | undefined;
  /** The checkpoint object as received: the preimage of `entry_digest`. */
  readonly json: JsonObject;
  /** Where the checkpoint sits in the bundle, for diagnostics. */
  readonly path: string;
  /** pyjson of the nine signed members (§4.2 step 1), computed once at parse. */
  readonly signingBody: string;
  /** SHA-256 of the signing body (§4.2 step 2). */
  readonly digest: Uint8Array;
  /** Lowercase hex of `digest`: the 64 ASCII characters the signature covers. */
  readonly digestHex: string;
}

/**
 * The last few readings of checkpoint objects, with the path each was read at. One input's prior
 * checkpoint is read by several of its properties (its keys, the chain gate, the comparison
 * across inputs) and each would otherwise build and hash its signing body and decode its hashes
 * again. Within one input's verification a parsed value is not changed, so the same object at the
 * same path reads the same; the one Checkpoint is then also known verified once its signature is.
 * The readings are forgotten when the next input's verification begins
 * (`forgetCheckpointReadings`): a library caller owns the value it verifies and may change it
 * between two calls. A few readings, held strongly and replaced in turn: a WeakMap of every
 * reading kept each one's values through young collections until a full one (V8 treats a weak
 * table's values so), and a run over 2,000 inputs peaked 10 MB higher.
 */
const READINGS = 4;
const readings: { readonly v: JsonObject; readonly path: string; readonly result: Result<Checkpoint> }[] = [];
let nextReading = 0;

/** Forgets every remembered reading: a new input's verification begins. */
export function forgetCheckpointReadings(): void {
  readings.length = 0;
  nextReading = 0;
}

export function parseCheckpoint(v: JsonValue, path: string): Result<Checkpoint> {
  if (!isJsonObject(v)) return fail("CHECKPOINT_MALFORMED", "checkpoint is not an object", path);
  for (let i = 0; i < readings.length; i++) {
    const r = readings[i] as (typeof readings)[number];
    if (r.v === v && r.path === path) return r.result;
  }
  const result = readCheckpoint(v, path);
  readings[nextReading] = { v, path, result };
  nextReading = (nextReading + 1) % READINGS;
  return result;
}

function readCheckpoint(v: JsonObject, path: string): Result<Checkpoint> {
  // An unknown member would be carried, and digested into entry_digest, without being signed:
  // a reader could take it for signed content.
  const unknown = Object.keys(v).find((k) => !KNOWN.has(k));
  if (unknown !== undefined)
    return fail("CHECKPOINT_MEMBER_UNKNOWN", `unknown member "${unknown}"`, joinPath(path, unknown));
  const missing = REQUIRED.find((k) => !hasMember(v, k));
  if (missing !== undefined) return fail("CHECKPOINT_MEMBER_MISSING", `member "${missing}" is missing`, path);

  const at = (name: string) => joinPath(path, name);
  const malformed = (name: string, want: string) => fail("CHECKPOINT_MALFORMED", `${name} must be ${want}`, at(name));
  const get = (name: string) => v[name] as JsonValue;
  const str = (name: string) => {
    const s = get(name);
    return typeof s === "string" ? s : undefined;
  };
  const hash = (name: string) => {
    const s = get(name);
    return hex64ToBytes(s);
  };
  // Sizes index the MMR; a negative one names no tree.
  const count = (name: string) => {
    const n = asSafeInteger(get(name));
    return n !== undefined && n >= 0 ? n : undefined;
  };

  const version = asSafeInteger(get("v"));
  if (version === undefined) return malformed("v", "an integer");
  if (version !== 1)
    return fail("CHECKPOINT_VERSION_UNSUPPORTED", `checkpoint version ${version}, only 1 is defined`, at("v"));
  const kind = str("kind");
  if (kind === undefined) return malformed("kind", "a string");
  if (kind !== CHECKPOINT_KIND)
    return fail("CHECKPOINT_KIND_INVALID", `kind "${kind}", expected "${CHECKPOINT_KIND}"`, at("kind"));
  const logId = str("log_id");
  if (logId === undefined) return malformed("log_id", "a string");
  const mmrSize = count("mmr_size");
  if (mmrSize === undefined) return malformed("mmr_size", "a non-negative integer");
  const root = hash("root");
  if (root === undefined) return malformed("root", "64 lowercase hex characters");
  const prevSize = count("prev_size");
  if (prevSize === undefined) return malformed("prev_size", "a non-negative integer");
  const prevRoot = get("prev_root") === "" ? null : hash("prev_root");
  if (prevRoot === undefined) return malformed("prev_root", '"" or 64 lowercase hex characters');
  const keyId = hash("key_id");
  if (keyId === undefined) return malformed("key_id", "64 lowercase hex characters (the raw Ed25519 key)");
  const timestamp = str("timestamp");
  if (timestamp === undefined) return malformed("timestamp", "a string");
  const signatureHex = str("signature");
  const signature =
    signatureHex !== undefined && SIGNATURE_HEX.test(signatureHex) ? hexToBytes(signatureHex) : undefined;
  if (signature === undefined) return malformed("signature", "128 lowercase hex characters");
  const witnesses = hasMember(v, "witnesses") ? get("witnesses") : undefined;
  if (witnesses !== undefined && !Array.isArray(witnesses)) return malformed("witnesses", "an array");

  const signed = newJsonObject();
  for (const name of SIGNED_MEMBERS) signed[name] = get(name);
  const body = pyjson(signed);
  if (!body.ok) return body;
  const digest = sha256OfText(body.value.text);
  return ok({
    logId,
    mmrSize,
    root,
    prevSize,
    prevRoot,
    keyId,
    timestamp,
    signature,
    witnesses,
    consistencyProof: hasMember(v, "consistency_proof") ? get("consistency_proof") : undefined,
    json: v,
    path,
    signingBody: body.value.text,
    digest,
    digestHex: bytesToHex(digest),
  });
}

/**
 * The checkpoints whose signature verified, by identity. A checkpoint is read-only once parsed, and
 * one is asked about several times (its property, continuity, the cross-input look at each input
 * and the comparison of them all); the Ed25519 outcome memory is bounded per key, so in a long run
 * the comparison would verify each input's checkpoints again. Held weakly: kept no longer than
 * the checkpoint is.
 */
const verified = new WeakSet<Checkpoint>();

/** §4.2 step 3: Ed25519 under `key_id` over the ASCII bytes of the digest hex. */
export function verifyCheckpointSignature(cp: Checkpoint): Result<true> {
  if (verified.has(cp)) return ok(true);
  const key = ed25519KeyFromRaw(cp.keyId);
  if (key !== undefined && verifyEd25519(key, utf8(cp.digestHex), cp.signature)) {
    verified.add(cp);
    return ok(true);
  }
  return fail(
    "CHECKPOINT_SIGNATURE_INVALID",
    `signature does not verify under key_id ${bytesToHex(cp.keyId)} over digest ${cp.digestHex}`,
    joinPath(cp.path, "signature"),
  );
}

/**
 * `entry_hash = SHA-256(digest)` = SHA-256(SHA-256(body)), hex: what a Transparency Service
 * registers. Always recomputed; a stored `entry_hash` is a claim to compare against this.
 */
export function checkpointEntryHash(cp: Checkpoint): string {
  return sha256Hex(cp.digest);
}

/**
 * `entry_digest = SHA-256(pyjson(full record))`, hex, signature and witnesses included: the leaf
 * body of the producer's own checkpoint-stamp line. A number Python would not print as received
 * (a float, an exponent, `-0`) is refused rather than guessed at.
 */
export function checkpointEntryDigest(cp: Checkpoint): Result<string> {
  const text = pyjson(cp.json);
  if (!text.ok) return text;
  const flagged = text.value.numberFlags[0];
  if (flagged !== undefined) {
    return fail("CANON_FLOAT", `number at ${flagged} is not an integer; its Python form is unknown`, cp.path);
  }
  return ok(sha256HexOfText(text.value.text));
}
