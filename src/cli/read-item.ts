/**
 * One input as the run takes it: its bytes, or why they could not be read. Kept apart from the
 * worker pool (./jobs.ts), so a run without workers never loads node:worker_threads.
 */
import type { InputItem } from "../run.js";
import { readInput } from "./read.js";

export async function readItem(path: string, source: string): Promise<InputItem> {
  const r = await readInput(path);
  return r.ok ? { source, data: r.bytes } : { source, readError: r.reason };
}
