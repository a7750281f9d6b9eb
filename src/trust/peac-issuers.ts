/**
 * The `peacIssuers` trust section (contract §5): for each PEAC issuer, exactly as receipts name it
 * in `iss`, the Ed25519 keys it signs with by `kid`, and the kids it has revoked. A receipt's key
 * is looked up here and nowhere else — never in the receipt, the Task or an issuer's well-known
 * document.
 *
 * Mistakes that would silently turn every receipt into "no pinned key" fail loudly instead: an
 * `iss` that is not canonical (a trailing slash, `:443`, uppercase) can never equal a Wire 0.2
 * `iss`; a kid listed twice is ambiguous; a key that is not Ed25519 or that PEAC's Ed25519 profile
 * rejects could never verify a receipt.
 *
 * A kid both pinned and revoked is not a mistake: it is what a JWKS copied together with its
 * issuer's `revoked_keys` looks like. Revocation wins (contract §9.25): the key stays listed so
 * that a receipt's report can say the kid was pinned too, and the receipt verifier refuses every
 * receipt under a revoked kid before it looks for a key.
 */
import { joinPath } from "../json/path.js";
import { member, type JsonObject, type JsonValue } from "../json/value.js";
import { fail, ok, type Result } from "../result.js";
import { importPublicKey } from "../cose/keys.js";
import { hexToBytes } from "../util/bytes.js";
import { isCanonicalIss } from "../peac/claims.js";
import { pointRejection } from "../peac/ed25519.js";
import { isWellFormedKid } from "../peac/jws.js";
import type { PinnedPeacIssuer } from "../peac/receipt.js";
import { readWindowMembers, type KeyWindow } from "./key-window.js";

export interface TrustedPeacKey {
  readonly kid: string;
  readonly raw: Uint8Array;
  /** Lowercase hex of the raw key, for reports. */
  readonly hex: string;
  /** Where the key is in the trust file. */
  readonly path: string;
  /** Its window over time (contract §5.1); absent when the entry has none. */
  readonly window?: KeyWindow;
}

export interface TrustedPeacIssuer extends PinnedPeacIssuer {
  readonly iss: string;
  readonly keys: ReadonlyMap<string, TrustedPeacKey>;
  readonly revokedKids: ReadonlySet<string>;
}

/** Loads `peacIssuers` from a native trust file that already matched the schema. */
export function loadPeacIssuers(v: JsonObject): Result<Map<string, TrustedPeacIssuer>> {
  const out = new Map<string, TrustedPeacIssuer>();
  for (const [i, e] of ((member(v, "peacIssuers") as JsonValue[] | undefined) ?? []).entries()) {
    const entry = e as JsonObject;
    const at = joinPath("peacIssuers", i);
    const iss = member(entry, "iss") as string;
    if (!isCanonicalIss(iss)) {
      return fail(
        "TRUST_SCHEMA",
        `${JSON.stringify(iss)} is not a canonical PEAC issuer (an https origin such as https://issuer.example, or did:<method>:<id>): no receipt could match it`,
        joinPath(at, "iss"),
      );
    }
    if (out.has(iss))
      return fail(
        "TRUST_DUPLICATE_ENTRY",
        `${JSON.stringify(iss)} is listed twice in peacIssuers`,
        joinPath(at, "iss"),
      );
    const revoked = new Set<string>();
    for (const [j, kid] of ((member(entry, "revokedKids") as string[] | undefined) ?? []).entries()) {
      if (revoked.has(kid))
        return fail(
          "TRUST_DUPLICATE_ENTRY",
          `kid ${JSON.stringify(kid)} is revoked twice`,
          joinPath(at, "revokedKids", j),
        );
      revoked.add(kid);
    }
    const keys = new Map<string, TrustedPeacKey>();
    for (const [j, k] of (member(entry, "keys") as JsonObject[]).entries()) {
      const kat = joinPath(at, "keys", j);
      const kid = member(k, "kid") as string;
      if (!isWellFormedKid(kid))
        return fail(
          "TRUST_SCHEMA",
          "a PEAC kid is well-formed Unicode of at most 256 UTF-8 bytes",
          joinPath(kat, "kid"),
        );
      if (keys.has(kid))
        return fail(
          "TRUST_DUPLICATE_ENTRY",
          `kid ${JSON.stringify(kid)} is listed twice for ${iss}`,
          joinPath(kat, "kid"),
        );
      const imported = importPublicKey(member(k, "key") as JsonValue);
      if (!imported.ok) return fail("TRUST_KEY_INVALID", `${imported.detail} (${imported.code})`, joinPath(kat, "key"));
      const hex = imported.value.ed25519Hex;
      if (imported.value.algorithm !== "Ed25519" || hex === undefined) {
        return fail(
          "TRUST_KEY_INVALID",
          `PEAC receipts are EdDSA: an Ed25519 key is required, not ${imported.value.algorithm}`,
          joinPath(kat, "key"),
        );
      }
      const raw = hexToBytes(hex) as Uint8Array;
      const rejection = pointRejection(raw);
      if (rejection !== null)
        return fail(
          "TRUST_KEY_INVALID",
          `the PEAC Ed25519 profile rejects this key (${rejection})`,
          joinPath(kat, "key"),
        );
      const window = readWindowMembers(k, kat);
      if (!window.ok) return window;
      keys.set(kid, { kid, raw, hex, path: joinPath(kat, "key"), ...(window.value ? { window: window.value } : {}) });
    }
    out.set(iss, { iss, keys, revokedKids: revoked });
  }
  return ok(out);
}
