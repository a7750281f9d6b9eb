/**
 * What decoding a binary input noted: the message it was read as and the unknown fields outside
 * committed content (contract §3.1). The notes travel with the decoded value under a symbol key
 * (a JSON parse cannot make one), so that a binary file given beside the inputs (--first-task,
 * --interim) has them listed in the report as a binary input's own are; a JSON file carries none.
 */

const NOTED: unique symbol = Symbol("a2a-evidence binary decoding notes");

/** `value` carrying what its binary decoding noted, when it noted anything. */
export function withBinaryNotes<T extends object>(value: T, notes: readonly string[]): T {
  return notes.length === 0 ? value : Object.assign(value, { [NOTED]: notes });
}

/** What decoding a binary input noted; nothing for an input that was not binary. */
export function binaryNotesIn(value: unknown): readonly string[] {
  if (typeof value !== "object" || value === null) return [];
  return (value as { [NOTED]?: readonly string[] })[NOTED] ?? [];
}
