/**
 * The Task's artifacts against the payload's nonEvidenceArtifacts (contract §9.3, §9.12):
 * artifacts.unambiguous, artifact.binding per committed entry, artifacts.coverage.
 */
import { listCapped, showValue, valueText } from "../../json/diff.js";
import { member, hasMember, isJsonObject, type JsonObject, type JsonValue } from "../../json/value.js";
import { sha256HexOfText } from "../../util/bytes.js";
import { textOfParts, type A2AArtifact, type A2APart, type A2ATask } from "../../input/a2a.js";
import type { Check } from "../shared/types.js";
import type { EvidenceContext } from "../../evidence/context.js";
import { uncoveredParts } from "./transcript.js";
import { partsChecks, uncommittedKinds, type PartsRules } from "./parts.js";
import { check } from "./checks.js";
import { indexBy, sameString, splitNotCommitted } from "./task.js";

/** The commitment of an Artifact's or Message's parts: SHA-256 of its text parts joined with "\n". */
function commitmentOf(parts: readonly A2APart[]): { hex: string; otherParts: number; textParts: number } {
  const t = textOfParts(parts);
  return { hex: sha256HexOfText(t.text), otherParts: t.otherParts, textParts: t.textParts };
}

/** What the per-entry artifact checks share: the observed content Artifacts, indexed, with commitments computed once. */
class ObservedArtifacts {
  readonly byId: ReadonlyMap<string, A2AArtifact>;
  private readonly byName = new Map<string, A2AArtifact[]>();
  private readonly commitments = new Map<A2AArtifact, { hex: string; otherParts: number; textParts: number }>();

  constructor(readonly content: readonly A2AArtifact[]) {
    this.byId = indexBy(content, (a) => a.artifactId).byKey;
    for (const a of content) {
      if (a.name === undefined) continue;
      const list = this.byName.get(a.name);
      if (list) list.push(a);
      else this.byName.set(a.name, [a]);
    }
  }

  commitment(a: A2AArtifact): { hex: string; otherParts: number; textParts: number } {
    let c = this.commitments.get(a);
    if (!c) {
      c = commitmentOf(a.parts);
      this.commitments.set(a, c);
    }
    return c;
  }

  /** At most three observed Artifacts with this name: enough for a hint, never N×M work. */
  sameName(name: JsonValue | undefined): { shown: readonly A2AArtifact[]; total: number } {
    const list = typeof name === "string" ? (this.byName.get(name) ?? []) : [];
    return { shown: list.slice(0, 3), total: list.length };
  }
}

/** Whether the observed Task itself carries a bundle in its metadata (a located inline bundle of no Artifact). */
export function carriesBundleInline(ctx: EvidenceContext): boolean {
  return ctx.bundles.some((b) => b.carrier === "inline" && b.artifact === undefined);
}

export function artifactChecks(
  payload: JsonObject,
  task: A2ATask,
  evidenceArtifacts: ReadonlySet<A2AArtifact>,
  bundleInline: boolean,
  rules: PartsRules,
): Check[] {
  const claimedList = member(payload, "nonEvidenceArtifacts");
  if (!Array.isArray(claimedList)) {
    return [check("artifact.binding", "FAIL", "taskEvidencePayload.nonEvidenceArtifacts is not an array")];
  }
  const all = task.artifacts ?? [];
  const checks: Check[] = [];
  const repeated = indexBy(all, (a) => a.artifactId).repeated;
  checks.push(
    repeated.length === 0
      ? check("artifacts.unambiguous", "PASS", `the ${all.length} observed artifact(s) have distinct artifactIds`)
      : check(
          "artifacts.unambiguous",
          "FAIL",
          `the observed Task has several artifacts with artifactId ${listCapped(repeated.map((r) => showValue(r)))}: the observation cannot be matched to the commitment unambiguously`,
        ),
  );
  if (task.artifacts === undefined && claimedList.length > 0) {
    checks.push(
      check(
        "artifact.binding",
        "INCONCLUSIVE",
        `the payload commits to ${claimedList.length} artifact(s) but the observed Task carries no artifacts member (not requested or not returned)`,
      ),
    );
    return checks;
  }
  // No artifacts member means "none" only where ProtoJSON omitted an empty list from a Task
  // returned whole, its evidence in its metadata. Elsewhere (the bundle in a capture, a file, an
  // Artifact) the member is missing because the artifacts were not requested or not returned
  // (a2a-wire.md §1.8): an empty commitment list is then compared with nothing.
  if (task.artifacts === undefined && !bundleInline) {
    checks.push(
      check(
        "artifacts.coverage",
        "INCONCLUSIVE",
        "the observed Task carries no artifacts member and no bundle in its metadata: its artifacts were not observed (not requested or not returned), so none is known to be committed",
      ),
    );
    return checks;
  }
  const observed = new ObservedArtifacts(all.filter((a) => !evidenceArtifacts.has(a)));
  const claimedIds = new Set<string>();
  claimedList.forEach((entry, i) => {
    const subject = `nonEvidenceArtifacts[${i}]`;
    if (isJsonObject(entry)) checks.push(...artifactCheck(entry, subject, observed, claimedIds, rules));
    else checks.push(check("artifact.binding", "FAIL", "entry is not an object", { subject }));
  });
  const uncovered = observed.content.filter((a) => !claimedIds.has(a.artifactId));
  checks.push(
    uncovered.length === 0
      ? check(
          "artifacts.coverage",
          "PASS",
          `every observed content artifact (${observed.content.length}) is committed in the payload`,
        )
      : check(
          "artifacts.coverage",
          "FAIL",
          `observed artifact(s) not committed in the payload: ${listCapped(uncovered.map((a) => `${a.artifactId}${a.name !== undefined ? ` (name ${showValue(a.name)})` : ""}`))}`,
        ),
  );
  return checks;
}

