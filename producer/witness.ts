/**
 * A CLL-aware witness (continuity-witness.md §4.2 A.6): the tlog-witness state machine — one
 * (size, root) per origin, `old` size checked against it, a TOFU first contact — with the CLL
 * profile's two changes: the checkpoint is authenticated by the producer's own JSON signature
 * (log-and-receipts.md §4.2) under the key enrolled for its origin, and the consistency proof is
 * the CLL MMR one (§3.4), not RFC 6962. It cosigns with cosignature/v1 (c2sp.org/tlog-cosignature):
 * Ed25519 over "cosignature/v1\ntime <T>\n" ‖ note, key ID SHA-256(name ‖ LF ‖ 0x04 ‖ key)[:4].
 *
 * Written apart from the verifier (src/witness/) and in other terms: sizes are leaf counts found
 * by search, a proof path is found walking down from the new mountain's peak, and refusals carry
 * the HTTP status tlog-witness would answer with.
 */
import { verify } from "node:crypto";
import type { JsonObject, JsonValue } from "../src/json/value.js";
import { JsonNumber } from "../src/json/value.js";
import { bytesEqual, bytesToBase64, bytesToHex, concatBytes, hexToBytes, sha256, utf8 } from "../src/util/bytes.js";
import { checkpointDigestHex } from "./checkpoint.js";
import { ed25519FromSeed, seedFromLabel, type Ed25519Signer } from "./ed25519.js";
import { ProducerError } from "./errors.js";
import { jsonObject } from "./json-text.js";
import { bagPeaks, mmrInteriorHash, mmrSizeForLeaves, mountains, type Mountain } from "./mmr.js";

export const NOTE_ORIGIN_PREFIX = "agentactioncapsule.org/cll-mmr/v1/";
export const CONSISTENCY_STATEMENT = "cll-mmr-consistency/v1";
export const EVIDENCE_TYPE = "c2sp-cosignature/v1";
const COSIGNATURE_TYPE = 0x04;

/** A refusal as tlog-witness answers it: 403 bad log signature, 404 unknown origin, 400, 409, 422. */
export class WitnessRefusal extends ProducerError {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 422,
    detail: string,
  ) {
    super("PRODUCER_WITNESS_REFUSED", `${status}: ${detail}`);
  }
}

/** The three-line note of a CLL checkpoint: origin, leaf count, base64 of the bagged root. */
export function cllNote(logId: string, leaves: number, root: Uint8Array): string {
  const origin = NOTE_ORIGIN_PREFIX + logId;
  // The note format itself forbids control characters; which origins a verifier accepts is its rule.
  if (/[\u0000-\u001f]/u.test(origin))
    throw new ProducerError("PRODUCER_INVALID_OPTION", "a note origin has no control characters");
  return `${origin}\n${leaves}\n${bytesToBase64(root)}\n`;
}

/** The leaf count whose MMR has `size` nodes, found by search; undefined when no leaf count has it. */
export function leavesForSize(size: number): number | undefined {
  // mmrSizeForLeaves(n) >= n, so the leaf count is at most the size.
  let low = 0;
  let high = Math.max(0, Math.floor(size));
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (mmrSizeForLeaves(mid) < size) low = mid + 1;
    else high = mid;
  }
  return mmrSizeForLeaves(low) === size ? low : undefined;
}

function number(v: JsonValue | undefined): number {
  return v instanceof JsonNumber ? v.toNumber() : NaN;
}

function hashes(v: JsonValue | undefined): Uint8Array[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out = v.map((h) => (typeof h === "string" ? hexToBytes(h) : undefined));
  return out.every((h): h is Uint8Array => h !== undefined && h.length === 32) ? out : undefined;
}

