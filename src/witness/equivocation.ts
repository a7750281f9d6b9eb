/**
 * Equivocation across inputs (continuity-witness.md §4.5a): one bundle cannot show that a log
 * forked, two can. Every signed checkpoint states the root of its log at its size, and its
 * `prev_size` / `prev_root` state the root at the prior size; when two statements signed by the
 * same producer give one log two roots at one size, the producer signed two histories that no
 * consistency proof can join — a transferable proof of a fork. A consistency proof carried with a
 * checkpoint fixes its prior's root, so a smaller checkpoint with another root at that size is
 * inconsistent with the larger one: that is the same comparison, at the prior's size.
 *
 * What it does not do: compare sizes no statement links (a checkpoint at size a and another at
 * b, with nothing stating the root at a in b's history, are not comparable offline), or decide
 * which branch is the honest one. A checkpoint smaller than one seen elsewhere is reported as
 * stale, not as a fork.
 *
 * The log identity is the producer and its log_id (CLL I-D: continuity is per log identity). By
 * default the producer is the signing key, so a stranger who reuses a log_id under their own key
 * cannot make another producer's inputs FAIL; `identityOf` can merge keys the trust file pins for
 * one authority, so a producer cannot escape by signing each branch with another of its keys.
 *
 * Pure and linear: statements are grouped by (identity, log_id, size) in maps; an input states at
 * most four roots, so each input's comparison is a few map lookups.
 */
import { joinPath } from "../json/path.js";
import type { JsonValue } from "../json/value.js";
import { parseCheckpoint, verifyCheckpointSignature, type Checkpoint } from "../log/checkpoint.js";
import { fail, ok, type Result } from "../result.js";
import { bytesToHex } from "../util/bytes.js";
import type { WitnessEquivocation, WitnessStatement } from "./pool.js";

/**
 * The checkpoints one input carries, and what services and witnesses said of them: an input's
 * sighting, which a run holds for every input until all are compared. Every member is present,
 * `undefined` when the input shows nothing of it, so every sighting has one shape.
 */
export interface InputCheckpoints {
  /** For reports: the input's source name. */
  readonly source: string;
  readonly current: SightedCheckpoint | undefined;
  readonly prior: SightedCheckpoint | undefined;
  /** The witness lines its bundle carries that verify under pinned keys (contract §9.40). */
  readonly cosigned: readonly WitnessStatement[] | undefined;
  /** The tree heads its stamps show, each verified under a key pinned for its service (§9.32). */
  readonly stamped: readonly StampedHead[] | undefined;
}

/**
 * What the comparison keeps of a checkpoint whose producer's signature verified (`sighted`): the
 * two statements it signs (the root at its size; the root at its prev_size) and who signed them.
 * Not the checkpoint itself: its byte strings, signature and signing body are no part of a
 * comparison, and a run holds two of these for every input until all are compared.
 */
export interface SightedCheckpoint {
  readonly logId: string;
  /** The signing key's key_id, hex: the producer identity is found from it. */
  readonly keyIdHex: string;
  readonly mmrSize: number;
  /** The root at mmr_size, hex. */
  readonly root: string;
  readonly prevSize: number;
  /** The root at prev_size, hex; null when the checkpoint states none. */
  readonly prevRoot: string | null;
}

/**
 * A checkpoint as the comparison keeps it, or undefined when its signature does not verify under
 * its key_id: only what the producer signed states anything about the log (an unsigned or forged
 * checkpoint is its own input's checkpointSignature or chain FAIL). Its strings are copies, never
 * slices of the input, which a slice would keep alive; the key and the log, which many inputs of
 * one run share, are kept once (`shared`).
 */
export function sighted(cp: Checkpoint): SightedCheckpoint | undefined {
  if (!verifyCheckpointSignature(cp).ok) return undefined;
  return {
    logId: shared(cp.logId),
    keyIdHex: shared(bytesToHex(cp.keyId)),
    mmrSize: cp.mmrSize,
    root: bytesToHex(cp.root),
    prevSize: cp.prevSize,
    prevRoot: cp.prevRoot === null ? null : bytesToHex(cp.prevRoot),
  };
}

