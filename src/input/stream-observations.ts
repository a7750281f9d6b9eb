/**
 * What a stream showed beyond the Task it folds into (contract §9.28). The fold keeps the Task a
 * later GetTask would return; a client that streamed was also shown each state the Task passed
 * through and each version of an artifact, some of them marked final. The fold records here what
 * that Task no longer shows:
 *
 *   - an artifact version marked `lastChunk`, later replaced under the same `artifactId` by other
 *     content (the client was told it was final; nothing commits to it);
 *   - every transition into or out of an interrupted state (INPUT_REQUIRED, AUTH_REQUIRED) the
 *     stream showed, in order, with the event that showed it.
 *
 * taskBinding compares them with the record. The replaced versions kept are capped (contract
 * §9.20), and those left out counted; transitions are few per Task and compared in one pass.
 */
import { jsonEquals, member, type JsonObject } from "../json/value.js";

/** An artifact version the stream marked final and then replaced with other content. */
export interface ReplacedArtifact {
  readonly artifactId: string;
  /** The event whose `lastChunk: true` closed the version the client was shown. */
  readonly shownAt: number;
  /** The event that replaced it. */
  readonly replacedAt: number;
  /** The version shown as final. */
  readonly shown: JsonObject;
}

/** A transition into or out of an interrupted state, as one event of the stream showed it. */
export interface ShownTransition {
  readonly from: string;
  readonly to: string;
  readonly event: number;
}

export interface StreamObservations {
  readonly replaced: readonly ReplacedArtifact[];
  readonly transitions: readonly ShownTransition[];
  /** Replaced versions beyond the cap, not listed. */
  readonly replacedLeftOut: number;
}

const CAP = 20;
const INTERRUPTED: readonly string[] = ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"];

export const isInterruptedState = (s: string): boolean => INTERRUPTED.includes(s);

/** Collects what the stream showed, one event at a time, as the fold applies it. */
export class StreamWatch {
  private readonly replaced: ReplacedArtifact[] = [];
  private readonly transitions: ShownTransition[] = [];
  private leftOut = 0;

  /**
   * An artifact is replaced (no `append`, or a later Task): when the version it replaces was closed
   * by `lastChunk` and the new one has other content (parts, or name), the client saw a final
   * version nothing will commit to.
   */
  artifactReplaced(
    artifactId: string,
    previous: JsonObject,
    next: JsonObject,
    closedAt: number | undefined,
    event: number,
  ): void {
    if (closedAt === undefined) return;
    const same = ["parts", "name"].every((m) => jsonEquals(member(previous, m), member(next, m)));
    if (same) return;
    if (this.replaced.length < CAP)
      this.replaced.push({ artifactId, shownAt: closedAt, replacedAt: event, shown: previous });
    else this.leftOut++;
  }

  /** The Task's state changed from `from` (empty before the first event) to `to`. */
  stateChanged(from: string, to: string, event: number): void {
    if (from === "" || from === to) return;
    if (!isInterruptedState(from) && !isInterruptedState(to)) return;
    this.transitions.push({ from, to, event });
  }

  result(): StreamObservations {
    return { replaced: this.replaced, transitions: this.transitions, replacedLeftOut: this.leftOut };
  }
}
