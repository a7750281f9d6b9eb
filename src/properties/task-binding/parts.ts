/**
 * Per-Part commitments (spec part-commitments.md): every Part of a committed Message or Artifact,
 * in order, each by its kind. The v1 commitment covers only the text joined with "\n", so it
 * cannot tell ["a", "b"] from ["a\nb"] and says nothing of data, raw or url Parts; with
 * `partCommitments` each Part is bound on its own:
 *   parts.count    one commitment per observed Part
 *   parts.kind     the i-th commitment's kind is the i-th Part's oneof member
 *   parts.digest   each commitment recomputed (§2): text by its UTF-8, data by JCS, raw by its
 *                  bytes, length and mediaType, url by its locator and mediaType
 *   parts.url      a url Part committed NOT_RESOLVED is INCONCLUSIVE (the content behind the URL
 *                  was never committed); RESOLVED is compared with the caller's --resolved file
 *   parts.missing  under a2a-server-boundary-v2 every entry must carry partCommitments
 * Labels (`filename`, `metadata`, a text or data Part's `mediaType`) are not committed.
 */
import { showValue } from "../../json/diff.js";
import { hasMember, isJsonObject, isJsonNumber, member, type JsonValue } from "../../json/value.js";
import { jcs } from "../../canon/jcs.js";
import { base64ToBytesStrict, isHex64, sha256Hex, sha256HexOfText } from "../../util/bytes.js";
import type { A2APart } from "../../input/a2a.js";
import type { Check, State } from "../shared/types.js";
import type { CheckExtras } from "../shared/checks.js";

/** The capture policy that announces per-Part commitments: every entry must carry them. */
export const CAPTURE_POLICY_V2 = "a2a-server-boundary-v2";

export type PartsCheckId = "parts.count" | "parts.kind" | "parts.digest" | "parts.url" | "parts.missing";

/** What the caller resolved a URL to, outside the verifier (`--resolved URL=FILE`). */
export interface ResolvedContent {
  readonly sha256: string;
  readonly length: number;
}

export interface PartsRules {
  /** The payload's capture policy is v2: an entry without partCommitments FAILs. */
  readonly requireAll: boolean;
  readonly resolved?: ReadonlyMap<string, ResolvedContent>;
  /** URLs of --resolved that a Part committed as RESOLVED (so that the unused ones can be listed). */
  readonly used: Set<string>;
}

type MakeCheck = (id: PartsCheckId, state: State, detail: string, extras?: CheckExtras) => Check;

/** The parts a v1 commitment leaves uncommitted, by kind: "1 data part and 2 url parts". */
export function uncommittedKinds(parts: readonly A2APart[]): string {
  const counts = new Map<string, number>();
  for (const p of parts) if (p.content !== "text") counts.set(p.content, (counts.get(p.content) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k} part${n === 1 ? "" : "s"}`).join(" and ");
}

/**
 * The checks of one committed entry's Parts against the observed Parts. `subject` names the
 * entry; `what` names the observed Message or Artifact in details.
 */
export function partsChecks(
  entry: { readonly partCommitments?: JsonValue | undefined; readonly present: boolean },
  parts: readonly A2APart[],
  what: string,
  subject: string,
  rules: PartsRules,
  check: MakeCheck,
): Check[] {
  if (!entry.present) {
    if (rules.requireAll) {
      return [
        check(
          "parts.missing",
          "FAIL",
          `${what}: the entry carries no partCommitments, which capture policy ${CAPTURE_POLICY_V2} requires of every entry`,
          { subject },
        ),
      ];
    }
    // v1: the caller's own check says what the joined-text commitment leaves open (§5).
    return [];
  }
  const pcs = entry.partCommitments;
  if (!Array.isArray(pcs))
    return [check("parts.count", "FAIL", `${what}: partCommitments is not an array`, { subject })];
  if (pcs.length !== parts.length) {
    return [
      check(
        "parts.count",
        "FAIL",
        `${what}: ${pcs.length} part commitment(s) for ${parts.length} observed part(s): a Part was added, dropped, split or merged`,
        { subject },
      ),
    ];
  }
  const kindFaults: string[] = [];
  parts.forEach((p, i) => {
    const pc = pcs[i];
    const kind = isJsonObject(pc) ? member(pc, "kind") : undefined;
    if (kind !== p.content) kindFaults.push(`part ${i} is ${p.content}, its commitment's kind is ${showValue(kind)}`);
  });
  if (kindFaults.length > 0) {
    return [check("parts.kind", "FAIL", `${what}: ${capped(kindFaults)} (a Part moved or changed kind)`, { subject })];
  }
  const faults: string[] = [];
  const urls: Check[] = [];
  parts.forEach((p, i) => {
    const fault = digestFault(p, pcs[i] as Record<string, JsonValue>);
    if (fault) faults.push(`part ${i} (${p.content}): ${fault}`);
    else if (p.content === "url")
      urls.push(urlCheck(p, pcs[i] as Record<string, JsonValue>, i, what, subject, rules, check));
  });
  if (faults.length > 0) return [check("parts.digest", "FAIL", `${what}: ${capped(faults)}`, { subject })];
  return [
    check(
      "parts.digest",
      "PASS",
      `${what}: each of its ${parts.length} part(s) matches its commitment, in order (${parts.map((p) => p.content).join(", ")})`,
      { subject },
    ),
    ...urls,
  ];
}

