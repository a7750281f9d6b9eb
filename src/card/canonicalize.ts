/**
 * The payloads an Agent Card signature may have been made over (a2a-wire.md §7.4). The spec's
 * rule and what the SDKs sign disagree (A2A#2122, A2A#2249, a2a-js#627), so verify-card computes
 * each candidate deterministically, tries them in this order, and reports which one matched:
 *
 *   sdk            ProtoJSON round trip (unknown fields dropped, non-presence defaults dropped),
 *                  `signatures` dropped, every empty string/array/object and null deleted
 *                  recursively, RFC 8785 JCS — what @a2a-js/sdk and a2a-python sign today;
 *   spec-presence  spec rule 1: REQUIRED and `optional` fields kept when present even at their
 *                  default, other fields dropped at their default, unknown fields dropped, JCS;
 *   served-scope   the card as served: as spec-presence, but unknown fields kept (so the
 *                  signature covers them) and every member under the spelling it was served with;
 *   legacy-python  the sdk object under Python's `json.dumps(sort_keys=True, separators=(",",":"))`
 *                  (a2a-python up to 1.1.2): ASCII escapes, code-point order, Struct numbers as
 *                  Python floats (`60.0`);
 *   a2a-js-1.3     what @a2a-js/sdk 1.3.0's signer actually signs: it canonicalizes its in-memory
 *                  card by parsing it again as wire JSON, which empties every oneof, so the
 *                  payload is the sdk one without `securitySchemes` — a match under it leaves the
 *                  card's security schemes unsigned, and the report says so.
 *
 * Reading the card is strict: a field given under both its JSON and proto names, two members of a
 * oneof, or a known field of the wrong type make the card malformed — SDKs disagree on which copy
 * wins, so no signature over it can mean one thing.
 */
import {
  JsonNumber,
  isJsonNumber,
  isJsonObject,
  newJsonObject,
  type JsonObject,
  type JsonValue,
} from "../json/value.js";
import { joinPath } from "../json/path.js";
import { jcs } from "../canon/jcs.js";
import { pyjson } from "../canon/pyjson.js";
import { fail, ok, type Result } from "../result.js";
import { utf8 } from "../util/bytes.js";
import { CARD_MODEL, type Field, type MessageName } from "./model.js";

export const CANONICALIZATIONS = ["sdk", "spec-presence", "served-scope", "legacy-python", "a2a-js-1.3"] as const;
export type Canonicalization = (typeof CANONICALIZATIONS)[number];

type Value =
  | string
  | boolean
  | string[]
  | ReadMessage
  | ReadMessage[]
  | Map<string, ReadMessage>
  | Map<string, string>
  | JsonObject;

interface KnownMember {
  readonly field: Field;
  /** The spelling the card used (JSON or proto name). */
  readonly key: string;
  readonly value: Value;
}

interface ReadMessage {
  readonly name: MessageName;
  readonly known: readonly KnownMember[];
  readonly unknown: readonly { readonly key: string; readonly value: JsonValue }[];
}

export interface ReadCard {
  readonly root: ReadMessage;
  /** JSON paths of members the v1.0 model does not know: not covered by sdk, spec-presence or legacy-python. */
  readonly unknownFields: readonly string[];
}

function malformed(detail: string, path: string): Result<never> {
  return fail("CARD_MALFORMED", detail, path);
}

function readStrings(v: JsonValue, path: string): Result<string[]> {
  if (!Array.isArray(v)) return malformed("expected an array of strings", path);
  for (const [i, s] of v.entries()) if (typeof s !== "string") return malformed("expected a string", joinPath(path, i));
  return ok(v as string[]);
}

