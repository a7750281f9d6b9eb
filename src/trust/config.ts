/**
 * The caller's trust configuration (contract §5): which producer keys speak for which authority,
 * which keys each Transparency Service signs receipts with, and who operates it; which continuity
 * witnesses cosign checkpoints, under which statements, and how many must (contract §9.22). It is
 * validated against schemas/trust-config.schema.json and every key is imported up front, so a typo
 * fails loudly (exit 2) instead of silently turning a check into "no pinned key".
 *
 * Trust never comes from the input: keys carried in a bundle are key material, not anchors.
 */
import { native as nativeShape, reference as referenceShape } from "./trust-validators.generated.js";

/** What a generated validator reports for its first error (ajv's ErrorObject, the members read here). */
interface ErrorObject {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly message?: string;
}
import { isJsonObject, member, toPlain, type JsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { fail, ok, type Result } from "../result.js";
import { importPublicKey, importPublicKeyFromBase64Pem, type PublicKeyInfo } from "../cose/keys.js";
import { importWitnessKey, type WitnessKey } from "../witness/keys.js";
import { isValidKeyName } from "../witness/note.js";
import { toJsonValue, type InputData } from "../input/data.js";
import type { InputShape } from "../input/classify.js";
import { classifyValue } from "../input/decode.js";
import { loadAgents, type TrustedAgent } from "./agents.js";
import { loadPeacIssuers, type TrustedPeacIssuer } from "./peac-issuers.js";
import { keySpec, readKeyWindow, type KeyWindow } from "./key-window.js";

export type Operator = "independent" | "producer" | "unspecified";

export interface TrustedKey {
  readonly key: PublicKeyInfo;
  /** Where the key is in the trust file, for reports. */
  readonly path: string;
  /** Its window over time (contract §5.1); absent for a bare key. */
  readonly window?: KeyWindow;
}

export interface TrustedService {
  readonly url: string;
  readonly keys: readonly TrustedKey[];
  /** `unspecified` only for the reference implementation's shape, which does not say. */
  readonly operator: Operator;
}

export interface TrustedWitnessKey extends WitnessKey {
  /** Where the key is in the trust file, for reports. */
  readonly path: string;
  /** Its window over time (contract §5.1); absent for a bare key. */
  readonly window?: KeyWindow;
}

/** A continuity witness (contract §9.22): a note signer name, its cosignature keys, who runs it. */
export interface TrustedWitness {
  /** The note key name its cosignature lines carry. */
  readonly name: string;
  /** The trust file's optional label; reports use it, or the name. */
  readonly id: string | undefined;
  readonly keys: readonly TrustedWitnessKey[];
  readonly operator: "independent" | "producer";
  /** What the quorum counts: distinct operators, not keys. Defaults to the name. */
  readonly operatorId: string;
  /** The out-of-band statements bound to its keys (C2SP "additional statements"). */
  readonly statements: readonly string[];
  readonly path: string;
}

export interface ContinuityPolicy {
  /** Distinct independent operators that must have cosigned. */
  readonly quorum: number;
  /** A witness counts only when it cosigned the prior checkpoint as well as the current one. */
  readonly requirePriorCosigned: boolean;
  /** A log's first checkpoint, witnessed, may PASS (the caller pins this log_id out of band). */
  readonly acceptGenesis: boolean;
  /** With --at: how far after it a cosignature timestamp may lie. */
  readonly maxFutureSkewSeconds: number;
}

export const DEFAULT_CONTINUITY_POLICY: ContinuityPolicy = {
  quorum: 1,
  requirePriorCosigned: true,
  acceptGenesis: false,
  maxFutureSkewSeconds: 300,
};

export interface TrustConfig {
  readonly shape: "native" | "reference";
  readonly producers: ReadonlyMap<string, readonly TrustedKey[]>;
  readonly transparencyServices: ReadonlyMap<string, TrustedService>;
  readonly witnesses: readonly TrustedWitness[];
  readonly continuityPolicy: ContinuityPolicy;
  /** Agent Card signing keys, by card URL or agent name (verify-card). */
  readonly agents: ReadonlyMap<string, TrustedAgent>;
  /** PEAC receipt issuers by `iss` (contract §5); absent or empty when the file pins none. */
  readonly peacIssuers?: ReadonlyMap<string, TrustedPeacIssuer>;
}

/** The schema's two shapes, compiled at build time (scripts/generate-validators.ts): no schema is compiled at run time. */
type ValidateFunction = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

function getValidators(): { native: ValidateFunction; reference: ValidateFunction } {
  return { native: nativeShape as ValidateFunction, reference: referenceShape as ValidateFunction };
}

function instancePathToJsonPath(instancePath: string): string {
  const segments = instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s));
  return joinPath("$", ...segments);
}

