/**
 * Interim records (docs/profile.md §3): each record sealed at a pause, derived step by step as the
 * terminal record is — where it was found, its evidenceId and coreManifestDigest, its capsule_id
 * and capsule digests, its Producer Envelope, its inclusion and its checkpoint — over the very
 * context verify's interim checks run the properties on; then related to the terminal record as
 * those checks relate it: the citation that names it, the prefix it must be of the terminal
 * record (interim.prefix), its place in the same log (interim.log), the keys that signed it
 * (interim.signature, interim.checkpoint), and the paused Task it came with (interim.observed).
 *
 * verify stops at a record's first defect; the explanation shows every comparison, each with
 * whether the two values are equal, and no verdict.
 */
import { firstDifference, listCapped, showValue, valueText } from "../json/diff.js";
import {
  asSafeInteger,
  hasMember,
  isJsonObject,
  jsonEquals,
  member,
  type JsonObject,
  type JsonValue,
} from "../json/value.js";
import type { A2AMessage } from "../input/a2a.js";
import type { LocatedBundle } from "../input/locate.js";
import { verifyConsistency } from "../log/mmr.js";
import { linkOf, position, type Link } from "../evidence/inclusion.js";
import { citationFault, effectsOf, ownCitations, sameCitations, stateAt, transcriptOf } from "../evidence/citations.js";
import type { EvidenceContext } from "../evidence/context.js";
import { interimRecords, type InterimRecord } from "../evidence/interim.js";
import { manifestCheckpoint } from "../evidence/manifest-checkpoint.js";
import { bytesToHex } from "../util/bytes.js";
import { checkpointSection } from "./checkpoint.js";
import { hex, listed, malformed, observedText, stepFailure } from "./common.js";
import { consistencyTrace } from "./continuity.js";
import { agentDigestsSection, capsuleIdSection, evidenceIdSection, manifestDigestSection } from "./digests.js";
import { envelopeSection } from "./envelope.js";
import { inclusionSection } from "./inclusion.js";
import { locationSection } from "./location.js";
import {
  isAbsent,
  type Absent,
  type ChainStep,
  type CitationRow,
  type Comparison,
  type InspectOptions,
  type InterimRecordSection,
  type InterimSection,
  type LogRelation,
  type PausedTaskSection,
  type PrefixSection,
} from "./model.js";

/** The members that say whose record it is (interim.prefix): the interim payload's must be the terminal one's. */
const SAME_TASK_MEMBERS = ["taskId", "contextId", "authority", "tenantId", "capturePolicyId"] as const;

/** A well-formed citation, as interim.cited accepts it. */
interface Citation {
  /** Where it is: `interimEvidence[i]`. */
  readonly subject: string;
  readonly evidenceId: string;
  readonly sequence: number;
}

function compare(
  what: string,
  interim: JsonValue | undefined,
  other: JsonValue | undefined,
  equal: boolean,
): Comparison {
  return { what, interim: valueText(interim), other: valueText(other), equal };
}

