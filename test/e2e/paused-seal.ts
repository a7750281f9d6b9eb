/**
 * Sealing a live Task that pauses for input (docs/profile.md, v3.2 additions) with the independent
 * producer, from the wire JSON of the Messages and Artifacts the SDK server will show: at the
 * pause, the interim record — the transcript up to and including the transition into
 * INPUT_REQUIRED, the effects done by then; at the end, the terminal record, whose transcript
 * carries both transitions around the resuming Message and whose payload cites the interim record.
 *
 * Both are leaves of the producer's one log, which the producer derives from the Task alone: the
 * interim bundle sealed at the pause is byte for byte the one the terminal record's log shows
 * under the checkpoint of its own, so the copy a client kept from the paused Task is the record
 * the terminal payload cites.
 */
import type { MessageSpec, PartSpec } from "../../producer/a2a.js";
import type { TaskState } from "../../producer/constants.js";
import { sealTaskRecords } from "../../producer/lifecycle.js";
import { resolveOptions, type ExchangeOptions, type TranscriptSpec } from "../../producer/options.js";
import { evidenceArtifact, plainJson, type SealedRecord } from "../../producer/seal.js";

type Json = Record<string, unknown>;

/** The Task's ids and what it shows, in wire JSON, with the transitions between its Messages. */
export interface PausedTaskView {
  readonly id: string;
  readonly contextId: string;
  /**
   * The Task's history in order, each Message followed by the transition it is bound to, if any
   * (the agent's request by the transition into the pause, the resuming Message by the one out).
   */
  readonly turns: readonly {
    readonly message: Json;
    readonly then?: { readonly from: TaskState; readonly to: TaskState };
  }[];
  /** Content Artifacts, each with the number of history Messages that existed when it was made. */
  readonly artifacts: readonly { readonly artifact: Json; readonly afterMessages: number }[];
}

/** What a sealing gives the server to publish (wire JSON). */
export interface SealedForWire {
  readonly record: SealedRecord;
  /** The evidence Artifact carrying the bundle (`task-evidence-bundle`, which the terminal one replaces). */
  readonly artifact: Json;
  /** The TaskEvidenceReference, for the terminal status update's metadata. */
  readonly reference: Json;
}

function parts(wire: unknown): PartSpec[] {
  // Text parts commit; any other part is carried without text, which commitments skip (content-binding.md §6).
  return (Array.isArray(wire) ? (wire as Json[]) : []).map((p) =>
    typeof p.text === "string" ? p.text : { data: null },
  );
}

/**
 * A Message as the wire shows it. The Task and context it names are its own — ProtoJSON omits an
 * empty string, and the profile reads an absent one as "" — never filled in from the Task.
 */
function messageSpec(m: Json): MessageSpec {
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  return {
    messageId: str(m.messageId),
    role: m.role as MessageSpec["role"],
    parts: parts(m.parts),
    taskId: str(m.taskId),
    contextId: str(m.contextId),
  };
}

function optionsOf(
  view: PausedTaskView,
  extra: ExchangeOptions,
  sealInterims = true,
): ReturnType<typeof resolveOptions> {
  const transcript: TranscriptSpec[] = [];
  const messageIndex: number[] = [];
  const interim: { at: number }[] = [];
  for (const turn of view.turns) {
    messageIndex.push(transcript.length);
    transcript.push(messageSpec(turn.message));
    if (turn.then) {
      if (sealInterims && turn.then.to === "TASK_STATE_INPUT_REQUIRED") interim.push({ at: transcript.length });
      transcript.push({ transition: { from: turn.then.from, to: turn.then.to } });
    }
  }
  const artifacts = view.artifacts.map(({ artifact, afterMessages }) => {
    if (afterMessages < 1 || afterMessages > view.turns.length)
      throw new Error(`an Artifact made after ${afterMessages} of ${view.turns.length} Messages`);
    const name = artifact.name;
    return {
      artifactId: String(artifact.artifactId),
      name: typeof name === "string" ? name : "",
      parts: parts(artifact.parts),
      // Made after the Message it followed: it exists at every pause later in the transcript.
      after: messageIndex[afterMessages - 1] as number,
    };
  });
  return resolveOptions({
    ...extra,
    taskId: view.id,
    contextId: view.contextId,
    transcript,
    artifacts,
    interim,
    carrier: "raw",
  });
}

function forWire(o: ReturnType<typeof resolveOptions>, record: SealedRecord): SealedForWire {
  return {
    record,
    artifact: plainJson(evidenceArtifact(o, record)) as Json,
    reference: plainJson(record.reference) as Json,
  };
}

/** The interim record of a Task waiting in INPUT_REQUIRED: its last turn is the request bound to the transition into. */
export function sealInterim(view: PausedTaskView, options: ExchangeOptions): SealedForWire {
  const o = optionsOf(view, options);
  const last = sealTaskRecords(o, false).interims.at(-1);
  if (!last) throw new Error("the Task has not paused: no transition into INPUT_REQUIRED to seal at");
  return forWire(o, last);
}

/**
 * The terminal record, citing the interim record of every pause, and those interim records as its
 * log shows them. `citeInterims: false` is a dishonest producer: it seals the terminal record as if
 * no interim record had been sealed — the one the paused Task showed is dropped.
 */
export function sealTerminal(
  view: PausedTaskView,
  options: ExchangeOptions,
  citeInterims = true,
): SealedForWire & { readonly interims: readonly SealedRecord[] } {
  const o = optionsOf(view, options, citeInterims);
  const records = sealTaskRecords(o, true);
  if (!records.terminal) throw new Error("no terminal record was sealed");
  return { ...forWire(o, records.terminal), interims: records.interims };
}
