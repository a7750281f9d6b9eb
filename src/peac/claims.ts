/**
 * Wire 0.2 claims, after the signature verified: kernel constraints (E_CONSTRAINT_VIOLATION), the
 * Wire02ClaimsSchema envelope with its known extension groups (E_INVALID_FORMAT, the PEAC issue
 * in the detail), strict type-to-extension enforcement, the warnings verifyLocal emits, and the
 * time rules — which run only against a caller-supplied time, never a clock.
 */
import { formatPath, type PathSegment } from "../json/path.js";
import { isJsonObject, member, type JsonNumber, type JsonObject, type JsonValue } from "../json/value.js";
import type { PeacCode } from "../codes/peac.js";
import { printable } from "../util/printable.js";
import { CLOCK_SKEW_SECONDS, REGISTERED_EXTENSION_GROUPS, TYPE_TO_EXTENSION } from "./constants.js";
import { extensionSchemas, RFC3339_OFFSET_DATETIME } from "./extensions.js";
import {
  all,
  arr,
  ecmaJsonLength,
  enumOf,
  int,
  issuesOf,
  literal,
  obj,
  optional,
  record,
  str,
  type Issue,
  type Rule,
} from "./shape.js";

export interface ClaimsFailure {
  readonly code: PeacCode;
  readonly detail: string;
}

export interface Warning {
  readonly code: string;
  readonly pointer?: string;
}

/** KERNEL_CONSTRAINTS (schema/src/constraints.ts), walked without recursion as PEAC does. */
const LIMITS = { depth: 32, array: 10_000, keys: 1_000, string: 65_536, nodes: 100_000 } as const;

export function kernelConstraintViolation(claims: JsonValue): string | undefined {
  let nodes = 0;
  const stack: Array<{ v: JsonValue; depth: number }> = [{ v: claims, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop() as { v: JsonValue; depth: number };
    if (++nodes > LIMITS.nodes) return `MAX_TOTAL_NODES (limit ${LIMITS.nodes})`;
    if (depth > LIMITS.depth) return `MAX_NESTED_DEPTH (actual ${depth}, limit ${LIMITS.depth})`;
    if (typeof v === "string") {
      if (v.length > LIMITS.string) return `MAX_STRING_LENGTH (actual ${v.length}, limit ${LIMITS.string})`;
    } else if (Array.isArray(v)) {
      if (v.length > LIMITS.array) return `MAX_ARRAY_LENGTH (actual ${v.length}, limit ${LIMITS.array})`;
      for (const e of v) stack.push({ v: e, depth: depth + 1 });
    } else if (isJsonObject(v)) {
      const keys = Object.keys(v);
      if (keys.length > LIMITS.keys) return `MAX_OBJECT_KEYS (actual ${keys.length}, limit ${LIMITS.keys})`;
      for (const k of keys) stack.push({ v: v[k] as JsonValue, depth: depth + 1 });
    }
  }
  return undefined;
}

/** isCanonicalIss: an https origin exactly as WHATWG URL prints it, or `did:<method>:<id>`. */
export function isCanonicalIss(iss: string): boolean {
  if (iss.length === 0 || iss.length > 2048) return false;
  if (iss.startsWith("did:")) return /^did:[a-z0-9]+:[^#?/]+$/.test(iss);
  try {
    const url = new URL(iss);
    if (url.protocol !== "https:" || !url.hostname || url.username !== "" || url.password !== "") return false;
    return iss === `${url.protocol}//${url.host}`;
  } catch {
    return false;
  }
}

/** isValidReceiptType: reverse-DNS `<domain.with.dot>/<segment>` or an absolute URI. */
export function isValidReceiptType(t: string): boolean {
  if (t.length === 0 || t.length > 256) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(t)) return true;
  const slash = t.indexOf("/");
  if (slash <= 0) return false;
  const domain = t.slice(0, slash);
  const seg = t.slice(slash + 1);
  return (
    domain.includes(".") &&
    seg.length > 0 &&
    /^[a-zA-Z0-9][a-zA-Z0-9.-]*$/.test(domain) &&
    /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/.test(seg)
  );
}

/** isValidExtensionKey: lowercase `<dns.domain>/<segment>`, DNS labels ≤ 63, domain ≤ 253, key ≤ 512. */
export function isValidExtensionKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  const slash = key.indexOf("/");
  if (slash <= 0) return false;
  const domain = key.slice(0, slash);
  const seg = key.slice(slash + 1);
  if (!domain.includes(".") || domain.length > 253 || seg.length === 0 || !/^[a-z0-9][a-z0-9_-]*$/.test(seg))
    return false;
  return domain.split(".").every((l) => l.length > 0 && l.length <= 63 && /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(l));
}