const ARTIFACT_MEMBERS = ["artifactId", "name", "contentCommitment"] as const;

/** A committed entry as compared: its members, and the values its checks show. */
interface ArtifactEntry {
  readonly entry: JsonObject;
  readonly subject: string;
  readonly artifactId: string;
  readonly name: JsonValue | undefined;
  readonly commitment: JsonValue | undefined;
  readonly values: Record<string, string>;
}

function artifactCheck(
  entry: JsonObject,
  subject: string,
  observed: ObservedArtifacts,
  claimedIds: Set<string>,
  rules: PartsRules,
): Check[] {
  const read = readArtifactEntry(entry, subject, claimedIds);
  if ("fault" in read) return [check("artifact.binding", "FAIL", read.fault, { subject })];
  const match = observed.byId.get(read.artifactId);
  if (!match) return [notObservedCheck(read, observed)];
  return boundChecks(read, match, observed.commitment(match), rules);
}

/** The entry's members, or why it cannot be compared (a repeated artifactId among them). */
function readArtifactEntry(
  entry: JsonObject,
  subject: string,
  claimedIds: Set<string>,
): ArtifactEntry | { fault: string } {
  const missing = ARTIFACT_MEMBERS.filter((m) => !hasMember(entry, m));
  if (missing.length > 0)
    return { fault: `the entry lacks ${missing.join(", ")}: nothing to compare is never a match` };
  const artifactId = member(entry, "artifactId");
  const name = member(entry, "name");
  const commitment = member(entry, "contentCommitment");
  if (typeof artifactId !== "string") return { fault: "artifactId is not a string" };
  if (name !== null && typeof name !== "string") return { fault: "name is neither a string nor null" };
  if (claimedIds.has(artifactId)) return { fault: `artifactId ${artifactId} is committed twice` };
  claimedIds.add(artifactId);
  const values: Record<string, string> = { artifactId, contentCommitment: valueText(commitment) };
  return { entry, subject, artifactId, name, commitment, values };
}

/**
 * Artifact identity binds (contract §9.3): a same-named artifact does not stand in for it, but the
 * detail says whether one exists, so a producer defect reads differently from a forgery.
 */
function notObservedCheck(e: ArtifactEntry, observed: ObservedArtifacts): Check {
  const { artifactId, name, commitment, subject, values } = e;
  const same = observed.sameName(name);
  const hint =
    same.total > 0
      ? same.shown
          .map(
            (a) =>
              `; the observed artifact ${a.artifactId} has the same name ${showValue(name)} and its content ${observed.commitment(a).hex === commitment ? "matches" : "does not match"} the commitment`,
          )
          .join("") +
        (same.total > same.shown.length ? `; and ${same.total - same.shown.length} more artifacts have that name` : "")
      : "; no observed artifact has that name either";
  return check(
    "artifact.binding",
    "FAIL",
    `payload artifactId ${showValue(artifactId)} is not an artifact of the observed Task${hint}`,
    { subject, values },
  );
}

/** The entry against the observed Artifact of its artifactId: name, text commitment, then its parts. */
function boundChecks(
  e: ArtifactEntry,
  match: A2AArtifact,
  c: { hex: string; otherParts: number; textParts: number },
  rules: PartsRules,
): Check[] {
  const id = "artifact.binding";
  const { artifactId, name, commitment, subject, values } = e;
  values.recomputed = c.hex;
  if (!sameString(name, match.name)) {
    return [
      check(
        id,
        "FAIL",
        `artifact ${artifactId}: payload name ${showValue(name)} != observed name ${showValue(match.name)}`,
        { subject, values },
      ),
    ];
  }
  if (commitment !== c.hex) {
    return [
      check(
        id,
        "FAIL",
        `artifact ${artifactId}: contentCommitment ${showValue(commitment)} != SHA-256 of the observed text ${c.hex}`,
        { subject, values },
      ),
    ];
  }
  const what = `artifact ${artifactId}`;
  const perPart = {
    present: hasMember(e.entry, "partCommitments"),
    partCommitments: member(e.entry, "partCommitments"),
  };
  if (perPart.present || rules.requireAll) {
    return [
      check(id, "PASS", `${what}: its text matches the commitment ${c.hex}; its parts are compared one by one`, {
        subject,
        values,
      }),
      ...partsChecks(perPart, match.parts, what, subject, rules, check),
    ];
  }
  if (c.otherParts > 0) {
    return [
      check(
        id,
        "INCONCLUSIVE",
        `${what}: its text matches the commitment ${c.hex}, but it has ${uncoveredParts(c.otherParts)} (${uncommittedKinds(match.parts)})`,
        { subject, values, code: "PART_NOT_COMMITTED" },
      ),
    ];
  }
  return [
    check(
      id,
      "PASS",
      `artifact ${artifactId} content matches its commitment ${c.hex}${splitNotCommitted(c.textParts)}`,
      {
        subject,
        values,
      },
    ),
  ];
}
