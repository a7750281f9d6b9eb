/**
 * A relying-party gate inside an `@a2a-js/sdk` client: a CallInterceptor (a2a-js-sdk.md §3.4,
 * §6.3) that makes the client *require* evidence instead of hoping for it. It sees the SDK's calls,
 * not a transport's, so it works alike over the JSON-RPC, HTTP+JSON and gRPC client transports
 * (over gRPC the header it adds is the `a2a-extensions` metadata key).
 *
 *   before sendMessage / sendMessageStream
 *     - puts the requirement in `message.metadata[<EXT>]`, the URI in `message.extensions`, and
 *       the URI in the `A2A-Extensions` header (the SDK adds the header only, never the Message);
 *     - refuses a blocking sendMessage under REQUIRED: in blocking mode the acceptance is replaced
 *       before the client sees the Task, so it could never be checked (a2a-js-sdk.md §0.3).
 *   after sendMessage / each stream event
 *     - a direct Message under `requireTask` → DIRECT_MESSAGE;
 *     - the first Task of a REQUIRED requirement must show `evidenceAcceptance.state` ACCEPTED with
 *       the requested profile and minimum → NOT_ACCEPTED / ACCEPTANCE_TERMS; it is kept as the
 *       exchange's first Task.
 *   every answer
 *     - the Task answering a getTask / resubscribeTask, or a Message naming its `taskId`, must be
 *       that Task; a Message naming no Task must start one this gate does not already follow, and
 *       every Task a stream shows must be the stream's first → TASK_MISMATCH. A verdict on another
 *       Task than the one asked for would pass a substitute: another exchange's result, verified.
 *   after getTask (and any Task it sees)
 *     - a Task of this gate's waiting for input or authentication (or being resumed from it), with an
 *       interim record in its evidence Artifact (docs/profile.md §3): kept, once per bundle shown, so that the
 *       record is verified with the terminal one — a terminal record that no longer cites what the
 *       client was shown at the pause is a dropped citation (interim.cited FAIL);
 *     - a terminal Task: runs verify() over {firstTask, finalTask} and the interim records kept,
 *       as the paused Tasks that carried them, with the caller's trust and policy (default under
 *       REQUIRED: the requested minimum and `negotiation` PASS; under PREFERRED: no minimum, and a
 *       Task without evidence passes); a report whose exit code is not 0 is thrown as
 *       EVIDENCE_FAILED (1), POLICY_NOT_MET (3) or UNVERIFIABLE (2).
 *
 * Limits, stated in every report it produces: the interceptor sees SDK-decoded objects, not the
 * wire. It rebuilds wire JSON with the SDK's own `Task.toJSON`: raw evidence bytes are exact, so
 * every digest over the bundle is sound, but number lexemes in metadata, non-canonical base64,
 * unknown fields, empty fields and a second oneof member have been normalised away by the SDK's
 * parser — the gate cannot see those attacks; `verify` on a byte-exact capture (`fetch` on any
 * binding, or a tapping `fetchImpl`) can. A stream's terminal event is a status update, not a
 * Task: the verdict comes from a gated `getTask` of that Task.
 */
import type { AfterArgs, BeforeArgs, CallInterceptor } from "@a2a-js/sdk/client";
import { Message as MessageCodec, Task as TaskCodec, type Task as SdkTask } from "@a2a-js/sdk";
import {
  EVIDENCE_ARTIFACT_ID,
  EXTENSION_URI,
  INTERRUPTED_TASK_STATES,
  RECORD_PROFILE_V1,
  TERMINAL_TASK_STATES,
  ACCEPTED,
  type EvidenceLevel,
  type EvidenceLevelOrNone,
} from "../profile.js";
import { verify, type InputData } from "../verify.js";
import { policyTerms, type Policy } from "../policy.js";
import { laterClientTurn } from "../input/stream/task.js";
import type { JsonObject } from "../json/value.js";
import { resolveTrust } from "../trust/config.js";
import type { TrustConfig } from "../trust/config.js";
import type { PropertyName, Report } from "../report/model.js";

