/**
 * MMR proof objects from the JSON data model (log-and-receipts §3.3–§3.5).
 *
 * The CLL proof objects are snake_case (`leaf_index`, `peaks_left`, `peaks_right`); the A2A
 * manifest's `localInclusionProof` spells the same three members in camelCase. Both are accepted,
 * but one object must use one spelling throughout: an object carrying `leaf_index` and `leafIndex`
 * would let two readers see two different proofs. Unknown members are refused for the same reason.
 * Integers must be integer tokens (a bool, `1.0` or `"1"` is malformed); range checks on them are
 * the verifiers' (they are the only place that knows the tree).
 */
import { joinPath } from "../json/path.js";
import { asSafeInteger, hasMember, isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { fail, ok, type Failure, type Result } from "../result.js";
import { hex64ToBytes } from "../util/bytes.js";
import type { ConsistencyProof, InclusionProof, RangeProof } from "./mmr-proofs.js";

/** A member as found: its value and the path under the spelling actually used. */
interface Found {
  readonly value: JsonValue;
  readonly path: string;
}

/**
 * The members `names` (snake_case) of a proof object of `kind`, each possibly spelled as in
 * `camel`. The version and kind are checked first, so a proof of another version is reported as
 * such rather than by its unfamiliar members. Then: no unknown member, one spelling, none missing.
 */
function proofMembers<N extends string>(
  v: JsonValue,
  path: string,
  kind: string,
  names: readonly N[],
  camel: Readonly<Record<string, string>> = {},
): Result<Record<N, Found>> {
  if (!isJsonObject(v)) return fail("MMR_PROOF_MALFORMED", "proof is not an object", path);
  const header = checkHeader(v, path, kind);
  if (header) return header;
  const camelSpellings = new Set(Object.values(camel));
  let snakeSpelled: string | undefined;
  let camelSpelled: string | undefined;
  for (const key of Object.keys(v)) {
    if (camelSpellings.has(key)) camelSpelled = key;
    else if (!(names as readonly string[]).includes(key)) {
      return fail("MMR_PROOF_MALFORMED", `unknown member "${key}"`, joinPath(path, key));
    } else if (Object.hasOwn(camel, key)) snakeSpelled = key;
  }
  if (snakeSpelled !== undefined && camelSpelled !== undefined) {
    return fail(
      "MMR_PROOF_MALFORMED",
      `proof mixes "${snakeSpelled}" and "${camelSpelled}": one spelling per object`,
      path,
    );
  }
  const out = {} as Record<N, Found>;
  for (const name of names) {
    const key = camelSpelled !== undefined ? (camel[name] ?? name) : name;
    if (!hasMember(v, key)) return fail("MMR_PROOF_MALFORMED", `member "${key}" is missing`, path);
    out[name] = { value: v[key] as JsonValue, path: joinPath(path, key) };
  }
  return ok(out);
}

function checkHeader(proof: JsonObject, path: string, kind: string): Failure | undefined {
  const version = asSafeInteger(member(proof, "v"));
  if (version === undefined) return fail("MMR_PROOF_MALFORMED", "v is missing or not an integer", joinPath(path, "v"));
  if (version !== 1)
    return fail("MMR_PROOF_VERSION_UNSUPPORTED", `proof version ${version}, only 1 is defined`, joinPath(path, "v"));
  const k = member(proof, "kind");
  if (typeof k !== "string")
    return fail("MMR_PROOF_MALFORMED", "kind is missing or not a string", joinPath(path, "kind"));
  if (k !== kind) return fail("MMR_PROOF_KIND_MISMATCH", `kind "${k}", expected "${kind}"`, joinPath(path, "kind"));
  return undefined;
}

function integer(f: Found): Result<number> {
  const n = asSafeInteger(f.value);
  return n === undefined ? fail("MMR_PROOF_MALFORMED", "not an integer token", f.path) : ok(n);
}

function hashList(f: Found): Result<Uint8Array[]> {
  if (!Array.isArray(f.value)) return fail("MMR_PROOF_MALFORMED", "not an array of hashes", f.path);
  const out: Uint8Array[] = [];
  for (const [i, h] of f.value.entries()) {
    const bytes = hex64ToBytes(h);
    if (bytes === undefined) return fail("MMR_HASH_MALFORMED", "not 64 lowercase hex characters", joinPath(f.path, i));
    out.push(bytes);
  }
  return ok(out);
}

const INCLUSION_MEMBERS = ["v", "kind", "size", "leaf_index", "witness", "peaks_left", "peaks_right"] as const;
const INCLUSION_CAMEL = { leaf_index: "leafIndex", peaks_left: "peaksLeft", peaks_right: "peaksRight" };

/** `{v:1, kind:"inclusion", size, leaf_index|leafIndex, witness, peaks_left|peaksLeft, peaks_right|peaksRight}`. */
export function parseInclusionProof(v: JsonValue, path: string): Result<InclusionProof> {
  const m = proofMembers(v, path, "inclusion", INCLUSION_MEMBERS, INCLUSION_CAMEL);
  if (!m.ok) return m;
  const f = m.value;
  const size = integer(f.size);
  if (!size.ok) return size;
  const leafIndex = integer(f.leaf_index);
  if (!leafIndex.ok) return leafIndex;
  const witness = hashList(f.witness);
  if (!witness.ok) return witness;
  const peaksLeft = hashList(f.peaks_left);
  if (!peaksLeft.ok) return peaksLeft;
  const peaksRight = hashList(f.peaks_right);
  if (!peaksRight.ok) return peaksRight;
  return ok({
    size: size.value,
    leafIndex: leafIndex.value,
    witness: witness.value,
    peaksLeft: peaksLeft.value,
    peaksRight: peaksRight.value,
  });
}

const CONSISTENCY_MEMBERS = ["v", "kind", "size_a", "size_b", "old_peaks", "witness", "new_peaks"] as const;

/** `{v:1, kind:"consistency", size_a, size_b, old_peaks, witness:[[…],…], new_peaks}` (snake_case only). */
export function parseConsistencyProof(v: JsonValue, path: string): Result<ConsistencyProof> {
  const m = proofMembers(v, path, "consistency", CONSISTENCY_MEMBERS);
  if (!m.ok) return m;
  const f = m.value;
  const sizeA = integer(f.size_a);
  if (!sizeA.ok) return sizeA;
  const sizeB = integer(f.size_b);
  if (!sizeB.ok) return sizeB;
  const oldPeaks = hashList(f.old_peaks);
  if (!oldPeaks.ok) return oldPeaks;
  const w = f.witness;
  if (!Array.isArray(w.value)) return fail("MMR_PROOF_MALFORMED", "witness is not an array of paths", w.path);
  const witness: Uint8Array[][] = [];
  for (const [i, p] of w.value.entries()) {
    const hashes = hashList({ value: p, path: joinPath(w.path, i) });
    if (!hashes.ok) return hashes;
    witness.push(hashes.value);
  }
  const newPeaks = hashList(f.new_peaks);
  if (!newPeaks.ok) return newPeaks;
  return ok({ sizeA: sizeA.value, sizeB: sizeB.value, oldPeaks: oldPeaks.value, witness, newPeaks: newPeaks.value });
}

const RANGE_MEMBERS = ["v", "kind", "size", "from_index", "to_index", "witness"] as const;

/** `{v:1, kind:"range", size, from_index, to_index, witness}` (snake_case only). */
export function parseRangeProof(v: JsonValue, path: string): Result<RangeProof> {
  const m = proofMembers(v, path, "range", RANGE_MEMBERS);
  if (!m.ok) return m;
  const f = m.value;
  const size = integer(f.size);
  if (!size.ok) return size;
  const fromIndex = integer(f.from_index);
  if (!fromIndex.ok) return fromIndex;
  const toIndex = integer(f.to_index);
  if (!toIndex.ok) return toIndex;
  const witness = hashList(f.witness);
  if (!witness.ok) return witness;
  return ok({ size: size.value, fromIndex: fromIndex.value, toIndex: toIndex.value, witness: witness.value });
}
