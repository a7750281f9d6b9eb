/**
 * The benchmark's inputs, made by the independent producer (`buildExchange`): exchanges shaped like
 * real ones — an eight-message transcript with multi-part and data parts, two artifacts, a
 * 5,000-leaf producer log with a prior checkpoint and its consistency proof, and two Transparency
 * Service receipts (Ed25519 and ES256) from logs of thousands of entries — plus the scaling
 * inputs (a long transcript, a huge log, a large artifact). Run with tsx:
 *
 *   tsx bench/inputs.ts '<spec JSON>'
 *
 * The spec names the folder and the sizes; files already in the folder are kept, so a cached
 * folder is only completed (a file's name says all it depends on besides the generator). Also writes `plan.json`: the crypto one bundle needs — signatures,
 * key imports and SHA-256 calls with their byte lengths — counted from what the producer built
 * (the floor `bench/floor.mjs` replays).
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decode } from "cborg";
import type { JsonObject, JsonValue } from "../src/json/value.js";
import { base64ToBytesStrict, hexToBytes, sha256Hex, utf8 } from "../src/util/bytes.js";
import { uuidFromLabel, type ArtifactSpec, type MessageSpec, type PartSpec } from "../producer/a2a.js";
import { sigStructure1 } from "../producer/cose.js";
import { buildExchange, type Exchange } from "../producer/exchange.js";
import { jcsBytes, jsonObject, pyjsonBytes } from "../producer/json-text.js";
import type { ExchangeOptions, WitnessOptions } from "../producer/options.js";

export interface InputSpec {
  readonly dir: string;
  /** The file listing what this spec uses, written last: its presence says the folder is complete. */
  readonly listing: string;
  /** Distinct bundles of the base shape (the many-input runs cycle through them). */
  readonly distinct: number;
  readonly transcript: readonly number[];
  readonly leaves: readonly number[];
  readonly artifactBytes: readonly number[];
}

/** The base shape's log: 5,000 leaves, ours near the end, a prior checkpoint at 3,000. */
const BASE_LEAVES = 5000;

const WITNESSES: readonly WitnessOptions[] = [
  { url: "https://ts-ed25519.bench.example", alg: "EdDSA", treeSize: 4000, leafIndex: 2741 },
  { url: "https://ts-es256.bench.example", alg: "ES256", treeSize: 2500, leafIndex: 1999 },
];

const WORDS =
  "the agent read the request, checked the ledger, found three open items and resolved each one before reporting back".split(
    " ",
  );

/** Deterministic prose of exactly `length` ASCII bytes, different for every label. */
function prose(label: string, length: number): string {
  let out = `${label}:`;
  for (let i = label.length; out.length < length; i = (i * 31 + 7) % 9973) out += ` ${WORDS[i % WORDS.length]}`;
  return out.slice(0, length);
}

/**
 * Eight messages, alternating user and agent, of varied sizes; two multi-part. All text: a data part
 * is bound by no commitment, so taskBinding would be INCONCLUSIVE and the run would not exit 0.
 */
function baseTranscript(k: number): MessageSpec[] {
  const sizes = [180, 1400, 320, 2600, 240, 900, 150, 1800];
  return sizes.map((size, i) => {
    const text = prose(`task ${k} message ${i}`, size);
    const parts: PartSpec[] =
      i === 3 ? [text.slice(0, 1000), text.slice(1000)] : i === 5 ? [text, `step ${i}: items 1, 2, 3`] : [text];
    return {
      messageId: uuidFromLabel(`bench ${k} message ${i}`),
      role: i % 2 === 0 ? "ROLE_USER" : "ROLE_AGENT",
      parts,
    };
  });
}

function baseArtifacts(k: number): ArtifactSpec[] {
  return [
    {
      artifactId: uuidFromLabel(`bench ${k} artifact report`),
      name: "report",
      parts: [prose(`task ${k} report`, 3000), prose(`task ${k} appendix`, 800)],
    },
    {
      artifactId: uuidFromLabel(`bench ${k} artifact summary`),
      name: "summary",
      parts: [prose(`task ${k} summary`, 400)],
    },
  ];
}