function describeSchemaError(e: ErrorObject): string {
  if (e.keyword === "additionalProperties") {
    return `unknown member ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}`;
  }
  if (e.keyword === "enum")
    return `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  if (e.keyword === "const") return `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
  if (e.keyword === "oneOf" || e.keyword === "pattern" || e.keyword === "not") {
    if (/^\/witnesses\/\d+\/keys\/\d+$/.test(e.instancePath))
      return "not a 64-hex raw Ed25519 key or a cosignature/v1 verifier key <name>+<key ID>+<base64>";
    if (/\/keys\/\d+(\/key)?$/.test(e.instancePath))
      return "not a 64-hex raw Ed25519 key, a PEM public key or a public JWK";
  }
  return e.message ?? e.keyword;
}

function schemaFailure(errors: ErrorObject[] | null | undefined): Result<never> {
  const e = errors?.[0];
  if (!e) return fail("TRUST_SCHEMA", "does not match the trust file schema", "$");
  return fail("TRUST_SCHEMA", describeSchemaError(e), instancePathToJsonPath(e.instancePath));
}

function importKeys(keys: JsonValue[], path: string): Result<TrustedKey[]> {
  const out: TrustedKey[] = [];
  for (const [i, k] of keys.entries()) {
    const at = joinPath(path, i);
    const window = readKeyWindow(k, at);
    if (!window.ok) return window;
    const spec = keySpec(k);
    const r = importPublicKey(spec);
    if (!r.ok) return fail("TRUST_KEY_INVALID", `${r.detail} (${r.code})`, spec === k ? at : joinPath(at, "key"));
    out.push({ key: r.value, path: at, ...(window.value ? { window: window.value } : {}) });
  }
  return ok(out);
}

function operatorOf(v: JsonValue | undefined): Operator {
  return v === "independent" || v === "producer" ? v : "unspecified";
}

const PEM_PRIVATE = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/**
 * The path of the first private key anywhere in the file: a PEM private key (also base64-wrapped,
 * as the reference shape wraps its PEMs), or a JWK with a private member. Found before the schema
 * speaks, so the operator hears that a secret leaked, not that a key "has the wrong shape".
 */
function privateKeyMaterial(v: JsonValue, path: string): string | undefined {
  if (typeof v === "string") {
    if (PEM_PRIVATE.test(v)) return path;
    if (/^[A-Za-z0-9+/=\s]{40,}$/.test(v) && PEM_PRIVATE.test(Buffer.from(v, "base64").toString("latin1"))) return path;
    return undefined;
  }
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) {
      const found = privateKeyMaterial(x, joinPath(path, i));
      if (found) return found;
    }
    return undefined;
  }
  if (isJsonObject(v)) {
    if (
      typeof member(v, "kty") === "string" &&
      ["d", "p", "q", "dp", "dq", "qi", "k"].some((m) => member(v, m) !== undefined)
    )
      return path;
    for (const k of Object.keys(v)) {
      const found = privateKeyMaterial(v[k] as JsonValue, joinPath(path, k));
      if (found) return found;
    }
  }
  return undefined;
}

/** Validates and imports a parsed trust file. Never throws. */
export function loadTrustConfig(value: JsonValue): Result<TrustConfig> {
  if (Array.isArray(value) && classifyValue(value).ok) return notTrustShaped(value);
  if (!isJsonObject(value)) return fail("TRUST_SCHEMA", "the trust file must be a JSON object", "$");
  const leaked = privateKeyMaterial(value, "$");
  if (leaked)
    return fail("TRUST_PRIVATE_KEY", "private key material refused: a trust file holds public keys only", leaked);
  const plain = toPlain(value);
  const { native, reference } = getValidators();
  if (member(value, "version") !== undefined) {
    if (!native(plain)) return schemaFailure(native.errors);
    return loadNative(value);
  }
  if (member(value, "authorizedSigners") !== undefined || member(value, "tsPubkeysB64") !== undefined) {
    if (!reference(plain)) return schemaFailure(reference.errors);
    return loadReference(value);
  }
  return notTrustShaped(value);
}

