/**
 * Each Part of a committed Message or Artifact read beside its commitment (spec
 * part-commitments.md §2): the commitment recomputed by the Part's kind (text by its UTF-8, data
 * by JCS, raw by its bytes, length and mediaType, url by its locator and mediaType), and what the
 * caller resolved a URL to. taskBinding judges from these facts; inspect shows them.
 */
import { showValue } from "../json/diff.js";
import { hasMember, isJsonObject, isJsonNumber, member, type JsonValue } from "../json/value.js";
import { jcs } from "../canon/jcs.js";
import { base64ToBytesStrict, isHex64, sha256Hex, sha256HexOfText } from "../util/bytes.js";
import type { A2APart } from "../input/a2a.js";

/** What the caller resolved a URL to, outside the verifier (`--resolved URL=FILE`). */
export interface ResolvedContent {
  readonly sha256: string;
  readonly length: number;
}

/** The raw bytes a url Part's --resolved file holds, as the check compares them. */
export function resolvedContentOf(bytes: Uint8Array): ResolvedContent {
  return { sha256: sha256Hex(bytes), length: bytes.length };
}

/** A Part's mediaType as committed: absent and "" are one value in ProtoJSON, written null. */
function committedMediaType(p: A2APart): string | null {
  return p.mediaType === undefined || p.mediaType === "" ? null : p.mediaType;
}

/** Why a Part's commitment does not recompute, or undefined when it does (§2). */
export function digestFault(p: A2APart, pc: Record<string, JsonValue>): string | undefined {
  const digest = member(pc, "digest");
  switch (p.content) {
    case "text": {
      const want = sha256HexOfText(p.text as string);
      return digest === want ? undefined : `digest ${showValue(digest)} != SHA-256 of its text ${want}`;
    }
    case "data": {
      const text = jcs(p.data as JsonValue);
      if (!text.ok) return `its value has no JCS form (${text.detail})`;
      const want = sha256HexOfText(text.value);
      return digest === want ? undefined : `digest ${showValue(digest)} != SHA-256 of its JCS value ${want}`;
    }
    case "raw": {
      const bytes = base64ToBytesStrict(p.raw as string);
      if (!bytes) return "its raw member is not standard padded base64";
      const fault = bytesFault(pc, sha256Hex(bytes), bytes.length);
      return fault ?? mediaTypeFault(p, pc);
    }
    case "url": {
      const locator = sha256HexOfText(p.url as string);
      if (member(pc, "locator") !== locator)
        return `locator ${showValue(member(pc, "locator"))} != SHA-256 of the URL ${locator} (another URL)`;
      const fault = mediaTypeFault(p, pc);
      if (fault) return fault;
      const resolution = member(pc, "resolution");
      if (resolution === "NOT_RESOLVED") return undefined;
      if (resolution !== "RESOLVED") return `resolution ${showValue(resolution)} is neither RESOLVED nor NOT_RESOLVED`;
      const length = member(pc, "length");
      // A byte count, written as one: "-5", "1.0" or "1e3" is not the length of resolved bytes.
      if (!isHex64(digest) || !isJsonNumber(length) || !isByteCount(length.lexeme))
        return "a RESOLVED commitment needs a lowercase hex digest and an integer length";
      return undefined;
    }
  }
}

const isByteCount = (lexeme: string): boolean =>
  /^(0|[1-9][0-9]*)$/.test(lexeme) && Number.isSafeInteger(Number(lexeme));

function bytesFault(pc: Record<string, JsonValue>, digest: string, length: number): string | undefined {
  if (member(pc, "digest") !== digest)
    return `digest ${showValue(member(pc, "digest"))} != SHA-256 of its bytes ${digest}`;
  const committed = member(pc, "length");
  if (!isJsonNumber(committed) || committed.lexeme !== String(length))
    return `length ${showValue(committed)} != its ${length} bytes`;
  return undefined;
}

function mediaTypeFault(p: A2APart, pc: Record<string, JsonValue>): string | undefined {
  const want = committedMediaType(p);
  const got = hasMember(pc, "mediaType") ? member(pc, "mediaType") : undefined;
  return got === want ? undefined : `mediaType ${showValue(got)} != the Part's ${showValue(want)}`;
}

/** One observed Part beside its commitment, as inspect explains it. */
export interface PartRow {
  readonly index: number;
  /** The observed Part's oneof member; null for a commitment with no Part. */
  readonly kind: string | null;
  /** The commitment, as JSON text; null for a Part with no commitment. */
  readonly commitment: string | null;
  /** Why it does not recompute, or null when it does. */
  readonly fault: string | null;
}

/** Each observed Part with the commitment at its index (part-commitments.md §2), for inspect. */
export function partRows(parts: readonly A2APart[], pcs: JsonValue | undefined): PartRow[] | undefined {
  if (!Array.isArray(pcs)) return undefined;
  const rows: PartRow[] = [];
  for (let i = 0; i < Math.max(parts.length, pcs.length); i++) {
    const p = parts[i];
    const pc = pcs[i];
    const commitment = pc === undefined ? null : JSON.stringify(toPlainText(pc));
    let fault: string | null = null;
    if (!p) fault = "no observed Part at this index";
    else if (!isJsonObject(pc)) fault = "no commitment at this index";
    else if (member(pc, "kind") !== p.content) fault = `its kind is ${showValue(member(pc, "kind"))}`;
    else fault = digestFault(p, pc) ?? null;
    rows.push({ index: i, kind: p?.content ?? null, commitment, fault });
  }
  return rows;
}

function toPlainText(v: JsonValue): unknown {
  if (isJsonNumber(v)) return Number(v.lexeme);
  if (Array.isArray(v)) return v.map(toPlainText);
  if (isJsonObject(v)) return Object.fromEntries(Object.keys(v).map((k) => [k, toPlainText(v[k] as JsonValue)]));
  return v;
}
