/**
 * What "inspect agrees with verify" means for one input, shared by the vector cases and the
 * mutated ones: verify's report and inspect's explanation of the same bytes, with the same trust
 * file and interim records; each value a check compared is the value inspect shows for that step,
 * and each state the explanation can bear out, it bears out.
 */
import { expect } from "vitest";
import { inspect, type Explanation } from "../../src/inspect/index.js";
import {
  isAbsent,
  type Absent,
  type InterimRecordSection,
  type ReceiptRecord,
  type TranscriptRow,
  type TransitionRow,
} from "../../src/inspect/model.js";
import { isFailedInput, type Check, type VerifiedInput } from "../../src/report/model.js";
import { verify, type InputData } from "../../src/verify.js";

export interface Case {
  readonly name: string;
  readonly data: InputData;
  readonly trust?: InputData;
  readonly interim?: readonly InputData[];
  /** What the vector's args.json adds (`--first-task`, `--at`), given to both alike. */
  readonly firstTask?: InputData;
  readonly at?: string;
}

function present<T extends object>(s: T): Exclude<T, Absent> {
  if (isAbsent(s)) throw new Error(`section absent: ${s.absent}`);
  return s as Exclude<T, Absent>;
}

function record(e: Explanation, subject: string | undefined): ReceiptRecord {
  const r = present(e.receipts).records.items.find((x) => subject !== undefined && subject.startsWith(`${x.at} `));
  if (!r) throw new Error(`no receipt record for ${subject}`);
  return r;
}

function message(e: Explanation, id: string): { recomputed: string; partCommitment: string | null } {
  const c = present(e.commitments);
  const row = c.transcript.items.find((t) => t.kind === "message" && t.messageId === id && t.observed !== null);
  if (row?.observed) return { recomputed: row.observed.recomputed, partCommitment: row.partCommitment };
  const u = c.uncommittedMessages.items.find((m) => m.id === id);
  if (u) return { recomputed: u.recomputed, partCommitment: null };
  throw new Error(`no observed message ${id}`);
}

/**
 * An interim check's state as the property's own rules judged it: where the terminal record
 * carries nothing for the property, verify lists a PASS or INCONCLUSIVE as NOT_CHECKED ("not
 * counted, …"), and what the explanation shows bears out the state before that.
 */
