/**
 * COSE_Sign1 messages as an auditor reads them: each header parameter with its registered name
 * and its value in CBOR diagnostic notation (RFC 8949 §8), the protected bytes exactly as
 * received. Values are attacker-controlled, so the notation is bounded: long byte and text strings
 * are cut, long arrays and maps say how many more items they have, deep nesting stops.
 */
import { CborFloat, CborTagged, type CborKey, type CborMap, type CborValue } from "../cose/cbor.js";
import type { Sign1 } from "../cose/sign1.js";
import { MAX_LISTED } from "../json/diff.js";
import { binary, hex } from "./common.js";
import type { CoseSection, HeaderParameter, InspectOptions } from "./model.js";

/** Header labels (IANA COSE Header Parameters, and the SCITT receipt labels). */
const HEADER_NAMES: ReadonlyMap<CborKey, string> = new Map<CborKey, string>([
  [1, "alg"],
  [2, "crit"],
  [3, "content type"],
  [4, "kid"],
  [15, "CWT claims"],
  [33, "x5chain"],
  [395, "vds"],
  [396, "vdp"],
]);

const ALGORITHMS: ReadonlyMap<number, string> = new Map([
  [-8, "EdDSA"],
  [-7, "ES256"],
  [-35, "ES384"],
]);

const VDS: ReadonlyMap<number, string> = new Map([
  [1, "RFC9162_SHA256"],
  [2, "CCF_LEDGER_SHA256"],
]);

/** Inside vdp (396): the proof kinds of draft-ietf-cose-merkle-tree-proofs. */
const VDP_NAMES: ReadonlyMap<CborKey, string> = new Map<CborKey, string>([
  [-1, "inclusion proofs"],
  [-2, "consistency proofs"],
]);

const MAX_BYTES_SHOWN = 64;
const MAX_TEXT_SHOWN = 120;
const MAX_DEPTH = 6;

export function coseSection(msg: Sign1, o: InspectOptions): CoseSection {
  return {
    tag: 18,
    protectedBytes: binary(msg.protectedBytes, o, msg.protectedBytes.length <= MAX_BYTES_SHOWN * 2),
    protected: headerParameters(msg.protectedHeader),
    unprotected: headerParameters(msg.unprotectedHeader),
    payload:
      msg.payload === null
        ? null
        : hex(msg.payload.length <= MAX_BYTES_SHOWN ? msg.payload : msg.payload.subarray(0, MAX_BYTES_SHOWN)),
    payloadLength: msg.payload === null ? null : msg.payload.length,
    signature: hex(
      msg.signature.length <= 2 * MAX_BYTES_SHOWN ? msg.signature : msg.signature.subarray(0, 2 * MAX_BYTES_SHOWN),
    ),
    signatureLength: msg.signature.length,
  };
}

/** Every parameter of a header map, in the order received (the protected bytes fix that order). */
export function headerParameters(map: CborMap): HeaderParameter[] {
  const out: HeaderParameter[] = [];
  let n = 0;
  for (const [label, value] of map) {
    if (n++ === MAX_LISTED) {
      out.push({ label: "…", name: null, value: `and ${map.size - MAX_LISTED} more parameter(s)` });
      break;
    }
    const name = HEADER_NAMES.get(label) ?? null;
    out.push({ label: keyText(label), name, value: annotated(label, value) });
  }
  return out;
}

function annotated(label: CborKey, value: CborValue): string {
  const d = diagnostic(value, 0, label === 396 ? VDP_NAMES : undefined);
  if (typeof value === "number") {
    const meaning = label === 1 ? ALGORITHMS.get(value) : label === 395 ? VDS.get(value) : undefined;
    if (meaning !== undefined) return `${d} (${meaning})`;
  }
  return d;
}

function keyText(k: CborKey): string {
  return typeof k === "string" ? JSON.stringify(cut(k)) : String(k);
}

function cut(s: string): string {
  return s.length > MAX_TEXT_SHOWN ? `${s.slice(0, MAX_TEXT_SHOWN)}…` : s;
}

/** CBOR diagnostic notation, bounded. `names` annotates the keys of this map level. */
export function diagnostic(v: CborValue | undefined, depth = 0, names?: ReadonlyMap<CborKey, string>): string {
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  if (typeof v === "boolean") return String(v);
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (typeof v === "string") return JSON.stringify(cut(v));
  if (v instanceof Uint8Array) {
    return v.length <= MAX_BYTES_SHOWN
      ? `h'${hex(v)}'`
      : `h'${hex(v.subarray(0, MAX_BYTES_SHOWN))}…' (${v.length} bytes)`;
  }
  if (v instanceof CborFloat) return Number.isInteger(v.value) ? `${v.value}.0` : String(v.value);
  if (depth >= MAX_DEPTH) return "…";
  if (v instanceof CborTagged) return `${v.tag}(${diagnostic(v.value as CborValue, depth + 1)})`;
  if (Array.isArray(v)) {
    const shown = v.slice(0, MAX_LISTED).map((x) => diagnostic(x, depth + 1));
    if (v.length > MAX_LISTED) shown.push(`… and ${v.length - MAX_LISTED} more`);
    return `[${shown.join(", ")}]`;
  }
  const entries: string[] = [];
  for (const [k, x] of v) {
    if (entries.length === MAX_LISTED) {
      entries.push(`… and ${v.size - MAX_LISTED} more`);
      break;
    }
    const name = names?.get(k);
    entries.push(`${keyText(k)}${name !== undefined ? ` /${name}/` : ""}: ${diagnostic(x, depth + 1)}`);
  }
  return `{${entries.join(", ")}}`;
}
