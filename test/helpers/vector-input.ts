/** A vector folder's input as verify() takes it: the bytes of input.json, input.sse or input.ndjson (verify() folds streams). */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { InputData } from "../../src/verify.js";
import { REPO_ROOT } from "./external.js";

/** The shipped vectors' folder. */
export const SHIPPED_VECTORS = join(REPO_ROOT, "vectors");

/** The shipped vectors' names (each folder with an expected.json), sorted. */
export function shippedVectorNames(): string[] {
  return readdirSync(SHIPPED_VECTORS)
    .filter((n) => existsSync(join(SHIPPED_VECTORS, n, "expected.json")))
    .sort();
}

/** The input file of a vector folder: input.json, input.sse, input.ndjson, input.binpb or input.grpc. */
export function vectorInputFile(dir: string): string {
  return (
    ["input.sse", "input.ndjson", "input.binpb", "input.grpc"].find((f) => existsSync(join(dir, f))) ?? "input.json"
  );
}

export function vectorInput(dir: string): InputData {
  return readFileSync(join(dir, vectorInputFile(dir)));
}

/** A shipped vector's input as verify() lists it, its source named `<vector>/<input file>`. */
export function namedVectorInput(name: string): { source: string; data: InputData } {
  const dir = join(SHIPPED_VECTORS, name);
  return { source: `${name}/${vectorInputFile(dir)}`, data: vectorInput(dir) };
}

/**
 * What a vector's `args.json` adds to verify(): the shipped vectors use it to name the first Task
 * (`--first-task`, a file in the folder) and the caller's time (`--at`); any other argument is
 * refused here, so a vector that needs more is not verified without it.
 */
export function vectorExtra(dir: string): { firstTask?: InputData; at?: string } {
  const path = join(dir, "args.json");
  if (!existsSync(path)) return {};
  const args = JSON.parse(readFileSync(path, "utf8")) as unknown;
  if (!Array.isArray(args) || args.length % 2 !== 0) throw new Error(`${path}: not a list of options with values`);
  const out: { firstTask?: InputData; at?: string } = {};
  for (let i = 0; i < args.length; i += 2) {
    const [name, value] = [args[i], args[i + 1]];
    if (typeof value !== "string") throw new Error(`${path}: ${String(name)} has no value`);
    if (name === "--first-task" && out.firstTask === undefined) out.firstTask = readFileSync(join(dir, value));
    else if (name === "--at" && out.at === undefined) out.at = value;
    else throw new Error(`${path}: only --first-task <file> and --at <time>, once each, are read by the tests`);
  }
  return out;
}