export interface EvidenceRequirement {
  /** Default REQUIRED. */
  readonly requirement?: "REQUIRED" | "PREFERRED";
  readonly minimumEvidence: EvidenceLevel;
  /** Default the aac-cll-scitt/v1 profile. */
  readonly recordProfile?: string;
  /** Default ["EVIDENCE_ARTIFACT"]. */
  readonly deliveryModes?: readonly ("EVIDENCE_ARTIFACT" | "INLINE_METADATA")[];
  readonly maximumRegistrationDelaySeconds?: number;
  /** Default true: a direct Message is never success. */
  readonly requireTask?: boolean;
}

export interface EvidenceGateOptions {
  readonly requirement: EvidenceRequirement;
  /** The caller's trust file (bytes, text, parsed value) or an already loaded TrustConfig. */
  readonly trust: TrustConfig | InputData;
  /** Default under REQUIRED: `minEvidence` = the requested minimum, `require` = ["negotiation"]; under PREFERRED: `minEvidence` NONE. */
  readonly policy?: { readonly require?: readonly PropertyName[]; readonly minEvidence?: EvidenceLevelOrNone };
  readonly authority?: string;
  readonly tenant?: string;
  /**
   * Called with the report of every terminal Task the gate let through, the Task, and the capture
   * verified: `{request?, requests?, firstTask?, finalTask}`.
   */
  readonly onAccepted?: (report: Report, task: Record<string, unknown>, capture: Record<string, unknown>) => void;
  /** First Tasks kept while their Task runs (oldest dropped first); default 1000. */
  readonly maxTrackedTasks?: number;
}

export type EvidencePolicyReason =
  /** A REQUIRED sendMessage in blocking mode: the acceptance could never be observed. */
  | "BLOCKING_MODE"
  /** The server answered with a Message where a Task was required. */
  | "DIRECT_MESSAGE"
  /** The first Task does not show the requirement ACCEPTED. */
  | "NOT_ACCEPTED"
  /** Accepted, but with another profile or a lower minimum than requested. */
  | "ACCEPTANCE_TERMS"
  /** The answer is another Task than the one the call asked for, or a Task an earlier Message started. */
  | "TASK_MISMATCH"
  /** verify(): some property FAILs. */
  | "EVIDENCE_FAILED"
  /** verify(): nothing FAILs, but the level or a required property falls short. */
  | "POLICY_NOT_MET"
  /** verify() could not run on the Task (no evidence found, unsupported input). */
  | "UNVERIFIABLE";

export class EvidencePolicyError extends Error {
  override readonly name = "EvidencePolicyError";
  readonly reason: EvidencePolicyReason;
  /** The verification report, for reasons decided by verify(). */
  readonly report: Report | undefined;
  /** The Task (or Message) refused, as wire JSON rebuilt from the SDK object. */
  readonly task: Record<string, unknown> | undefined;
  /** For reasons decided by verify(): the capture verified, `{request?, requests?, firstTask?, finalTask}`. */
  readonly capture: Record<string, unknown> | undefined;
  constructor(
    reason: EvidencePolicyReason,
    message: string,
    extra: { report?: Report; task?: Record<string, unknown>; capture?: Record<string, unknown> } = {},
  ) {
    super(`${reason}: ${message}`);
    this.reason = reason;
    this.report = extra.report;
    this.task = extra.task;
    this.capture = extra.capture;
  }
}

export const SDK_OBJECT_NOTE =
  "reconstructed from SDK objects (Task.toJSON), not the wire: the raw evidence bytes are exact, but metadata number lexemes, non-canonical base64, unknown and empty fields were normalised by the SDK's parser";

type Json = Record<string, unknown>;

/**
 * What a call asked for, from before() to after(): the SDK hands both hooks the same options
 * object (its `executeWithInterceptors`, and each event of a stream).
 */
interface Asked {
  readonly method: string;
  /** The Task every answer must be: asked for by id, or the first a stream showed. */
  taskId: string | undefined;
  /** A Message that names no Task: its first Task must be new to this gate. */
  readonly startsTask: boolean;
  /** The Message sent, as wire JSON taken from the call's own arguments; cleared once recorded for its Task. */
  message?: Json | undefined;
}

