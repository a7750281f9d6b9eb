/**
 * `verify`'s flags, checked, and the run's material read: the trust file, the caller's
 * observation, the continuity files and the --resolved files. A flag that cannot be used is a
 * usage error (exit 2) before anything is read; a file that cannot be read or used stops the run
 * with a report that names it.
 */
import { PROPERTY_NAMES, isPropertyName, type PropertyName } from "../properties/index.js";
import { openRun, type Opened, type RunRequest } from "../run.js";
import { EVIDENCE_LEVELS, type EvidenceLevelOrNone } from "../profile.js";
import { resolvedContentOf, type ResolvedContent } from "../evidence/parts.js";
import { printable } from "../util/printable.js";
import type { FormatName } from "../report/index.js";
import { parseShard } from "./inputs.js";
import { readInput } from "./read.js";
import { readContinuityFlags } from "./continuity-flags.js";
import type { RunGiven, Shard } from "./shard-run.js";
import { UsageError, type CliIo } from "./io.js";
import { callerFileName, unreadableFile, type CallerFile, type CallerFileError } from "./error-summary.js";
import { checkAtOption } from "./at-option.js";
import type { ObservationFlags } from "./observation-options.js";

export interface VerifyFlags extends ObservationFlags {
  trust?: string;
  authority?: string;
  tenant?: string;
  at?: string;
  cosignatures?: string;
  checkpoints?: readonly string[];
  shard?: string;
  jobs?: string;
  require?: string;
  minEvidence?: string;
  resolved: string[];
  insecureAcceptUncommittedParts?: boolean;
  format: FormatName;
  output?: string;
  quiet?: boolean;
  verbose?: boolean;
  explain?: boolean;
  skipUnknown?: boolean;
  color: boolean;
}

export const MIN_LEVELS: readonly EvidenceLevelOrNone[] = ["NONE", ...EVIDENCE_LEVELS];

function parseRequire(list: string | undefined): PropertyName[] {
  if (list === undefined) return [];
  const names = list
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const n of names) {
    if (!isPropertyName(n))
      throw new UsageError(`--require: unknown property "${n}" (known: ${PROPERTY_NAMES.join(", ")})`);
  }
  // A property named twice (two --require lists that overlap) is required once.
  return [...new Set(names)] as PropertyName[];
}

/** A caller's file that could not be read: the error the run stops with. */
class InputFileError extends Error {
  constructor(readonly failed: CallerFileError) {
    super(failed.error.message);
  }
}

/**
 * `--resolved URL=FILE`, split at the last "=" (a URL may hold "=", a file name rarely does): by
 * URL, the file the caller resolved it to. A URL given twice is a usage error, as any option
 * that would otherwise keep one value silently.
 */
function parseResolved(list: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const item of list) {
    const at = item.lastIndexOf("=");
    const url = at > 0 ? item.slice(0, at) : "";
    const file = at > 0 ? item.slice(at + 1) : "";
    if (url === "" || file === "")
      throw new UsageError(`--resolved: "${printable(item)}" is not URL=FILE (split at the last "=")`);
    if (files.has(url)) throw new UsageError(`--resolved: the URL "${printable(url)}" is given twice`);
    files.set(url, file);
  }
  return files;
}

/** The SHA-256 and length of each --resolved file, by URL: the verifier compares them, never fetches. */
async function readResolved(files: ReadonlyMap<string, string>): Promise<Map<string, ResolvedContent>> {
  const resolved = new Map<string, ResolvedContent>();
  for (const [i, [url, file]] of [...files].entries())
    resolved.set(url, resolvedContentOf(await readCallerFile(file, "--resolved", i)));
  return resolved;
}

/** A caller's file the run reads beside its inputs; one that cannot be read names itself, as inspect's does. */
async function readCallerFile(path: string, source: CallerFile, index?: number): Promise<Uint8Array> {
  const r = await readInput(path);
  if (!r.ok) throw new InputFileError(unreadableFile(source, r.reason, index));
  return r.bytes;
}

