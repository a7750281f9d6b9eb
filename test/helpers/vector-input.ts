/** A vector folder's input as verify() takes it: the bytes of input.json, input.sse or input.ndjson (verify() folds streams). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { InputData } from "../../src/verify.js";

/** The input file of a vector folder: input.json, input.sse, input.ndjson, input.binpb or input.grpc. */
export function vectorInputFile(dir: string): string {
  return (
    ["input.sse", "input.ndjson", "input.binpb", "input.grpc"].find((f) => existsSync(join(dir, f))) ?? "input.json"
  );
}

export function vectorInput(dir: string): InputData {
  return readFileSync(join(dir, vectorInputFile(dir)));
}
