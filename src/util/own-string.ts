/**
 * A copy of `s` that shares no storage with any other string. A string read out of a larger one
 * (a member name the JSON parser sliced from an input's text) can keep that whole text alive:
 * what a module keeps beyond one input (a memo of names) keeps copies, so it holds only the
 * names themselves. Exact for every string, lone surrogates included (JSON escapes them).
 */
export function ownString(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}
