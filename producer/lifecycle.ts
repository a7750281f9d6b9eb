/**
 * The records of a Task that paused (A2A Task Evidence §8.1; docs/profile.md, v3.2 additions):
 * an interim record sealed at each pause the options name — the transcript up to and including
 * the transition into the interrupted state, the effects done by then — and the terminal record,
 * which cites each interim record by evidenceId and the sequence of its transition. All of them
 * are leaves of the producer's one log; an interim record sits under a checkpoint of its own
 * (signed before the Task resumed) or under the terminal record's.
 */
import { fromPlain, type JsonObject } from "../src/json/value.js";
import { sha256Hex, utf8 } from "../src/util/bytes.js";
import { uuidFromLabel, type ArtifactSpec, type MessageSpec } from "./a2a.js";
import { INTERRUPTED_STATES, type EvidenceStatus, type TaskState } from "./constants.js";
import { ed25519FromSeed, seedFromLabel } from "./ed25519.js";
import { ProducerError } from "./errors.js";
import { pyjsonDigestHex } from "./json-text.js";
import { GAP, buildRecordsLog, type LogPart, type LogRecord } from "./log.js";
import { isTransition, type InterimSpec, type ResolvedOptions, type TranscriptSpec } from "./options.js";
import {
  assembleRecord,
  sealRecordCapsule,
  taskEvidencePayload,
  type PayloadView,
  type SealedRecord,
  type SealingOptions,
} from "./seal.js";
import { boundMessage } from "./transitions.js";

/** The Messages of the transcript, in order: what the Task's history shows. */
export function messagesOf(transcript: readonly TranscriptSpec[]): MessageSpec[] {
  return transcript.filter((t): t is MessageSpec => !isTransition(t));
}

/** The content Artifacts that exist when the transcript has reached `index` (an effect done before a pause). */
export function artifactsAt(o: ResolvedOptions, index: number): ArtifactSpec[] {
  return o.artifacts.filter((a) => a.after !== undefined && a.after < index);
}

/** The interrupted state the transition at `index` enters; a producer option that names anything else is refused. */
export function pausedState(transcript: readonly TranscriptSpec[], index: number): TaskState {
  const t = transcript[index];
  if (t === undefined || !isTransition(t) || !INTERRUPTED_STATES.includes(t.transition.to)) {
    throw new ProducerError(
      "PRODUCER_INVALID_OPTION",
      `transcript[${index}] is not a transition into an interrupted state`,
    );
  }
  return t.transition.to;
}

/** The message an interrupted status carries: the agent's request, the entry the transition is bound to. */
export function requestMessage(transcript: readonly TranscriptSpec[], index: number): MessageSpec | null {
  return boundMessage(transcript, index);
}

/** Times and key of the interim record sealed `k`-th: before the terminal record's, distinct per record. */
function interimSealing(
  o: ResolvedOptions,
  spec: InterimSpec,
  k: number,
): SealingOptions & { checkpointTimestamp: string } {
  const minute = String(20 + k).padStart(2, "0");
  return {
    producerKeyLabel: spec.producerKeyLabel ?? o.producerKeyLabel,
    sealTime: `2026-10-01T09:${minute}:10.250000+00:00`,
    capsuleTimestamp: `2026-10-01T09:${minute}:10.250412Z`,
    checkpointTimestamp: `2026-10-01T09:${minute}:10.254107Z`,
    actionId: `a2a.task_evidence.v1/${uuidFromLabel(`interim action ${k}`)}`,
  };
}

function levelStatus(log: LogPart): EvidenceStatus {
  return log.transparencyServices.length > 0 && Array.isArray(log.cllCheckpoint.witnesses)
    ? "EVIDENCE_STATUS_EXTERNALLY_REGISTERED"
    : "EVIDENCE_STATUS_SIGNED_RECORD";
}

/** Digests of the traces the capture policy includes (docs/profile.md): Task.metadata's, here. */
function traceDigests(o: ResolvedOptions): PayloadView["traceDigests"] {
  const t = o.traceMetadata;
  return t !== null && t.digested
    ? [{ holder: "task", id: o.taskId, traceDigest: pyjsonDigestHex(fromPlain(t.trace)) }]
    : [];
}

/**
 * Seals every record of the Task. With `terminal: false` (a Task still paused) only the interim
 * records are sealed, and the last of them sits under the log's latest checkpoint.
 */
