/**
 * The exact bytes of one member's value inside a JSON document that already passed the strict
 * parser (so it is well-formed and has no duplicate member names). A capture built from these
 * spans hands the verifier the server's own bytes — number lexemes, escapes, member order —
 * instead of a re-serialization that would quietly normalise them.
 */

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

function skipWs(b: Uint8Array, i: number): number {
  while (i < b.length && WS.has(b[i] as number)) i++;
  return i;
}

/** Index just past the string that starts at `i` (a `"`). UTF-8 continuation bytes are never `"` or `\`. */
function skipString(b: Uint8Array, i: number): number {
  i++;
  while (i < b.length) {
    const c = b[i] as number;
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return i;
}

/** Index just past the value that starts at `i`. */
function skipValue(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === 0x22) return skipString(b, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    while (i < b.length) {
      const d = b[i] as number;
      if (d === 0x22) {
        i = skipString(b, i);
        continue;
      }
      if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  while (i < b.length && !WS.has(b[i] as number) && b[i] !== 0x2c && b[i] !== 0x7d && b[i] !== 0x5d) i++;
  return i;
}

/** The value span of `name` in the object that starts at `start`, or undefined when it has no such member. */
function memberSpan(b: Uint8Array, start: number, name: string): { start: number; end: number } | undefined {
  let i = skipWs(b, start);
  if (b[i] !== 0x7b) return undefined;
  i = skipWs(b, i + 1);
  while (i < b.length && b[i] === 0x22) {
    const keyEnd = skipString(b, i);
    const key = JSON.parse(new TextDecoder().decode(b.subarray(i, keyEnd))) as string;
    i = skipWs(b, keyEnd);
    i = skipWs(b, i + 1); // past ':'
    const valueEnd = skipValue(b, i);
    if (key === name) return { start: i, end: valueEnd };
    i = skipWs(b, valueEnd);
    if (b[i] !== 0x2c) return undefined;
    i = skipWs(b, i + 1);
  }
  return undefined;
}

/** The exact bytes at a path of member names (`["result", "task"]`), or undefined. */
export function valueBytesAt(doc: Uint8Array, path: readonly string[]): Uint8Array | undefined {
  // The strict parser accepts a leading UTF-8 byte order mark; so does this.
  const bom = doc[0] === 0xef && doc[1] === 0xbb && doc[2] === 0xbf ? 3 : 0;
  let span = { start: bom, end: doc.length };
  for (const name of path) {
    const next = memberSpan(doc, span.start, name);
    if (!next) return undefined;
    span = next;
  }
  return doc.subarray(skipWs(doc, span.start), span.end);
}
