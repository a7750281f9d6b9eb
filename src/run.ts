/**
 * One verification run, input by input: what `verify()` does for a list of inputs held in memory,
 * and what the CLI does for a stream of files it reads, verifies, prints and releases one at a time
 * (so a run over thousands of inputs keeps its memory flat). The run's own material — trust file,
 * the caller's observation, cosignatures — is loaded once, when the run opens. Pure: no files,
 * clock or network; every input's data is handed in.
 *
 * Whether a log forked is a fact about all inputs together, so a run over several inputs passes
 * over them twice: it takes a sighting of each (what it shows of its logs) and verifies it, then
 * compares the sightings and completes each input's report with what the comparison found for it
 * (verifying again only an input whose findings change its verdict). One driver, `drive`, runs
 * those passes for `verify()`, the CLI and its worker threads alike; each input is read, parsed
 * and loaded once wherever what was kept of it suffices (`Holder`).
 */
import { fail, type Failure, type Result } from "./result.js";
import { toJsonValue, type InputData } from "./input/data.js";
import { toInputValue } from "./input/decode.js";
import {
  loadCallerObservation,
  loadEvidence,
  type Evidence,
  type Observation,
  type ObservationFailure,
} from "./input/load.js";
import { resolveTrust, type TrustConfig } from "./trust/config.js";
import type { Checkpoint } from "./log/checkpoint.js";
import { compareAcrossInputs, crossInputSighting, settleAcrossInputs, type VerifyOptions } from "./properties/index.js";
import { parseCosignatureFile, type CosignatureFile } from "./witness/evidence.js";
import { parseRfc3339 } from "./witness/time.js";
import { StatementPool, fileStatements, pinnedWitnessKeys, type WitnessStatement } from "./witness/pool.js";
import type { CrossInputFindings, InputCheckpoints } from "./witness/equivocation.js";
import type { Policy } from "./policy.js";
import {
  failedInput,
  isFailedInput,
  type InputError,
  type InputReport,
  type PolicyReport,
  type VerifiedInput,
} from "./report/model.js";
import { verifyEvidence } from "./verify-input.js";
import { EvidenceContext } from "./evidence/context.js";

/** Everything a run takes besides its inputs. */
export interface RunRequest extends VerifyOptions, Policy {
  /** The trust configuration: already loaded, or the trust file's bytes/value. */
  readonly trust?: TrustConfig | InputData;
  /** The Task the caller observed, for bare bundles (`--task`). */
  readonly task?: InputData;
  /** The first Task returned by SendMessage (`--first-task`). */
  readonly firstTask?: InputData;
  /** CLL checkpoints seen before (`--checkpoints`), compared with the inputs' to find a forked log. */
  readonly checkpoints?: readonly Checkpoint[];
  /** Interim records sealed at the Task's pauses, or the paused Tasks that carry them (`--interim`). */
  readonly interim?: readonly InputData[];
}

/** One input as a caller hands it in: its data, or why it could not be read. */
export interface InputItem {
  readonly source: string;
  readonly data?: InputData;
  readonly readError?: string;
}

export interface Run {
  readonly policy: Omit<PolicyReport, "exitCode">;
  /** Loads an input: its Evidence, or the report of an input that cannot be verified. */
  load(item: InputItem): Evidence | InputReport;
  /**
   * What the input shows of its logs, for the comparison across inputs; `ctx`, when given, is the
   * context the input is verified with, whose readings the sighting shares.
   */
  sighting(source: string, loaded: Evidence | InputReport, ctx?: EvidenceContext): InputCheckpoints | undefined;
  /** The first pass over one input: loads it, takes its sighting and hands what it loaded to `hold`. */
  first(k: number, item: InputItem, hold?: Holder): InputCheckpoints | undefined;
  /** Every input's findings, in order; undefined when there is nothing to compare. */
  compare(
    sightings: readonly (InputCheckpoints | undefined)[],
  ): readonly (CrossInputFindings | undefined)[] | undefined;
  /**
   * The input's report, with its findings from the comparison. Never throws. `ctx`, used only
   * without findings, is the context the sighting of this input read (its readings are reused).
   */
  verify(
    source: string,
    loaded: Evidence | InputReport,
    findings?: CrossInputFindings,
    ctx?: EvidenceContext,
  ): InputReport;
  /**
   * A report `verify` gave without findings, completed with the input's findings: the very report
   * `verify` gives with them, or undefined when only verifying again gives it. The comparison
   * adds one check to continuity; only a fork changes the property's state, and with it what the
   * properties after it, the level and the policy say.
   */
  settle(report: InputReport, findings?: CrossInputFindings): InputReport | undefined;
}