function capped(items: readonly string[]): string {
  const shown = items.slice(0, 5).join("; ");
  return items.length > 5 ? `${shown}; and ${items.length - 5} more` : shown;
}

/** A Part's mediaType as committed: absent and "" are one value in ProtoJSON, written null. */
function committedMediaType(p: A2APart): string | null {
  return p.mediaType === undefined || p.mediaType === "" ? null : p.mediaType;
}

/** Why a Part's commitment does not recompute, or undefined when it does (§2). */
function digestFault(p: A2APart, pc: Record<string, JsonValue>): string | undefined {
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

function urlCheck(
  p: A2APart,
  pc: Record<string, JsonValue>,
  i: number,
  what: string,
  subject: string,
  rules: PartsRules,
  check: MakeCheck,
): Check {
  const url = p.url as string;
  if (member(pc, "resolution") === "NOT_RESOLVED") {
    return check(
      "parts.url",
      "INCONCLUSIVE",
      `${what}: part ${i} is the URL ${showValue(url)}, committed NOT_RESOLVED: the content behind it was never committed`,
      { subject, code: "PART_URL_NOT_RESOLVED" },
    );
  }
  const digest = member(pc, "digest") as string;
  const length = Number((member(pc, "length") as { lexeme: string }).lexeme);
  const values = { url, digest, length: String(length) };
  const resolved = rules.resolved?.get(url);
  if (!resolved) {
    return check(
      "parts.url",
      "PASS",
      `${what}: part ${i} is the URL ${showValue(url)}, committed RESOLVED to ${length} bytes with SHA-256 ${digest} (pass --resolved URL=FILE to compare a copy)`,
      { subject, values },
    );
  }
  rules.used.add(url);
  if (resolved.sha256 !== digest || resolved.length !== length) {
    return check(
      "parts.url",
      "FAIL",
      `${what}: part ${i} is the URL ${showValue(url)}, committed as ${length} bytes with SHA-256 ${digest}, but the --resolved file has ${resolved.length} bytes with SHA-256 ${resolved.sha256}`,
      { subject, values: { ...values, resolvedDigest: resolved.sha256, resolvedLength: String(resolved.length) } },
    );
  }
  return check(
    "parts.url",
    "PASS",
    `${what}: part ${i} is the URL ${showValue(url)}, committed RESOLVED to ${length} bytes with SHA-256 ${digest}, equal to the --resolved file`,
    { subject, values },
  );
}

/** The --resolved URLs no Part committed as RESOLVED: listed, changing nothing. */
export function unusedResolvedChecks(rules: PartsRules, check: MakeCheck): Check[] {
  if (!rules.resolved) return [];
  const unused = [...rules.resolved.keys()].filter((u) => !rules.used.has(u));
  return unused.map((u) =>
    check("parts.url", "NOT_CHECKED", `--resolved ${showValue(u)} is unused: no Part commits that URL as RESOLVED`),
  );
}

/** The raw bytes a url Part's --resolved file holds, as the check compares them. */
export function resolvedContentOf(bytes: Uint8Array): ResolvedContent {
  return { sha256: sha256Hex(bytes), length: bytes.length };
}

/**
 * One entry's Parts judged as a single fact, for checks that compare a whole record at once (an
 * interim record against its paused Task): the first fault, or whether every Part is covered by a
 * commitment (false for a v1 entry with data, raw or url Parts, or a url committed NOT_RESOLVED).
 */
export function partsVerdict(
  entry: JsonValue | undefined,
  parts: readonly A2APart[],
  what: string,
  requireAll: boolean,
): { readonly fault?: string; readonly covered: boolean } {
  const present = isJsonObject(entry) && hasMember(entry, "partCommitments");
  const pcs = present ? member(entry, "partCommitments") : undefined;
  const make: MakeCheck = (id, state, detail) => ({ id, state, detail });
  const checks = partsChecks(
    { present, ...(pcs !== undefined ? { partCommitments: pcs } : {}) },
    parts,
    what,
    "",
    { requireAll, used: new Set() },
    make,
  );
  const failed = checks.find((c) => c.state === "FAIL");
  if (failed) return { fault: failed.detail, covered: false };
  if (!present) return { covered: parts.every((p) => p.content === "text") };
  return { covered: checks.every((c) => c.state === "PASS") };
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
