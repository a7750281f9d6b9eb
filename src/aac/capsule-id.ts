/**
 * AAC `capsule_id` (AAC-05 §Identity and Class-1 checks 1–2; content-binding.md §7.1).
 *
 *   format "4": hex(SHA-256(JCS(capsule − {capsule_id, signature, key_id})))
 *               RFC 8785 with safe integers only; nulls, [] and {}, `chain` and
 *               `canonicalization_id` all take part, so re-parenting a sealed capsule changes
 *               its id and invalidates every envelope over it.
 *   format "2": hex(SHA-256(JCS-N(capsule − {capsule_id, chain, signature, key_id})))
 *               the vintage rule, kept to verify capsules sealed before format "4".
 *
 * `signature` and `key_id` are local-only envelope bookkeeping the producer adds after sealing;
 * the reference implementations drop them under both formats, and the published ids only
 * reproduce without them. The format decides the rule, and the capsule must declare it
 * consistently: format "4" commits to `canonicalization_id: "jcs"`, format "2" predates the
 * member. The id is never guessed from the capsule's shape, and the carried id is never trusted.
 */
import { isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { fail, ok, type Result } from "../result.js";
import { jcs } from "../canon/jcs.js";
import { excludeTopLevel, jcsN } from "../canon/jcs-n.js";
import { isHex64, sha256HexOfText } from "../util/bytes.js";

export type CapsuleFormatVersion = "4" | "2";

export interface CapsuleIdentity {
  readonly capsuleId: string;
  readonly formatVersion: CapsuleFormatVersion;
  /** The canonical text whose UTF-8 octets were hashed. */
  readonly preImage: string;
}

const EXCLUDED: Record<CapsuleFormatVersion, readonly string[]> = {
  "4": ["capsule_id", "signature", "key_id"],
  "2": ["capsule_id", "chain", "signature", "key_id"],
};

export function computeCapsuleId(capsule: JsonValue): Result<CapsuleIdentity> {
  if (!isJsonObject(capsule)) return fail("AAC_NOT_AN_OBJECT", "a capsule is a JSON object", "$");
  const formatVersion = declaredFormat(capsule);
  if (!formatVersion.ok) return formatVersion;
  const preImage = identityPreImage(capsule, formatVersion.value);
  if (!preImage.ok) return preImage;
  return ok({
    capsuleId: sha256HexOfText(preImage.value),
    formatVersion: formatVersion.value,
    preImage: preImage.value,
  });
}

/**
 * Recomputes the id and compares it with the carried `capsule_id`, which must first be in the
 * id grammar: a padded or uppercase id is a different representation, not the same id.
 */
export function checkCarriedCapsuleId(
  capsule: JsonValue,
): Result<{ capsuleId: string; formatVersion: CapsuleFormatVersion }> {
  if (!isJsonObject(capsule)) return fail("AAC_NOT_AN_OBJECT", "a capsule is a JSON object", "$");
  const carried = member(capsule, "capsule_id");
  if (carried === undefined) return fail("AAC_CAPSULE_ID_MISSING", "the capsule carries no capsule_id", "capsule_id");
  if (!isHex64(carried))
    return fail(
      "AAC_CAPSULE_ID_MALFORMED",
      `carried capsule_id ${describe(carried)} is not 64 lowercase hex characters`,
      "capsule_id",
    );
  const recomputed = computeCapsuleId(capsule);
  if (!recomputed.ok) return recomputed;
  const { capsuleId, formatVersion } = recomputed.value;
  if (capsuleId !== carried) {
    return fail(
      "AAC_CAPSULE_ID_MISMATCH",
      `recomputed ${capsuleId} != carried ${carried} (format "${formatVersion}")`,
      "capsule_id",
    );
  }
  return ok({ capsuleId, formatVersion });
}

/**
 * The per-format hashing rule alone, without the format_version / canonicalization_id checks of
 * computeCapsuleId. For reproducing what a reference reports for a capsule this verifier
 * refuses (e.g. an unsupported format_version); never a substitute for computeCapsuleId.
 */
export function identityPreImage(capsule: JsonObject, rule: CapsuleFormatVersion): Result<string> {
  if (rule === "2") {
    const r = jcsN(capsule, EXCLUDED["2"]);
    return r.ok ? ok(r.value.preImage) : r;
  }
  return jcs(excludeTopLevel(capsule, EXCLUDED["4"]), { numbers: "safe-integers" });
}

function declaredFormat(capsule: JsonObject): Result<CapsuleFormatVersion> {
  const version = member(capsule, "format_version");
  if (version === undefined)
    return fail("AAC_FORMAT_VERSION_MISSING", "the capsule has no format_version", "format_version");
  if (typeof version !== "string")
    return fail(
      "AAC_FORMAT_VERSION_NOT_STRING",
      `format_version is ${describe(version)}, not a string`,
      "format_version",
    );
  const declared = member(capsule, "canonicalization_id");
  if (version === "4") {
    if (declared === undefined)
      return fail(
        "AAC_CANONICALIZATION_ID_MISSING",
        'format "4" requires canonicalization_id "jcs"',
        "canonicalization_id",
      );
    if (typeof declared !== "string") {
      return fail(
        "AAC_CANONICALIZATION_ID_NOT_STRING",
        `canonicalization_id is ${describe(declared)}, not a string`,
        "canonicalization_id",
      );
    }
    if (declared !== "jcs") {
      return fail(
        "AAC_CANONICALIZATION_PROFILE_MISMATCH",
        `format "4" requires canonicalization_id "jcs", not ${describe(declared)}`,
        "canonicalization_id",
      );
    }
    return ok("4");
  }
  if (version === "2") {
    // A vintage capsule predates the declaration; one that carries it was altered or mislabelled.
    if (declared !== undefined) {
      return fail(
        "AAC_CANONICALIZATION_PROFILE_MISMATCH",
        `format "2" declares no canonicalization_id, found ${describe(declared)}`,
        "canonicalization_id",
      );
    }
    return ok("2");
  }
  return fail(
    "AAC_FORMAT_VERSION_UNSUPPORTED",
    `format_version ${describe(version)} is not "4" or "2"`,
    "format_version",
  );
}

/** A short rendering of an untrusted value for a detail string. */
function describe(v: JsonValue): string {
  if (typeof v === "string") return JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (isJsonObject(v)) return "an object";
  return typeof v === "boolean" ? String(v) : `the number ${v.lexeme}`;
}