/** A log of `total` leaves: ours in the last thousandth, a prior checkpoint at about 60%. */
function logOptions(total: number): Pick<ExchangeOptions, "leavesBefore" | "leavesAfter" | "priorCheckpoint"> {
  const after = Math.max(1, Math.floor(total / 1000));
  return {
    leavesBefore: total - 1 - after,
    leavesAfter: after,
    priorCheckpoint: { leafCount: Math.floor(total * 0.6) },
  };
}

/**
 * Bundle k of a many-input run. Each has its own log: the producer builds every record's log
 * around that one record, so two bundles from one log would show two roots at one size — a
 * forked log, which the verifier rightly FAILs across inputs. Likewise each is registered at a
 * tree size of its own: one service's log at one size has one root.
 */
function exchange(k: number, overrides: Partial<ExchangeOptions> = {}): Exchange {
  return buildExchange({
    taskId: uuidFromLabel(`bench task ${k}`),
    logId: sha256Hex(utf8(`a2a-evidence bench log ${k}`)),
    contextId: uuidFromLabel(`bench context ${k}`),
    transcript: baseTranscript(k),
    artifacts: baseArtifacts(k),
    ...logOptions(BASE_LEAVES),
    witnesses: WITNESSES.map((w) => ({ ...w, treeSize: (w.treeSize ?? 0) + k })),
    envelope: "jsonrpc",
    ...overrides,
  });
}

/** Whole files only, even with two runs filling one cache folder: a half-written input is never read. */
function writeAtomic(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}

// ---------------------------------------------------------------------------------------------
// The floor: what verifying one bundle needs of node:crypto, counted from the construction.

interface HashCall {
  readonly what: string;
  readonly bytes: number;
  readonly count: number;
}
interface SignatureCheck {
  readonly what: string;
  readonly alg: "Ed25519" | "ES256";
  readonly bytes: number;
}
interface KeyImport {
  readonly what: string;
  readonly form: "ed25519-raw" | "spki-pem";
}
export interface FloorPlan {
  readonly sha256: HashCall[];
  readonly signatures: SignatureCheck[];
  readonly keys: KeyImport[];
  /** What the verify report must show for the plan to be the bundle's: see run.mjs. */
  readonly expect: { readonly signatureChecks: number; readonly messages: number };
}

const obj = (v: JsonValue | undefined, what: string): JsonObject => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error(`${what} is not an object`);
  return v as JsonObject;
};
const arr = (v: JsonValue | undefined, what: string): JsonValue[] => {
  if (!Array.isArray(v)) throw new Error(`${what} is not an array`);
  return v;
};
const str = (v: JsonValue | undefined, what: string): string => {
  if (typeof v !== "string") throw new Error(`${what} is not a string`);
  return v;
};

/** The nine signed checkpoint fields (log-and-receipts.md §4.2), as the digest preimage. */
const CHECKPOINT_SIGNED = ["key_id", "kind", "log_id", "mmr_size", "prev_root", "prev_size", "root", "timestamp", "v"];

function textBytes(parts: readonly JsonValue[]): number {
  const texts = parts.map((p) => obj(p, "part").text).filter((t): t is string => typeof t === "string");
  return Buffer.byteLength(texts.join("\n"), "utf8");
}

/** The COSE_Sign1 array [protected, unprotected, payload, signature] of tagged bytes. */
function sign1(bytes: Uint8Array): unknown[] {
  if (bytes[0] !== 0xd2) throw new Error("not a tagged COSE_Sign1");
  return decode(bytes.subarray(1), { useMaps: true }) as unknown[];
}

/** Path length of a receipt: the RFC 9162 inclusion proof in unprotected header 396, key -1. */
function receiptPathLength(receipt: unknown[]): number {
  const vdp = (receipt[1] as Map<number, unknown>).get(396) as Map<number, unknown[]>;
  const proof = decode((vdp.get(-1) as Uint8Array[])[0] as Uint8Array) as [number, number, Uint8Array[]];
  return proof[2].length;
}