export type Opened =
  | { readonly ok: true; readonly run: Run }
  | {
      readonly ok: false;
      readonly policy: Run["policy"];
      readonly error: InputError;
      /** For an --interim or --resolved file's error, which of them (from 0): beside the error, not in the report. */
      readonly index?: number;
    };

/** What an unexpected exception becomes: a typed error, never a throw (contract §9.21). */
function internalError(e: unknown): Failure {
  return fail(
    "VERIFY_INTERNAL_ERROR",
    `the verifier failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`,
  );
}

function guarded<T>(f: () => T, source: string): T | InputReport {
  try {
    return f();
  } catch (e) {
    return failedInput(source, internalError(e));
  }
}

function guardedResult<T>(f: () => Result<T>): Result<T> {
  try {
    return f();
  } catch (e) {
    return internalError(e);
  }
}

function isEvidence(e: Evidence | InputReport): e is Evidence {
  return "bundles" in e;
}

/** A --cosignatures file is read once for the run: unusable, nothing is verified (exit 2). */
function parseCosignatures(data: InputData): Result<CosignatureFile> {
  const v = toJsonValue(data);
  return v.ok ? parseCosignatureFile(v.value) : v;
}

/** Loads the run's material; a trust file, observation or cosignatures file that cannot be used stops the run. */
export function openRun(request: RunRequest): Opened {
  const policy = {
    require: [...(request.require ?? [])],
    minEvidence: request.minEvidence ?? null,
    ...(request.acceptUncommittedParts === true ? { acceptUncommittedParts: true as const } : {}),
  };
  const trust = guardedResult(() => resolveTrust(request.trust));
  if (!trust.ok) return { ok: false, policy, error: { ...failedInput("", trust).error, source: "trust" } };
  const caller = guardedResult(() => loadCallerObservation(request.task, request.firstTask, request.interim));
  if (!caller.ok) {
    const { source, index } = caller as Partial<Pick<ObservationFailure, "source" | "index">>;
    const error = { ...failedInput("", caller).error, ...(source ? { source } : {}) };
    return { ok: false, policy, error, ...(index !== undefined ? { index } : {}) };
  }
  let file: CosignatureFile | undefined;
  if (request.cosignatures !== undefined) {
    const cosignatures = guardedResult(() => parseCosignatures(request.cosignatures as InputData));
    if (!cosignatures.ok)
      return { ok: false, policy, error: { ...failedInput("", cosignatures).error, source: "--cosignatures" } };
    file = cosignatures.value;
  }
  // The caller's time, refused as the CLI refuses --at: dropped instead, a typo would turn off the
  // time rules (a validFrom bound holds without a time), so a FAIL the time gives would pass.
  if (request.at !== undefined) {
    const at = typeof request.at === "string" ? parseRfc3339(request.at) : fail("TIME_INVALID", "at is not a string");
    if (!at.ok) return { ok: false, policy, error: { ...failedInput("", at).error, source: "--at" } };
  }
  const options: VerifyOptions & Policy = {
    require: policy.require,
    ...(request.minEvidence !== undefined ? { minEvidence: request.minEvidence } : {}),
    ...(request.authority !== undefined ? { authority: request.authority } : {}),
    ...(request.tenant !== undefined ? { tenant: request.tenant } : {}),
    ...(request.cosignatures !== undefined ? { cosignatures: request.cosignatures } : {}),
    ...(request.at !== undefined ? { at: request.at } : {}),
    ...(request.resolved !== undefined ? { resolved: request.resolved } : {}),
    ...(request.acceptUncommittedParts === true ? { acceptUncommittedParts: true } : {}),
  };
  return { ok: true, run: runOf(policy, trust.value, caller.value, options, request.checkpoints ?? [], file) };
}

/** The --cosignatures file's verified lines, verified once for the run and only when asked for. */
function fileWitnessLines(file: CosignatureFile | undefined, trust: TrustConfig | undefined) {
  let lines: WitnessStatement[] | undefined;
  let pool: StatementPool | undefined;
  const statements = () => (lines ??= file ? fileStatements(file, pinnedWitnessKeys(trust?.witnesses)) : []);
  return { statements, pool: () => (pool ??= new StatementPool().add(statements())) };
}