/** Folds `siblings` from `target` up to the peak of `home`, directions read walking down from that peak. */
function climbTo(
  home: Mountain,
  target: number,
  start: Uint8Array,
  siblings: readonly Uint8Array[],
): Uint8Array | undefined {
  const steps: Array<{ parent: number; fromLeft: boolean }> = [];
  let root = home.peak;
  let first = home.offset;
  for (let h = home.height; root !== target; h--) {
    if (h === 0) return undefined;
    const leftRoot = first + 2 ** h - 2;
    steps.push({ parent: root, fromLeft: target <= leftRoot });
    if (target <= leftRoot) root = leftRoot;
    else {
      first = leftRoot + 1;
      root = root - 1;
    }
  }
  if (steps.length !== siblings.length) return undefined;
  let acc = start;
  steps.reverse().forEach((s, i) => {
    const w = siblings[i] as Uint8Array;
    acc = s.fromLeft ? mmrInteriorHash(acc, w, s.parent) : mmrInteriorHash(w, acc, s.parent);
  });
  return acc;
}

/** The CLL consistency proof (snake_case JSON) from (oldLeaves, oldRoot) to (newLeaves, newRoot). */
function consistent(
  proof: JsonObject,
  oldLeaves: number,
  oldRoot: Uint8Array,
  newLeaves: number,
  newRoot: Uint8Array,
): boolean {
  if (number(proof.size_a) !== mmrSizeForLeaves(oldLeaves) || number(proof.size_b) !== mmrSizeForLeaves(newLeaves))
    return false;
  const oldPeaks = hashes(proof.old_peaks);
  const newPeaks = hashes(proof.new_peaks);
  const paths = Array.isArray(proof.witness) ? proof.witness.map(hashes) : undefined;
  const older = mountains(oldLeaves);
  const newer = mountains(newLeaves);
  if (
    !oldPeaks ||
    !newPeaks ||
    !paths ||
    oldPeaks.length !== older.length ||
    newPeaks.length !== newer.length ||
    paths.length !== older.length
  )
    return false;
  if (!bytesEqual(bagPeaks(oldPeaks), oldRoot) || !bytesEqual(bagPeaks(newPeaks), newRoot)) return false;
  return older.every((m, i) => {
    const k = newer.findIndex((n) => n.offset <= m.peak && m.peak <= n.peak);
    const path = paths[i];
    if (k < 0 || path === undefined) return false;
    const top = climbTo(newer[k] as Mountain, m.peak, oldPeaks[i] as Uint8Array, path);
    return top !== undefined && bytesEqual(top, newPeaks[k] as Uint8Array);
  });
}

export class CllWitness {
  readonly keyIdHex: string;
  /** `<name>+<key ID>+base64(0x04 ‖ key)`, as a trust file pins it. */
  readonly vkey: string;
  private readonly keyId: Uint8Array;
  /** origin → the leaf count and root this witness last cosigned. */
  private readonly state = new Map<string, { leaves: number; root: Uint8Array }>();

  constructor(
    readonly name: string,
    readonly signer: Ed25519Signer,
    /** log_id → the producer key (hex) enrolled for its origin, or its keys across a rotation. */
    private readonly enrolled: ReadonlyMap<string, string | readonly string[]>,
  ) {
    this.keyId = sha256(utf8(name), Uint8Array.of(0x0a, COSIGNATURE_TYPE), signer.publicKeyRaw).slice(0, 4);
    this.keyIdHex = bytesToHex(this.keyId);
    this.vkey = `${name}+${this.keyIdHex}+${bytesToBase64(concatBytes(Uint8Array.of(COSIGNATURE_TYPE), signer.publicKeyRaw))}`;
  }

