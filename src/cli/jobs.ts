/**
 * `--jobs N`: the inputs of a run read, loaded and verified by N worker threads, for wall time on
 * many inputs. Each worker opens its own run from the same request; the main thread hands out
 * the inputs, compares their checkpoints and writes their reports in input order, so the output is
 * byte for byte what one thread writes. A few inputs per worker are in flight at a time, so memory
 * stays flat however many inputs there are.
 */
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { openRun, type InputItem, type RunRequest } from "../run.js";
import type { InputReport } from "../report/model.js";
import type { CrossInputFindings, InputCheckpoints } from "../witness/equivocation.js";
import { readInput } from "./read.js";

interface Job {
  readonly k: number;
  readonly path: string;
  readonly source: string;
  readonly pass: "sighting" | "verify";
  readonly findings?: CrossInputFindings;
}
interface Done {
  readonly k: number;
  readonly sighting?: InputCheckpoints | undefined;
  readonly report?: InputReport;
}

const IN_FLIGHT_PER_WORKER = 4;

/** The argument a worker thread is started with, so the launcher knows to serve jobs. */
export const JOB_WORKER_ARG = "--a2a-evidence-job-worker";

export function runJobWorker(): void {
  if (isMainThread) throw new Error("runJobWorker runs in a worker thread");
  const { request } = (workerData as { a2aEvidenceJobs: { request: RunRequest } }).a2aEvidenceJobs;
  const opened = openRun(request);
  if (!opened.ok) throw new Error("a worker could not open the run the main thread opened");
  const run = opened.run;
  parentPort?.on("message", (job: Job) => {
    void readInput(job.path).then((r) => {
      const it: InputItem = r.ok ? { source: job.source, data: r.bytes } : { source: job.source, readError: r.message };
      const loaded = run.load(it);
      const done: Done =
        job.pass === "sighting"
          ? { k: job.k, sighting: run.sighting(it.source, loaded) }
          : { k: job.k, report: run.verify(it.source, loaded, job.findings) };
      parentPort?.postMessage(done);
    });
  });
}

export class JobPool {
  private readonly workers: Worker[];
  /** Why a worker is gone, once one is: a later pass would wait for it for ever. */
  private stopped: string | undefined;

  constructor(entry: string, jobs: number, request: RunRequest) {
    this.workers = Array.from(
      { length: jobs },
      () => new Worker(entry, { argv: [JOB_WORKER_ARG], workerData: { a2aEvidenceJobs: { request } } }),
    );
  }

  /**
   * One pass over the inputs; `onResult` is called in input order, one at a time. An input goes to
   * the worker of its `slot` (default its index): a worker keeps the bytes of an input that is not
   * a regular file (a pipe reads once), so every pass must hand each input to the same worker.
   */
  run(
    inputs: readonly { path: string; source: string; slot?: number }[],
    pass: Job["pass"],
    findings: readonly (CrossInputFindings | undefined)[] | undefined,
    onResult: (k: number, done: Done) => Promise<void>,
  ): Promise<void> {
    // A worker that stopped between two passes is seen here (its exit came while no pass ran).
    if (this.stopped !== undefined) return Promise.reject(new Error(this.stopped));
    return new Promise<void>((resolve, reject) => {
      const results = new Map<number, Done>();
      let next = 0;
      let emitted = 0;
      let flushing = Promise.resolve();
      const dispatch = () => {
        while (next < inputs.length && next - emitted < this.workers.length * IN_FLIGHT_PER_WORKER) {
          const input = inputs[next] as { path: string; source: string; slot?: number };
          const f = findings?.[next];
          (this.workers[(input.slot ?? next) % this.workers.length] as Worker).postMessage({
            k: next,
            path: input.path,
            source: input.source,
            pass,
            ...(f ? { findings: f } : {}),
          });
          next++;
        }
        if (emitted === inputs.length) resolve();
      };
      const flush = async () => {
        while (results.has(emitted)) {
          const d = results.get(emitted) as Done;
          results.delete(emitted);
          await onResult(emitted, d);
          emitted++;
        }
        dispatch();
      };
      for (const w of this.workers) {
        w.removeAllListeners("message").removeAllListeners("error").removeAllListeners("exit");
        w.on("message", (d: Done) => {
          results.set(d.k, d);
          flushing = flushing.then(flush, reject);
        });
        w.on("error", reject);
        // A worker that ends without an error leaves its inputs unanswered: waited for, the run
        // would simply end, and a process with nothing left to do exits 0.
        w.on("exit", (code) => {
          this.stopped = `a worker thread stopped (exit code ${code}) before its inputs were verified`;
          reject(new Error(this.stopped));
        });
      }
      dispatch();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