/** The terminal record's interim section: its citations, then every supplied record. */
export function interimSection(ctx: EvidenceContext, o: InspectOptions): InterimSection | Absent {
  const payload = ctx.payload;
  const records = interimRecords(ctx);
  const cited = payload ? member(payload, "interimEvidence") : undefined;
  if (cited === undefined && records.length === 0) {
    return {
      absent: "the payload cites no interim record and none is supplied (a capture's interimBundles, --interim)",
    };
  }
  // The records by evidenceId: the first supplied with an id is the one a citation names (as interim.cited).
  const byId = new Map<string, InterimRecord>();
  for (const r of records) if (r.evidenceId !== undefined && !byId.has(r.evidenceId)) byId.set(r.evidenceId, r);
  // Without a terminal payload there is nothing to cite a record; the records are still derived,
  // and placed in the terminal record's log, as the properties that need no payload still judge them.
  const transcript = transcriptOf(payload);
  const citations: Citation[] = [];
  const citedSoFar = new Set<string>();
  let rows: CitationRow[] = [];
  let citationsFailure: InterimSection["citationsFailure"];
  if (cited !== undefined && !Array.isArray(cited)) {
    citationsFailure = malformed(
      `taskEvidencePayload.interimEvidence is not an array: ${showValue(cited)}`,
      "taskEvidencePayload.interimEvidence",
    );
  } else if (Array.isArray(cited)) {
    rows = cited.map((c, i) => {
      const at = `interimEvidence[${i}]`;
      const evidenceId = isJsonObject(c) ? member(c, "evidenceId") : undefined;
      const sequence = isJsonObject(c) ? asSafeInteger(member(c, "sequence")) : undefined;
      const entry = sequence !== undefined && sequence >= 0 ? transcript[sequence] : undefined;
      const kind = isJsonObject(entry) ? member(entry, "kind") : undefined;
      const toState = isJsonObject(entry) ? member(entry, "toState") : undefined;
      const fault = citationFault(c, transcript, citations, citedSoFar);
      if (!fault) {
        citations.push({ subject: at, evidenceId: evidenceId as string, sequence: sequence as number });
        citedSoFar.add(evidenceId as string);
      }
      const supplied = typeof evidenceId === "string" ? (byId.get(evidenceId)?.located.location ?? null) : null;
      return {
        at,
        evidenceId: typeof evidenceId === "string" ? evidenceId : null,
        sequence: sequence ?? null,
        entry: isJsonObject(entry)
          ? { kind: typeof kind === "string" ? kind : null, toState: typeof toState === "string" ? toState : null }
          : null,
        supplied: fault ? null : supplied,
        ...(fault ? { failure: { detail: `not followed: ${fault}`, path: `taskEvidencePayload.${at}` } } : {}),
      };
    });
  }
  const shown = listed(rows, o, (r) => r);
  return {
    citations: shown,
    ...(citationsFailure ? { citationsFailure } : {}),
    records: listed(records, o, (r) => recordSection(r, o, { ctx, payload, citations, byId, records })),
  };
}

/** What relating a record to the terminal one needs: the terminal context, its valid citations, the supplied records. */
export interface Terminal {
  readonly ctx: EvidenceContext;
  readonly payload: JsonObject | undefined;
  readonly citations: readonly Citation[];
  readonly byId: ReadonlyMap<string, InterimRecord>;
  readonly records: readonly InterimRecord[];
}

const LOCATION_NOTES: Partial<Record<LocatedBundle["carrier"], string>> = {
  capture: "the capture's interimBundles: the copy the client kept of the paused Task's evidence, as JSON",
  bare: "the --interim file is the bundle itself",
};

/**
 * One record, sections 1–7 over its own context; related to the terminal record when there is
 * one. `taskPrefix` names the file the paused Task it came with is in, when its location does not.
 */
export function recordSection(
  r: InterimRecord,
  o: InspectOptions,
  terminal?: Terminal,
  taskPrefix?: string,
): InterimRecordSection {
  const ctx = r.ctx;
  const location = locationSection(ctx.evidence, o);
  const note = LOCATION_NOTES[location.carrier];
  const capsuleId = capsuleIdSection(ctx, o);
  const payload = ctx.payload;
  const sealedIn = payload ? member(payload, "terminalState") : undefined;
  const sealTime = payload ? member(payload, "sealTime") : undefined;
  const citation =
    terminal && r.evidenceId !== undefined ? terminal.citations.find((c) => c.evidenceId === r.evidenceId) : undefined;
  // interim.prefix is run for a citation and the first supplied record with its evidenceId.
  const prefix =
    terminal?.payload && citation && terminal.byId.get(citation.evidenceId) === r
      ? prefixSection(terminal, terminal.payload, citation, r, o)
      : null;
  const placed = terminal ? logRelation(terminal, r) : undefined;
  return {
    label: r.label,
    location: note ? { ...location, carrierNote: note } : location,
    sealedIn: typeof sealedIn === "string" ? sealedIn : null,
    sealTime: typeof sealTime === "string" ? sealTime : null,
    evidenceId: evidenceIdSection(ctx, o),
    coreManifestDigest: manifestDigestSection(ctx, o),
    capsuleId,
    agentDigests: agentDigestsSection(ctx, o),
    producerEnvelope: envelopeSection(ctx, isAbsent(capsuleId) ? null : capsuleId.signedId, o),
    inclusion: inclusionSection(ctx),
    checkpoint: checkpointSection(ctx, o),
    signers: terminal ? signers(terminal.ctx, ctx) : null,
    citedBy: citation?.subject ?? null,
    prefix,
    log: placed && "log" in placed ? placed.log : null,
    ...(placed && "failure" in placed ? { logFailure: placed.failure } : {}),
    pausedTask: r.located.pausedTask ? pausedTaskSection(r, o, taskPrefix) : null,
  };
}