/**
 * Strings kept once (keys, log ids, service URLs): at most this many, then forgotten together, and
 * none longer than MAX_SHARED_LENGTH units. The table outlives a run (a library caller's next
 * `verify()` finds it), so what it can hold is bounded: a log_id has no small bound of its own.
 */
const MAX_SHARED = 256;
const MAX_SHARED_LENGTH = 512;
const sharedStrings = new Map<string, string>();
const SURROGATE = /[\ud800-\udfff]/;

/**
 * One copy of `s`, made the first time it is asked for and given again after: what every input of
 * a run names alike (its producer's key, its log, a service) is held once, not once per input. The
 * copy is a string of its own (a slice of an input would keep the whole input alive), unit for
 * unit: through UTF-8 a lone surrogate (in a parsed value a library caller passes) would become
 * U+FFFD, and two log_ids signed apart would name one log.
 */
export function shared(s: string): string {
  const known = sharedStrings.get(s);
  if (known !== undefined) return known;
  const encoding = SURROGATE.test(s) ? "utf16le" : "utf8";
  const copy = Buffer.from(s, encoding).toString(encoding);
  if (copy.length > MAX_SHARED_LENGTH) return copy;
  if (sharedStrings.size >= MAX_SHARED) sharedStrings.clear();
  sharedStrings.set(copy, copy);
  return copy;
}

/** How many strings `shared` holds now: for tests of its bounds. */
export function sharedCount(): number {
  return sharedStrings.size;
}

/** A Transparency Service's signed statement, through one stamp: its log had this root at this size. */
export interface StampedHead {
  readonly url: string;
  readonly treeSize: number;
  /** The root the stamp's inclusion path folds to, hex. */
  readonly root: string;
  /** The stamp's path in its input. */
  readonly where: string;
}

/** A service's two roots for one tree size: this input's stamp and another input's. */
export interface RegistrationFork extends StampedHead {
  readonly otherRoot: string;
  readonly otherWhere: string;
}

export interface Fork {
  readonly logId: string;
  readonly mmrSize: number;
  /** The root this input states, and by which statement. */
  readonly root: string;
  readonly statedBy: string;
  /** Another root at the same size, and where it was stated. */
  readonly otherRoot: string;
  readonly otherStatedBy: string;
}

/** What comparing with every other input and the --checkpoints list found for one input. */
export interface CrossInputFindings {
  /** Statements about this input's logs from other sources that were compared with its own. */
  readonly compared: number;
  readonly forks: readonly Fork[];
  /** Set when another source shows this log at a larger size than this input's checkpoint. */
  readonly stale?: string;
  /** Witness keys that cosigned two roots for one size of one origin anywhere in the run. */
  readonly witnesses?: readonly WitnessEquivocation[];
  /** This input's stamps whose service signed another root for the same tree size in another input. */
  readonly registration?: readonly RegistrationFork[];
}

interface Statement {
  readonly source: number;
  readonly root: string;
  readonly what: string;
}

/** More entries than any caller's memory of one log plausibly holds; the cost stays linear anyway. */
export const MAX_SEEN_CHECKPOINTS = 10_000;

/** (identity, log_id) → size → root → statements, and the log's statement count. */
type Logs = Map<string, { sizes: Map<number, Map<string, Statement[]>>; total: number }>;

interface OwnStatement {
  readonly log: string;
  readonly size: number;
  readonly root: string;
  readonly what: string;
}

/** Every signed statement of the run, grouped by log and size. */
interface StatementPool {
  readonly logs: Logs;
  /** Each input's own statements (at most four: two checkpoints, two prev_roots). */
  readonly own: OwnStatement[][];
  readonly logOf: (cp: SightedCheckpoint) => string;
}

