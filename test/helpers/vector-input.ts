/**
 * A vector folder's input as verify() takes it: input.json as it is, or a stream (input.sse,
 * input.ndjson) folded first into the capture it observed (its first Task and its final Task).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { foldStream, streamCapture } from "../../src/input/stream.js";
import type { InputData } from "../../src/verify.js";

/** The input file of a vector folder: input.json, input.sse or input.ndjson. */
export function vectorInputFile(dir: string): string {
  return ["input.sse", "input.ndjson"].find((f) => existsSync(join(dir, f))) ?? "input.json";
}

export function vectorInput(dir: string): InputData {
  const file = vectorInputFile(dir);
  if (file === "input.json") return readFileSync(join(dir, file));
  const folded = foldStream(readFileSync(join(dir, file)));
  if (!folded.ok || folded.value.kind !== "task") throw new Error(`${dir}/${file}: ${JSON.stringify(folded)}`);
  return streamCapture(folded.value);
}
