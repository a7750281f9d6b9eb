/**
 * Input text (receipt claims, artifact names, error messages, file names) is an attacker's, and
 * reports are printed to terminals: control characters (C0, DEL, C1), line and paragraph
 * separators and bidirectional overrides, isolates and marks are written as \uXXXX, so a claim
 * cannot move the cursor, recolour the report or make a forged line read as a verdict.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function printable(s: string): string {
  return s.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** In JSON text, only inside strings (JSON.stringify already escapes C0 there; structure is ASCII). */
const UNPRINTABLE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same safety for serialized JSON: the escapes parse back to the very same strings. */
export function printableJson(json: string): string {
  return json.replace(UNPRINTABLE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Text that starts a line of a report: made printable, and a leading `::` (after any spaces)
 * written as `\u003a:`. GitHub Actions reads a workflow command (`::add-mask::…`) from any line
 * of a step's output that starts so, whatever the format; an input's name starting a line must
 * not be one.
 */
export function printableLineStart(s: string): string {
  return printable(s).replace(/^(\s*)::/, "$1\\u003a:");
}
