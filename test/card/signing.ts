/**
 * Signs Agent Cards the way a signer would, independently of src/card: the payload is built here
 * (the canonicalize package for RFC 8785, a small Python-dumps writer for the legacy variant) and
 * signed with jose's FlattenedSign, detached.
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import canonicalize from "canonicalize";
import { FlattenedSign } from "jose";

export interface SigningKey {
  readonly alg: string;
  readonly privateKey: KeyObject;
  /** The public JWK, with its kid, as a trust file pins it. */
  readonly publicJwk: Record<string, unknown>;
  readonly kid: string;
}

export function newKey(alg: "ES256" | "ES384" | "EdDSA" | "RS256", kid: string): SigningKey {
  const pair =
    alg === "EdDSA"
      ? generateKeyPairSync("ed25519")
      : alg === "RS256"
        ? generateKeyPairSync("rsa", { modulusLength: 2048 })
        : generateKeyPairSync("ec", { namedCurve: alg === "ES256" ? "P-256" : "P-384" });
  return { alg, privateKey: pair.privateKey, publicJwk: { ...pair.publicKey.export({ format: "jwk" }), kid }, kid };
}

/** The SDKs' cleanup: every "", null, [] and {} removed, recursively. */
export function cleanEmpty(v: unknown): unknown {
  if (v === "" || v === null || v === undefined) return undefined;
  if (Array.isArray(v)) {
    const out = v.map(cleanEmpty).filter((e) => e !== undefined);
    return out.length ? out : undefined;
  }
  if (typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v as Record<string, unknown>)) {
      const c = cleanEmpty(e);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v;
}

export function withoutSignatures(card: Record<string, unknown>): Record<string, unknown> {
  const { signatures: _, ...rest } = card;
  void _;
  return rest;
}

export const jcsBytes = (v: unknown) => new TextEncoder().encode(canonicalize(v) as string);

/** Python json.dumps(sort_keys=True, separators=(",",":")): ASCII escapes; integral floats as given (the caller writes 60.0). */
export function pythonDumps(v: unknown, floats: ReadonlySet<number> = new Set()): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return String(v);
  if (typeof v === "number") return floats.has(v) && Number.isInteger(v) ? `${v}.0` : String(v);
  if (typeof v === "string") {
    return `"${[...v]
      .map((ch) => {
        const c = ch.codePointAt(0) as number;
        if (ch === '"') return '\\"';
        if (ch === "\\") return "\\\\";
        if (c >= 0x20 && c < 0x7f) return ch;
        if (c > 0xffff) {
          const hi = 0xd800 + ((c - 0x10000) >> 10);
          const lo = 0xdc00 + ((c - 0x10000) & 0x3ff);
          return `\\u${hi.toString(16).padStart(4, "0")}\\u${lo.toString(16).padStart(4, "0")}`;
        }
        return `\\u${c.toString(16).padStart(4, "0")}`;
      })
      .join("")}"`;
  }
  if (Array.isArray(v)) return `[${v.map((e) => pythonDumps(e, floats)).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${pythonDumps(k)}:${pythonDumps(o[k], floats)}`)
    .join(",")}}`;
}

export async function sign(
  payload: Uint8Array,
  key: SigningKey,
  header: Record<string, unknown> = {},
): Promise<{ protected: string; signature: string }> {
  const jws = await new FlattenedSign(payload)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "JOSE", ...header } as never)
    .sign(key.privateKey);
  return { protected: jws.protected as string, signature: jws.signature };
}

/** The card with one more signature over `payload`. */
export async function signed(
  card: Record<string, unknown>,
  payload: Uint8Array,
  key: SigningKey,
  header: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const s = await sign(payload, key, header);
  return { ...card, signatures: [...((card.signatures as unknown[]) ?? []), s] };
}
