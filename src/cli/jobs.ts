/**
 * `--jobs N`: the inputs of a run read, loaded and verified by N worker threads, for wall time on
 * many inputs. Each worker opens its own run from the same request and takes the run's passes
 * (run.ts) for the inputs it is handed: in the first, it reads an input, takes its sighting,
 * verifies it and keeps the report in a spool of its own; in the last, it completes the kept
 * report with the input's findings, reading the input again only where that does not suffice. The
 * main thread hands out the inputs, compares their checkpoints and writes their reports in input
 * order, so the output is byte for byte what one thread writes. A few inputs per worker are in
 * flight at a time, so memory stays flat however many inputs there are.
 */
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import {
  holdReports,
  withoutChecks,
  openRun,
  reportOne,
  runAsync,
  type Emit,
  type Passes,
  type RunRequest,
  type Steps,
} from "../run.js";
import type { InputReport } from "../report/model.js";
import type { CrossInputFindings, InputCheckpoints } from "../witness/equivocation.js";
import { readItem } from "./read-item.js";
import { ReportSpool } from "./spool.js";

interface Job {
  readonly k: number;
  readonly path: string;
  readonly source: string;
  readonly pass: "sight" | "report" | "close";
  /** First pass: the input is verified and its report kept (an input of this run, not another shard's). */
  readonly keep?: boolean;
  readonly findings?: CrossInputFindings;
  /** The job's place in its pass (set as it is handed out), which its answer names. */
  readonly at?: number | undefined;
}
interface Done {
  readonly k: number;
  readonly at?: number | undefined;
  readonly sighting?: InputCheckpoints | undefined;
  readonly report?: InputReport;
}

const IN_FLIGHT_PER_WORKER = 4;

/** The argument a worker thread is started with, so the launcher knows to serve jobs. */
export const JOB_WORKER_ARG = "--a2a-evidence-job-worker";

/** An input as the run reads it, from its path. */
export function runJobWorker(): void {
  if (isMainThread) throw new Error("runJobWorker runs in a worker thread");
  const { request, withoutChecks: trim } = (
    workerData as { a2aEvidenceJobs: { request: RunRequest; withoutChecks?: boolean } }
  ).a2aEvidenceJobs;
  const opened = openRun(request);
  if (!opened.ok) throw new Error("a worker could not open the run the main thread opened");
  const run = opened.run;
  // The reports this worker verified in the first pass, until the last completes them.
  const spool = ReportSpool.open();
  const hold = { ...holdReports(run, spool, trim ? withoutChecks : undefined), close: () => spool.close() };
  const work = async (job: Job): Promise<Done> => {
    if (job.pass === "sight") {
      const item = await readItem(job.path, job.source);
      return { k: job.k, at: job.at, sighting: run.first(job.k, item, job.keep ? hold : undefined) };
    }
    const done = await runAsync(reportOne(run, job.k, job.findings, hold, () => readItem(job.path, job.source)));
    return { k: job.k, at: job.at, report: done.report };
  };
  parentPort?.on("message", (job: Job) => {
    if (job.pass !== "close") return void work(job).then((done) => parentPort?.postMessage(done));
    // The run is over: the spool's file goes (descriptors are the process's, not the thread's).
    hold.close();
    parentPort?.postMessage({ k: -1 });
  });
}

export class JobPool {
  private readonly workers: Worker[];
  /** Why a worker is gone, once one is: a later pass would wait for it for ever. */
  private stopped: string | undefined;
  private closed = false;

  /**
   * `inputs`: every input the run compares, by index; input k always goes to the same worker.
   * `showsChecks` false: the output shows no checks, and the workers keep reports without them
   * (`withoutChecks`), as the main thread's spool does.
   */
  constructor(
    entry: string,
    jobs: number,
    request: RunRequest,
    private readonly inputs: readonly { readonly path: string; readonly source: string }[],
    showsChecks = true,
  ) {
    const data = { a2aEvidenceJobs: { request, withoutChecks: !showsChecks } };
    this.workers = Array.from({ length: jobs }, () => new Worker(entry, { argv: [JOB_WORKER_ARG], workerData: data }));
  }

  /** The run's passes, taken by the workers. */
  passes(): Passes {
    const job = (k: number, pass: Job["pass"]): Job => {
      const input = this.inputs[k] as { readonly path: string; readonly source: string };
      return { k, path: input.path, source: input.source, pass };
    };
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const pool = this;
    return {
      *sight(count, keep, seen): Steps {
        const jobs = Array.from({ length: count }, (_v, k) => ({ ...job(k, "sight"), keep: keep(k) }));
        yield pool.run(jobs, async (d) => seen(d.k, d.sighting));
      },
      *report(ks, findings, emit: Emit): Steps {
        const jobs = ks.map((k) => {
          const f = findings(k);
          return { ...job(k, "report"), ...(f ? { findings: f } : {}) };
        });
        yield pool.run(jobs, async (d) => void (await emit(d.k, d.report as InputReport)));
      },
    };
  }

  /**
   * One pass over `jobs`; `onResult` is called in the jobs' order, one at a time. Input k goes to
   * worker k mod N in every pass: a worker keeps what it verified of the input in the first pass,
   * and the bytes of an input that is not a regular file (a pipe reads once).
   */
  private run(jobs: readonly Job[], onResult: (done: Done) => Promise<void>): Promise<void> {
    // A worker that stopped between two passes is seen here (its exit came while no pass ran).
    if (this.stopped !== undefined) return Promise.reject(new Error(this.stopped));
    return new Promise<void>((resolve, reject) => {
      const results = new Map<number, Done>();
      let next = 0;
      let emitted = 0;
      let flushing = Promise.resolve();
      const dispatch = () => {
        while (next < jobs.length && next - emitted < this.workers.length * IN_FLIGHT_PER_WORKER) {
          const job = jobs[next] as Job;
          (this.workers[job.k % this.workers.length] as Worker).postMessage({ ...job, at: next });
          next++;
        }
        if (emitted === jobs.length) resolve();
      };
      const flush = async () => {
        while (results.has(emitted)) {
          const d = results.get(emitted) as Done;
          results.delete(emitted);
          await onResult(d);
          emitted++;
        }
        dispatch();
      };
      this.listen((d) => {
        results.set(d.at as number, d);
        flushing = flushing.then(flush, reject);
      }, reject);
      dispatch();
    });
  }

  private listen(onDone: (d: Done) => void, reject: (e: Error) => void): void {
    for (const w of this.workers) {
      w.removeAllListeners("message").removeAllListeners("error").removeAllListeners("exit");
      w.on("message", onDone);
      w.on("error", reject);
      // A worker that ends without an error leaves its inputs unanswered: waited for, the run
      // would simply end, and a process with nothing left to do exits 0.
      w.on("exit", (code) => {
        this.stopped = `a worker thread stopped (exit code ${code}) before its inputs were verified`;
        reject(new Error(this.stopped));
      });
    }
  }

  /** Stops the workers, once each has closed its spool (a worker already gone is not waited for). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.stopped === undefined) {
      await Promise.all(
        this.workers.map(
          (w) =>
            new Promise<void>((resolve) => {
              w.removeAllListeners("message").removeAllListeners("error").removeAllListeners("exit");
              for (const event of ["message", "error", "exit"]) w.once(event, () => resolve());
              w.postMessage({ pass: "close" });
            }),
        ),
      );
    }
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
