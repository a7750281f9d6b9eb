/**
 * An independent judge of "these two JSON copies of one A2A Message are the same Message", written
 * from the contract alone and sharing no code with the verifier's comparison, so a mistake there is
 * not copied into what the fuzz expects.
 *
 * Each copy is brought to one canonical text; two copies are one Message when the texts are equal,
 * the Task and context ids aside (contract §3: a server may add `contextId`/`taskId`, nothing else,
 * so an id counts only when both copies show one). The rules, from contract §3 ("as it sent it,
 * ProtoJSON") and a2a-wire.md §1.1 (ProtoJSON as it applies to A2A), §1.4 (Message), §1.5 (Part):
 *
 * - a field may be written under its JSON name or its proto name (`message_id`);
 * - a field at its default (`""`, `[]`, `{}`, `false`, `0`, the enum's 0) or `null` is absent;
 * - `role` is an enum: its name or its number, `ROLE_UNSPECIFIED` (0) being absent;
 * - a Part's content is a oneof: the member present is the kind, and its value counts even when
 *   it is a default (`{"text": ""}` is an empty text, not no content);
 * - `raw` is bytes: standard or URL-safe base64, padded or not, are the same bytes;
 * - `metadata` is a google.protobuf.Struct and `data` a google.protobuf.Value: plain JSON in which
 *   `null`, `{}`, `[]`, `""` and `false` are values like any other; every number in them is a
 *   double, so `60`, `60.0` and `6e1` are one number (compared as exact decimals), `60.5` and `61`
 *   are two;
 * - member order never matters; everything else is compared exactly, members the Message does
 *   not define included (§3: the server may add nothing else).
 */
import { JsonNumber, isJsonObject, type JsonValue } from "../../src/json/value.js";

/** Message fields (a2a-wire.md §1.4) by proto name, with the JSON name ProtoJSON prints. */
const MESSAGE_FIELDS: Readonly<Record<string, string>> = {
  message_id: "messageId",
  context_id: "contextId",
  task_id: "taskId",
  role: "role",
  parts: "parts",
  metadata: "metadata",
  extensions: "extensions",
  reference_task_ids: "referenceTaskIds",
};

/** Part fields (a2a-wire.md §1.5) by proto name. */
const PART_FIELDS: Readonly<Record<string, string>> = {
  text: "text",
  raw: "raw",
  url: "url",
  data: "data",
  metadata: "metadata",
  filename: "filename",
  media_type: "mediaType",
};

const PART_CONTENT = ["text", "raw", "url", "data"];
const ROLES = ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"];

/** A JSON number as an exact decimal: sign and digits without trailing zeros, and a power of ten. */
export function exactDecimal(lexeme: string): string {
  const m = /^(-?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(lexeme);
  if (!m) return `not-a-number:${lexeme}`;
  const frac = m[3] ?? "";
  let mantissa = BigInt(`${m[1]}${m[2]}${frac}`);
  let exponent = BigInt(m[4] ?? "0") - BigInt(frac.length);
  if (mantissa === 0n) return "0";
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent += 1n;
  }
  return `${mantissa}e${exponent}`;
}

/** Plain JSON (a Struct or Value) as canonical text: members sorted, numbers exact, nothing dropped. */
function plain(v: JsonValue): string {
  if (v instanceof JsonNumber) return `#${exactDecimal(v.lexeme)}`;
  if (Array.isArray(v)) return `[${v.map(plain).join(",")}]`;
  if (isJsonObject(v)) {
    const names = Object.keys(v).sort();
    return `{${names.map((k) => `${JSON.stringify(k)}:${plain(v[k] as JsonValue)}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

/** ProtoJSON's defaults, which a printer leaves out, as canonical text: the same as absent. */
const DEFAULTS = new Set(["null", '""', "false", "#0", "[]", "{}"]);
const isDefault = (v: JsonValue | undefined): boolean => v === undefined || DEFAULTS.has(plain(v));

/** bytes as ProtoJSON parsers read them (standard or URL-safe, padding optional); not base64: as written. */
function bytesOf(s: string): string {
  const standard = s.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  const padded = s.includes("=");
  const valid =
    /^[A-Za-z0-9+/]*$/.test(standard) &&
    standard.length % 4 !== 1 &&
    /^[^=]*={0,2}$/.test(s) &&
    (!padded || s.length % 4 === 0);
  const mixed = /[-_]/.test(s) && /[+/]/.test(s);
  if (!valid || mixed) return `text:${s}`;
  const bytes = Buffer.from(standard, "base64");
  // A last character with bits the length leaves unused is not the canonical spelling of any bytes.
  if (bytes.toString("base64").replace(/=+$/, "") !== standard) return `text:${s}`;
  return `bytes:${bytes.toString("hex")}`;
}

function roleOf(v: JsonValue): string {
  if (v instanceof JsonNumber) return ROLES[Number(v.lexeme)] ?? `number:${v.lexeme}`;
  return typeof v === "string" ? v : plain(v);
}

/** The canonical members of an object: JSON names, defaults dropped, each value through `value`. */
function members(
  obj: JsonValue,
  fields: Readonly<Record<string, string>>,
  value: (name: string, v: JsonValue) => string | undefined,
): Map<string, string> {
  const out = new Map<string, string>();
  if (!isJsonObject(obj)) return out;
  for (const [written, v] of Object.entries(obj)) {
    const name = fields[written] ?? written;
    const canonical = value(name, v);
    if (canonical !== undefined) out.set(name, canonical);
  }
  return out;
}

const text = (m: Map<string, string>): string =>
  `{${[...m.keys()]
    .sort()
    .map((k) => `${JSON.stringify(k)}:${m.get(k)}`)
    .join(",")}}`;

function partOf(p: JsonValue): string {
  const m = members(p, PART_FIELDS, (name, v) => {
    if (PART_CONTENT.includes(name) && v !== null) {
      // The oneof member present is the content, whatever its value (a2a-wire.md §1.5).
      return name === "raw" && typeof v === "string" ? bytesOf(v) : plain(v);
    }
    if (isDefault(v)) return undefined;
    return plain(v);
  });
  return text(m);
}

/** A Message copy as canonical members (ids included; `sameMessage` decides whether they count). */
export function canonicalMessage(json: JsonValue): Map<string, string> {
  return members(json, MESSAGE_FIELDS, (name, v) => {
    if (name === "role") {
      const role = v === null ? "ROLE_UNSPECIFIED" : roleOf(v);
      return role === "ROLE_UNSPECIFIED" ? undefined : JSON.stringify(role);
    }
    if (isDefault(v)) return undefined;
    if (name === "parts" && Array.isArray(v)) return `[${v.map(partOf).join(",")}]`;
    return plain(v);
  });
}

/** True when two JSON copies are one Message by the contract's rules (see the header). */
export function sameMessage(a: JsonValue, b: JsonValue): boolean {
  const x = canonicalMessage(a);
  const y = canonicalMessage(b);
  for (const id of ["taskId", "contextId"]) {
    if (x.has(id) && y.has(id)) continue;
    x.delete(id);
    y.delete(id);
  }
  return text(x) === text(y);
}