/** interim.signature's and interim.checkpoint's cross-record rules: one producer key, one log key. */
function signers(terminal: EvidenceContext, interim: EvidenceContext): NonNullable<InterimRecordSection["signers"]> {
  const expected = terminal.capsule ? member(terminal.capsule, "key_id") : undefined;
  const got = interim.capsule ? member(interim.capsule, "key_id") : undefined;
  const a = manifestCheckpoint(terminal)?.result;
  const b = manifestCheckpoint(interim)?.result;
  return {
    capsuleKey: compare("capsule key_id", got, expected, got === expected),
    checkpointKey:
      a?.ok && b?.ok
        ? compare(
            "checkpoint key_id",
            bytesToHex(b.value.keyId),
            bytesToHex(a.value.keyId),
            bytesToHex(b.value.keyId) === bytesToHex(a.value.keyId),
          )
        : null,
  };
}

/** Where an interim transcript first differs from the terminal one, entry by entry; null when it is a prefix. */
function transcriptDifference(
  mine: readonly JsonValue[],
  theirs: readonly JsonValue[],
): PrefixSection["transcript"]["firstDifference"] {
  let firstDiff: PrefixSection["transcript"]["firstDifference"] = null;
  for (let i = 0; i < mine.length && firstDiff === null; i++) {
    const d = jsonEquals(mine[i], theirs[i]) ? undefined : firstDifference(theirs[i], mine[i]);
    if (d) firstDiff = { index: i, path: d.path, interim: showValue(d.right), other: showValue(d.left) };
  }
  return firstDiff;
}

/** Each effect of an interim payload beside the terminal payload's artifact of the same artifactId. */
function effectRows(
  terminalPayload: JsonObject,
  effectsValue: JsonValue | undefined,
): PrefixSection["effects"]["items"] {
  const byArtifact = new Map<string, JsonValue>();
  const finalArtifacts = member(terminalPayload, "nonEvidenceArtifacts");
  for (const a of Array.isArray(finalArtifacts) ? finalArtifacts : []) {
    const id = isJsonObject(a) ? member(a, "artifactId") : undefined;
    if (typeof id === "string" && !byArtifact.has(id)) byArtifact.set(id, a);
  }
  return (Array.isArray(effectsValue) ? effectsValue : []).map((a) => {
    const id = isJsonObject(a) ? member(a, "artifactId") : undefined;
    const kept = typeof id === "string" ? byArtifact.get(id) : undefined;
    return {
      artifactId: typeof id === "string" ? id : null,
      kept:
        kept === undefined
          ? ("not committed" as const)
          : jsonEquals(kept, a)
            ? ("identical" as const)
            : ("other content" as const),
    };
  });
}

function prefixSection(
  t: Terminal,
  terminalPayload: JsonObject,
  c: Citation,
  r: InterimRecord,
  o: InspectOptions,
): PrefixSection {
  const members: Comparison[] = ["recordProfile", "extensionVersion"].map((m) => {
    const a = member(r.located.bundle, m);
    const b = member(t.ctx.bundle, m);
    return compare(`bundle ${m}`, a, b, jsonEquals(a, b));
  });
  const interim = r.ctx.payload;
  const entered = stateAt(transcriptOf(terminalPayload), c.sequence);
  const before = t.citations.filter((x) => x.sequence < c.sequence);
  const expected = before.map((x) => `${x.evidenceId} at ${x.sequence}`);
  const noTranscript = { length: 0, expected: c.sequence + 1, firstDifference: null, equal: false };
  if (!interim) {
    return {
      citation: c.subject,
      sequence: c.sequence,
      members: [...members, compare("taskEvidencePayload", undefined, "present", false)],
      transcript: noTranscript,
      effects: { items: [], omitted: 0 },
      effectsKept: true,
      citations: { what: "interimEvidence", interim: "absent", other: listCapped(expected) || "none", equal: false },
    };
  }
  for (const m of SAME_TASK_MEMBERS) {
    const a = member(interim, m);
    const b = member(terminalPayload, m);
    members.push(compare(`payload ${m}`, a, b, jsonEquals(a, b)));
  }
  const sealed = member(interim, "terminalState");
  members.push(
    compare(`terminalState (the state transcript[${c.sequence}] enters)`, sealed, entered, sealed === entered),
  );

  const mine = transcriptOf(interim);
  const theirs = transcriptOf(terminalPayload);
  const firstDiff = transcriptDifference(mine, theirs);
  const effectsValue = member(interim, "nonEvidenceArtifacts");
  const effects = effectRows(terminalPayload, effectsValue);

  const own = member(interim, "interimEvidence");
  const ownList = ownCitations(own);
  const same = sameCitations(ownList, before);
  const shownOwn =
    ownList === null
      ? showValue(own)
      : listCapped(
          ownList.map(
            (x) =>
              `${typeof x.evidenceId === "string" ? x.evidenceId : showValue(x.evidenceId)} at ${x.sequence ?? "?"}`,
          ),
        ) || "none";
  return {
    citation: c.subject,
    sequence: c.sequence,
    members,
    transcript: {
      length: mine.length,
      expected: c.sequence + 1,
      firstDifference: firstDiff,
      equal: mine.length === c.sequence + 1 && firstDiff === null,
    },
    effects: listed(effects, o, (e) => e),
    // As interim.prefix: the list is stated, each effect is the terminal payload's, and the effects of
    // the latest earlier pause whose record is supplied are all in it (effects accumulate).
    effectsKept:
      Array.isArray(effectsValue) &&
      effects.every((e) => e.kept === "identical") &&
      earlierEffectsKept(t, before, interim),
    citations: { what: "interimEvidence", interim: shownOwn, other: listCapped(expected) || "none", equal: same },
  };
}