function judged(c: Check): Check["state"] {
  const m = /^not counted, the terminal record being [A-Z_]+ here \((PASS|INCONCLUSIVE): /.exec(c.detail);
  return (m?.[1] as Check["state"] | undefined) ?? c.state;
}

const stateIs = (c: Check, pass: boolean, what: string) =>
  expect(c.state === "PASS", `${c.id} ${c.subject ?? ""}: ${what}`).toBe(pass);

/** The transcript row a `transcript[i]` subject names, a transition entry's. */
function transition(e: Explanation, c: Check): { row: TranscriptRow; t: TransitionRow } {
  const i = Number(/^transcript\[(\d+)\]$/.exec(c.subject ?? "")?.[1]);
  const row = present(e.commitments).transcript.items[i];
  if (!row?.transition) throw new Error(`no transition row for ${c.subject}`);
  return { row, t: row.transition };
}

/** The interim record a check's subject names ("interim record <id> at <where>"). */
function interimRecord(e: Explanation, c: Check): InterimRecordSection {
  const r = present(e.interim).records.items.find((x) => x.label === c.subject);
  if (!r) throw new Error(`no interim record ${c.subject}`);
  return r;
}

const sectionEqual = (s: object, equal: (x: never) => boolean) => !isAbsent(s as Absent) && equal(s as never);

/** Every comparison inspect shows for a cited record against the terminal one holds. */
function prefixHolds(r: InterimRecordSection): boolean {
  const p = r.prefix;
  return p !== null && p.members.every((m) => m.equal) && p.transcript.equal && p.effectsKept && p.citations.equal;
}

function pausedHolds(r: InterimRecordSection): boolean {
  const p = r.pausedTask;
  return (
    p !== null &&
    p.members.every((m) => m.equal) &&
    p.messages.items.every((m) => m.equal && m.inOrder) &&
    p.effects.items.every((x) => x.equal)
  );
}

/** Where the log relation reaches what interim.log requires: one log, an earlier leaf, the same or a provably earlier checkpoint. */
function logHolds(r: InterimRecordSection): boolean {
  const g = r.log;
  if (!g || !g.logId.equal || g.leafIndex.interim >= g.leafIndex.terminal || g.mmrSize.interim > g.mmrSize.terminal)
    return false;
  if (g.mmrSize.interim === g.mmrSize.terminal) return g.root.interim === g.root.terminal;
  return (
    g.chain.every((s) => s.verifies) && g.reached.size === g.mmrSize.terminal && g.reached.root === g.root.terminal
  );
}

/**
 * Checks that compare no values but whose state the explanation must bear out: what inspect shows
 * of an interim record (or a transition inspect could not recompute) against the interim check's state.
 */
const STATES: Record<string, (e: Explanation, c: Check) => void> = {
  "transcript.transition": (e, c) => {
    if (c.subject === "transcript") return;
    const { row, t } = transition(e, c);
    if (c.state === "PASS") expect(row.equal, `${c.subject} recomputes`).toBe(true);
    if (c.state === "INCONCLUSIVE")
      expect([row.observed, t.recomputed], `${c.subject}: its Message is not observed`).toEqual([null, null]);
    if (c.values && c.state === "FAIL") expect(row.equal).toBe(false);
  },
  "interim.content": (e, c) => {
    const r = interimRecord(e, c);
    if (judged(c) !== "PASS") return;
    const agent = r.agentDigests;
    expect([
      sectionEqual(r.evidenceId, (d: { equal: boolean }) => d.equal),
      sectionEqual(r.coreManifestDigest, (d: { equal: boolean }) => d.equal),
      // The capsule's digests are NOT_PRESENT without a capsule, and either output digest may be
      // absent (capsule.agentOutputDigest compares those the capsule carries).
      isAbsent(agent) ||
        (agent.inputEqual &&
          [agent.agentOutputDigest, agent.responseDigest].every((d) => d === null || d === agent.outputRecomputed)),
    ]).toEqual([true, true, true]);
  },
  "interim.signature": (e, c) => {
    const r = interimRecord(e, c);
    const envelope = r.producerEnvelope;
    const verifies =
      !isAbsent(envelope) &&
      envelope.result === "verifies" &&
      sectionEqual(r.capsuleId, (x: { equal: boolean }) => x.equal);
    if (judged(c) === "PASS") expect([verifies, r.signers?.capsuleKey.equal]).toEqual([true, true]);
    if (r.signers?.capsuleKey.equal === false || (!isAbsent(envelope) && envelope.result === "does not verify"))
      expect(judged(c)).toBe("FAIL");
  },
  "interim.checkpoint": (e, c) => {
    const r = interimRecord(e, c);
    const cp = r.checkpoint;
    // The keys are compared only when both checkpoints parse (a malformed terminal one is its own FAIL).
    if (judged(c) === "PASS")
      expect([
        !isAbsent(cp) && cp.result === "verifies" && !cp.reconstructed,
        r.signers?.checkpointKey?.equal ?? true,
      ]).toEqual([true, true]);
    if ((!isAbsent(cp) && cp.result === "does not verify") || r.signers?.checkpointKey?.equal === false)
      expect(judged(c)).toBe("FAIL");
  },
  "interim.inclusion": (e, c) => {
    const r = interimRecord(e, c);
    const inc = r.inclusion;
    if (judged(c) === "PASS") expect(!isAbsent(inc) && inc.equal).toBe(true);
    if (!isAbsent(inc) && inc.root !== null && !inc.equal) expect(judged(c)).toBe("FAIL");
  },
  "interim.log": (e, c) => {
    const r = interimRecord(e, c);
    if (judged(c) === "NOT_CHECKED") expect(r.log).toBe(null);
    else expect(logHolds(r), `${c.subject}: ${c.detail}`).toBe(judged(c) === "PASS");
  },
  "interim.cited": (e, c) => {
    const s = present(e.interim);
    const citation = s.citations.items.find((x) => x.at === c.subject);
    if (citation) {
      expect([citation.failure !== undefined, citation.supplied !== null]).toEqual(
        judged(c) === "FAIL" ? [true, false] : judged(c) === "PASS" ? [false, true] : [false, false],
      );
      return;
    }
    if (c.subject === undefined) expect(s.citationsFailure).toBeDefined();
    // A supplied record no citation names (or a second bundle under one evidenceId): FAIL.
    else expect([judged(c), interimRecord(e, c).prefix]).toEqual(["FAIL", null]);
  },
  "interim.prefix": (e, c) =>
    expect(prefixHolds(interimRecord(e, c)), `${c.subject}: ${c.detail}`).toBe(judged(c) === "PASS"),
  "interim.observed": (e, c) => {
    const r = interimRecord(e, c);
    const holds = pausedHolds(r);
    const p = r.pausedTask;
    // Non-text parts: what inspect shows matches, but nothing binds them (INCONCLUSIVE, never PASS).
    const uncovered = p !== null && [...p.messages.items, ...p.effects.items].some((x) => x.observed.otherParts > 0);
    const state = judged(c);
    const why = `${c.subject}: ${c.detail}`;
    if (state === "PASS") expect([holds, uncovered], why).toEqual([true, false]);
    else if (!holds) expect(state, why).toBe("FAIL");
    else if (state === "INCONCLUSIVE") expect(uncovered || /no artifacts member/.test(c.detail), why).toBe(true);
    // Every comparison inspect shows holds: the FAIL is one of what it does not show.
    else expect(c.detail, why).toMatch(/spliced into this history|one messageId, two observations|does not show them/);
  },
};

/**
 * For each check id: the explanation's value for each `values` key verify reported, and what the
 * check's state says inspect's result must be. A key missing here is not compared (and listed).
 */
const MAP: Record<string, (e: Explanation, c: Check) => Record<string, string | null | undefined>> = {
  "evidenceId.recompute": (e) => {
    const s = present(e.evidenceId);
    return { claimed: s.claimed, recomputed: s.recomputed, recomputedNarrowed: s.narrowed?.recomputed };
  },
  "coreManifestDigest.recompute": (e) => {
    const s = present(e.coreManifestDigest);
    return { claimed: s.claimed, recomputed: s.recomputed, recomputedNarrowed: s.narrowed?.recomputed };
  },
  "capsule.agentInputDigest": (e) => {
    const s = present(e.agentDigests);
    return { agentInputDigest: s.agentInputDigest, evidenceId: s.evidenceId };
  },
  "capsule.agentOutputDigest": (e, c) => {
    const s = present(e.agentDigests);
    if (c.state === "PASS")
      expect(
        [s.agentOutputDigest, s.responseDigest].filter((d) => d !== null).every((d) => d === s.outputRecomputed),
      ).toBe(true);
    return { expected: s.outputRecomputed, agentOutputDigest: s.agentOutputDigest, responseDigest: s.responseDigest };
  },
  "capsuleId.recompute": (e, c) => {
    const s = present(e.capsuleId);
    if (c.state === "PASS") expect(s.equal).toBe(true);
    return { capsuleId: s.narrowed?.kind === "match" ? s.narrowed.recomputed : s.recomputed };
  },
  "envelope.verify": (e, c) => {
    const s = present(e.producerEnvelope);
    stateIs(c, s.result === "verifies", "the envelope's signature");
    return { kid: s.kid, capsuleId: s.signedId };
  },
  "envelope.keyId": (e) => ({ kid: present(e.producerEnvelope).kid }),
  // Keys over time: inspect names, for the producer's signatures, the time each is judged at.
  "key.window": (e, c) => {
    const role = c.detail.startsWith("the record's producer signature")
      ? "the capsule's key_id"
      : c.detail.startsWith("the checkpoint's signature")
        ? "the checkpoint's key_id"
        : c.detail.startsWith("the prior checkpoint's signature")
          ? "the prior checkpoint's key_id"
          : undefined;
    const k = role === undefined ? undefined : present(e.keys).keys.items.find((x) => x.role.startsWith(role));
    if (k?.judgedAt === undefined) return {};
    const m = /^(\S+) \((.*)\)$/.exec(k.judgedAt);
    return k.judgedAt.startsWith("no trusted time")
      ? { trustedTime: "none" }
      : { trustedTime: m?.[1], timeSource: m?.[2] };
  },
  "inclusion.verify": (e, c) => {
    const s = present(e.inclusion);
    stateIs(c, s.equal && s.root === s.checkpointRoot, "the bagged root equals the checkpoint's");
    return { root: s.checkpointRoot, mmrSize: String(s.mmrSize), leafIndex: String(s.leafIndex), leafBody: s.leafBody };
  },
  "checkpoint.signature": (e, c) => {
    const s = present(e.checkpoint);
    expect(c.state === "FAIL", "checkpoint signature").toBe(s.result !== "verifies");
    expect(c.state === "INCONCLUSIVE", "a reconstructed checkpoint").toBe(s.reconstructed && s.result === "verifies");
    return { keyId: s.keyId, digest: s.digest };
  },
  "witness.entryHash": (e, c) => {
    const r = record(e, c.subject);
    expect(c.state === "FAIL", "entry_hash").toBe(r.entryHash?.equal === false);
    return { recomputed: r.entryHash?.recomputed, stated: r.entryHash?.stated ?? "absent" };
  },
  "witness.receipt": (e, c) => ({ root: record(e, c.subject).root }),
  "witness.treePosition": (e, c) => {
    const r = record(e, c.subject);
    const p = r.recordPosition;
    return {
      receipt: `${r.proof?.treeSize}/${r.proof?.leafIndex}`,
      ...(/^\d+\/\d+$/.test(c.values?.record ?? "") ? { record: `${p?.treeSize}/${p?.leafIndex}` } : {}),
    };
  },
  "witness.signature": (e, c) => {
    const r = record(e, c.subject);
    if (c.state !== "NOT_CHECKED") stateIs(c, r.signature === "verifies", "the receipt's signature");
    else expect(r.signature).toBe("not checked");
    return { key: r.key };
  },
  "chain.link": (e) => {
    const ct = present(e.continuity);
    return { priorRoot: ct.prior?.root, root: present(e.checkpoint).root, logId: present(e.checkpoint).logId };
  },
  "chain.key": (e) => ({ priorKey: present(e.continuity).prior?.keyId, key: present(e.checkpoint).keyId }),
  "cosignature.note": (e, c) => {
    const n = present(e.continuity).notes.find((x) => `${x.checkpoint} checkpoint` === c.subject);
    return { origin: n?.origin, leafCount: String(n?.leafCount), root: n?.rootBase64 };
  },
  "cosignature.signature": (e, c) => {
    const l = present(e.continuity).lines.items.find((x) => x.at === c.subject);
    if (!l) throw new Error(`no line ${c.subject}`);
    stateIs(c, l.result === "verifies", "the cosignature");
    return { keyId: l.keyId, name: l.name, timestamp: l.timestamp, checkpoint: l.checkpoint, witness: l.witness };
  },
  "authority.keyAuthorized": (e, c) => {
    const k = e.keys.keys.items.find((x) => x.role.startsWith("the capsule's key_id"));
    if (c.state === "PASS") expect(k?.matches.length).toBeGreaterThan(0);
    return { keyId: k?.key };
  },
  "artifact.binding": (e, c) => {
    const i = Number(/^nonEvidenceArtifacts\[(\d+)\]$/.exec(c.subject ?? "")?.[1]);
    const row = present(e.commitments).artifacts.items[i];
    return {
      artifactId: row?.artifactId,
      contentCommitment: row?.contentCommitment,
      recomputed: row?.observed?.recomputed,
    };
  },
  "transcript.message": (e, c) => {
    const m = message(e, (c.subject ?? "").replace(/^history message /, ""));
    return { recomputed: m.recomputed, ...(m.partCommitment !== null ? { partCommitment: m.partCommitment } : {}) };
  },
  "transcript.statusMessage": (e, c) => ({
    recomputed: message(e, (c.subject ?? "").replace(/^status\.message /, "")).recomputed,
  }),
  "transcript.transition": (e, c) => {
    const { t } = transition(e, c);
    return { transitionCommitment: t.transitionCommitment, recomputed: t.recomputed };
  },
  "transcript.resumption": (e, c) => {
    const r = transition(e, c).t.resumption;
    if (!r) throw new Error(`no resumption at ${c.subject}`);
    stateIs(c, r.sameTask && r.sameContext !== false, "the resuming Message names this Task, and this context or none");
    return {
      messageTaskId: r.messageTaskId,
      messageContextId: r.messageContextId,
      taskId: r.taskId,
      contextId: r.contextId,
    };
  },
  "trace.digest": (e, c) => {
    const row = present(e.commitments).traces.items.find((t) => t.entry === c.subject);
    if (!row) throw new Error(`no trace row ${c.subject}`);
    stateIs(c, row.equal, "the trace hashes to its digest");
    if (c.state === "INCONCLUSIVE")
      expect(row.narrowed?.kind === "match" || row.narrowed?.kind === "tooMany").toBe(true);
    return { traceDigest: row.traceDigest, recomputed: row.recomputed };
  },
  "interim.log": (e, c) => {
    const g = interimRecord(e, c).log;
    if (!g) throw new Error(`${c.subject} is not placed in the log`);
    return {
      interimLogId: g.logId.interim,
      logId: g.logId.other,
      interimLeaf: String(g.leafIndex.interim),
      leaf: String(g.leafIndex.terminal),
      interimMmrSize: String(g.mmrSize.interim),
      mmrSize: String(g.mmrSize.terminal),
    };
  },
};

/** Checks whose values inspect has no step for: the Task's fields, time, the level claim, witness counting. */
const NOT_INSPECTED = new Set([
  "reference.claimedLevel",
  "reference.bundle",
  "task.id",
  "task.contextId",
  "task.terminalState",
  "task.authority",
  "task.tenant",
  "equivocation.crossInput",
  "cosignature.time",
  "witness.eligible",
  "witness.quorum",
  "peac.carrier",
  "requirement.wellFormed",
  "acceptance.terms",
  "status.meetsMinimum",
  // The first Task's copies of the Messages: inspect explains the terminal Task's history only.
  "transcript.firstTask",
]);

/**
 * verify and inspect on one input; what was compared is added to `compared`. Returns how many
 * values and states were held to each other (-1: an input neither could read).
 */
export function agreesWithVerify(c: Case, compared: Set<string>): number {
  const extra = {
    ...(c.trust ? { trust: c.trust } : {}),
    ...(c.interim ? { interim: c.interim } : {}),
    ...(c.firstTask ? { firstTask: c.firstTask } : {}),
    ...(c.at !== undefined ? { at: c.at } : {}),
  };
  const report = verify({ inputs: [{ source: c.name, data: c.data }], ...extra });
  const input = report.inputs[0];
  const explained = inspect({ source: c.name, data: c.data, ...extra }, { bytes: false, all: true });
  if (!input || isFailedInput(input)) {
    // An input verify cannot read, inspect cannot read either, for the same reason.
    compared.add("refused");
    expect(explained.ok).toBe(false);
    if (explained.ok) return 0;
    expect([explained.code, explained.detail]).toEqual([
      input?.error.code ?? report.error?.code,
      input?.error.message ?? report.error?.message,
    ]);
    // A Task that has not ended: both say pending, and inspect explains each record verify names.
    expect(explained.pending !== undefined).toBe(input?.error.code === "INPUT_EVIDENCE_PENDING");
    if (explained.pending) {
      compared.add("pending");
      for (const r of explained.pending.interim.records.items) {
        if (r.location.verified.startsWith("--interim[")) continue;
        expect(input?.error.message).toContain(r.label.replace(/^interim record /, ""));
      }
    }
    return -1;
  }
  expect(explained.ok, JSON.stringify(explained)).toBe(true);
  if (!explained.ok) return 0;
  const e = explained.value;
  expect(e.location.copies.items.map((x) => x.location)).toEqual((input as VerifiedInput).locations);
  let n = 0;
  for (const p of Object.values(input.properties)) {
    for (const check of p.checks) {
      const bears = STATES[check.id];
      if (bears) {
        bears(e, check);
        compared.add(`${check.id} ${check.state}`);
        n++;
      }
      const map = MAP[check.id];
      if (!map || !check.values) {
        if (check.values && !NOT_INSPECTED.has(check.id))
          throw new Error(`${check.id} compared values inspect is not held to: ${JSON.stringify(check.values)}`);
        continue;
      }
      const ours = map(e, check);
      for (const [key, value] of Object.entries(check.values)) {
        if (!(key in ours)) continue;
        expect(ours[key], `${check.id} ${check.subject ?? ""} ${key}`).toBe(value);
        compared.add(`${check.id} ${key}`);
        n++;
      }
    }
  }
  if (c.name.endsWith("widened")) {
    expect([
      present(e.evidenceId).narrowed?.kind,
      present(e.coreManifestDigest).narrowed?.kind,
      present(e.checkpoint).reconstructed,
    ]).toEqual(["match", "match", true]);
    expect([input.properties.contentBinding.state, input.properties.checkpointSignature.state]).toEqual([
      "INCONCLUSIVE",
      "INCONCLUSIVE",
    ]);
    compared.add("narrowed");
  }
  return n;
}
