// When a warm-up is over: once the code V8 holds stops growing, its optimizing compiler has done
// what the calls being warmed up give it to do. Kept apart from inprocess.mjs to be tested.

/** Batches in a row that must each grow the code by at most `QUIET_BYTES`. */
export const QUIET_BATCHES = 5;
export const QUIET_BYTES = 1024;

/**
 * Runs `batch` until `codeBytes()` has grown by at most `QUIET_BYTES` after each of the last
 * `QUIET_BATCHES` batches, and at least `min`, at most `max` batches. Returns how many ran, and
 * whether the code had settled (false when `max` ended it first).
 */
export function warmUp(batch, codeBytes, min, max) {
  let batches = 0;
  let quiet = 0;
  let code = codeBytes();
  while (batches < max && (batches < min || quiet < QUIET_BATCHES)) {
    batch();
    batches++;
    const now = codeBytes();
    quiet = now - code <= QUIET_BYTES ? quiet + 1 : 0;
    code = now;
  }
  return { batches, settled: quiet >= QUIET_BATCHES };
}