/** A JSON object of neither trust shape: named as the A2A input it is, when it is one. */
function notTrustShaped(value: JsonValue): Result<never> {
  const input = classifyValue(value);
  if (input.ok)
    return fail(
      "TRUST_SCHEMA",
      `this is an A2A input (${SHAPE_NAMES[input.value.shape]}), not a trust file: give it as an input, and as --trust the JSON file that pins the producer's keys ("version": 1, docs/trust-config.md)`,
      "$",
    );
  return fail("TRUST_SCHEMA", 'expected "version": 1 (or the reference shape {authorizedSigners, tsPubkeysB64})', "$");
}

const SHAPE_NAMES: Readonly<Record<InputShape, string>> = {
  "jsonrpc-response": "a JSON-RPC GetTask response",
  task: "an A2A Task",
  capture: "a capture",
  bundle: "an evidence bundle",
  stream: "a stream of A2A events",
};

/**
 * A PEM file given as the trust file: a private key is refused as such (it must never be handed
 * to a verifier), a public key or certificate is pointed to the trust file that pins it.
 */
function pemFailure(data: Uint8Array | string): Result<never> | undefined {
  const head = (
    typeof data === "string" ? data.slice(0, 200) : Buffer.from(data.subarray(0, 200)).toString("latin1")
  ).trimStart();
  const label = /^-----BEGIN ([A-Z0-9 ]{1,40})-----/.exec(head)?.[1];
  if (label === undefined) return undefined;
  if (label.includes("PRIVATE KEY"))
    return fail(
      "TRUST_PRIVATE_KEY",
      `this is a private key (PEM "${label}"), not a trust file: a trust file is JSON holding the public keys you pin (docs/trust-config.md); a verifier never needs a private key`,
      "$",
    );
  return fail(
    "TRUST_NOT_JSON",
    `this is a PEM "${label}", not a trust file: a trust file is JSON that pins public keys (docs/trust-config.md)`,
    "$",
  );
}

/**
 * One section of the native shape (`producers`, `transparencyServices`): entries keyed
 * by a member that must be unique, each with imported keys.
 */
function loadSection<T>(
  v: JsonObject,
  section: string,
  keyName: string,
  build: (key: string, keys: TrustedKey[], entry: JsonObject) => T,
): Result<Map<string, T>> {
  const out = new Map<string, T>();
  for (const [i, e] of ((member(v, section) as JsonValue[] | undefined) ?? []).entries()) {
    const entry = e as JsonObject;
    const at = joinPath(section, i);
    const key = member(entry, keyName) as string;
    if (out.has(key))
      return fail(
        "TRUST_DUPLICATE_ENTRY",
        `${JSON.stringify(key)} is listed twice in ${section}`,
        joinPath(at, keyName),
      );
    const keys = importKeys(member(entry, "keys") as JsonValue[], joinPath(at, "keys"));
    if (!keys.ok) return keys;
    out.set(key, build(key, keys.value, entry));
  }
  return ok(out);
}

function loadNative(v: JsonObject): Result<TrustConfig> {
  const producers = loadSection(v, "producers", "authority", (_, keys) => keys);
  if (!producers.ok) return producers;
  const services = loadSection(v, "transparencyServices", "url", (url, keys, e): TrustedService => ({
    url,
    keys,
    operator: operatorOf(member(e, "operator")),
  }));
  if (!services.ok) return services;
  const witnesses = loadWitnesses(v);
  if (!witnesses.ok) return witnesses;
  const agents = loadAgents(v);
  if (!agents.ok) return agents;
  const peacIssuers = loadPeacIssuers(v);
  if (!peacIssuers.ok) return peacIssuers;
  return ok({
    shape: "native",
    producers: producers.value,
    transparencyServices: services.value,
    witnesses: witnesses.value,
    continuityPolicy: loadContinuityPolicy(v),
    agents: agents.value,
    peacIssuers: peacIssuers.value,
  });
}

/**
 * `witnesses` (contract §9.22). Refused as ambiguous, like Go's "ambiguous key": a (name, key ID)
 * pinned twice, an id used twice, and one raw key pinned twice — a cosignature does not commit to
 * the cosigner's name, so one line could be relabelled to count for two witnesses.
 */