/** The Messages the client sent in one Task: the one that started it, and those that resumed it. */
interface Sent {
  request?: Json;
  readonly requests: Json[];
}

/** Resuming Messages kept per Task: a caller resuming one Task for ever cannot grow the gate's memory. */
const MAX_RESUMING_MESSAGES = 100;

function requirementJson(r: EvidenceRequirement): Json {
  return {
    requirement: r.requirement ?? "REQUIRED",
    recordProfile: r.recordProfile ?? RECORD_PROFILE_V1,
    minimumEvidence: r.minimumEvidence,
    deliveryModes: [...(r.deliveryModes ?? ["EVIDENCE_ARTIFACT"])],
    ...(r.maximumRegistrationDelaySeconds !== undefined
      ? { maximumRegistrationDelaySeconds: r.maximumRegistrationDelaySeconds }
      : {}),
    requireTask: r.requireTask ?? true,
  };
}

function stateOf(task: Json): string | undefined {
  const status = task.status as { state?: unknown } | undefined;
  return typeof status?.state === "string" ? status.state : undefined;
}

const isTerminal = (task: Json) => (TERMINAL_TASK_STATES as readonly (string | undefined)[]).includes(stateOf(task));
const isInterrupted = (state: unknown) => (INTERRUPTED_TASK_STATES as readonly unknown[]).includes(state);

/** Distinct interim bundles kept per Task: a server cannot grow the gate's memory by changing one at every poll. */
const MAX_INTERIM_RECORDS = 100;

/**
 * The interim records a paused Task carries, as delivered: the parts of its evidence Artifacts
 * whose reference names an interrupted state (docs/profile.md §3.1), so that the same bundle seen
 * on every poll is kept once. The verifier reads the bundles themselves. A bundle is stable while
 * its Task waits (it is re-issued only under the terminal record's checkpoint, after the end): two
 * shown under one evidenceId are both kept, and FAIL as two records of one evidenceId.
 */
function interimRecordKey(task: Json): string | undefined {
  // a2a-js appends the resuming Message to the stored Task before its state leaves the pause: a copy
  // taken then (the resume response, a resumption stream's first event) is kept too — the verifier
  // accepts that one Message only as the resuming Message the terminal record commits
  // (interim.observed), so it is often the only copy of the record a streaming client sees.
  if (!isInterrupted(stateOf(task))) return undefined;
  const interim = (Array.isArray(task.artifacts) ? (task.artifacts as Json[]) : []).filter((a) => {
    const marked =
      a.artifactId === EVIDENCE_ARTIFACT_ID || (Array.isArray(a.extensions) && a.extensions.includes(EXTENSION_URI));
    const reference = (a.metadata as Json | undefined)?.[EXTENSION_URI] as Json | undefined;
    return marked && isInterrupted(reference?.terminalState);
  });
  return interim.length > 0 ? JSON.stringify(interim.map((a) => a.parts)) : undefined;
}

function withHeader(current: string | undefined): string {
  const uris = (current ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  return [...new Set([...uris, EXTENSION_URI])].join(", ");
}

/** Structural equality of plain JSON values, member order ignored. */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Json)[k], (b as Json)[k]))
    );
  }
  return a === b;
}

export class EvidenceGate implements CallInterceptor {
  private readonly requirement: Json;
  private readonly required: boolean;
  private readonly requireTask: boolean;
  private readonly trust: TrustConfig | undefined;
  private readonly policy: { require: PropertyName[]; minEvidence: EvidenceLevelOrNone };
  /** The Tasks followed, by id, with the first response seen (null: the first response was not seen). */
  private readonly firstTasks = new Map<string, Json | null>();
  /** Per tracked Task, the paused Tasks that carried its interim records, by record. */
  private readonly pausedTasks = new Map<string, Map<string, Json>>();
  /** Per tracked Task, the Messages the client sent in it, as it sent them. */
  private readonly sentMessages = new Map<string, Sent>();
  /** Per call in flight (its options object), what it asked for. */
  private readonly asked = new WeakMap<object, Asked>();

