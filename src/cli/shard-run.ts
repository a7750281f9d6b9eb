/**
 * What a shard's report says of the run it is a part of (the report's `shard` member): which
 * shard, where each of its inputs stands among the whole run's, and digests of what defines the
 * run beside the tool and the policy, so `merge` combines only the parts of one run. The digests
 * are SHA-256 over the bytes the run read (never over paths that may name other bytes elsewhere),
 * and over the list of inputs as given, which every machine of the run expands alike.
 */
import { createHash } from "node:crypto";
import type { ShardReport } from "../report/model.js";
import type { Expanded } from "./inputs.js";

export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** What the run was given beside its inputs and its policy. */
export interface RunGiven {
  readonly trust?: Uint8Array | undefined;
  readonly task?: Uint8Array | undefined;
  readonly firstTask?: Uint8Array | undefined;
  readonly interim?: readonly Uint8Array[] | undefined;
  readonly authority?: string | undefined;
  readonly tenant?: string | undefined;
  readonly at?: string | undefined;
  /** The bytes of --cosignatures and of each --checkpoints file, in the order they were read. */
  readonly continuity: readonly Uint8Array[];
}

function sha256(data: Uint8Array | string): string {
  return `sha256:${createHash("sha256").update(data).digest("hex")}`;
}

const digestOf = (bytes: Uint8Array | undefined): string | null => (bytes === undefined ? null : sha256(bytes));

/**
 * The `shard` member of a shard's report. `positions` are the shard's inputs' places among the
 * whole run's inputs, in which the arguments that could not be expanded come first (every shard
 * reports them, as the whole run does).
 */
export function shardReport(
  shard: Shard,
  expanded: Expanded,
  positions: readonly number[],
  given: RunGiven,
): ShardReport {
  const errors = expanded.errors.length;
  const context = JSON.stringify([
    digestOf(given.task),
    digestOf(given.firstTask),
    (given.interim ?? []).map(digestOf),
    given.authority ?? null,
    given.tenant ?? null,
    given.at ?? null,
    given.continuity.map(digestOf),
  ]);
  return {
    index: shard.index,
    count: shard.count,
    total: errors + expanded.paths.length,
    positions: [...expanded.errors.map((_e, k) => k), ...positions.map((j) => errors + j)],
    digests: {
      inputs: sha256(JSON.stringify([expanded.errors.map((e) => e.path), expanded.paths])),
      trust: digestOf(given.trust),
      context: sha256(context),
    },
  };
}