/**
 * Each checkpoint of the inputs and each signed one of `seen`, stated as its root and its
 * prev_root. An input's checkpoints are in its sighting only if their signature verified
 * (`sighted`).
 */
function poolStatements(
  inputs: readonly InputCheckpoints[],
  seen: readonly Checkpoint[],
  identityOf: (keyIdHex: string) => string,
): StatementPool {
  const logs: Logs = new Map();
  const own = inputs.map(() => [] as OwnStatement[]);
  const logOf = (cp: SightedCheckpoint) => `${identityOf(cp.keyIdHex)}\n${cp.logId}`;
  const state = (cp: SightedCheckpoint, source: number, what: string) => {
    const log = logOf(cp);
    const entry = logs.get(log) ?? { sizes: new Map<number, Map<string, Statement[]>>(), total: 0 };
    logs.set(log, entry);
    const add = (size: number, hex: string, statedBy: string) => {
      const roots = entry.sizes.get(size) ?? new Map<string, Statement[]>();
      entry.sizes.set(size, roots);
      const list = roots.get(hex) ?? [];
      roots.set(hex, list);
      list.push({ source, root: hex, what: statedBy });
      entry.total++;
      if (source < inputs.length) own[source]?.push({ log, size, root: hex, what: statedBy });
    };
    add(cp.mmrSize, cp.root, `${what} checkpoint`);
    if (cp.prevSize > 0 && cp.prevRoot !== null) add(cp.prevSize, cp.prevRoot, `prev_root of ${what} checkpoint`);
  };
  inputs.forEach((input, i) => {
    if (input.current !== undefined) state(input.current, i, "its");
    if (input.prior !== undefined) state(input.prior, i, "its prior");
  });
  // Only what the producer signed is a statement: an unsigned or forged checkpoint proves nothing
  // about the log.
  seen.forEach((cp, j) => {
    const s = sighted(cp);
    if (s !== undefined) state(s, inputs.length + j, "a previously seen");
  });
  return { logs, own, logOf };
}

/** The first statement at this size from a source other than `i`, whose root differs from `unlike` when given. */
function otherAt(logs: Logs, log: string, size: number, i: number, unlike?: string): Statement | undefined {
  for (const [root, list] of logs.get(log)?.sizes.get(size) ?? []) {
    if (root === unlike) continue;
    const s = list.find((x) => x.source !== i);
    if (s !== undefined) return s;
  }
  return undefined;
}

/** Input `i`'s statements that another source contradicts: one fork per log and size. */
function forksOf(logs: Logs, mine: readonly OwnStatement[], i: number, sources: readonly string[]): Fork[] {
  const forks: Fork[] = [];
  for (const m of mine) {
    // Another root at this size, stated by another source: a disagreement inside one input is
    // its own chain's FAIL, not a fork between inputs.
    const conflicting = otherAt(logs, m.log, m.size, i, m.root);
    const logId = m.log.slice(m.log.indexOf("\n") + 1);
    if (conflicting === undefined || forks.some((f) => f.mmrSize === m.size && f.logId === logId)) continue;
    forks.push({
      logId,
      mmrSize: m.size,
      root: m.root,
      statedBy: m.what,
      otherRoot: conflicting.root,
      otherStatedBy: `${conflicting.what} in ${sources[conflicting.source]}`,
    });
  }
  return forks;
}

/**
 * Findings per input, in the order given. `seen` is the caller's list of checkpoints seen before
 * (a --checkpoints file); its entries take part in every comparison but get no findings of their own.
 */