/** The caller's file a report-level error is about, named as the user gave it. */
export function errorSource(failed: CallerFileError, checked: Checked, flags: VerifyFlags): string | undefined {
  if (failed.error.source === undefined) return undefined;
  const files = { ...flags, trust: checked.trustPath, resolved: [...checked.resolvedFiles.values()] };
  return callerFileName(failed.error.source, failed.index, files);
}

/** The flags, checked: what the run is asked to do. */
export interface Checked {
  readonly jobs: number;
  readonly shard: Shard | undefined;
  readonly policy: { require: PropertyName[]; minEvidence?: EvidenceLevelOrNone; acceptUncommittedParts?: boolean };
  readonly resolvedFiles: ReadonlyMap<string, string>;
  readonly trustPath: string | undefined;
  /** The files the run reads besides its inputs (a directory walk skips them, contract §9.35). */
  readonly configuration: readonly (string | undefined)[];
}

function checkNumbers(flags: VerifyFlags): Pick<Checked, "jobs" | "shard"> & { minEvidence?: EvidenceLevelOrNone } {
  const minEvidence = flags.minEvidence as EvidenceLevelOrNone | undefined;
  if (minEvidence !== undefined && !MIN_LEVELS.includes(minEvidence)) {
    throw new UsageError(`--min-evidence: unknown level "${flags.minEvidence}" (known: ${MIN_LEVELS.join(", ")})`);
  }
  const jobs = flags.jobs === undefined ? 1 : Number(flags.jobs);
  if (!Number.isSafeInteger(jobs) || jobs < 1 || jobs > 64)
    throw new UsageError(`--jobs: "${printable(flags.jobs ?? "")}" is not a number of threads from 1 to 64`);
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (flags.shard !== undefined && !shard)
    throw new UsageError(`--shard: "${printable(flags.shard)}" is not i/n with 1 ≤ i ≤ n (e.g. 2/4)`);
  return { jobs, shard, ...(minEvidence !== undefined ? { minEvidence } : {}) };
}

/** Checks the flags (a usage error throws) and says so when the input is read from a terminal. */
export function checkFlags(args: readonly string[], flags: VerifyFlags, io: CliIo): Checked {
  const { jobs, shard, minEvidence } = checkNumbers(flags);
  const policy = {
    require: parseRequire(flags.require),
    ...(minEvidence !== undefined ? { minEvidence } : {}),
    ...(flags.insecureAcceptUncommittedParts ? { acceptUncommittedParts: true } : {}),
  };
  const resolvedFiles = parseResolved(flags.resolved);
  const read = [flags.task, flags.firstTask, ...flags.interim, flags.cosignatures, ...(flags.checkpoints ?? [])];
  const fromStdin = [...args, flags.trust, ...read, ...resolvedFiles.values()].filter(
    (i) => i === "-" || i === "@-",
  ).length;
  if (fromStdin > 1) throw new UsageError("standard input ('-') can be given only once");
  checkAtOption(flags.at);
  if (flags.explain && (flags.quiet || flags.format !== "text"))
    throw new UsageError(
      "--explain follows the text report: it takes neither -q nor --format other than text (inspect --format json explains for tools)",
    );
  const trustPath = flags.trust ?? (io.env.A2A_EVIDENCE_TRUST || undefined);
  if (fromStdin > 0 && io.stdinIsTTY) io.stderr("a2a-evidence: reading the input from the terminal; end with Ctrl-D\n");
  const configuration = [
    ...args.filter((a) => a.startsWith("@") && a !== "@-").map((a) => a.slice(1)),
    trustPath,
    ...read,
    ...resolvedFiles.values(),
  ];
  return { jobs, shard, policy, resolvedFiles, trustPath, configuration };
}

