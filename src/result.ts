/**
 * Total functions in this project return a Result instead of throwing on bad input: a verifier
 * that throws at the first malformed byte cannot report the other, independent properties.
 */
import type { FailureCode } from "./codes/index.js";

export interface Ok<T> {
  readonly ok: true;
  readonly value: T;
}

export interface Failure {
  readonly ok: false;
  readonly code: FailureCode;
  readonly detail: string;
  /** JSON path (or byte offset description) of the fault, when there is one. */
  readonly path?: string;
}

export type Result<T> = Ok<T> | Failure;

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

export function fail(code: FailureCode, detail: string, path?: string): Failure {
  return path === undefined ? { ok: false, code, detail } : { ok: false, code, detail, path };
}