/** The first entry of each artifactId in a nonEvidenceArtifacts list (empty when it is not a list). */
function effectsById(payload: JsonObject | undefined): Map<string, JsonValue> {
  return effectsOf(payload) ?? new Map<string, JsonValue>();
}

/** Every effect the record of the latest earlier pause (when supplied) recorded is in `mine`, identical. */
function earlierEffectsKept(t: Terminal, before: readonly Citation[], interim: JsonObject): boolean {
  const earlier = [...before]
    .reverse()
    .map((x) => t.byId.get(x.evidenceId))
    .find((x) => x !== undefined);
  if (!earlier) return true;
  const done = effectsById(interim);
  return [...effectsById(earlier.ctx.payload)].every(([id, a]) => jsonEquals(done.get(id), a));
}

/**
 * interim.log: the same log_id, an earlier leaf, the same checkpoint or an earlier one the
 * terminal checkpoint extends. The chain of consistency proofs is followed as verify follows it —
 * indexed by where each step starts, the longest step that does not pass the terminal size first
 * — and only where verify follows it (same log, earlier leaf, smaller size); each step's folds are
 * traced from the very call verify makes.
 */
function logRelation(t: Terminal, r: InterimRecord): { log: LogRelation } | { failure: string } {
  const tp = position(t.ctx);
  const ip = position(r.ctx);
  if (!tp || !ip)
    return {
      failure: `not placed in the log: ${!tp ? "the terminal record's" : "its"} checkpoint or inclusion proof does not parse`,
    };
  const a = ip.checkpoint;
  const b = tp.checkpoint;
  const chain: ChainStep[] = [];
  let at = a;
  if (a.logId === b.logId && ip.leafIndex < tp.leafIndex && a.mmrSize < b.mmrSize) {
    const byStart = new Map<string, { link: Link; carriedBy: string }[]>();
    for (const [ctx, carriedBy] of [
      [t.ctx, "the terminal record"] as const,
      ...t.records.map((x) => [x.ctx, x.label] as const),
    ]) {
      const link = linkOf(ctx);
      if (!link) continue;
      const key = `${link.from.mmrSize}:${bytesToHex(link.from.root)}`;
      byStart.set(key, [...(byStart.get(key) ?? []), { link, carriedBy }]);
    }
    while (at.mmrSize < b.mmrSize) {
      const from = at;
      const next = (byStart.get(`${from.mmrSize}:${bytesToHex(from.root)}`) ?? [])
        .filter((l) => l.link.to.mmrSize > from.mmrSize && l.link.to.mmrSize <= b.mmrSize)
        .sort((x, y) => y.link.to.mmrSize - x.link.to.mmrSize)[0];
      if (!next) break;
      const { link } = next;
      const traced = consistencyTrace(link.proof);
      const v = verifyConsistency(
        link.from.root,
        link.from.mmrSize,
        link.to.root,
        link.to.mmrSize,
        link.proof,
        traced.trace,
      );
      const where =
        next.carriedBy === "the terminal record"
          ? "manifest.consistencyProof"
          : `${next.carriedBy}: manifest.consistencyProof`;
      chain.push({
        fromSize: link.from.mmrSize,
        toSize: link.to.mmrSize,
        carriedBy: next.carriedBy,
        consistency: { ...traced.section, at: where },
        verifies: v.ok,
        ...(v.ok ? {} : { failure: stepFailure(v) }),
      });
      if (!v.ok) break;
      at = link.to;
    }
  }
  return {
    log: {
      logId: compare("log_id", a.logId, b.logId, a.logId === b.logId),
      leafIndex: { interim: ip.leafIndex, terminal: tp.leafIndex },
      mmrSize: { interim: a.mmrSize, terminal: b.mmrSize },
      root: { interim: hex(a.root), terminal: hex(b.root) },
      chain,
      reached: { size: at.mmrSize, root: hex(at.root) },
    },
  };
}