/** actor-binding.ts isOriginOnly: http(s) origin, no path, query, fragment, userinfo or trailing dot. */
function isOriginOnly(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" && url.protocol !== "http:") return false;
    if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || value.includes("#")) return false;
    if (url.username !== "" || url.password !== "" || url.hostname.endsWith(".") || url.hostname.includes("%"))
      return false;
    return !(value.replace(/^https?:\/\//, "").split(/[/:]/)[0] as string).endsWith(".");
  } catch {
    return false;
  }
}

const PILLARS = [
  "access",
  "attribution",
  "commerce",
  "compliance",
  "consent",
  "identity",
  "privacy",
  "provenance",
  "purpose",
  "safety",
];
const MIME =
  /^[a-zA-Z0-9][a-zA-Z0-9!#$&\-^_.+]*\/[a-zA-Z0-9][a-zA-Z0-9!#$&\-^_.+]*(;\s*[a-zA-Z0-9][a-zA-Z0-9!#$&\-^_.+]*=[^\s;]+)*$/;
const SHA256 = /^sha256:[0-9a-f]{64}$/;

function sortedUnique(a: JsonValue[]): boolean {
  for (let i = 1; i < a.length; i++) if (!((a[i] as string) > (a[i - 1] as string))) return false;
  return true;
}

const ENVELOPE: Rule = obj({
  peac_version: literal("0.2"),
  kind: enumOf(["evidence", "challenge"]),
  type: str({ max: 256, refine: [isValidReceiptType, "type must be reverse-DNS notation or an absolute URI"] }),
  iss: str({ max: 2048, refine: [isCanonicalIss, "E_ISS_NOT_CANONICAL"] }),
  iat: int(),
  jti: str({ min: 1, max: 256 }),
  sub: optional(str({ max: 2048 })),
  pillars: optional(
    all(arr(enumOf(PILLARS), { min: 1 }), (v, path, out) => {
      if (Array.isArray(v) && v.every((p) => typeof p === "string") && !sortedUnique(v))
        out.push({ path, message: "E_PILLARS_NOT_SORTED" });
    }),
  ),
  actor: optional(
    obj({
      id: str({ min: 1, max: 256 }),
      proof_type: enumOf([
        "ed25519-cert-chain",
        "eat-passport",
        "eat-background-check",
        "sigstore-oidc",
        "did",
        "spiffe",
        "x509-pki",
        "custom",
      ]),
      proof_ref: optional(str({ max: 2048 })),
      origin: str({ max: 2048, refine: [isOriginOnly, "origin must be an origin-only URL"] }),
      intent_hash: optional(str({ pattern: SHA256 })),
    }),
  ),
  policy: optional(
    obj({
      digest: str({ pattern: SHA256 }),
      uri: optional(
        str({ max: 2048, url: true, refine: [(u) => u.startsWith("https://"), "policy.uri must be an https:// URL"] }),
      ),
      version: optional(str({ max: 256 })),
    }),
  ),
  representation: optional(
    obj({
      content_hash: optional(str({ max: 76, pattern: SHA256 })),
      content_type: optional(str({ max: 256, pattern: MIME })),
      content_length: optional(int({ min: 0 })),
    }),
  ),
  occurred_at: optional(str({ pattern: RFC3339_OFFSET_DATETIME })),
  purpose_declared: optional(str({ max: 256 })),
  extensions: optional(record()),
});

/** validateKnownExtensions: key grammar, the known groups' schemas, then the byte budgets. */
function extensionIssues(extensions: JsonObject): Issue[] {
  const out: Issue[] = [];
  for (const key of Object.keys(extensions)) {
    if (!isValidExtensionKey(key)) {
      out.push({ path: ["extensions", key], message: "E_INVALID_EXTENSION_KEY" });
      continue;
    }
    const rule = extensionSchemas().get(key);
    if (rule)
      for (const i of issuesOf(rule, extensions[key]))
        out.push({ path: ["extensions", key, ...i.path], message: i.message });
  }
  if (ecmaJsonLength(extensions) > 262_144)
    return [...out, { path: ["extensions"], message: "E_EXTENSION_SIZE_EXCEEDED" }];
  for (const key of Object.keys(extensions)) {
    if (ecmaJsonLength(extensions[key] as JsonValue) > 65_536)
      out.push({ path: ["extensions", key], message: "E_EXTENSION_SIZE_EXCEEDED" });
  }
  return out;
}

/** Every issue Wire02ClaimsSchema raises for these claims (empty when they conform). */
export function envelopeIssues(claims: JsonObject): Issue[] {
  const out = issuesOf(ENVELOPE, claims);
  if (member(claims, "kind") === "challenge" && member(claims, "occurred_at") !== undefined) {
    out.push({ path: [], message: "E_OCCURRED_AT_ON_CHALLENGE" });
  }
  const ext = member(claims, "extensions");
  if (isJsonObject(ext)) out.push(...extensionIssues(ext));
  return out;
}

export function describeIssues(issues: readonly Issue[]): string {
  const line = (i: Issue): string => {
    const text = `${i.path.length > 0 ? formatPath(i.path as PathSegment[]) : "$"}: ${i.message}`;
    return printable(text.length > 200 ? `${text.slice(0, 200)}…` : text);
  };
  const shown = issues.slice(0, 5).map(line);
  return shown.join("; ") + (issues.length > 5 ? `; and ${issues.length - 5} more` : "");
}

function escapePointer(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Strict type-to-extension enforcement and verifyLocal's warnings, for claims that passed the
 * envelope. Challenge records are exempt from the enforcement, as in PEAC.
 */
export function typeAndWarnings(claims: JsonObject): { failure?: ClaimsFailure; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const type = member(claims, "type") as string;
  const ext = member(claims, "extensions");
  const keys = isJsonObject(ext) ? Object.keys(ext) : [];
  if (!TYPE_TO_EXTENSION.has(type)) warnings.push({ code: "type_unregistered", pointer: "/type" });
  for (const key of keys) {
    if (!REGISTERED_EXTENSION_GROUPS.has(key))
      warnings.push({ code: "unknown_extension_preserved", pointer: `/extensions/${escapePointer(key)}` });
  }
  const occurred = occurredAtSeconds(claims);
  if (occurred !== undefined && occurred > iatOf(claims))
    warnings.push({ code: "occurred_at_skew", pointer: "/occurred_at" });
  warnings.sort((a, b) => (a.pointer ?? "").localeCompare(b.pointer ?? "") || a.code.localeCompare(b.code));
  const expected = TYPE_TO_EXTENSION.get(type);
  if (member(claims, "kind") !== "challenge" && expected !== undefined && !keys.includes(expected)) {
    const others = keys.filter((k) => REGISTERED_EXTENSION_GROUPS.has(k));
    return {
      warnings,
      failure:
        others.length > 0
          ? {
              code: "E_EXTENSION_GROUP_MISMATCH",
              detail: `type ${type} expects extension group ${expected}, but carries ${others.join(", ")} instead`,
            }
          : {
              code: "E_EXTENSION_GROUP_REQUIRED",
              detail: `type ${type} expects extension group ${expected}, which is absent`,
            },
    };
  }
  return { warnings };
}

function occurredAtSeconds(claims: JsonObject): number | undefined {
  const occurred = member(claims, "occurred_at");
  if (member(claims, "kind") !== "evidence" || typeof occurred !== "string") return undefined;
  const ts = Date.parse(occurred) / 1000;
  return Number.isNaN(ts) ? undefined : ts;
}

function iatOf(claims: JsonObject): number {
  return Number((member(claims, "iat") as JsonNumber).lexeme);
}

/**
 * verifyLocal's time rules against `now` (Unix seconds), for claims that passed the envelope:
 * iat no later than now + 300 s and, for evidence, occurred_at no later than now + 300 s.
 * Nothing in Wire 0.2 expires.
 */
export function timeFailure(claims: JsonObject, now: number): ClaimsFailure | undefined {
  const iat = iatOf(claims);
  if (iat > now + CLOCK_SKEW_SECONDS) {
    return {
      code: "E_NOT_YET_VALID",
      detail: `issued at ${isoSeconds(iat)}, later than ${isoSeconds(now)} + ${CLOCK_SKEW_SECONDS} s`,
    };
  }
  const ts = occurredAtSeconds(claims);
  if (ts !== undefined && ts > now + CLOCK_SKEW_SECONDS) {
    return {
      code: "E_OCCURRED_AT_FUTURE",
      detail: `occurred_at ${member(claims, "occurred_at") as string} is later than ${isoSeconds(now)} + ${CLOCK_SKEW_SECONDS} s`,
    };
  }
  return undefined;
}

export function isoSeconds(t: number): string {
  const d = new Date(t * 1000);
  return Number.isNaN(d.getTime()) ? String(t) : d.toISOString().replace(".000Z", "Z");
}
