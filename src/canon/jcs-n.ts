/**
 * CPB JCS-N (algorithm `jcs-n`, content-binding.md §3.3). Withdrawn by CPB, still needed to
 * verify vintage records such as AAC format-"2" capsule ids.
 *
 *   CANONICAL-DIGEST(jcs-n, P, E) = hex(SHA-256(UTF8(JCS(normalize(P \ E)))))
 *
 * The steps run in exactly the spec's order:
 *   1. wire-level validation of the whole value, excluded members included: every number is an
 *      integer token `0|-?[1-9][0-9]*` within ±(2^53−1), and no two member names of one object
 *      are equal after Unicode NFC;
 *   2. exclusion of the top-level members named in E (a nested member of the same name stays);
 *   3. absent-field normalization, bottom-up: a member whose normalized value is null, [] or {}
 *      is dropped; array elements never are; the top-level object is kept even when empty;
 *   4. RFC 8785 serialization with safe integers only.
 * The preimage has no prefix and no domain separator: the digest is `sha256HexOfText(preImage)`.
 */
import { JsonNumber, isJsonObject, newJsonObject, type JsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { fail, ok, type Failure, type Result } from "../result.js";
import type { FailureCode } from "../codes/index.js";
import { jcs, jcsNumber } from "./jcs.js";
import { CANON_MAX_DEPTH } from "./limits.js";

export interface JcsNOutput {
  /** The JCS text whose UTF-8 octets are hashed. */
  readonly preImage: string;
  /** The value after exclusion and absent-field normalization, before serialization. */
  readonly normalized: JsonValue;
}

export function jcsN(value: JsonValue, exclusionSet?: readonly string[]): Result<JcsNOutput> {
  const [fault] = wireFaults(value, 1);
  if (fault) return fault;
  let subject = value;
  if (exclusionSet !== undefined) {
    if (!isJsonObject(value))
      return fail("CANON_NOT_AN_OBJECT", "an exclusion set names members of an object; the value is not one", "$");
    subject = excludeTopLevel(value, exclusionSet);
  }
  const normalized = normalizeAbsentFields(subject);
  const preImage = jcs(normalized, { numbers: "safe-integers" });
  return preImage.ok ? ok({ preImage: preImage.value, normalized }) : preImage;
}

/** A wire-level fault always has a location. */
export type WireFault = Failure & { readonly path: string };

/**
 * Step 1: the wire-level faults of a value, at most `limit` of them, in walk order. A nesting
 * fault (CANON_TOO_DEEP) stops the descent below it.
 */
export function wireFaults(value: JsonValue, limit = Number.POSITIVE_INFINITY): WireFault[] {
  const faults: WireFault[] = [];
  collectWireFaults(value, "$", 0, faults, limit);
  return faults;
}

function collectWireFaults(v: JsonValue, path: string, depth: number, faults: WireFault[], limit: number): void {
  if (faults.length >= limit) return;
  if (v instanceof JsonNumber) {
    const f = wireNumberFault(v, path);
    if (f) faults.push(f);
    return;
  }
  if (!Array.isArray(v) && !isJsonObject(v)) return;
  if (depth >= CANON_MAX_DEPTH) {
    faults.push(wireFault("CANON_TOO_DEEP", `nesting deeper than ${CANON_MAX_DEPTH}`, path));
    return;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++)
      collectWireFaults(v[i] as JsonValue, joinPath(path, i), depth + 1, faults, limit);
    return;
  }
  for (const name of nfcCollisions(v)) {
    if (faults.length >= limit) return;
    faults.push(
      wireFault(
        "CANON_DUPLICATE_MEMBER_NFC",
        `member name ${JSON.stringify(name)} equals another name of this object after NFC`,
        joinPath(path, name),
      ),
    );
  }
  for (const name of Object.keys(v))
    collectWireFaults(v[name] as JsonValue, joinPath(path, name), depth + 1, faults, limit);
}

/**
 * The wire rule a number token breaks, if any. The rule is on the token, not on the value: a
 * parser turns `-0` into 0 and `1e2` into 100, and the rejection would be lost.
 */
function wireNumberFault(n: JsonNumber, path: string): WireFault | undefined {
  if (n.lexeme === "-0") return wireFault("CANON_NEGATIVE_ZERO", "the token -0 is not an integer token", path);
  const safe = jcsNumber(n, "safe-integers", path);
  return safe.ok ? undefined : wireFault(safe.code, safe.detail, path);
}

function wireFault(code: FailureCode, detail: string, path: string): WireFault {
  return { ok: false, code, detail, path };
}

/**
 * Member names of `obj` equal to an earlier name after Unicode NFC (CPB declaration §2a). The
 * strict parser already refuses exact repeats; a precomposed/decomposed pair gets past it and
 * would give two members that one JCS-N implementation merges and another keeps.
 */
function nfcCollisions(obj: JsonObject): string[] {
  const seen = new Set<string>();
  const collisions: string[] = [];
  for (const name of Object.keys(obj)) {
    const nfc = name.normalize("NFC");
    if (seen.has(nfc)) collisions.push(name);
    else seen.add(nfc);
  }
  return collisions;
}

/**
 * Step 2 (and the derived-identifier construction of CPB §4): a copy of `obj` without the
 * top-level members named in `exclusionSet`. Names match exactly; nested members are untouched
 * (CPB kat-22: a recursive strip forks the digest).
 */
export function excludeTopLevel(obj: JsonObject, exclusionSet: readonly string[]): JsonObject {
  const out = newJsonObject();
  for (const name of Object.keys(obj)) {
    if (!exclusionSet.includes(name)) out[name] = obj[name] as JsonValue;
  }
  return out;
}

/** The member values absent-field normalization drops: null, [] and {}. */
export function isAbsentFieldValue(v: JsonValue): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJsonObject(v) && Object.keys(v).length === 0;
}

/**
 * Step 3. Children first, so `{"a":{"c":null}}` loses `c`, then `a`. Array elements stay even
 * when they normalize to {} or are null: they are positions, not members (CPB kat-14).
 */
function normalizeAbsentFields(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(normalizeAbsentFields);
  if (!isJsonObject(v)) return v;
  const out = newJsonObject();
  for (const name of Object.keys(v)) {
    const m = normalizeAbsentFields(v[name] as JsonValue);
    if (!isAbsentFieldValue(m)) out[name] = m;
  }
  return out;
}
