/**
 * Input text (receipt claims, artifact names, error messages, file names) is an attacker's, and
 * reports are printed to terminals: control characters (C0, DEL, C1, so also tab and line feed),
 * line and paragraph separators and bidirectional overrides, isolates and marks are written as
 * \uXXXX, so a claim cannot move the cursor, recolour the report or break into a forged line that
 * reads as a verdict. A field of a report line (`printableField`) also has every space after the
 * second of a run so written, so it cannot pad itself to wrap into one either.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same class, to ask first: most text has nothing to escape, and a test allocates nothing. */
const ANY_UNPRINTABLE = new RegExp(UNPRINTABLE.source);

export function printable(s: string): string {
  return ANY_UNPRINTABLE.test(s) ? s.replace(UNPRINTABLE, escapeChar) : s;
}

/**
 * One field of input text inside a report line: printable, and no run of more than two spaces
 * (`escapeSpaceRuns`). Not for whole lines, whose indentation and columns are the report's own.
 */
export function printableField(s: string): string {
  return escapeSpaceRuns(printable(s));
}

function escapeChar(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Three or more spaces in a row (any Unicode space separator), the run a report uses to align columns. */
const SPACE_RUN = /\p{Zs}{3,}/gu;

/**
 * Input text never carries a run of more than two spaces (contract §9.34): a detail padded with
 * spaces could otherwise wrap, or line up, to look like a line of its own ("  ✔ x  PASS"). Every
 * space after the second of a run is written as \uXXXX.
 */
export function escapeSpaceRuns(s: string): string {
  // In ASCII text the only space separator is U+0020: without three of them in a row, no run.
  if (!s.includes("   ") && !NON_ASCII.test(s)) return s;
  return s.replace(SPACE_RUN, (run) => run.slice(0, 2) + [...run.slice(2)].map(escapeChar).join(""));
}

const NON_ASCII = /[^\u0000-\u007f]/;

/** In JSON text, only inside strings (JSON.stringify already escapes C0 there; structure is ASCII). */
const UNPRINTABLE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same safety for serialized JSON: the escapes parse back to the very same strings. */
export function printableJson(json: string): string {
  return json.replace(UNPRINTABLE_IN_JSON, escapeChar);
}

/**
 * Text that starts a line of a report: a printable field, and a leading `::` (after any spaces)
 * written as `\u003a:`. GitHub Actions reads a workflow command (`::add-mask::…`) from any line
 * of a step's output that starts so, whatever the format; an input's name starting a line must
 * not be one.
 */
export function printableLineStart(s: string): string {
  return printableField(s).replace(/^(\s*)::/, "$1\\u003a:");
}