  constructor(private readonly options: EvidenceGateOptions) {
    this.requirement = requirementJson(options.requirement);
    this.required = this.requirement.requirement === "REQUIRED";
    this.requireTask = this.requirement.requireTask === true;
    const trust = resolveTrust(options.trust);
    // A gate without a usable trust file would refuse everything for the wrong reason: fail at construction.
    if (!trust.ok)
      throw new TypeError(
        `evidence gate: the trust configuration is invalid: ${trust.code}: ${trust.detail}${trust.path ? ` (at ${trust.path})` : ""}`,
      );
    this.trust = trust.value;
    // PREFERRED asks without insisting: by default only a FAIL refuses (an accepted requirement
    // still binds: negotiation FAILs on a silent downgrade), and a Task without evidence passes.
    this.policy = {
      require: [...(options.policy?.require ?? (this.required ? ["negotiation"] : []))],
      minEvidence: options.policy?.minEvidence ?? (this.required ? options.requirement.minimumEvidence : "NONE"),
    };
  }

  async before(args: BeforeArgs): Promise<void> {
    // The SDK's mapped input type admits undefined (its optional `config` member).
    const input = args.input;
    if (input?.method === "getTask" || input?.method === "resubscribeTask") {
      const id = input.value?.id;
      if (typeof id === "string")
        this.asked.set((args.options ??= {}), { method: input.method, taskId: id, startsTask: false });
      return;
    }
    if (input?.method !== "sendMessage" && input?.method !== "sendMessageStream") return;
    const message = input.value.message;
    if (!message) return;
    // An empty taskId names no Task (proto3: the empty string is the field's absence).
    const named = typeof message.taskId === "string" && message.taskId !== "" ? message.taskId : undefined;
    const metadata = { ...(message.metadata ?? {}) };
    if (metadata[EXTENSION_URI] !== undefined && !sameJson(metadata[EXTENSION_URI], this.requirement)) {
      throw new TypeError("evidence gate: the message already carries a different evidence requirement");
    }
    metadata[EXTENSION_URI] = { ...this.requirement };
    message.metadata = metadata;
    // Plain-JS callers may leave out what the SDK's types require.
    const extensions: string[] = message.extensions ?? [];
    if (!extensions.includes(EXTENSION_URI)) message.extensions = [...extensions, EXTENSION_URI];
    const options = (args.options ??= {});
    // The Message as it goes out, requirement included: the caller's own observation, which every
    // server copy of it must equal (kept as the capture's `request`, or one of its `requests`).
    this.asked.set(options, {
      method: input.method,
      taskId: named,
      startsTask: named === undefined,
      message: MessageCodec.toJSON(message) as Json,
    });
    const params = { ...(options.serviceParameters ?? {}) };
    const key = Object.keys(params).find((k) => k.toLowerCase() === "a2a-extensions") ?? "A2A-Extensions";
    params[key] = withHeader(params[key]);
    options.serviceParameters = params;
    if (input.method === "sendMessage" && this.required && input.value.configuration?.returnImmediately !== true) {
      throw new EvidencePolicyError(
        "BLOCKING_MODE",
        "a REQUIRED evidence requirement needs a non-blocking sendMessage (ClientConfig.polling: true, or configuration.returnImmediately: true): in blocking mode the acceptance is gone before the client sees the Task",
      );
    }
  }

  async after(args: AfterArgs): Promise<void> {
    const result = args.result;
    const asked = args.options ? this.asked.get(args.options) : undefined;
    if (result?.method === "sendMessage") {
      const value = result.value;
      if ("messageId" in value) this.onMessage(value as unknown as Json);
      else this.onTask(value, true, asked);
    } else if (result?.method === "sendMessageStream" || result?.method === "resubscribeTask") {
      const payload = result.value.payload;
      if (payload?.$case === "message") this.onMessage(payload.value as unknown as Json);
      else if (payload?.$case === "task") this.onTask(payload.value, result.method === "sendMessageStream", asked);
    } else if (result?.method === "getTask") {
      this.onTask(result.value, false, asked);
    }
  }

