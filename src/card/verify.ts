/**
 * Agent Card signatures (A2A v1.0 §8.4; a2a-wire.md §7): each entry of `signatures[]` is a JWS in
 * flattened JSON serialization with a detached payload — the signing input is
 * `protected || "." || base64url(canonical card bytes)`. For each signature, in order:
 *
 *   signature.shape      `protected` and `signature` are strings; `header` an object if present
 *   protected.decode     `protected` is strict base64url of a strict-JSON object
 *   header.params        `alg` (from the allowlist: never `none` or HS*) and `kid` in the protected
 *                        header; no `crit`, no `b64`; protected and unprotected names disjoint
 *   key.pinned           the trust file pins keys for this card (by URL or name) that fit `alg`
 *                        and `kid`; keys the card points at (`jku`) are reported, never fetched
 *   signature.verify     the signature verifies under a pinned key over one of the candidate
 *                        payloads of ./canonicalize.ts, tried in order; the match is named
 *
 * PASS needs a pinned key; a signature no pinned key could have made is INCONCLUSIVE (unknown
 * key), never PASS; one that a fitting pinned key does not verify is a FAIL.
 */
import { flattenedVerify } from "jose";
import { parseStrictJson } from "../json/strict-json.js";
import { isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { showValue } from "../json/diff.js";
import { fail, ok, type Result } from "../result.js";
import type { TrustConfig } from "../trust/config.js";
import type { TrustedAgentKey } from "../trust/agents.js";
import type { AgentKeyType } from "../trust/agent-keys.js";
import {
  CANONICALIZATIONS,
  canonicalCard,
  notCoveredBy,
  readCard,
  type Canonicalization,
  type ReadCard,
} from "./canonicalize.js";
import { evidenceExtension, type ExtensionDeclaration } from "./extension.js";

export const DEFAULT_CARD_ALGORITHMS = ["ES256", "ES384", "ES512", "PS256", "RS256", "EdDSA", "Ed25519"] as const;

/** Which pinned key types can make a signature under each algorithm. */
const ALG_KEY_TYPES: Readonly<Record<string, readonly AgentKeyType[]>> = {
  ES256: ["P-256"],
  ES384: ["P-384"],
  ES512: [],
  PS256: ["RSA"],
  RS256: ["RSA"],
  EdDSA: ["Ed25519"],
  Ed25519: ["Ed25519"],
};

export type SignatureState = "PASS" | "FAIL" | "INCONCLUSIVE";

export interface SignatureResult {
  readonly index: number;
  readonly state: SignatureState;
  /** The check that decided the state. */
  readonly check: "signature.shape" | "protected.decode" | "header.params" | "key.pinned" | "signature.verify";
  readonly detail: string;
  readonly alg?: string;
  readonly kid?: string;
  readonly typ?: string;
  /** Reported, never fetched. */
  readonly jku?: string;
  readonly canonicalization?: Canonicalization;
  /** Other candidates with byte-identical payloads: they match too. */
  readonly alsoMatches?: readonly Canonicalization[];
  readonly key?: { readonly agent: string; readonly path: string; readonly fingerprint: string };
  /** What the card carries that the matched payload leaves out: unsigned, whatever the signature says. */
  readonly notCovered?: readonly string[];
  readonly warnings: readonly string[];
}

export interface CardReport {
  readonly name: string | null;
  /** Trust file `agents` entries that apply to this card. */
  readonly agents: readonly string[];
  readonly signatures: readonly SignatureResult[];
  /** Members outside the v1.0 model: covered only by a signature matched under served-scope. */
  readonly unknownFields: readonly string[];
  readonly extension: ExtensionDeclaration;
  /** 0 a pinned key verified a signature and none failed; 1 a signature fails; 3 nothing fails, nothing verified. */
  readonly exitCode: 0 | 1 | 3;
}

export interface VerifyCardOptions {
  /** Where the card was fetched from, to match a trust entry named by URL. */
  readonly cardUrl?: string;
  /** Try only this canonicalization. */
  readonly canonicalization?: Canonicalization;
  readonly algorithms?: readonly string[];
}

const MAX_SIGNATURES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeBase64url(s: string): Uint8Array | undefined {
  if (!BASE64URL.test(s)) return undefined;
  const bytes = Buffer.from(s, "base64url");
  // Re-encoding refuses padding, stray bits and any alphabet the regex let through.
  return bytes.toString("base64url") === s ? new Uint8Array(bytes) : undefined;
}

interface Candidate {
  readonly name: Canonicalization;
  readonly payload: string;
  readonly notCovered: readonly string[];
}

function candidates(card: ReadCard, only: Canonicalization | undefined): Result<Candidate[]> {
  const out: Candidate[] = [];
  for (const name of only ? [only] : CANONICALIZATIONS) {
    const bytes = canonicalCard(card, name);
    if (!bytes.ok) return bytes;
    out.push({ name, payload: Buffer.from(bytes.value).toString("base64url"), notCovered: notCoveredBy(card, name) });
  }
  return ok(out);
}

type PinnedKey = { agent: string; key: TrustedAgentKey };

function pinnedKeys(trust: TrustConfig | undefined, names: readonly string[]): { agents: string[]; keys: PinnedKey[] } {
  const agents: string[] = [];
  const keys: PinnedKey[] = [];
  for (const name of new Set(names)) {
    const entry = trust?.agents.get(name);
    if (!entry) continue;
    agents.push(name);
    for (const key of entry.keys) keys.push({ agent: name, key });
  }
  return { agents, keys };
}

/** The names a trust entry may use for this card: the URL it came from, its interface URLs, its name. */
function cardNames(card: JsonObject, cardUrl: string | undefined): string[] {
  const names: string[] = cardUrl !== undefined ? [cardUrl] : [];
  const interfaces = member(card, "supportedInterfaces") ?? member(card, "supported_interfaces");
  if (Array.isArray(interfaces)) {
    for (const i of interfaces) {
      const url = isJsonObject(i) ? member(i, "url") : undefined;
      if (typeof url === "string") names.push(url);
    }
  }
  const name = member(card, "name");
  if (typeof name === "string" && name !== "") names.push(name);
  return names;
}

type Judged = Omit<SignatureResult, "index" | "warnings">;

/** The members of a signature entry, once its shape and protected header are sound. */
interface Entry {
  readonly prot: string;
  readonly sig: string;
  readonly header: JsonValue | undefined;
  /** The decoded protected header. */
  readonly ph: JsonObject;
}

/** The header parameters the result reports, as far as they are strings. */
type Seen = Pick<Judged, "alg" | "kid" | "typ" | "jku">;

/** signature.shape and protected.decode: the entry's members, or the FAIL that stops it. */
function readEntry(entry: JsonValue): Entry | Judged {
  if (!isJsonObject(entry))
    return { state: "FAIL", check: "signature.shape", detail: "the signature entry is not an object" };
  const prot = member(entry, "protected");
  const sig = member(entry, "signature");
  const header = member(entry, "header");
  if (typeof prot !== "string" || typeof sig !== "string")
    return { state: "FAIL", check: "signature.shape", detail: "protected and signature must be strings" };
  if (header !== undefined && header !== null && !isJsonObject(header))
    return { state: "FAIL", check: "signature.shape", detail: "header must be an object" };
  const protBytes = decodeBase64url(prot);
  const parsed = protBytes ? parseStrictJson(protBytes) : undefined;
  if (!parsed?.ok || !isJsonObject(parsed.value)) {
    return {
      state: "FAIL",
      check: "protected.decode",
      detail: `the protected header is not strict base64url of a JSON object${parsed && !parsed.ok ? ` (${parsed.detail})` : ""}`,
    };
  }
  return { prot, sig, header, ph: parsed.value };
}

/**
 * header.params: the algorithm and key id the signature names, or the FAIL that stops it. A
 * missing or unexpected typ is a warning only.
 */
function headerParams(
  { ph, header }: Entry,
  algorithms: readonly string[],
  warnings: string[],
): { alg: string; kid: string; seen: Seen } | Judged {
  const alg = member(ph, "alg");
  const kid = member(ph, "kid");
  const typ = member(ph, "typ");
  const jku = member(ph, "jku");
  const seen = {
    ...(typeof alg === "string" ? { alg } : {}),
    ...(typeof kid === "string" ? { kid } : {}),
    ...(typeof typ === "string" ? { typ } : {}),
    ...(typeof jku === "string" ? { jku } : {}),
  };
  const headerFail = (detail: string): Judged => ({ ...seen, state: "FAIL", check: "header.params", detail });
  if (typeof alg !== "string") return headerFail("the protected header has no alg");
  if (!algorithms.includes(alg)) return headerFail(`alg ${alg} is not allowed (allowed: ${algorithms.join(", ")})`);
  if (typeof kid !== "string" || kid === "") return headerFail("the protected header has no kid");
  if (member(ph, "crit") !== undefined)
    return headerFail(`crit ${showValue(member(ph, "crit"))}: no critical header parameter is understood`);
  if (member(ph, "b64") !== undefined)
    return headerFail("b64 (RFC 7797 unencoded payload) is not how Agent Cards are signed");
  if (isJsonObject(header)) {
    const both = Object.keys(header).filter((k) => Object.prototype.hasOwnProperty.call(ph, k));
    if (both.length > 0)
      return headerFail(`${both.join(", ")} in both the protected and the unprotected header (RFC 7515 §7.2.1)`);
  }
  if (typ === undefined) warnings.push('the protected header has no typ (A2A: "JOSE")');
  else if (typ !== "JOSE") warnings.push(`typ ${showValue(typ)} is not "JOSE"`);
  return { alg, kid, seen };
}

/** key.pinned: the pinned keys that could have made a signature under `alg` and `kid`, or why none could. */
function fittingKeys(
  pinned: readonly PinnedKey[],
  alg: string,
  kid: string,
  seen: Seen,
): readonly PinnedKey[] | Judged {
  const fitting = pinned.filter(
    ({ key }) => (ALG_KEY_TYPES[alg] ?? []).includes(key.type) && (key.kid === undefined || key.kid === kid),
  );
  if (pinned.length === 0)
    return {
      ...seen,
      state: "INCONCLUSIVE",
      check: "key.pinned",
      detail: "the trust file pins no key for this card (unknown key)",
    };
  if (fitting.length === 0)
    return {
      ...seen,
      state: "INCONCLUSIVE",
      check: "key.pinned",
      detail: `no pinned key for this card fits ${alg} with kid ${kid} (unknown key)`,
    };
  return fitting;
}

/** signature.verify: the first fitting key and candidate payload the signature verifies under, else FAIL. */
async function verifySignature(
  { prot, sig, header }: Entry,
  fitting: readonly PinnedKey[],
  cands: readonly Candidate[],
  alg: string,
  seen: Seen,
): Promise<Judged> {
  for (const { agent, key } of fitting) {
    for (const c of cands) {
      try {
        await flattenedVerify(
          {
            protected: prot,
            payload: c.payload,
            signature: sig,
            ...(isJsonObject(header) ? { header: header as Record<string, unknown> } : {}),
          },
          key.key,
          { algorithms: [alg] },
        );
      } catch {
        continue;
      }
      const alsoMatches = cands.filter((o) => o.name !== c.name && o.payload === c.payload).map((o) => o.name);
      return {
        ...seen,
        state: "PASS",
        check: "signature.verify",
        detail: `${alg} signature verifies under the key pinned at ${key.path} (${agent}) over the ${c.name} canonicalization`,
        canonicalization: c.name,
        ...(alsoMatches.length > 0 ? { alsoMatches } : {}),
        key: { agent, path: key.path, fingerprint: key.fingerprint },
        ...(c.notCovered.length > 0 ? { notCovered: c.notCovered } : {}),
      };
    }
  }
  return {
    ...seen,
    state: "FAIL",
    check: "signature.verify",
    detail: `the ${alg} signature does not verify under ${fitting.length === 1 ? "the pinned key" : `any of the ${fitting.length} pinned keys`} over any canonicalization (${cands.map((c) => c.name).join(", ")})`,
  };
}

/** Judges one signature entry: the first check of the module's list that decides it. */
async function verifyOne(
  entry: JsonValue,
  pinned: readonly PinnedKey[],
  cands: readonly Candidate[],
  algorithms: readonly string[],
  warnings: string[],
): Promise<Judged> {
  const read = readEntry(entry);
  if ("state" in read) return read;
  const params = headerParams(read, algorithms, warnings);
  if ("state" in params) return params;
  const { alg, kid, seen } = params;
  const fitting = fittingKeys(pinned, alg, kid, seen);
  if ("state" in fitting) return fitting;
  return verifySignature(read, fitting, cands, alg, seen);
}

/** Verifies a card's signatures against the trust file's `agents` keys. Never throws on bad input. */
export async function verifyCard(
  data: Uint8Array | string,
  trust: TrustConfig | undefined,
  options: VerifyCardOptions = {},
): Promise<Result<CardReport>> {
  const parsed = parseStrictJson(data);
  if (!parsed.ok) return fail("CARD_NOT_JSON", `${parsed.detail} (${parsed.code})`, parsed.path);
  if (!isJsonObject(parsed.value)) return fail("CARD_NOT_JSON", "an Agent Card must be a JSON object", "$");
  const value = parsed.value;
  const card = readCard(value);
  if (!card.ok) return card;
  const signatures = member(value, "signatures");
  if (signatures !== undefined && signatures !== null && !Array.isArray(signatures))
    return fail("CARD_MALFORMED", "signatures must be an array", "signatures");
  const list = (signatures ?? []) as JsonValue[];
  if (list.length > MAX_SIGNATURES)
    return fail("CARD_MALFORMED", `${list.length} signatures: more than ${MAX_SIGNATURES} is refused`, "signatures");
  const cands = candidates(card.value, options.canonicalization);
  if (!cands.ok) return cands;
  const { agents, keys } = pinnedKeys(trust, cardNames(value, options.cardUrl));
  const algorithms = options.algorithms ?? DEFAULT_CARD_ALGORITHMS;
  const results: SignatureResult[] = [];
  for (const [index, entry] of list.entries()) {
    const warnings: string[] = [];
    const r = await verifyOne(entry, keys, cands.value, algorithms, warnings);
    results.push({ index, ...r, warnings });
  }
  const passes = results.filter((r) => r.state === "PASS");
  const exitCode = results.some((r) => r.state === "FAIL") ? 1 : passes.length > 0 ? 0 : 3;
  const name = member(value, "name");
  return ok({
    name: typeof name === "string" ? name : null,
    agents,
    signatures: results,
    unknownFields: card.value.unknownFields,
    extension: evidenceExtension(value),
    exitCode,
  });
}
