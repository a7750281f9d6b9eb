import { ProducerError } from "../../producer/errors.js";

/** The ProducerError code `f` throws, or a description of what happened instead. */
export function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return e instanceof ProducerError ? e.code : `not a ProducerError: ${String(e)}`;
  }
  return "no error";
}
