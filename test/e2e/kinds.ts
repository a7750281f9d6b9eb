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
import { EVIDENCE_ARTIFACT_ID, EXTENSION_URI, RECORD_PROFILE } from "../../producer/constants.js";
import {
  plainJson,
  sealTaskEvidence,
  sealTimesAt,
  type TaskSealOptions,
  type TerminalState,
} from "../../producer/seal.js";
import { sealInterim, sealTerminal } from "./paused-seal.js";

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
  const metadata =
    options.accept && k.requirement
      ? { [EXTENSION_URI]: acceptanceOf(k.requirement, options.minimumEvidence) }
      : undefined;
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
      TaskArtifactUpdateEvent.fromJSON({
        taskId: k.request.taskId,
        contextId: k.request.contextId,
        artifact,
        append: false,
        lastChunk: true,
      }),
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
  publishStatus(k, terminalState, {
    metadata: { [EXTENSION_URI]: plainJson(sealed.reference) },
    ...(statusMessage ? { message: statusMessage } : {}),
  });
}

/** A Message's text parts, joined as the text commitment joins them. */
function textOf(message: Json): string {
  const parts = Array.isArray(message.parts) ? (message.parts as Json[]) : [];
  return parts.map((p) => (typeof p.text === "string" ? p.text : "")).join("\n");
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

/**
 * Shows the caller's Message with a weaker requirement (SIGNED_RECORD) in its metadata, accepts
 * what the caller asked for, and seals what it shows: every signature holds, and only the Message
 * the client itself sent says what was asked.
 */
const weakerEcho: TaskKind = async (k) => {
  const metadata = {
    ...(k.userMessage.metadata as Json),
    [EXTENSION_URI]: { ...k.requirement, minimumEvidence: "SIGNED_RECORD" },
  };
  const shown = { ...k.userMessage, metadata };
  publishFirstTask({ ...k, userMessage: shown }, { accept: true });
  publishStatus(k, "TASK_STATE_WORKING");
  const response = responseArtifact(k);
  publishArtifact(k, response);
  sealAndFinish(k, { history: [shown], artifacts: [response] }, "TASK_STATE_COMPLETED");
};

/** What the paused kind's agent asks, and says when it is done. */
export const PAUSED_ASK = "Which format: text or json?";
export const PAUSED_DONE = "Sealed in the format you chose.";

const INPUT_REQUIRED = "TASK_STATE_INPUT_REQUIRED";
const INTO_PAUSE = { from: "TASK_STATE_WORKING", to: INPUT_REQUIRED } as const;
const OUT_OF_PAUSE = { from: INPUT_REQUIRED, to: "TASK_STATE_WORKING" } as const;

const isEvidenceArtifact = (a: Json) => a.artifactId === EVIDENCE_ARTIFACT_ID;

/**
 * A multi-turn Task (docs/profile.md, v3.2 additions). The first Message: accepted, an effect (a
 * quote), then the agent asks for input and the Task waits in INPUT_REQUIRED, carrying the
 * interim record sealed at the pause in the evidence Artifact. The client's second Message on
 * the same taskId resumes it: the response Artifact, the terminal record (both transitions around
 * the resuming Message, citing the interim record) replacing the interim one, COMPLETED. With
 * `citeInterim: false` the terminal record drops the interim record the paused Task showed.
 */
const pausedKind =
  (options: { citeInterim: boolean }): TaskKind =>
  async (k) => {
    if (!k.request.task) {
      publishFirstTask(k, { accept: true });
      publishStatus(k, "TASK_STATE_WORKING");
      const quote = {
        artifactId: `quote-${k.request.taskId}`,
        name: "quote",
        parts: [{ text: `quote: ${k.text.length} characters to seal` }],
      };
      publishArtifact(k, quote);
      const ask = agentMessage(k, "ask", PAUSED_ASK);
      const interim = sealInterim(
        {
          id: k.request.taskId,
          contextId: k.request.contextId,
          turns: [{ message: k.userMessage }, { message: ask, then: INTO_PAUSE }],
          artifacts: [{ artifact: quote, afterMessages: 1 }],
        },
        { authority: E2E_AUTHORITY, ...sealTimesAt(new Date()) },
      );
      publishArtifact(k, interim.artifact);
      // The request is the interrupted status's message (the SDK appends it to history); the
      // evidence status stays the first Task's PENDING until the terminal record exists.
      publishStatus(k, INPUT_REQUIRED, { message: ask });
      return;
    }
    // Resumed: the SDK has appended the resuming Message to the stored Task's history.
    const task = Task.toJSON(k.request.task) as Json;
    const state = (task.status as Json | undefined)?.state;
    const history = (task.history ?? []) as Json[];
    const [request, ask, resume] = history;
    if (
      state !== INPUT_REQUIRED ||
      history.length !== 3 ||
      !request ||
      !ask ||
      !resume ||
      resume.messageId !== k.userMessage.messageId
    ) {
      throw new Error(
        `the paused kind resumes a Task waiting for input once, not one in ${String(state)} with ${history.length} Messages`,
      );
    }
    const artifacts = (task.artifacts ?? []) as Json[];
    const quote = artifacts.find((a) => !isEvidenceArtifact(a));
    const kept = (
      (artifacts.find(isEvidenceArtifact)?.metadata as Json | undefined)?.[EXTENSION_URI] as Json | undefined
    )?.evidenceId;
    if (!quote) throw new Error("the paused Task shows no quote");
    // A stream must begin with the Task (the SDK rejects an update first): the stored one, as it is.
    k.bus.publish(AgentEvent.task(k.request.task));
    publishStatus(k, "TASK_STATE_WORKING");
    const response = {
      artifactId: `response-${k.request.taskId}`,
      name: "response",
      parts: [{ text: textOf(request).toUpperCase() }],
    };
    publishArtifact(k, response);
    const done = agentMessage(k, "done", PAUSED_DONE);
    const sealed = sealTerminal(
      {
        id: k.request.taskId,
        contextId: k.request.contextId,
        turns: [
          { message: request },
          { message: ask, then: INTO_PAUSE },
          { message: resume, then: OUT_OF_PAUSE },
          { message: done },
        ],
        artifacts: [
          { artifact: quote, afterMessages: 1 },
          { artifact: response, afterMessages: 3 },
        ],
      },
      { authority: E2E_AUTHORITY, ...sealTimesAt(new Date()), terminalState: "TASK_STATE_COMPLETED" },
      options.citeInterim,
    );
    // The producer derives its log from the Task: the interim record it cites is the one the paused Task carried.
    if (options.citeInterim && sealed.interims[0]?.evidenceId !== kept)
      throw new Error(
        `the terminal record cites ${String(sealed.interims[0]?.evidenceId)}, the paused Task carried ${String(kept)}`,
      );
    publishArtifact(k, sealed.artifact);
    publishStatus(k, "TASK_STATE_COMPLETED", { metadata: { [EXTENSION_URI]: sealed.reference }, message: done });
  };

/** Ignores the extension: a Task without acceptance, completed without evidence. */
const neverAccepts: TaskKind = async (k) => {
  publishFirstTask(k, { accept: false });
  publishArtifact(k, responseArtifact(k));
  publishStatus(k, "TASK_STATE_COMPLETED");
};

/** Answers with a direct Message instead of a Task. */
const messageReply: TaskKind = async (k) => {
  k.bus.publish(
    AgentEvent.message(Message.fromJSON({ ...agentMessage(k, "reply", k.text.toUpperCase()), taskId: undefined })),
  );
};

export const TASK_KINDS: Readonly<Record<string, TaskKind>> = {
  "one-shot": oneShot,
  failed,
  "silent-downgrade": silentDowngrade,
  "lower-acceptance": lowerAcceptance,
  "weaker-echo": weakerEcho,
  paused: pausedKind({ citeInterim: true }),
  "paused-drops-interim": pausedKind({ citeInterim: false }),
  "never-accepts": neverAccepts,
  "message-reply": messageReply,
};

export async function runKind(kind: TaskKind, request: RequestContext, bus: ExecutionEventBus): Promise<void> {
  // Activation is echoed only when the header asked for it; acceptance follows the Message (reference rule).
  if (request.context.requestedExtensions?.includes(EXTENSION_URI))
    request.context.addActivatedExtension(EXTENSION_URI);
  const userMessage = Message.toJSON(request.userMessage) as Json;
  const extensions = Array.isArray(userMessage.extensions) ? userMessage.extensions : [];
  const metadata = (userMessage.metadata ?? {}) as Json;
  const requirement = extensions.includes(EXTENSION_URI) ? (metadata[EXTENSION_URI] as Json | undefined) : undefined;
  await kind({ request, bus, userMessage, requirement, text: textOf(userMessage) });
  bus.finished();
}
