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
import { hasMember, isJsonObject, member, type JsonValue } from "../../json/value.js";
import type { A2APart } from "../../input/a2a.js";
import { digestFault, type ResolvedContent } from "../../evidence/parts.js";
import type { Check, State } from "../shared/types.js";
import type { CheckExtras } from "../shared/checks.js";

/** The capture policy that announces per-Part commitments: every entry must carry them. */
export const CAPTURE_POLICY_V2 = "a2a-server-boundary-v2";

export type PartsCheckId = "parts.count" | "parts.kind" | "parts.digest" | "parts.url" | "parts.missing";

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