function floorPlan(ex: Exchange): FloorPlan {
  const bundle = ex.bundle;
  const manifest = obj(bundle.manifest, "manifest");
  const payload = obj(bundle.taskEvidencePayload, "payload");
  const capsule = obj(bundle.capsule, "capsule");
  const checkpoint = obj(manifest.cllCheckpoint, "cllCheckpoint");
  const prior = obj(manifest.priorCheckpoint, "priorCheckpoint");
  const inclusion = obj(manifest.localInclusionProof, "localInclusionProof");
  const consistency = obj(manifest.consistencyProof, "consistencyProof");
  const task = obj(ex.finalTask, "finalTask");
  const signed = (cp: JsonObject) =>
    pyjsonBytes(jsonObject(Object.fromEntries(CHECKPOINT_SIGNED.map((n) => [n, cp[n]])))).length;

  const identity = jsonObject(
    Object.fromEntries(Object.entries(capsule).filter(([n]) => !["capsule_id", "signature", "key_id"].includes(n))),
  );
  const capsuleId = hexToBytes(str(capsule.capsule_id, "capsule_id")) as Uint8Array;
  const envelopeProtected = sign1(
    hexToBytes(str(capsule.signature, "capsule.signature")) as Uint8Array,
  )[0] as Uint8Array;

  const history = arr(task.history, "history");
  const artifacts = arr(task.artifacts, "artifacts").filter(
    (a) => obj(a, "artifact").artifactId !== "task-evidence-bundle",
  );
  const inclusionPeaks =
    arr(inclusion.peaksLeft, "peaksLeft").length + 1 + arr(inclusion.peaksRight, "peaksRight").length;
  const oldPeaks = arr(consistency.old_peaks, "old_peaks").length;
  const consistencyPath = arr(consistency.witness, "witness").reduce(
    (n: number, w) => n + arr(w, "witness[i]").length,
    0,
  );
  const records = arr(checkpoint.witnesses, "witnesses").map((w) => obj(w, "witness record"));

  const sha256: HashCall[] = [
    { what: "evidenceId: pyjson(payload)", bytes: pyjsonBytes(payload).length, count: 1 },
    { what: "coreManifestDigest: pyjson(manifest)", bytes: pyjsonBytes(manifest).length, count: 1 },
    {
      what: "agent_output_digest: pyjson({terminalState})",
      bytes: pyjsonBytes(jsonObject({ terminalState: payload.terminalState })).length,
      count: 1,
    },
    { what: "capsule_id: JCS(capsule identity)", bytes: jcsBytes(identity).length, count: 1 },
    ...history.map((m, i) => ({
      what: `partCommitment: message ${i}`,
      bytes: textBytes(arr(obj(m, "message").parts, "parts")),
      count: 1,
    })),
    ...artifacts.map((a, i) => ({
      what: `contentCommitment: artifact ${i}`,
      bytes: textBytes(arr(obj(a, "artifact").parts, "parts")),
      count: 1,
    })),
    { what: "MMR leaf hash", bytes: 1 + 32, count: 1 },
    {
      what: "MMR inclusion path (interior hashes)",
      bytes: 8 + 32 + 32,
      count: arr(inclusion.witness, "witness").length,
    },
    { what: "MMR bagging of the current peaks", bytes: 64, count: inclusionPeaks - 1 },
    { what: "checkpoint digest: pyjson(9 fields)", bytes: signed(checkpoint), count: 1 },
    { what: "entry_hash: SHA-256(digest)", bytes: 32, count: 1 },
    { what: "prior checkpoint digest", bytes: signed(prior), count: 1 },
    { what: "consistency paths (interior hashes)", bytes: 8 + 32 + 32, count: consistencyPath },
    { what: "MMR bagging of the prior peaks", bytes: 64, count: oldPeaks - 1 },
  ];
  const signatures: SignatureCheck[] = [
    {
      what: "producer envelope (COSE_Sign1 over capsule_id)",
      alg: "Ed25519",
      bytes: sigStructure1(envelopeProtected, capsuleId).length,
    },
    { what: "checkpoint (hex digest)", alg: "Ed25519", bytes: 64 },
    { what: "prior checkpoint (hex digest)", alg: "Ed25519", bytes: 64 },
  ];
  const keys: KeyImport[] = [{ what: "producer key", form: "ed25519-raw" }];
  for (const r of records) {
    const url = str(r.ts_url, "ts_url");
    const receipt = sign1(base64ToBytesStrict(str(r.receipt_b64, "receipt_b64")) as Uint8Array);
    const alg = WITNESSES.find((w) => w.url === url)?.alg === "ES256" ? "ES256" : "Ed25519";
    sha256.push({ what: `${url}: RFC 9162 leaf hash`, bytes: 1 + 32, count: 1 });
    sha256.push({ what: `${url}: RFC 9162 audit path`, bytes: 1 + 32 + 32, count: receiptPathLength(receipt) });
    signatures.push({
      what: `${url}: receipt (COSE_Sign1, detached root)`,
      alg,
      bytes: sigStructure1(receipt[0] as Uint8Array, new Uint8Array(32)).length,
    });
    keys.push({ what: `${url} key`, form: alg === "ES256" ? "spki-pem" : "ed25519-raw" });
  }
  return { sha256, signatures, keys, expect: { signatureChecks: signatures.length, messages: history.length } };
}