  /**
   * add-checkpoint: `oldLeaves` is the size the submitter believes this witness holds, `proof` the
   * consistency proof from it (null from 0). Returns the cosignature line, without its LF.
   */
  addCheckpoint(checkpoint: JsonObject, oldLeaves: number, proof: JsonObject | null, timestamp: bigint): string {
    const logId = checkpoint.log_id;
    if (typeof logId !== "string") throw new WitnessRefusal(400, "log_id is not a string");
    const key = this.enrolled.get(logId);
    if (key === undefined) throw new WitnessRefusal(404, `no log enrolled for ${NOTE_ORIGIN_PREFIX}${logId}`);
    const signature = typeof checkpoint.signature === "string" ? hexToBytes(checkpoint.signature) : undefined;
    const keyId = checkpoint.key_id;
    const accepted = typeof key === "string" ? [key] : key;
    const signedBy = typeof keyId === "string" && accepted.includes(keyId) ? this.signerKey(keyId) : undefined;
    if (!signature || !signedBy || !verify(null, utf8(checkpointDigestHex(checkpoint)), signedBy, signature)) {
      throw new WitnessRefusal(403, "the checkpoint is not signed by the key enrolled for its log");
    }
    const leaves = leavesForSize(number(checkpoint.mmr_size));
    const root = typeof checkpoint.root === "string" ? hexToBytes(checkpoint.root) : undefined;
    if (leaves === undefined || leaves === 0 || root === undefined || root.length !== 32)
      throw new WitnessRefusal(400, "not a checkpoint of a non-empty MMR");
    const origin = NOTE_ORIGIN_PREFIX + logId;
    const held = this.state.get(origin) ?? { leaves: 0, root: new Uint8Array(32) };
    if (oldLeaves > leaves) throw new WitnessRefusal(400, `old size ${oldLeaves} is above the checkpoint's ${leaves}`);
    if (oldLeaves !== held.leaves) throw new WitnessRefusal(409, `this witness holds size ${held.leaves}`);
    if (oldLeaves === 0) {
      // First contact (TOFU): nothing to be consistent with, so no proof.
      if (proof !== null) throw new WitnessRefusal(422, "a proof from size 0");
    } else if (oldLeaves === leaves) {
      if (!bytesEqual(root, held.root)) throw new WitnessRefusal(422, "same size, another root: a fork");
    } else if (proof === null || !consistent(proof, oldLeaves, held.root, leaves, root)) {
      throw new WitnessRefusal(422, `no valid consistency proof from ${oldLeaves} to ${leaves} leaves`);
    }
    this.state.set(origin, { leaves, root });
    return this.cosign(cllNote(logId, leaves, root), timestamp);
  }

  /** A cosignature/v1 line over `note` at `timestamp`, without its LF. */
  cosign(note: string, timestamp: bigint): string {
    const signature = this.signer.sign(utf8(`cosignature/v1\ntime ${timestamp}\n${note}`));
    const t = new Uint8Array(8);
    new DataView(t.buffer).setBigUint64(0, timestamp);
    return `\u2014 ${this.name} ${bytesToBase64(concatBytes(this.keyId, t, signature))}`;
  }

  private signerKey(hex: string) {
    const raw = hexToBytes(hex);
    if (raw === undefined || raw.length !== 32) return undefined;
    return ed25519PublicKey(raw);
  }
}

function ed25519PublicKey(raw: Uint8Array) {
  return {
    key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]),
    format: "der" as const,
    type: "spki" as const,
  };
}

// ---------------------------------------------------------------------------------------------
// Witnessing one exchange's log: what the vectors ask of the witnesses, and what they give back.

export interface CosignerOptions {
  /** The note key name its lines carry. */
  readonly name: string;
  /** Label of its key seed (default: "witness <name>"). */
  readonly keyLabel?: string;
  /** Its key seed, when it must be a given key (default: derived from `keyLabel`). */
  readonly seed?: Uint8Array;
  /** The trust file's label for it (default: none). */
  readonly id?: string;
  readonly operator?: "independent" | "producer";
  readonly operatorId?: string;
  /** Default: [cll-mmr-consistency/v1]. */
  readonly statements?: readonly string[];
  /** Whether the trust file pins it (default true). */
  readonly listed?: boolean;
  /** Which checkpoints it is shown and cosigns, in order prior then current (default both). */
  readonly cosigns?: ReadonlyArray<"prior" | "current">;
  /** Another current checkpoint (and its proof from the prior) shown to this witness instead of the log's. */
  readonly shown?: { readonly checkpoint: JsonObject; readonly consistencyProof: JsonObject | null };
  /** Seconds after a checkpoint's timestamp at which the witness cosigns it (default 10). */
  readonly delaySeconds?: number;
}