export function findEquivocations(
  inputs: readonly InputCheckpoints[],
  seen: readonly Checkpoint[] = [],
  identityOf: (keyIdHex: string) => string = (k) => k,
): CrossInputFindings[] {
  const sources = [...inputs.map((i) => i.source), ...seen.map((_, i) => joinPath("--checkpoints", i))];
  const { logs, own, logOf } = poolStatements(inputs, seen, identityOf);
  const descending = new Map<string, number[]>();
  const sizesDown = (log: string) => {
    let d = descending.get(log);
    if (d === undefined) {
      d = [...(logs.get(log)?.sizes.keys() ?? [])].sort((a, b) => b - a);
      descending.set(log, d);
    }
    return d;
  };

  return inputs.map((input, i): CrossInputFindings => {
    const mine = own[i] ?? [];
    let compared = 0;
    for (const log of new Set(mine.map((m) => m.log)))
      compared += (logs.get(log)?.total ?? 0) - mine.filter((m) => m.log === log).length;
    const forks = forksOf(logs, mine, i, sources);
    let stale: string | undefined;
    const current = input.current;
    if (current !== undefined) {
      const log = logOf(current);
      // The largest size another source states; this input's own sizes (at most four) are skipped.
      for (const size of sizesDown(log)) {
        if (size <= current.mmrSize) break;
        const other = otherAt(logs, log, size, i);
        if (other === undefined) continue;
        stale = `a checkpoint of log ${JSON.stringify(current.logId)} at mmr_size ${size} was seen in ${sources[other.source]}, larger than this one (${current.mmrSize})`;
        break;
      }
    }
    return { compared, forks, ...(stale !== undefined ? { stale } : {}) };
  });
}

/** A `--checkpoints` file: a JSON array of CLL checkpoints (the manifest's JSON form), each signed. */
export function parseSeenCheckpoints(v: JsonValue): Result<Checkpoint[]> {
  if (!Array.isArray(v))
    return fail(
      "CHECKPOINTS_FILE_MALFORMED",
      "a --checkpoints file is a JSON array of CLL checkpoints",
      "--checkpoints",
    );
  if (v.length > MAX_SEEN_CHECKPOINTS)
    return fail(
      "CHECKPOINTS_FILE_MALFORMED",
      `${v.length} checkpoints; at most ${MAX_SEEN_CHECKPOINTS} are read`,
      "--checkpoints",
    );
  const out: Checkpoint[] = [];
  for (const [i, item] of v.entries()) {
    const path = joinPath("--checkpoints", i);
    const cp = parseCheckpoint(item, path);
    if (!cp.ok) return fail("CHECKPOINTS_FILE_MALFORMED", `${cp.detail} (${cp.code})`, cp.path ?? path);
    // A remembered checkpoint is evidence against later ones only if its producer signed it.
    if (!verifyCheckpointSignature(cp.value).ok)
      return fail(
        "CHECKPOINTS_FILE_MALFORMED",
        "its signature does not verify under its key_id",
        joinPath(path, "signature"),
      );
    out.push(cp.value);
  }
  return ok(out);
}

/**
 * Per input, its stamps whose service stated another root for the same tree size in another input
 * (contract §9.32): one log has one root per size. Stamps of different sizes or services are not
 * compared; two roots within one input are that input's own `registration.consistent` FAIL.
 */
export function findRegistrationForks(inputs: readonly InputCheckpoints[]): RegistrationFork[][] {
  /** (url, size) → root → the first input and stamp that stated it. */
  const heads = new Map<string, Map<string, { source: number; where: string }>>();
  inputs.forEach((input, i) => {
    for (const h of input.stamped ?? []) {
      const k = `${h.url}\n${h.treeSize}`;
      const roots = heads.get(k) ?? new Map<string, { source: number; where: string }>();
      heads.set(k, roots);
      if (!roots.has(h.root)) roots.set(h.root, { source: i, where: h.where });
    }
  });
  return inputs.map((input, i) => {
    const forks: RegistrationFork[] = [];
    for (const h of input.stamped ?? []) {
      if (forks.some((f) => f.url === h.url && f.treeSize === h.treeSize)) continue;
      for (const [root, first] of heads.get(`${h.url}\n${h.treeSize}`) ?? []) {
        if (root === h.root || first.source === i) continue;
        forks.push({ ...h, otherRoot: root, otherWhere: `${first.where} in ${inputs[first.source]?.source ?? ""}` });
        break;
      }
    }
    return forks;
  });
}
