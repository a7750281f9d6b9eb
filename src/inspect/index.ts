/**
 * `inspect`: the derivation verify performs, step by step, for an auditor to redo by hand. The
 * input is loaded exactly as verify loads it (the same strict parse, classification, location
 * and caller observation) and every value is recomputed by the primitives verify calls, traced,
 * so the explanation can never contradict the report. It decides nothing: no property state, no
 * policy, no exit code beyond "explained" or "could not be read".
 *
 * Pure and deterministic, like verify: no files, no clock, no network; never throws.
 */
import { toJsonValue, type InputData } from "../input/data.js";
import { loadCallerObservation, loadEvidence, type Evidence } from "../input/load.js";
import { toInputValue } from "../input/decode.js";
import { unseenLines } from "../input/protobuf/unseen.js";
import { EvidenceContext } from "../evidence/context.js";
import { fail, ok, type Failure, type Ok } from "../result.js";
import { resolveTrust, type TrustConfig } from "../trust/config.js";
import { TOOL_VERSION } from "../version.js";
import { parseCosignatureFile } from "../witness/evidence.js";
import { checkpointSection } from "./checkpoint.js";
import { listed } from "./common.js";
import { commitmentsSection } from "./commitments.js";
import { continuitySection } from "./continuity.js";
import { agentDigestsSection, capsuleIdSection, evidenceIdSection, manifestDigestSection } from "./digests.js";
import { envelopeSection } from "./envelope.js";
import { inclusionSection } from "./inclusion.js";
import { keysSection } from "./keys.js";
import { locationSection } from "./location.js";
import { interimSection } from "./interim.js";
import { INSPECT_VERSION, isAbsent, type Explanation, type InspectOptions, type PendingExplanation } from "./model.js";
import { pendingExplanation } from "./pending.js";
import { receiptsSection } from "./receipts.js";

export { INSPECT_VERSION, type Explanation, type InspectOptions, type PendingExplanation } from "./model.js";

export interface InspectRequest {
  readonly source: string;
  readonly data: InputData;
  /** The trust configuration (loaded, or the file's bytes): which entry each key matches. */
  readonly trust?: TrustConfig | InputData;
  /** The observed Task, for a bare bundle (`--task`): the commitments are recomputed from it. */
  readonly task?: InputData;
  /** SendMessage's first response (`--first-task`): a Task or a Message, JSON or binary, as verify reads it. */
  readonly firstTask?: InputData;
  /** A `--cosignatures` file: its lines for this input's checkpoints are explained too. */
  readonly cosignatures?: InputData;
  /** `--interim` files: interim records sealed at the Task's pauses, or the paused Tasks that carry them. */
  readonly interim?: readonly InputData[];
  /** The caller's verification time (RFC 3339), as verify's --at: keys with a window are judged with it. */
  readonly at?: string;
}

/**
 * Which file could not be used: the input, or one the caller passed beside it. A Task that has not
 * ended cannot be verified either (INPUT_EVIDENCE_PENDING, as verify reports it), but what it
 * carries can still be explained: `pending`.
 */
export type InspectFailure = Failure & {
  readonly about: "input" | "trust" | "--task" | "--first-task" | "--cosignatures" | "--interim";
  /** For an --interim file, which of them (from 0). */
  readonly index?: number;
  readonly pending?: PendingExplanation;
};

function refused(about: InspectFailure["about"], f: Failure): InspectFailure {
  return { ...f, about };
}

/** Loads the input as verify does, then explains it; a failure says which file could not be read. */
export function inspect(request: InspectRequest, options: InspectOptions): Ok<Explanation> | InspectFailure {
  try {
    const trust = resolveTrust(request.trust);
    if (!trust.ok) return refused("trust", trust);
    const caller = loadCallerObservation(request.task, request.firstTask, request.interim ?? []);
    // The failure keeps the --interim file's position (`index`) beside the flag it is about.
    if (!caller.ok) return refused("source" in caller ? caller.source : "--task", caller);
    let cosignatures: ReturnType<typeof toJsonValue> | undefined;
    if (request.cosignatures !== undefined) {
      cosignatures = toJsonValue(request.cosignatures);
      const parsed = cosignatures.ok ? parseCosignatureFile(cosignatures.value) : cosignatures;
      if (!parsed.ok) return refused("--cosignatures", parsed);
    }
    const value = toInputValue(request.data);
    if (!value.ok) return refused("input", value);
    const verifyOptions = {
      ...(cosignatures?.ok ? { cosignatures: cosignatures.value } : {}),
      ...(request.at !== undefined ? { at: request.at } : {}),
    };
    const evidence = loadEvidence(value.value, caller.value);
    if (!evidence.ok) {
      const pending =
        evidence.code === "INPUT_EVIDENCE_PENDING"
          ? pendingExplanation(request.source, value.value, caller.value, evidence, trust.value, verifyOptions, {
              ...options,
              cosignatures: cosignatures !== undefined,
            })
          : undefined;
      return pending ? { ...refused("input", evidence), pending } : refused("input", evidence);
    }
    const ctx = new EvidenceContext(evidence.value, trust.value, verifyOptions);
    return ok(explain(request.source, ctx, options));
  } catch (e) {
    return refused(
      "input",
      fail(
        "VERIFY_INTERNAL_ERROR",
        `the explanation failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`,
      ),
    );
  }
}

/** Every area, in the order each value commits to the one before. */
export function explain(source: string, ctx: EvidenceContext, o: InspectOptions): Explanation {
  const evidence: Evidence = ctx.evidence;
  const capsuleId = capsuleIdSection(ctx, o);
  const producerEnvelope = envelopeSection(ctx, isAbsent(capsuleId) ? null : capsuleId.signedId, o);
  const receipts = receiptsSection(ctx, o);
  const continuity = continuitySection(ctx, o);
  return {
    inspectVersion: INSPECT_VERSION,
    tool: { name: "a2a-evidence", version: TOOL_VERSION },
    source,
    shape: evidence.shape,
    options: {
      bytes: o.bytes,
      all: o.all,
      trust: ctx.trust !== undefined,
      cosignatures: ctx.options.cosignatures !== undefined,
    },
    location: locationSection(evidence, o),
    evidenceId: evidenceIdSection(ctx, o),
    coreManifestDigest: manifestDigestSection(ctx, o),
    capsuleId,
    agentDigests: agentDigestsSection(ctx, o),
    producerEnvelope,
    inclusion: inclusionSection(ctx),
    checkpoint: checkpointSection(ctx, o),
    receipts,
    continuity,
    keys: keysSection(ctx, { envelope: producerEnvelope, receipts, continuity }, o),
    commitments: commitmentsSection(ctx, o),
    interim: interimSection(ctx, o),
    notes: listed(
      [...evidence.notes, ...unseenLines(evidence.unseen), ...unseenLines(evidence.interimUnseen)],
      o,
      (n) => n,
    ),
  };
}
