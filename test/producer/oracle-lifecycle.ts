/**
 * The oracle's facts for the v3.2 additions (docs/profile.md): transition entries, the resuming
 * Message's Task binding, interim citations and the interim records themselves, trace digests.
 * Transitions and citations are read by the independent derivation (test/lifecycle/derivation.ts);
 * the interim records by the same spec-text recipes the oracle applies to the terminal record.
 * A fact is only stated when the vector has what it is about, so a v3.1 vector's facts are the
 * ones it always had.
 */
import {
  JsonNumber,
  isJsonObject,
  jsonEquals,
  toPlain,
  type JsonObject,
  type JsonValue,
} from "../../src/json/value.js";
import { hexToBytes } from "../../src/util/bytes.js";
import { deriveCitations, deriveTransitions } from "../lifecycle/derivation.js";
import { at, capsuleIdHolds, checkpointSigned, envelopeHolds, inclusionHolds, obj, pyjsonHex } from "./oracle.js";
import { mmrConsistencyHolds } from "./proof-folds.js";

const TRACE_KEY = "github.com/a2aproject/a2a-samples/extensions/traceability/v1/traceability";

const str = (v: JsonValue | undefined): string => (typeof v === "string" ? v : "");
const num = (v: JsonValue | undefined): number => (v instanceof JsonNumber ? v.toNumber() : NaN);
const arr = (v: JsonValue | undefined): JsonValue[] => (Array.isArray(v) ? v : []);
const hex = (v: JsonValue | undefined): Uint8Array => hexToBytes(str(v)) ?? new Uint8Array(0);
const plain = (v: JsonValue): never => toPlain(v) as never;

/** The content, signature, checkpoint and inclusion of one record, as the spec text defines them. */
function recordHolds(bundle: JsonObject): {
  content: boolean;
  signature: boolean;
  checkpoint: boolean;
  inclusion: boolean;
} {
  const payload = obj(bundle, "taskEvidencePayload");
  const manifest = obj(bundle, "manifest");
  const capsule = obj(bundle, "capsule");
  const cp = obj(manifest, "cllCheckpoint");
  return {
    content:
      pyjsonHex(payload) === bundle.evidenceId &&
      jsonEquals(payload, manifest.taskEvidencePayload) &&
      pyjsonHex(manifest) === bundle.coreManifestDigest &&
      at(capsule, "model_attestation", "compute_attestation", "agent_input_digest") === bundle.evidenceId,
    signature: capsuleIdHolds(capsule) && envelopeHolds(capsule),
    checkpoint: checkpointSigned(cp),
    inclusion: inclusionHolds(manifest, cp, capsule),
  };
}

/** `(size, root)` of each consistency step a manifest proves: its prior checkpoint → its checkpoint. */
function link(bundle: JsonObject): { from: [number, string]; to: [number, string]; holds: boolean } | undefined {
  const manifest = obj(bundle, "manifest");
  const prior = manifest.priorCheckpoint;
  const proof = manifest.consistencyProof;
  if (!isJsonObject(prior) || !isJsonObject(proof)) return undefined;
  const cp = obj(manifest, "cllCheckpoint");
  return {
    from: [num(prior.mmr_size), str(prior.root)],
    to: [num(cp.mmr_size), str(cp.root)],
    holds: mmrConsistencyHolds(hex(prior.root), hex(cp.root), {
      sizeA: num(proof.size_a),
      sizeB: num(proof.size_b),
      oldPeaks: arr(proof.old_peaks).map(hex),
      witness: arr(proof.witness).map((p) => arr(p).map(hex)),
      newPeaks: arr(proof.new_peaks).map(hex),
    }),
  };
}

/** §3.3 interim.log: the same log, an earlier leaf, and a consistency path from its checkpoint to the terminal one. */
function sameLog(interim: JsonObject, terminal: JsonObject, all: readonly JsonObject[]): boolean {
  const a = obj(interim, "manifest", "cllCheckpoint");
  const b = obj(terminal, "manifest", "cllCheckpoint");
  if (
    a.log_id !== b.log_id ||
    num(at(interim, "manifest", "localInclusionProof", "leafIndex")) >=
      num(at(terminal, "manifest", "localInclusionProof", "leafIndex"))
  )
    return false;
  let here: [number, string] = [num(a.mmr_size), str(a.root)];
  const links = all.map(link).filter((l) => l !== undefined);
  while (here[0] < num(b.mmr_size)) {
    const step = links.find((l) => l.holds && l.from[0] === here[0] && l.from[1] === here[1]);
    if (!step) return false;
    here = step.to;
  }
  return here[0] === num(b.mmr_size) && here[1] === b.root;
}