function loadWitnesses(v: JsonObject): Result<TrustedWitness[]> {
  const out: TrustedWitness[] = [];
  const ids = new Set<string>();
  const keyOwners = new Map<string, string>();
  const nameKeyIds = new Set<string>();
  for (const [i, e] of ((member(v, "witnesses") as JsonValue[] | undefined) ?? []).entries()) {
    const entry = e as JsonObject;
    const at = joinPath("witnesses", i);
    const name = member(entry, "name") as string;
    if (!isValidKeyName(name))
      return fail(
        "TRUST_SCHEMA",
        'a note key name has no white space, no "+" and no control character',
        joinPath(at, "name"),
      );
    const id = member(entry, "id") as string | undefined;
    if (id !== undefined) {
      if (ids.has(id))
        return fail("TRUST_DUPLICATE_ENTRY", `witness id ${JSON.stringify(id)} is listed twice`, joinPath(at, "id"));
      ids.add(id);
    }
    const keys: TrustedWitnessKey[] = [];
    for (const [k, item] of (member(entry, "keys") as JsonValue[]).entries()) {
      const path = joinPath(at, "keys", k);
      const window = readKeyWindow(item, path);
      if (!window.ok) return window;
      const spec = keySpec(item) as string;
      const r = importWitnessKey(spec, name);
      if (!r.ok)
        return fail("TRUST_KEY_INVALID", `${r.detail} (${r.code})`, spec === item ? path : joinPath(path, "key"));
      const owner = keyOwners.get(r.value.publicKeyHex);
      if (owner !== undefined)
        return fail(
          "TRUST_DUPLICATE_ENTRY",
          `this key is already pinned at ${owner}: a cosignature does not name its witness, so one key serves one witness`,
          path,
        );
      keyOwners.set(r.value.publicKeyHex, path);
      // Two keys of one name whose 4-byte IDs collide: a line could not say which one it means.
      const nameKeyId = `${name}\n${r.value.keyIdHex}`;
      if (nameKeyIds.has(nameKeyId))
        return fail("TRUST_DUPLICATE_ENTRY", `${name}+${r.value.keyIdHex} names two keys`, path);
      nameKeyIds.add(nameKeyId);
      keys.push({ ...r.value, path, ...(window.value ? { window: window.value } : {}) });
    }
    out.push({
      name,
      id,
      keys,
      operator: member(entry, "operator") === "independent" ? "independent" : "producer",
      operatorId: (member(entry, "operatorId") as string | undefined) ?? name,
      statements: member(entry, "statements") as string[],
      path: at,
    });
  }
  return ok(out);
}

function loadContinuityPolicy(v: JsonObject): ContinuityPolicy {
  const p = member(v, "continuityPolicy");
  if (!isJsonObject(p)) return DEFAULT_CONTINUITY_POLICY;
  // The schema has checked the types; integers are read through their plain value.
  const plain = toPlain(p) as Partial<ContinuityPolicy>;
  return { ...DEFAULT_CONTINUITY_POLICY, ...plain };
}

/** The reference implementation's `{authorizedSigners: {authority: [keyIdHex]}, tsPubkeysB64: {url: base64(PEM)}}`. */
function loadReference(v: JsonObject): Result<TrustConfig> {
  const producers = new Map<string, TrustedKey[]>();
  const signers = member(v, "authorizedSigners");
  if (isJsonObject(signers)) {
    for (const authority of Object.keys(signers)) {
      const keys = importKeys(signers[authority] as JsonValue[], joinPath("authorizedSigners", authority));
      if (!keys.ok) return keys;
      producers.set(authority, keys.value);
    }
  }
  const services = new Map<string, TrustedService>();
  const pins = member(v, "tsPubkeysB64");
  if (isJsonObject(pins)) {
    for (const url of Object.keys(pins)) {
      const at = joinPath("tsPubkeysB64", url);
      const r = importPublicKeyFromBase64Pem(pins[url] as string);
      if (!r.ok) return fail("TRUST_KEY_INVALID", `${r.detail} (${r.code})`, at);
      services.set(url, { url, keys: [{ key: r.value, path: at }], operator: "unspecified" });
    }
  }
  return ok({
    shape: "reference",
    producers,
    transparencyServices: services,
    witnesses: [],
    continuityPolicy: DEFAULT_CONTINUITY_POLICY,
    agents: new Map(),
  });
}

function isTrustConfig(t: unknown): t is TrustConfig {
  return typeof t === "object" && t !== null && (t as TrustConfig).producers instanceof Map;
}

/** The trust configuration a caller gives: already loaded, or a trust file's bytes / parsed value. */
export function resolveTrust(trust: TrustConfig | InputData | undefined): Result<TrustConfig | undefined> {
  if (trust === undefined) return ok(undefined);
  if (isTrustConfig(trust)) return ok(trust);
  const v = toJsonValue(trust);
  if (!v.ok) {
    const pem = typeof trust === "string" || trust instanceof Uint8Array ? pemFailure(trust) : undefined;
    return pem ?? fail("TRUST_NOT_JSON", `${v.detail} (${v.code})`, v.path);
  }
  return loadTrustConfig(v.value);
}