function runOf(
  policy: Run["policy"],
  trust: TrustConfig | undefined,
  observation: Observation,
  given: VerifyOptions & Policy,
  seen: readonly Checkpoint[],
  file?: CosignatureFile,
): Run {
  const witnessLines = fileWitnessLines(file, trust);
  const options = { ...given, cosignaturePool: witnessLines.pool };
  return {
    policy,
    load(item) {
      const { source, data } = item;
      if (data === undefined)
        return failedInput(source, { code: "INPUT_UNREADABLE", detail: item.readError ?? "no input data" });
      return guarded(() => {
        const value = toInputValue(data);
        if (!value.ok) return failedInput(source, value);
        const evidence = loadEvidence(value.value, observation);
        return evidence.ok ? evidence.value : failedInput(source, evidence);
      }, source);
    },
    sighting(source, loaded, ctx) {
      if (!isEvidence(loaded) || loaded.bundles.length === 0) return undefined;
      const s = guarded(() => crossInputSighting(source, ctx ?? new EvidenceContext(loaded, trust, options)), source);
      return s !== undefined && "source" in s && "error" in s ? undefined : (s as InputCheckpoints | undefined);
    },
    first(k, item, hold) {
      const loaded = this.load(item);
      // The sighting and the verification without findings read one context: what the sighting
      // reads of the logs (checkpoints, stamps) is read and verified once.
      const shared =
        hold?.verifiesNow && isEvidence(loaded) && loaded.bundles.length > 0
          ? new EvidenceContext(loaded, trust, options)
          : undefined;
      const sighting = this.sighting(item.source, loaded, shared);
      hold?.keep(k, item.source, loaded, shared);
      return sighting;
    },
    compare: (sightings) => compareAcrossInputs(sightings, seen, trust, witnessLines.statements()),
    verify(source, loaded, findings, ctx) {
      if (!isEvidence(loaded)) return loaded;
      return guarded(
        () =>
          verifyEvidence(
            source,
            loaded,
            trust,
            findings ? { ...options, crossInput: findings } : options,
            findings ? undefined : ctx,
          ),
        source,
      );
    },
    settle(report, findings) {
      if (findings === undefined) return report;
      // Only an input that loaded has findings; one whose verification failed is tried again.
      if (isFailedInput(report)) return undefined;
      // A witness that equivocated elsewhere no longer counts here: only verifying again says where.
      if (findings.witnesses !== undefined) return undefined;
      try {
        const properties = settleAcrossInputs(report.properties, findings);
        return properties && { ...report, properties };
      } catch {
        // A step that throws is not trusted to have completed the report: verified again.
        return undefined;
      }
    },
  };
}

/** What the first pass keeps of an input for the last: enough to report it without reading it again. */
export interface Holder {
  /** True when `keep` verifies the input at once (without findings): it can share the sighting's context. */
  readonly verifiesNow?: boolean;
  keep(k: number, source: string, loaded: Evidence | InputReport, ctx?: EvidenceContext): void;
  /** Input k's report with its findings from what was kept, or undefined: read and verify it again. */
  take(k: number, findings: CrossInputFindings | undefined): InputReport | undefined;
}

/** Where reports wait between the passes (the CLI's spool: a file, so memory stays flat). */
export interface ReportStore {
  /** Keeps the report of input k; false when it is not kept. */
  put(k: number, report: InputReport): boolean;
  take(k: number): InputReport | undefined;
}

/**
 * Verifies each input as it is sighted and keeps its report (or, with `form`, what the output
 * reads of it): the last pass settles it with its findings.
 */
export function holdReports(run: Run, store: ReportStore, form?: (report: InputReport) => InputReport): Holder {
  return {
    verifiesNow: true,
    keep(k, source, loaded, ctx) {
      const report = run.verify(source, loaded, undefined, ctx);
      store.put(k, form ? form(report) : report);
    },
    take(k, findings) {
      const kept = store.take(k);
      return kept === undefined ? undefined : run.settle(kept, findings);
    },
  };
}

/**
 * A report for an output that shows no checks (the text report without -v): each property's
 * checks are left out where settling neither reads nor changes what the output shows. Settling
 * reads the checks of a property that FAILs or is NOT_CHECKED (see `settle`), so those are kept;
 * of the others it keeps the state and detail, or gives undefined (verified again) as it would
 * for the whole report. Settled, such a report shows what the whole one settled shows.
 */
export function withoutChecks(report: InputReport): InputReport {
  if (isFailedInput(report)) return report;
  const properties: Record<string, VerifiedInput["properties"][keyof VerifiedInput["properties"]]> = {};
  for (const [name, p] of Object.entries(report.properties))
    properties[name] =
      p.state === "FAIL" || p.state === "NOT_CHECKED" ? p : { state: p.state, detail: p.detail, checks: [] };
  return { ...report, properties: properties as VerifiedInput["properties"] };
}

/** Reports held in memory: for inputs the caller already holds in memory (the library's verify()). */
export function memoryStore(): ReportStore {
  const kept = new Map<number, InputReport>();
  return {
    put: (k, report) => (kept.set(k, report), true),
    take(k) {
      const report = kept.get(k);
      kept.delete(k);
      return report;
    },
  };
}

/** Keeps nothing: every input is read again for the last pass (--explain explains the bytes it reports). */
export const HOLD_NOTHING: Holder = { keep: () => {}, take: () => undefined };