  /** The answer is the Task the call asked for (see TASK_MISMATCH); a stream's first Task is then the one asked for. */
  private checkAnswer(json: Json, id: string, asked: Asked | undefined): void {
    if (!asked) return;
    if (asked.taskId !== undefined) {
      if (id === asked.taskId) return;
      throw new EvidencePolicyError(
        "TASK_MISMATCH",
        `${asked.method} asked for Task ${JSON.stringify(asked.taskId)} and was answered with Task ${JSON.stringify(id)}`,
        { task: json },
      );
    }
    if (asked.startsTask && this.firstTasks.has(id)) {
      throw new EvidencePolicyError(
        "TASK_MISMATCH",
        `${asked.method} sent a Message that names no Task, and was answered with Task ${JSON.stringify(id)}, which an earlier Message started`,
        { task: json },
      );
    }
    asked.taskId = id;
  }

  private onMessage(message: Json): void {
    if (this.requireTask) {
      throw new EvidencePolicyError(
        "DIRECT_MESSAGE",
        "the server answered with a direct Message, and the requirement says requireTask: a Message is not success",
        { task: message },
      );
    }
    if (this.required)
      throw new EvidencePolicyError(
        "NOT_ACCEPTED",
        "the server answered with a direct Message: the REQUIRED evidence requirement was never accepted",
        { task: message },
      );
  }

  private onTask(task: SdkTask, mayBeFirst: boolean, asked: Asked | undefined): void {
    const json = TaskCodec.toJSON(task) as Json;
    const id = String(json.id);
    this.checkAnswer(json, id, asked);
    this.recordSent(id, asked);
    if (mayBeFirst && !this.firstTasks.has(id)) {
      // A Task that already shows a later client turn is the stored Task a resumption answers
      // with, not SendMessage's first response: its acceptance was not seen here (so the verdict
      // says "unobserved"), and judging it as a first response would FAIL an honest server.
      if (laterClientTurn(json as JsonObject) === undefined) {
        this.checkAcceptance(json);
        this.track(id, json);
      } else this.track(id, null);
    }
    if (isTerminal(json)) this.verifyTerminal(id, json);
    else this.keepInterim(id, json);
  }

  /** The call's Message, now that its Task is known: the request that started it, or one that resumed it. */
  private recordSent(id: string, asked: Asked | undefined): void {
    const message = asked?.message;
    if (!asked || message === undefined) return;
    asked.message = undefined;
    const sent = this.sentMessages.get(id) ?? { requests: [] };
    if (asked.startsTask) sent.request = message;
    else if (sent.requests.length < MAX_RESUMING_MESSAGES) sent.requests.push(message);
    this.sentMessages.set(id, sent);
  }

  private keepInterim(id: string, task: Json): void {
    const key = interimRecordKey(task);
    if (key === undefined || !this.firstTasks.has(id)) return;
    const kept = this.pausedTasks.get(id) ?? new Map<string, Json>();
    // The first copy of a record is kept: a later one (the resumption window) adds nothing to check.
    if (kept.has(key) || kept.size >= MAX_INTERIM_RECORDS) return;
    kept.set(key, task);
    this.pausedTasks.set(id, kept);
  }

  private checkAcceptance(task: Json): void {
    if (!this.required) return;
    const ext = (task.metadata as Json | undefined)?.[EXTENSION_URI] as Json | undefined;
    const acceptance = ext?.evidenceAcceptance as Json | undefined;
    if (acceptance?.state !== ACCEPTED) {
      const said = acceptance ? `state ${JSON.stringify(acceptance.state)}` : "no evidenceAcceptance";
      throw new EvidencePolicyError(
        "NOT_ACCEPTED",
        `the first Task shows ${said}: the REQUIRED evidence requirement was not accepted`,
        { task },
      );
    }
    for (const term of ["recordProfile", "minimumEvidence"] as const) {
      if (acceptance[term] !== this.requirement[term]) {
        throw new EvidencePolicyError(
          "ACCEPTANCE_TERMS",
          `the first Task accepts ${term} ${JSON.stringify(acceptance[term])}, not the requested ${JSON.stringify(this.requirement[term])}`,
          { task },
        );
      }
    }
  }