/** §3.3 interim.prefix. */
function prefixHolds(interim: JsonObject, terminal: JsonObject, sequence: number): boolean {
  const p = obj(interim, "taskEvidencePayload");
  const t = obj(terminal, "taskEvidencePayload");
  const same = ["taskId", "contextId", "authority", "tenantId", "capturePolicyId"].every((m) => jsonEquals(p[m], t[m]));
  const transcript = arr(t.transcript);
  const mine = arr(p.transcript);
  const state = at(transcript[sequence], "toState");
  const effects = arr(p.nonEvidenceArtifacts).every((a) => arr(t.nonEvidenceArtifacts).some((b) => jsonEquals(a, b)));
  const earlier = arr(t.interimEvidence).filter((c) => num(at(c, "sequence")) < sequence);
  return (
    same &&
    p.terminalState === state &&
    mine.length === sequence + 1 &&
    mine.every((e, i) => jsonEquals(e, transcript[i])) &&
    effects &&
    jsonEquals(arr(p.interimEvidence), earlier)
  );
}

export function lifecycleFacts(input: JsonValue, bundle: JsonObject, finalTask: JsonObject): Record<string, boolean> {
  const f: Record<string, boolean> = {};
  const payload = obj(bundle, "taskEvidencePayload");
  const transcript = arr(payload.transcript);
  const supplied = arr(at(input, "interimBundles")).filter(isJsonObject);
  if (transcript.some((e) => isJsonObject(e) && "kind" in e)) {
    const verdicts = deriveTransitions(plain(payload), plain(finalTask));
    f.transitions = verdicts.every((v) => v.verdict === "PASS");
    const history = arr(finalTask.history).filter(isJsonObject);
    f.resumptionTask = transcript.filter(isJsonObject).every((e) => {
      if (
        e.kind !== "transition" ||
        typeof e.messageId !== "string" ||
        !["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"].includes(str(e.fromState))
      )
        return true;
      const m = history.find((h) => h.messageId === e.messageId);
      return m !== undefined && m.taskId === finalTask.id && m.contextId === finalTask.contextId;
    });
  }
  if (payload.interimEvidence !== undefined || supplied.length > 0) {
    f.interimCitations = deriveCitations(plain(payload), supplied.map(plain)).every((c) => c.verdict !== "FAIL");
  }
  if (supplied.length > 0) {
    const holds = supplied.map(recordHolds);
    const terminalKey = at(bundle, "capsule", "key_id");
    const terminalCheckpointKey = at(bundle, "manifest", "cllCheckpoint", "key_id");
    f.interimContent = holds.every((h) => h.content);
    f.interimSignature =
      holds.every((h) => h.signature) && supplied.every((b) => at(b, "capsule", "key_id") === terminalKey);
    f.interimCheckpoint =
      holds.every((h) => h.checkpoint) &&
      supplied.every((b) => at(b, "manifest", "cllCheckpoint", "key_id") === terminalCheckpointKey);
    f.interimInclusion = holds.every((h) => h.inclusion);
    f.interimLog = supplied.every((b) => sameLog(b, bundle, [bundle, ...supplied]));
    f.interimPrefix = arr(payload.interimEvidence).every((c) => {
      const b = supplied.find((s) => s.evidenceId === at(c, "evidenceId"));
      return b === undefined || prefixHolds(b, bundle, num(at(c, "sequence")));
    });
  }
  if (payload.traceDigests !== undefined) {
    f.traceDigest = arr(payload.traceDigests).every((d) => {
      const trace = at(d, "holder") === "task" ? at(finalTask, "metadata", TRACE_KEY) : undefined;
      return trace !== undefined && pyjsonHex(trace) === at(d, "traceDigest");
    });
  }
  return f;
}
