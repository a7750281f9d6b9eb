/**
 * What the caller observed beside an input, as `verify` and `inspect` both take it: `--task`,
 * `--first-task` and the repeatable `--interim`. One declaration, so the two commands parse these
 * options alike and describe them in the same words.
 */
import type { Command } from "commander";

/** The options as commander gives them. */
export interface ObservationFlags {
  task?: string;
  firstTask?: string;
  interim: string[];
}

/** The single-valued ones: given twice, a usage error (see onlyOnce). */
export const OBSERVATION_ONCE = ["--task", "--first-task"] as const;

/** Adds `--task`, `--first-task` and `--interim` to `command`, in that order. */
export function addObservationOptions(command: Command): Command {
  return command
    .option("--task <file>", "the Task the caller observed (GetTask result), for a bare bundle")
    .option("--first-task <file>", "the first Task returned by SendMessage, for the negotiation checks")
    .option(
      "--interim <file>",
      "an interim record sealed at a pause, or the paused Task that carries it (repeatable)",
      (file: string, previous: string[]) => [...previous, file],
      [] as string[],
    );
}