  private track(id: string, task: Json | null): void {
    const max = this.options.maxTrackedTasks ?? 1000;
    while (this.firstTasks.size >= max) {
      const oldest = this.firstTasks.keys().next().value as string;
      this.firstTasks.delete(oldest);
      this.pausedTasks.delete(oldest);
      this.sentMessages.delete(oldest);
    }
    this.firstTasks.set(id, task);
  }

  private verifyTerminal(id: string, task: Json): void {
    const first = this.firstTasks.get(id);
    const paused = [...(this.pausedTasks.get(id)?.values() ?? [])];
    const sent = this.sentMessages.get(id);
    this.firstTasks.delete(id);
    this.pausedTasks.delete(id);
    this.sentMessages.delete(id);
    // What this client observed of the exchange, as a capture: the Messages it sent (from its own
    // calls, never from a server's copy), the first Task it was answered with, the terminal Task.
    const capture: Json = {
      ...(sent?.request ? { request: sent.request } : {}),
      ...(sent && sent.requests.length > 0 ? { requests: sent.requests } : {}),
      ...(first ? { firstTask: first } : {}),
      finalTask: task,
    };
    const raw = verify({
      inputs: [{ source: `task ${id} (SDK object)`, data: JSON.stringify(capture) }],
      ...(paused.length > 0 ? { interim: paused.map((t) => JSON.stringify(t)) } : {}),
      ...(this.trust ? { trust: this.trust } : {}),
      ...this.policy,
      ...(this.options.authority !== undefined ? { authority: this.options.authority } : {}),
      ...(this.options.tenant !== undefined ? { tenant: this.options.tenant } : {}),
    });
    const report: Report = {
      ...raw,
      inputs: raw.inputs.map((i) => ("notes" in i ? { ...i, notes: [...i.notes, SDK_OBJECT_NOTE] } : i)),
    };
    const code = report.policy.exitCode;
    const input = report.inputs[0];
    const noEvidence = input !== undefined && "error" in input && input.error.code === "INPUT_NO_EVIDENCE";
    if (code === 0 || (noEvidence && !this.required)) {
      this.options.onAccepted?.(report, task, capture);
      return;
    }
    const why = refusalWhy(report, this.policy);
    const reason: EvidencePolicyReason =
      code === 1 ? "EVIDENCE_FAILED" : code === 3 ? "POLICY_NOT_MET" : "UNVERIFIABLE";
    throw new EvidencePolicyError(reason, `Task ${id} (${stateOf(task) ?? "no state"}): ${why}`, {
      report,
      task,
      capture,
    });
  }
}

/**
 * Why a verified Task is refused, in one line: the input's error, or each property that FAILs and,
 * when the policy does not hold (exit 3), each property the policy requires (its default two
 * included) that is not PASS, then the level achieved and the minimum: the policy's own terms
 * (policy.ts), not worked out again here.
 */
function refusalWhy(report: Report, policy: Policy): string {
  const code = report.policy.exitCode;
  const input = report.inputs[0];
  if (input && "error" in input) return `${input.error.code}: ${input.error.message}`;
  if (!input || !("properties" in input)) return report.error?.message ?? "no report";
  const terms = policyTerms(policy, input.evidenceLevel.negotiated);
  const unmet = (p: PropertyName, state: string) =>
    state === "FAIL" || (code === 3 && terms.required.includes(p) && state !== "PASS");
  return Object.entries(input.properties)
    .filter(([p, r]) => unmet(p as PropertyName, r.state))
    .map(([p, r]) => `${p} ${r.state}: ${r.detail}`)
    .concat(code === 3 ? [`achieved ${input.evidenceLevel.achieved}, minimum ${terms.minimum.level}`] : [])
    .join("; ");
}

/** The gate for `ClientConfig.interceptors`. */
export function evidenceGate(options: EvidenceGateOptions): EvidenceGate {
  return new EvidenceGate(options);
}
