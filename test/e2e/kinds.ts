/**
 * What the e2e agent does, one function per Task kind. A kind publishes SDK events in the order
 * of an evidence-producing server (the first Task with the acceptance, work, the evidence
 * Artifact, the terminal status with the reference) and seals with the independent producer from
 * the wire JSON of exactly the history and artifacts the Task will show.
 *
 * Adding a Task kind is adding one function to TASK_KINDS (and its expected report to
 * ./expectations.ts). The server picks the kind per request, so one server runs them all.
 */
import { Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import { AgentEvent, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { EXTENSION_URI, RECORD_PROFILE } from "../../producer/constants.js";
import { plainJson, sealTaskEvidence, sealTimesAt, type TaskSealOptions, type TerminalState } from "../../producer/seal.js";

export const E2E_AUTHORITY = "e2e-agent.example";

type Json = Record<string, unknown>;

/** What a kind gets: the request, the bus, and the wire JSON of the user's Message. */
export interface KindContext {
  readonly request: RequestContext;
  readonly bus: ExecutionEventBus;
  readonly userMessage: Json;
  /** The caller's requirement, when the Message activates the extension (reference server rule). */
  readonly requirement: Json | undefined;
  readonly text: string;
}

export type TaskKind = (k: KindContext) => Promise<void>;

const now = (): string => new Date().toISOString();

function acceptanceOf(requirement: Json, minimumEvidence?: string): Json {
  return {
    evidenceAcceptance: {
      state: "ACCEPTED",
      recordProfile: RECORD_PROFILE,
      minimumEvidence: minimumEvidence ?? requirement.minimumEvidence ?? "SIGNED_RECORD",
      maximumRegistrationDelaySeconds: requirement.maximumRegistrationDelaySeconds ?? 60,
    },
    evidenceStatus: "EVIDENCE_STATUS_PENDING",
  };
}

function publishFirstTask(k: KindContext, options: { accept: boolean; minimumEvidence?: string }): void {
  const metadata = options.accept && k.requirement ? { [EXTENSION_URI]: acceptanceOf(k.requirement, options.minimumEvidence) } : undefined;
  k.bus.publish(
    AgentEvent.task(
      Task.fromJSON({
        id: k.request.taskId,
        contextId: k.request.contextId,
        status: { state: "TASK_STATE_SUBMITTED", timestamp: now() },
        history: [k.userMessage],
        ...(metadata ? { metadata } : {}),
      }),
    ),
  );
}

function publishStatus(k: KindContext, state: string, extra: { message?: Json; metadata?: Json } = {}): void {
  k.bus.publish(
    AgentEvent.statusUpdate(
      TaskStatusUpdateEvent.fromJSON({
        taskId: k.request.taskId,
        contextId: k.request.contextId,
        status: { state, timestamp: now(), ...(extra.message ? { message: extra.message } : {}) },
        ...(extra.metadata ? { metadata: extra.metadata } : {}),
      }),
    ),
  );
}

function publishArtifact(k: KindContext, artifact: Json): void {
  k.bus.publish(
    AgentEvent.artifactUpdate(
      TaskArtifactUpdateEvent.fromJSON({ taskId: k.request.taskId, contextId: k.request.contextId, artifact, append: false, lastChunk: true }),
    ),
  );
}

function agentMessage(k: KindContext, label: string, text: string): Json {
  return {
    messageId: `${label}-${k.request.taskId}`,
    contextId: k.request.contextId,
    taskId: k.request.taskId,
    role: "ROLE_AGENT",
    parts: [{ text }],
  };
}

/**
 * Seals what the terminal Task will show, publishes the evidence Artifact and the terminal status
 * carrying the reference (which SDK 1.3.0 merges into Task.metadata).
 */
function sealAndFinish(
  k: KindContext,
  view: { history: Json[]; artifacts: Json[] },
  terminalState: TerminalState,
  options: Omit<TaskSealOptions, "terminalState"> = {},
  statusMessage?: Json,
): void {
  const sealed = sealTaskEvidence(
    { id: k.request.taskId, contextId: k.request.contextId, ...view },
    { authority: E2E_AUTHORITY, ...sealTimesAt(new Date()), ...options, terminalState },
  );
  publishArtifact(k, plainJson(sealed.artifact) as Json);
  publishStatus(k, terminalState, { metadata: { [EXTENSION_URI]: plainJson(sealed.reference) }, ...(statusMessage ? { message: statusMessage } : {}) });
}

function responseArtifact(k: KindContext): Json {
  return { artifactId: `response-${k.request.taskId}`, name: "response", parts: [{ text: k.text.toUpperCase() }] };
}

/** The reference flow: accepted, one response Artifact, sealed and registered, COMPLETED. */
const oneShot: TaskKind = async (k) => {
  publishFirstTask(k, { accept: true });
  publishStatus(k, "TASK_STATE_WORKING");
  const response = responseArtifact(k);
  publishArtifact(k, response);
  sealAndFinish(k, { history: [k.userMessage], artifacts: [response] }, "TASK_STATE_COMPLETED");
};

/**
 * The agent cannot do the work: the Task ends FAILED with the agent's reason as status message
 * (the SDK appends it to history, so the transcript covers it), and the evidence records the
 * failed outcome at the level achieved — a failed Task is not failed evidence.
 */
const failed: TaskKind = async (k) => {
  publishFirstTask(k, { accept: true });
  publishStatus(k, "TASK_STATE_WORKING");
  const reason = agentMessage(k, "failure", "cannot complete: the upstream ledger refused the request");
  sealAndFinish(k, { history: [k.userMessage, reason], artifacts: [] }, "TASK_STATE_FAILED", {}, reason);
};

/** Accepts the caller's minimum, then delivers a lower level and says nothing (no witness, SIGNED_RECORD). */
const silentDowngrade: TaskKind = async (k) => {
  publishFirstTask(k, { accept: true });
  const response = responseArtifact(k);
  publishArtifact(k, response);
  sealAndFinish(k, { history: [k.userMessage], artifacts: [response] }, "TASK_STATE_COMPLETED", { witnesses: [] });
};

/** Accepts, but on its own terms: a lower minimum than the caller asked for. */
const lowerAcceptance: TaskKind = async (k) => {
  publishFirstTask(k, { accept: true, minimumEvidence: "SIGNED_RECORD" });
  const response = responseArtifact(k);
  publishArtifact(k, response);
  sealAndFinish(k, { history: [k.userMessage], artifacts: [response] }, "TASK_STATE_COMPLETED", { witnesses: [] });
};

/** Ignores the extension: a Task without acceptance, completed without evidence. */
const neverAccepts: TaskKind = async (k) => {
  publishFirstTask(k, { accept: false });
  publishArtifact(k, responseArtifact(k));
  publishStatus(k, "TASK_STATE_COMPLETED");
};

/** Answers with a direct Message instead of a Task. */
const messageReply: TaskKind = async (k) => {
  k.bus.publish(AgentEvent.message(Message.fromJSON({ ...agentMessage(k, "reply", k.text.toUpperCase()), taskId: undefined })));
};

export const TASK_KINDS: Readonly<Record<string, TaskKind>> = {
  "one-shot": oneShot,
  failed,
  "silent-downgrade": silentDowngrade,
  "lower-acceptance": lowerAcceptance,
  "never-accepts": neverAccepts,
  "message-reply": messageReply,
};

export async function runKind(kind: TaskKind, request: RequestContext, bus: ExecutionEventBus): Promise<void> {
  // Activation is echoed only when the header asked for it; acceptance follows the Message (reference rule).
  if (request.context.requestedExtensions?.includes(EXTENSION_URI)) request.context.addActivatedExtension(EXTENSION_URI);
  const userMessage = Message.toJSON(request.userMessage) as Json;
  const extensions = Array.isArray(userMessage.extensions) ? userMessage.extensions : [];
  const metadata = (userMessage.metadata ?? {}) as Json;
  const requirement = extensions.includes(EXTENSION_URI) ? (metadata[EXTENSION_URI] as Json | undefined) : undefined;
  const parts = Array.isArray(userMessage.parts) ? (userMessage.parts as Json[]) : [];
  const text = parts.map((p) => (typeof p.text === "string" ? p.text : "")).join("\n");
  await kind({ request, bus, userMessage, requirement, text });
  bus.finished();
}