export function sealTaskRecords(
  o: ResolvedOptions,
  terminal = true,
): { terminal?: SealedRecord; interims: SealedRecord[]; reissued: (SealedRecord | undefined)[] } {
  const specs = o.interim;
  const citations: { evidenceId: string; sequence: number }[] = [];
  const interimSealed = specs.map((spec, k) => {
    if (k > 0 && spec.at <= (specs[k - 1] as InterimSpec).at)
      throw new ProducerError("PRODUCER_INVALID_OPTION", "interim records are listed in transcript order");
    const state = pausedState(o.transcript, spec.at);
    const at = interimSealing(o, spec, k);
    const payload = taskEvidencePayload({ ...o, sealTime: at.sealTime }, state, {
      transcript: o.transcript.slice(0, spec.at + 1),
      artifacts: artifactsAt(o, spec.at),
      interimEvidence: [...citations],
    });
    o.tamper.interimPayload?.(payload, k);
    const sealed = sealRecordCapsule(payload, state, o, at);
    citations.push({ evidenceId: sealed.evidenceId, sequence: spec.at });
    return { spec, k, state, payload, sealed, at };
  });

  const terminalPayload = terminal
    ? taskEvidencePayload(o, o.terminalState, {
        transcript: o.transcript,
        artifacts: o.artifacts,
        interimEvidence: citations,
        traceDigests: traceDigests(o),
      })
    : undefined;
  if (terminalPayload) o.tamper.payload?.(terminalPayload);
  const terminalSealed = terminalPayload ? sealRecordCapsule(terminalPayload, o.terminalState, o) : undefined;

  // Leaf order in the producer's log: interim records before the terminal one (unless a negative
  // puts one after it); one sealed in another log is not in this one at all.
  const inLog = interimSealed.filter((r) => r.spec.otherLog !== true);
  const before = inLog.filter((r) => r.spec.leaf !== "after");
  const after = inLog.filter((r) => r.spec.leaf === "after");
  const order: Array<{ kind: "interim"; k: number } | { kind: "terminal" }> = [
    ...before.map((r) => ({ kind: "interim" as const, k: r.k })),
    ...(terminalSealed ? [{ kind: "terminal" as const }] : []),
    ...after.map((r) => ({ kind: "interim" as const, k: r.k })),
  ];
  // The log is the producer's: its key signs every checkpoint, whoever signed a capsule.
  const logSigner = ed25519FromSeed(seedFromLabel(o.producerKeyLabel));
  const records: LogRecord[] = order.map((entry, i) => {
    if (entry.kind === "terminal")
      return { capsuleId: terminalSealed?.capsule.capsule_id as string, proofLeaves: o.inclusionProofLeaves };
    const r = interimSealed[entry.k] as (typeof interimSealed)[number];
    const last = i === order.length - 1;
    const own = r.spec.checkpoint === undefined || r.spec.checkpoint === "own" || r.spec.checkpoint === "both";
    return {
      capsuleId: r.sealed.capsule.capsule_id as string,
      ownCheckpoint: !last && r.spec.leaf !== "after" && own ? { timestamp: r.at.checkpointTimestamp } : null,
      reissued: r.spec.checkpoint === "both",
    };
  });
  // While the Task waits, the log's latest checkpoint is the one signed at this pause: the last
  // interim record, the filler leaves after it, no witness yet — exactly the checkpoint of its own
  // the terminal record's log will show it under, so the bundle the paused Task carries is the one
  // a capture later supplies.
  const last = interimSealed[interimSealed.length - 1];
  const logOptions =
    terminalSealed || !last
      ? o
      : { ...o, leavesAfter: GAP, witnesses: [], checkpointTimestamp: last.at.checkpointTimestamp };
  const logs = buildRecordsLog(logOptions, records, logSigner);
  const logOf = (entry: (typeof order)[number]): LogPart => logs[order.indexOf(entry)] as LogPart;

  const assemble = (r: (typeof interimSealed)[number], log: LogPart) =>
    assembleRecord(r.payload, r.state, r.sealed, log, o, {
      manifest: (m) => o.tamper.interimManifest?.(m, r.k),
      bundle: (b) => o.tamper.interimBundle?.(b, r.k),
      evidenceStatus: levelStatus(log),
      failureReason: null,
      witnessed: false,
    });
  // The same record re-issued under the terminal checkpoint (same payload and capsule, other log material).
  const reissued = interimSealed.map((r) => {
    const entry = order.find((e) => e.kind === "interim" && e.k === r.k);
    const again = entry === undefined ? undefined : logs[order.indexOf(entry)]?.reissued;
    return again === undefined ? undefined : assemble(r, again);
  });
  const interims = interimSealed.map((r) => {
    const entry = order.find((e) => e.kind === "interim" && e.k === r.k);
    const log =
      entry !== undefined
        ? logOf(entry)
        : (buildRecordsLog(
            {
              ...o,
              logId: sha256Hex(utf8("another producer's log")),
              leavesBefore: 3,
              leavesAfter: 1,
              priorCheckpoint: null,
              witnesses: [],
            },
            [{ capsuleId: r.sealed.capsule.capsule_id as string }],
            r.sealed.signer,
          )[0] as LogPart);
    return assemble(r, log);
  });
  if (!terminalPayload || !terminalSealed) return { interims, reissued };
  const terminalEntry = order.find((e) => e.kind === "terminal") as (typeof order)[number];
  return {
    terminal: assembleRecord(terminalPayload, o.terminalState, terminalSealed, logOf(terminalEntry), o),
    interims,
    reissued,
  };
}

/**
 * The JSON a capture keeps of the interim records it was given (`supplied`, default true): each
 * record, followed by its re-issued form when it has one (`checkpoint: "both"`).
 */
export function suppliedInterims(
  o: ResolvedOptions,
  interims: readonly SealedRecord[],
  reissued: readonly (SealedRecord | undefined)[] = [],
): JsonObject[] {
  return interims.flatMap((r, k) =>
    o.interim[k]?.supplied === false ? [] : [r.bundle, ...(reissued[k] ? [(reissued[k] as SealedRecord).bundle] : [])],
  );
}