function readValue(f: Field, v: JsonValue, path: string, unknown: string[]): Result<Value> {
  const k = f.kind;
  switch (k.t) {
    case "string":
      return typeof v === "string" ? ok(v) : malformed("expected a string", path);
    case "bool":
      return typeof v === "boolean" ? ok(v) : malformed("expected a boolean", path);
    case "strings":
      return readStrings(v, path);
    case "struct":
      return isJsonObject(v) ? ok(v) : malformed("expected an object (google.protobuf.Struct)", path);
    case "message":
      return readMessage(k.m, v, path, unknown);
    case "messages": {
      if (!Array.isArray(v)) return malformed("expected an array", path);
      const out: ReadMessage[] = [];
      for (const [i, e] of v.entries()) {
        const r = readMessage(k.m, e, joinPath(path, i), unknown);
        if (!r.ok) return r;
        out.push(r.value);
      }
      return ok(out);
    }
    case "map": {
      if (!isJsonObject(v)) return malformed("expected an object (a map)", path);
      const out = new Map<string, ReadMessage>();
      for (const key of Object.keys(v)) {
        const r = readMessage(k.m, v[key] as JsonValue, joinPath(path, key), unknown);
        if (!r.ok) return r;
        out.set(key, r.value);
      }
      return ok(out);
    }
    case "stringMap": {
      if (!isJsonObject(v)) return malformed("expected an object (a map of strings)", path);
      const out = new Map<string, string>();
      for (const key of Object.keys(v)) {
        const s = v[key];
        if (typeof s !== "string") return malformed("expected a string", joinPath(path, key));
        out.set(key, s);
      }
      return ok(out);
    }
  }
}

function readMessage(name: MessageName, v: JsonValue, path: string, unknownPaths: string[]): Result<ReadMessage> {
  if (!isJsonObject(v)) return malformed(`expected an object (${name})`, path);
  const known: KnownMember[] = [];
  const unknown: { key: string; value: JsonValue }[] = [];
  const oneofs = new Map<string, string>();
  for (const key of Object.keys(v)) {
    const raw = v[key] as JsonValue;
    const field = CARD_MODEL[name].find((f) => f.json === key || f.proto === key);
    if (!field) {
      unknown.push({ key, value: raw });
      unknownPaths.push(joinPath(path, key));
      continue;
    }
    const at = joinPath(path, key);
    if (
      field.json !== field.proto &&
      Object.prototype.hasOwnProperty.call(v, field.json) &&
      Object.prototype.hasOwnProperty.call(v, field.proto)
    ) {
      return malformed(`${field.json} is given under both its JSON name and its proto name ${field.proto}`, at);
    }
    // ProtoJSON: null is the field's default, i.e. not set.
    if (raw === null) continue;
    if (field.oneof) {
      const other = oneofs.get(field.oneof);
      if (other !== undefined) return malformed(`two members of oneof ${field.oneof}: ${other} and ${key}`, at);
      oneofs.set(field.oneof, key);
    }
    const r = readValue(field, raw, at, unknownPaths);
    if (!r.ok) return r;
    known.push({ field, key, value: r.value });
  }
  return ok({ name, known, unknown });
}

/** A v0.3-shaped card is not a v1.0 card: its canonicalization does not apply (a2a-wire.md §3.3). */
function v03Signal(card: JsonObject): string | undefined {
  for (const k of [
    "preferredTransport",
    "additionalInterfaces",
    "supportsAuthenticatedExtendedCard",
    "protocolVersion",
  ]) {
    if (Object.prototype.hasOwnProperty.call(card, k)) return k;
  }
  if (
    Object.prototype.hasOwnProperty.call(card, "url") &&
    !Object.prototype.hasOwnProperty.call(card, "supportedInterfaces")
  )
    return "url";
  return undefined;
}

export function readCard(value: JsonValue): Result<ReadCard> {
  if (!isJsonObject(value)) return malformed("an Agent Card must be a JSON object", "$");
  const v03 = v03Signal(value);
  if (v03 !== undefined)
    return malformed(`an A2A v0.3 Agent Card (member "${v03}"); verify-card checks v1.0 cards`, v03);
  const unknownFields: string[] = [];
  const root = readMessage("AgentCard", value, "$", unknownFields);
  if (!root.ok) return root;
  return ok({ root: root.value, unknownFields });
}