/**
 * The driver's steps: it yields what it waits for (a value, or a promise of one: a read, a write,
 * a pass of the worker threads) and is given back its value. `runSync` drives it when nothing is
 * asynchronous (verify(): its inputs are in memory), `runAsync` when something is.
 */
export type Steps<T = void> = Generator<unknown, T, unknown>;

export function runSync<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    if (next.value instanceof Promise) throw new Error("an asynchronous step in a synchronous run");
    next = steps.next(next.value);
  }
  return next.value;
}

export async function runAsync<T>(steps: Steps<T>): Promise<T> {
  let next = steps.next();
  while (!next.done) next = steps.next(await next.value);
  return next.value;
}

/** What becomes of each report, in input order; `item` is the input when this pass read it. */
export type Emit = (k: number, report: InputReport, item?: InputItem) => unknown;

/** The two passes over a run's inputs, in this thread or in worker threads. */
export interface Passes {
  /** Every input's sighting, in order; input k is verified and kept as it is sighted when `keep(k)`. */
  sight(count: number, keep: (k: number) => boolean, seen: (k: number, s: InputCheckpoints | undefined) => void): Steps;
  /** The reports of inputs `ks`, in order, each with its findings. */
  report(ks: readonly number[], findings: (k: number) => CrossInputFindings | undefined, emit: Emit): Steps;
}

/** The last pass's step for one input: from what was kept, else read again and verified. */
export function* reportOne(
  run: Run,
  k: number,
  findings: CrossInputFindings | undefined,
  hold: Holder,
  read: (k: number) => unknown,
): Steps<{ readonly report: InputReport; readonly item?: InputItem }> {
  const held = hold.take(k, findings);
  if (held !== undefined) return { report: held };
  const item = (yield read(k)) as InputItem;
  return { report: run.verify(item.source, run.load(item), findings), item };
}

/**
 * The passes in this thread: `read(k)` gives input k (or a promise of it), `hold` keeps what it can.
 *
 * The passes are generator functions declared once, at the top of this module, behind arrows made
 * per run. A generator method of an object literal made per call (`{ *report() {…} }`) is a new
 * generator function each run, and V8 then kept everything a run's steps handled alive through every
 * young-generation collection until the next full one: each input's report, and through the strings
 * sliced from it, the input's whole text (about 60 kB an input, promoted and collected only by a full
 * collection). Declared once, nothing outlives its run.
 */
export function localPasses(run: Run, read: (k: number) => unknown, hold: Holder): Passes {
  return {
    sight: (count, keep, seen) => sightLocally(run, read, hold, count, keep, seen),
    report: (ks, findings, emit) => reportLocally(run, read, hold, ks, findings, emit),
  };
}

function* sightLocally(
  run: Run,
  read: (k: number) => unknown,
  hold: Holder,
  count: number,
  keep: (k: number) => boolean,
  seen: (k: number, s: InputCheckpoints | undefined) => void,
): Steps {
  for (let k = 0; k < count; k++) {
    const item = (yield read(k)) as InputItem;
    seen(k, run.first(k, item, keep(k) ? hold : undefined));
  }
}

function* reportLocally(
  run: Run,
  read: (k: number) => unknown,
  hold: Holder,
  ks: readonly number[],
  findings: (k: number) => CrossInputFindings | undefined,
  emit: Emit,
): Steps {
  for (const k of ks) {
    const { report, item } = yield* reportOne(run, k, findings(k), hold, read);
    yield emit(k, report, item);
  }
}

/** Which inputs a run compares and which it reports. */
export interface Plan {
  /** The inputs compared: this run's, and with --shard the other shards' (sighted, not reported). */
  readonly count: number;
  /** The inputs reported, in order (all of them but with --shard). */
  readonly own: readonly number[];
  /** Whether the inputs are compared: several inputs, or checkpoints seen before. */
  readonly compare: boolean;
  /** Called as each input reported is sighted. */
  readonly onSighted?: (k: number) => void;
  /** Waited for once the comparison is done (or at once, when nothing is compared), before the first report. */
  readonly beforeReports?: () => unknown;
}

/** The run's passes: sight (and verify) every input, compare, then report each with its findings. */
export function* drive(run: Run, passes: Passes, plan: Plan, emit: Emit): Steps {
  let findings: ReturnType<Run["compare"]>;
  if (plan.compare) {
    const sightings: (InputCheckpoints | undefined)[] = new Array(plan.count).fill(undefined);
    const own = new Set(plan.own);
    yield* passes.sight(
      plan.count,
      (k) => own.has(k),
      (k, s) => {
        sightings[k] = s;
        if (own.has(k)) plan.onSighted?.(k);
      },
    );
    findings = run.compare(sightings);
  }
  if (plan.beforeReports) yield plan.beforeReports();
  yield* passes.report(plan.own, (k) => findings?.[k], emit);
}