// ---------------------------------------------------------------------------------------------

interface Written {
  readonly family: string;
  readonly size: number;
  readonly file: string;
}

function main(spec: InputSpec): void {
  const bundles = join(spec.dir, "bundles");
  const scale = join(spec.dir, "scale");
  mkdirSync(bundles, { recursive: true });
  mkdirSync(scale, { recursive: true });
  const made = (path: string, build: () => Exchange): Exchange | undefined => {
    if (existsSync(path)) return undefined;
    const started = Date.now();
    const ex = build();
    writeAtomic(path, pyjsonBytes(ex.input));
    if (Date.now() - started > 2000)
      process.stderr.write(`  built ${path} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return ex;
  };

  // Every exchange uses the same producer key and Transparency Services: one trust file for all.
  const first = exchange(0);
  writeAtomic(join(spec.dir, "trust.json"), pyjsonBytes(first.trust));
  writeAtomic(join(spec.dir, "plan.json"), Buffer.from(JSON.stringify(floorPlan(first), null, 2)));
  const files: string[] = [];
  for (let k = 0; k < spec.distinct; k++) {
    const file = join(bundles, `b${String(k).padStart(4, "0")}.json`);
    made(file, () => (k === 0 ? first : exchange(k)));
    files.push(file);
    if (k % 50 === 49) process.stderr.write(`  ${k + 1}/${spec.distinct} bundles\n`);
  }

  const written: Written[] = [];
  for (const n of spec.transcript) {
    const file = join(scale, `transcript-${n}.json`);
    const transcript: MessageSpec[] = Array.from({ length: n }, (_, i) => ({
      messageId: uuidFromLabel(`bench long message ${i}`),
      role: i % 2 === 0 ? "ROLE_USER" : "ROLE_AGENT",
      parts: [prose(`message ${i}`, 120)],
    }));
    made(file, () => exchange(0, { transcript }));
    written.push({ family: "transcript", size: n, file });
  }
  for (const n of spec.leaves) {
    const file = join(scale, `leaves-${n}.json`);
    made(file, () => exchange(0, logOptions(n)));
    written.push({ family: "leaves", size: n, file });
  }
  for (const n of spec.artifactBytes) {
    const file = join(scale, `artifact-${n}.json`);
    made(file, () =>
      exchange(0, {
        artifacts: [
          { artifactId: uuidFromLabel("bench large artifact"), name: "dataset", parts: [prose("large artifact", n)] },
        ],
      }),
    );
    written.push({ family: "artifact", size: n, file });
  }
  writeAtomic(join(spec.dir, spec.listing), Buffer.from(JSON.stringify({ bundles: files, scale: written }, null, 2)));
}

main(JSON.parse(process.argv[2] ?? "{}") as InputSpec);