function isDefault(v: Value): boolean {
  if (v === "" || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  return false;
}

/** Python's `repr(float(x))`: what a2a-python's Struct (doubles) prints for a number. */
export function pythonFloatLexeme(n: JsonNumber): string {
  const x = n.toNumber();
  if (Object.is(x, -0)) return "-0.0";
  const abs = Math.abs(x);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) {
    const [mantissa, exponent] = x.toExponential().split("e") as [string, string];
    const sign = exponent.startsWith("-") ? "-" : "+";
    return `${mantissa}e${sign}${exponent.replace(/^[-+]/, "").padStart(2, "0")}`;
  }
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

function structValue(v: JsonValue, pythonNumbers: boolean): JsonValue {
  if (isJsonNumber(v)) return pythonNumbers ? new JsonNumber(pythonFloatLexeme(v)) : v;
  if (Array.isArray(v)) return v.map((e) => structValue(e, pythonNumbers));
  if (isJsonObject(v)) {
    const out = newJsonObject();
    for (const k of Object.keys(v)) out[k] = structValue(v[k] as JsonValue, pythonNumbers);
    return out;
  }
  return v;
}

interface EmitRules {
  readonly variant: Canonicalization;
}

function emitValue(f: Field, v: Value, rules: EmitRules): JsonValue {
  const k = f.kind;
  switch (k.t) {
    case "message":
      return emitMessage(v as ReadMessage, rules, false);
    case "messages":
      return (v as ReadMessage[]).map((m) => emitMessage(m, rules, false));
    case "map": {
      const out = newJsonObject();
      for (const [key, m] of v as Map<string, ReadMessage>) out[key] = emitMessage(m, rules, false);
      return out;
    }
    case "stringMap": {
      const out = newJsonObject();
      for (const [key, s] of v as Map<string, string>) out[key] = s;
      return out;
    }
    case "struct":
      return structValue(v as JsonObject, rules.variant === "legacy-python");
    default:
      return v as string | boolean | string[];
  }
}

function keep(m: KnownMember, variant: Canonicalization, top: boolean): boolean {
  const { presence, kind } = m.field;
  if (top && m.field.json === "signatures") return false;
  if (top && variant === "a2a-js-1.3" && m.field.json === "securitySchemes") return false;
  const hasPresence = kind.t === "message" || kind.t === "struct" || presence === "optional";
  if (variant === "sdk" || variant === "legacy-python" || variant === "a2a-js-1.3") {
    // ts-proto toJSON: a field with presence is printed when set, any other when not at its default.
    return hasPresence || !isDefault(m.value);
  }
  return presence === "required" || hasPresence || !isDefault(m.value);
}

function emitMessage(m: ReadMessage, rules: EmitRules, top: boolean): JsonObject {
  const out = newJsonObject();
  for (const member of m.known) {
    if (!keep(member, rules.variant, top)) continue;
    out[rules.variant === "served-scope" ? member.key : member.field.json] = emitValue(
      member.field,
      member.value,
      rules,
    );
  }
  if (rules.variant === "served-scope") {
    for (const u of m.unknown) if (!(top && u.key === "signatures")) out[u.key] = u.value;
  }
  return out;
}

/** The SDKs' `cleanEmpty`: every "", null, [] and {} removed, recursively (false and 0 stay). */
function cleanEmpty(v: JsonValue): JsonValue | undefined {
  if (v === "" || v === null) return undefined;
  if (Array.isArray(v)) {
    const out = v.map(cleanEmpty).filter((e): e is JsonValue => e !== undefined);
    return out.length > 0 ? out : undefined;
  }
  if (isJsonObject(v)) {
    const out = newJsonObject();
    for (const k of Object.keys(v)) {
      const c = cleanEmpty(v[k] as JsonValue);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return v;
}

/** Paths of what the card carries and a payload under `variant` leaves out (so a signature over it does not cover). */
export function notCoveredBy(card: ReadCard, variant: Canonicalization): string[] {
  if (variant === "served-scope") return [];
  const out = [...card.unknownFields];
  if (
    variant === "a2a-js-1.3" &&
    card.root.known.some((m) => m.field.json === "securitySchemes" && !isDefault(m.value))
  )
    out.unshift("securitySchemes");
  return out;
}

/** The signed payload bytes under one canonicalization. */
export function canonicalCard(card: ReadCard, variant: Canonicalization): Result<Uint8Array> {
  let value: JsonValue = emitMessage(card.root, { variant }, true);
  if (variant !== "spec-presence" && variant !== "served-scope") value = cleanEmpty(value) ?? newJsonObject();
  if (variant === "legacy-python") {
    const r = pyjson(value);
    return r.ok ? ok(utf8(r.value.text)) : r;
  }
  const r = jcs(value);
  return r.ok ? ok(utf8(r.value)) : r;
}