export interface ContinuityOptions {
  readonly witnesses: readonly CosignerOptions[];
  readonly policy?: {
    readonly quorum?: number;
    readonly requirePriorCosigned?: boolean;
    readonly acceptGenesis?: boolean;
    readonly maxFutureSkewSeconds?: number;
  };
}

export interface WitnessedLog {
  /** `continuityEvidence` for the bundle (entries with at least one line). */
  readonly evidence: JsonObject[];
  /** The trust file's `witnesses` and `continuityPolicy`. */
  readonly witnesses: JsonObject[];
  readonly continuityPolicy: JsonObject;
  readonly keys: ReadonlyArray<{ readonly name: string; readonly vkey: string; readonly publicKeyHex: string }>;
}

/** POSIX seconds of a producer timestamp, plus a delay. */
function secondsAfter(timestamp: JsonValue | undefined, delay: number): bigint {
  const ms = typeof timestamp === "string" ? Date.parse(timestamp) : NaN;
  if (Number.isNaN(ms))
    throw new ProducerError("PRODUCER_INVALID_OPTION", `checkpoint timestamp ${String(timestamp)} is not a date`);
  return BigInt(Math.floor(ms / 1000) + delay);
}

export function witnessLog(
  options: ContinuityOptions,
  log: {
    readonly priorCheckpoint: JsonObject | null;
    readonly cllCheckpoint: JsonObject;
    readonly consistencyProof: JsonObject | null;
  },
  logId: string,
  producerKeyHex: string | readonly string[],
): WitnessedLog {
  const lines = { current: [] as string[], prior: [] as string[] };
  const witnesses: JsonObject[] = [];
  const keys: Array<{ name: string; vkey: string; publicKeyHex: string }> = [];
  for (const w of options.witnesses) {
    const witness = new CllWitness(
      w.name,
      ed25519FromSeed(w.seed ?? seedFromLabel(w.keyLabel ?? `witness ${w.name}`)),
      new Map([[logId, producerKeyHex]]),
    );
    keys.push({ name: w.name, vkey: witness.vkey, publicKeyHex: witness.signer.publicKeyHex });
    const cosigns = w.cosigns ?? ["prior", "current"];
    const delay = w.delaySeconds ?? 10;
    let held = 0;
    if (cosigns.includes("prior") && log.priorCheckpoint !== null) {
      lines.prior.push(
        witness.addCheckpoint(log.priorCheckpoint, 0, null, secondsAfter(log.priorCheckpoint.timestamp, delay)),
      );
      held = leavesForSize(number(log.priorCheckpoint.mmr_size)) ?? 0;
    }
    if (cosigns.includes("current")) {
      const current = w.shown?.checkpoint ?? log.cllCheckpoint;
      const proof = w.shown ? w.shown.consistencyProof : log.consistencyProof;
      lines.current.push(
        witness.addCheckpoint(current, held, held === 0 ? null : proof, secondsAfter(current.timestamp, delay)),
      );
    }
    if (w.listed !== false) {
      witnesses.push(
        jsonObject({
          ...(w.id !== undefined ? { id: w.id } : {}),
          name: w.name,
          keys: [witness.vkey],
          operator: w.operator ?? "independent",
          ...(w.operatorId !== undefined ? { operatorId: w.operatorId } : {}),
          statements: [...(w.statements ?? [CONSISTENCY_STATEMENT])],
        }),
      );
    }
  }
  const evidence = (["current", "prior"] as const)
    .filter((role) => lines[role].length > 0)
    .map((role) => jsonObject({ type: EVIDENCE_TYPE, checkpoint: role, lines: lines[role] }));
  const policy = {
    quorum: 1,
    requirePriorCosigned: true,
    acceptGenesis: false,
    maxFutureSkewSeconds: 300,
    ...options.policy,
  };
  return { evidence, witnesses, continuityPolicy: jsonObject(policy), keys };
}