/** The run's material, read, and the run opened on it (or why it could not be). */
export interface Material {
  readonly opened: Opened;
  readonly request: RunRequest;
  /** The --cosignatures file's bytes, as read once (worker threads get them, not the path). */
  readonly cosignatureBytes: Uint8Array | undefined;
  /** The bytes of --cosignatures and of each --checkpoints file, in the order read (a shard's digests). */
  readonly continuityBytes: readonly Uint8Array[];
}

/** The files the request holds besides the continuity files; an unreadable one throws InputFileError. */
async function readFiles(flags: VerifyFlags, checked: Checked): Promise<RunRequest> {
  const { trustPath, resolvedFiles } = checked;
  return {
    ...(trustPath !== undefined ? { trust: await readCallerFile(trustPath, "trust") } : {}),
    ...(flags.task !== undefined ? { task: await readCallerFile(flags.task, "--task") } : {}),
    ...(flags.firstTask !== undefined ? { firstTask: await readCallerFile(flags.firstTask, "--first-task") } : {}),
    ...(flags.interim.length > 0
      ? { interim: await Promise.all(flags.interim.map((f, i) => readCallerFile(f, "--interim", i))) }
      : {}),
    ...(resolvedFiles.size > 0 ? { resolved: await readResolved(resolvedFiles) } : {}),
  };
}

/** Reads the run's material and opens the run; a message (exit 2) when a continuity file cannot be used. */
export async function readMaterial(flags: VerifyFlags, checked: Checked): Promise<Material | string> {
  let cosignatureBytes: Uint8Array | undefined;
  const continuityBytes: Uint8Array[] = [];
  const continuity = await readContinuityFlags(flags, async (path) => {
    const r = await readInput(path);
    if (r.ok) continuityBytes.push(r.bytes);
    if (r.ok && path === flags.cosignatures) cosignatureBytes = r.bytes;
    return r;
  });
  if (!continuity.ok) return continuity.message;
  let request: RunRequest = {};
  let opened: Opened;
  try {
    request = {
      ...checked.policy,
      ...(flags.authority !== undefined ? { authority: flags.authority } : {}),
      ...(flags.tenant !== undefined ? { tenant: flags.tenant } : {}),
      ...(flags.at !== undefined ? { at: flags.at } : {}),
      ...continuity.value,
      ...(await readFiles(flags, checked)),
    };
    opened = openRun(request);
  } catch (e) {
    if (!(e instanceof InputFileError)) throw e;
    const policy = {
      require: checked.policy.require,
      minEvidence: checked.policy.minEvidence ?? null,
      ...(flags.insecureAcceptUncommittedParts ? { acceptUncommittedParts: true as const } : {}),
    };
    const { error, index } = e.failed;
    opened = { ok: false, policy, error, ...(index !== undefined ? { index } : {}) };
  }
  return { opened, request, cosignatureBytes, continuityBytes };
}

/**
 * The request as worker threads receive it: structured-cloneable. A --cosignatures file is passed
 * as the bytes the main thread read and verified (a parsed value's number lexemes would not
 * survive the copy; read again, a pipe gives nothing and a file may have changed); the comparison
 * across inputs stays with the main thread, so workers need no --checkpoints list.
 */
export function forWorkers(material: Material): RunRequest {
  const { checkpoints: _checkpoints, cosignatures: _cosignatures, ...rest } = material.request;
  return material.cosignatureBytes === undefined ? rest : { ...rest, cosignatures: material.cosignatureBytes };
}

/** What the run was given beside its inputs, for a shard's report (the files as the bytes read). */
export function given(material: Material): RunGiven {
  const { request } = material;
  const bytes = (d: unknown) => (d instanceof Uint8Array ? d : undefined);
  return {
    trust: bytes(request.trust),
    task: bytes(request.task),
    firstTask: bytes(request.firstTask),
    interim: request.interim?.filter((d) => d instanceof Uint8Array),
    authority: request.authority,
    tenant: request.tenant,
    at: request.at,
    continuity: material.continuityBytes,
  };
}