/** interim.observed: the paused Task a record came with against what the record says of it. */
function pausedTaskSection(r: InterimRecord, o: InspectOptions, taskPrefix?: string): PausedTaskSection {
  const paused = r.located.pausedTask as NonNullable<LocatedBundle["pausedTask"]>;
  const task = paused.task;
  // The paused Task's paths are named in its file, as its bundle's location is.
  const prefix = taskPrefix ?? /^(--interim\[\d+\]:|--task:)/.exec(r.located.location)?.[0] ?? "";
  const observed = (at: string, parts: A2AMessage["parts"]) => observedText(at, parts, prefix, o);
  const payload = r.ctx.payload;
  const taskId = payload ? member(payload, "taskId") : undefined;
  const contextId = payload ? (member(payload, "contextId") ?? "") : undefined;
  const state = payload ? member(payload, "terminalState") : undefined;
  const members = [
    compare("taskId", taskId, task.id, taskId === task.id),
    compare("contextId", contextId, task.contextId ?? "", contextId === (task.contextId ?? "")),
    compare("state", state, task.state, state === task.state),
  ];
  const byMessage = new Map<string, { index: number; entry: JsonObject }>();
  transcriptOf(payload).forEach((e, index) => {
    const id = isJsonObject(e) && !hasMember(e, "kind") ? member(e, "messageId") : undefined;
    if (typeof id === "string" && !byMessage.has(id)) byMessage.set(id, { index, entry: e as JsonObject });
  });
  let last = -1;
  // The request the paused Task shows as status.message is compared too when its history does not hold it.
  const history = task.history ?? [];
  const shown = task.statusMessage;
  const rows = shown && !history.some((m) => m.messageId === shown.messageId) ? [...history, shown] : history;
  const messages = rows.map((m) => {
    const e = byMessage.get(m.messageId);
    const seen = { ...observed(m.path, m.parts), role: m.role };
    const inOrder = e !== undefined && e.index >= last;
    if (e && inOrder) last = e.index;
    const partCommitment = e ? member(e.entry, "partCommitment") : undefined;
    const role = e ? member(e.entry, "role") : undefined;
    return {
      messageId: m.messageId,
      observed: seen,
      entry: e?.index ?? null,
      role: typeof role === "string" ? role : null,
      partCommitment: typeof partCommitment === "string" ? partCommitment : null,
      inOrder,
      equal: e !== undefined && partCommitment === seen.recomputed && role === m.role,
    };
  });
  const committed = effectsById(payload);
  const effects = paused.content.map((a) => {
    const seen = observed(a.path, a.parts);
    const entry = committed.get(a.artifactId);
    const c = isJsonObject(entry) ? member(entry, "contentCommitment") : undefined;
    // The name is committed too; absent is "".
    const name = isJsonObject(entry) ? member(entry, "name") : undefined;
    const sameName = (name === null || name === undefined ? "" : name) === (a.name ?? "");
    return {
      artifactId: a.artifactId,
      observed: seen,
      contentCommitment: typeof c === "string" ? c : null,
      equal: c === seen.recomputed && sameName,
    };
  });
  return {
    task: `${prefix}${task.path} (${task.state})`,
    members,
    messages: listed(messages, o, (m) => m),
    effects: listed(effects, o, (e) => e),
  };
}
